// What the bridge benchmark (bench/bridge.ts) prints, the results it writes to BENCH_JSON, and its section of
// docs/benchmarks.md with its goal line (bench/all.ts writes them).
import { GOAL_MS } from './bridge-config.ts';

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface BridgeResult {
  tool: string;
  args: Record<string, unknown>;
  /** Calls timed on each target (after `warmup` rounds). */
  calls: number;
  warmup: number;
  /**
   * One a target, in this order: through the bridge voucher-paid and gate off; direct HTTP voucher-paid, gate off, and
   * gate off through the server's SDK path (a `_meta` its fast path does not take); in process, the bridge's code for
   * the paid call and for the gate-off call with a remote answering at once; direct HTTP voucher-paid again, its payment
   * echoing only the payment id of the declared extensions (not Bazaar's).
   * bridgeCpuMs and serverCpuMs: the bridge's and the answering server's CPU time per call (user + system, /proc, a
   * mean in 10 ms ticks); null where there is no bridge, or off Linux.
   */
  rows: { label: string; n: number; median: number; p99: number; mean: number; bridgeCpuMs: number | null; serverCpuMs: number | null }[];
  /** Bytes over HTTP of one tools/call and its answer, paid and gate off; `payment` the x402 payment in the paid call's _meta. */
  bytes: {
    paidRequest: number;
    offRequest: number;
    payment: number;
    /** The payment's members (x402Version, payload, accepted, resource, extensions), and its extensions, each as JSON bytes. */
    paymentParts: Record<string, number>;
    extensions: Record<string, number>;
    paidAnswer: number;
    offAnswer: number;
  };
  /** The in-process steps: elapsed median and mean, and this process's CPU per run (mean), in ms. */
  steps: { step: string; n: number; median: number; mean: number; cpuMean: number }[];
  /** The deposit that opened the paid bridge's channel (its first call, not timed). */
  depositTransaction: string;
  /** Issue 40's goal: voucher-paid − gate off through the bridge (medians) ≤ `bound` ms. */
  goal: { diff: number; bound: number; met: boolean };
}

const ms = (x: number, digits = 2) => x.toFixed(digits);
const signed = (x: number, digits = 2) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(digits)}`;
const cpu = (x: number | null) => (x === null ? '-' : ms(x));
const sizes = (parts: Record<string, number>) => Object.entries(parts).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';

/** The medians' differences the report is made of. */
function parts(b: BridgeResult) {
  const [bridgePaid, bridgeOff, directPaid, directOff, directSdk, ownPaid, ownOff, directIdOnly] = b.rows;
  const [paidInProcess, offInProcess, sign, signature] = b.steps;
  return {
    bridgePaid,
    bridgeOff,
    directPaid,
    directOff,
    directSdk,
    diff: bridgePaid.median - bridgeOff.median,
    server: directPaid.median - directOff.median,
    sdkPath: directSdk.median - directOff.median,
    bazaarEcho: directPaid.median - directIdOnly.median,
    hop: bridgeOff.median - directOff.median,
    ownInProcess: paidInProcess.median - offInProcess.median,
    ownInRounds: ownPaid.median - ownOff.median,
    sign,
    signature,
  };
}

export function goalOf(rows: BridgeResult['rows']): BridgeResult['goal'] {
  const diff = rows[0].median - rows[1].median;
  return { diff, bound: GOAL_MS, met: diff <= GOAL_MS };
}

/** The rounds' table, the sizes, the steps and the goal line. */
export function printBridge(b: BridgeResult): void {
  const p = parts(b);
  const width = Math.max(...b.rows.map((r) => r.label.length));
  console.log(`\n${'call'.padEnd(width)} ${'n'.padStart(4)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(7)} ${'mean ms'.padStart(8)} ${'bridge CPU'.padStart(10)} ${'server CPU'.padStart(10)}`);
  for (const r of b.rows)
    console.log(`${r.label.padEnd(width)} ${String(r.n).padStart(4)} ${ms(r.median).padStart(10)} ${ms(r.p99, 1).padStart(7)} ${ms(r.mean).padStart(8)} ${cpu(r.bridgeCpuMs).padStart(10)} ${cpu(r.serverCpuMs).padStart(10)}`);
  console.log("bridge CPU, server CPU: ms of the bridge's and the answering server's own CPU per call (user + system, from /proc, a mean in 10 ms ticks). p99 is the nearest rank.");
  const { bytes } = b;
  console.log(
    `\nsize sent over HTTP (one call, as the SDK client the bridge uses sends it): a paid tools/call ${bytes.paidRequest} bytes (its x402 payment ${bytes.payment} bytes) against ${bytes.offRequest} bytes gate off; ` +
      `the answer ${bytes.paidAnswer} bytes paid (with its receipt) against ${bytes.offAnswer} bytes`,
  );
  console.log(`  the payment's members, JSON bytes: ${sizes(bytes.paymentParts)}; its extensions: ${sizes(bytes.extensions)}`);
  console.log(`\nstep by step, in this process (no stdio, no socket; median of ${b.steps[0].n} each, interleaved; ms elapsed, and this process's CPU a run):`);
  const stepWidth = Math.max(...b.steps.map((s) => s.step.length));
  console.log(`${'step'.padEnd(stepWidth)}  ${'median'.padStart(7)} ${'mean'.padStart(7)} ${'CPU mean'.padStart(8)}`);
  for (const s of b.steps) console.log(`${s.step.padEnd(stepWidth)}  ${ms(s.median, 3).padStart(7)} ${ms(s.mean, 3).padStart(7)} ${ms(s.cpuMean, 3).padStart(8)}`);
  console.log(`signing one voucher alone: ${ms(p.signature.mean, 3)} ms elapsed and ${ms(p.signature.cpuMean, 3)} ms CPU (means; median ${ms(p.signature.median, 3)} ms)`);
  console.log(`\nwhere voucher-paid − gate off through the bridge (${signed(p.diff)} ms, medians of ${b.calls}) goes:`);
  console.log(`  the server's paid path over HTTP (direct voucher-paid − direct gate off)            ${signed(p.server).padStart(7)} ms   server CPU ${cpu(p.directPaid.serverCpuMs)} against ${cpu(p.directOff.serverCpuMs)} ms`);
  console.log(`    of which the SDK's path instead of kept bytes (gate off, SDK's path − gate off)   ${signed(p.sdkPath).padStart(7)} ms   server CPU ${cpu(p.directSdk.serverCpuMs)} ms`);
  console.log(`    and the payment's own work (direct voucher-paid − gate off, SDK's path)          ${signed(p.server - p.sdkPath).padStart(7)} ms`);
  console.log(`      of which echoing Bazaar's info (direct voucher-paid − the same, payment id only) ${signed(p.bazaarEcho).padStart(7)} ms`);
  console.log(`  the bridge's paying (the rest)                                                    ${signed(p.diff - p.server).padStart(7)} ms   bridge CPU ${cpu(p.bridgePaid.bridgeCpuMs)} against ${cpu(p.bridgeOff.bridgeCpuMs)} ms`);
  console.log(`    its own code in process, paid − gate off, remote answering at once:`);
  console.log(`      timed in the rounds, between the calls                                        ${signed(p.ownInRounds).padStart(7)} ms`);
  console.log(`      timed in a tight loop (the steps above)                                       ${signed(p.ownInProcess).padStart(7)} ms   of which wallet.sign (3) ${ms(p.sign.median, 3)} ms`);
  console.log(`    the rest (a bigger answer over stdio; the waits)                                ${signed(p.diff - p.server - p.ownInRounds).padStart(7)} ms`);
  console.log(`the bridge's own hop, for context (bridge gate off − direct gate off): ${signed(p.hop)} ms`);
  console.log(`goal: voucher-paid call through the bridge ≤ ${b.goal.bound} ms above gate off (medians of ${b.calls}, signing included): ${b.goal.met ? 'MET' : 'MISSED'}: ${signed(b.goal.diff)} ms`);
}

/** The section of docs/benchmarks.md and its goal line. */
export function bridgeSection(b: BridgeResult): { md: string[]; goal: string } {
  const p = parts(b);
  const md = [
    '## The MCP bridge (surplus-lines-mcp, stdio)',
    '',
    `\`npm run bench:bridge\` (bench/bridge.ts): bridge/cli.mjs spawned over stdio by the MCP SDK's v2 client, as an MCP client launches it, twice: forwarding to the built server with the gate on (paying from its own prepaid channel, opened by its first call's deposit, not timed) and to the same build with the gate off; each with a state directory of its own, on the same shards and the local chain. ${b.calls} rounds after ${b.warmup} warm-up, one call at a time, the order rotating: \`${b.tool}\` ${JSON.stringify(b.args)} through each bridge; for context, the same over direct HTTP MCP (no bridge; the SDK client the bridge uses upstream, the voucher signed beforehand by the bridge's wallet in the benchmark's process) paid, gate off, gate off through the server's SDK path (a \`_meta\` its MCP fast path does not take, as a paid call's) and paid with a payment echoing only its payment id; and in the benchmark's process the bridge's own code (bridge/tool-calls.mjs over its wallet, ledger and state lock) paid and gate off, with a remote answering at once. Each call timed from the client's callTool to its resolution; every answer checked (the gate-off figures; on a paid call a successful receipt with no chain transaction: a voucher; none gate off), and neither the chain nor the facilitator moved while timing. Times in ms; bridge and server CPU are each process's own CPU time per call (from /proc, in 10 ms ticks).`,
    '',
    '| call | n | median | p99 | mean | bridge CPU a call | server CPU a call |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...b.rows.map((r) => `| ${r.label} | ${r.n} | ${ms(r.median)} | ${ms(r.p99, 1)} | ${ms(r.mean)} | ${cpu(r.bridgeCpuMs)} | ${cpu(r.serverCpuMs)} |`),
    '',
    `Where voucher-paid − gate off through the bridge (${signed(p.diff)} ms) goes, medians' differences:`,
    '',
    `- the server's paid path over HTTP (direct voucher-paid − direct gate off): ${signed(p.server)} ms; of which the SDK's path instead of the fast path's kept bytes ${signed(p.sdkPath)} ms, and the payment's own work ${signed(p.server - p.sdkPath)} ms (echoing Bazaar's discovery info in the payment, against echoing the payment id only: ${signed(p.bazaarEcho)} ms);`,
    `- the bridge's paying (the rest): ${signed(p.diff - p.server)} ms; its own code in process, paid − gate off with a remote answering at once, ${signed(p.ownInRounds)} ms timed in the rounds and ${signed(p.ownInProcess, 3)} ms in a tight loop (below); signing one voucher alone ${ms(p.signature.mean, 3)} ms elapsed and ${ms(p.signature.cpuMean, 3)} ms CPU (means);`,
    `- the bridge's own hop, for context (gate off through the bridge − direct): ${signed(p.hop)} ms.`,
    '',
    `Size sent: a paid tools/call is ${b.bytes.paidRequest} bytes over HTTP against ${b.bytes.offRequest} gate off; its x402 payment is ${b.bytes.payment} bytes (${sizes(b.bytes.paymentParts)}; extensions: ${sizes(b.bytes.extensions)}); its answer ${b.bytes.paidAnswer} bytes against ${b.bytes.offAnswer}.`,
    '',
    `Step by step in process (no stdio, no socket; median of ${b.steps[0].n} each, interleaved): the bridge's own code for the call (bridge/tool-calls.mjs over its wallet, ledger and state lock in a temp directory) with a remote answering at once with recorded answers, and the paid call's parts timed alone. Elapsed ms, and the process's CPU a run.`,
    '',
    '| step | median | mean | CPU mean |',
    '|---|---:|---:|---:|',
    ...b.steps.map((s) => `| ${s.step.trim()} | ${ms(s.median, 3)} | ${ms(s.mean, 3)} | ${ms(s.cpuMean, 3)} |`),
    '',
  ];
  const goal = `${b.goal.met ? 'Met' : '**Missed**'}: a voucher-paid tool call through the bridge ${ms(p.bridgePaid.median)} ms against ${ms(p.bridgeOff.median)} ms for the same call through the bridge with the gate off (median of ${b.calls}, signing included): ${signed(b.goal.diff)} ms (goal ≤ ${b.goal.bound} ms).`;
  return { md, goal };
}
