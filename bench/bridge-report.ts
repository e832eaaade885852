// What the bridge benchmark (bench/bridge.ts) prints, the results it writes to BENCH_JSON, and its section of
// docs/benchmarks.md with its goal line (bench/all.ts writes them). Every paid call signs its voucher in the call; the
// goal is measured on one tool call, the same call repeated, paid against gate off; the two tools of
// different prices alternating are measured and reported beside it.
import { GOAL_MS, SUMMARY } from './bridge-config.ts';

/** One row of the rounds: calls of one kind, ms. */
export interface Row {
  /** What the report finds it by (bench/bridge-rounds.ts's rowLabels). */
  key: string;
  label: string;
  n: number;
  median: number;
  p99: number;
  mean: number;
  /**
   * The bridge's and the answering server's CPU time per call (user + system, /proc, a mean in 10 ms ticks); null where
   * there is no bridge, or off Linux.
   */
  bridgeCpuMs: number | null;
  serverCpuMs: number | null;
}

/** Calls in a row: per call median, p99 and mean, and the whole run, ms. */
interface InARow {
  median: number;
  p99: number;
  mean: number;
  totalMs: number;
}

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface BridgeResult {
  /** The priced tool calls: the first is the one repeated; all of them alternate. */
  tools: { tool: string; args: Record<string, unknown>; priceUsd: string }[];
  /** Calls timed in each row (after `warmup` rounds). */
  calls: number;
  warmup: number;
  /** The rounds' rows (bench/bridge-rounds.ts's rowLabels, in that order). */
  rows: Row[];
  /**
   * Bytes over HTTP of one tools/call and its answer, paid and gate off; `payment` the x402 payment in the paid call's
   * _meta.
   */
  bytes: {
    paidRequest: number;
    offRequest: number;
    payment: number;
    /**
     * The payment's members (x402Version, payload, accepted, resource, extensions), and its extensions, each as JSON
     * bytes.
     */
    paymentParts: Record<string, number>;
    extensions: Record<string, number>;
    paidAnswer: number;
    offAnswer: number;
  };
  /**
   * The in-process steps (bench/bridge-steps.ts, in its order): elapsed median and mean, and this process's CPU per run
   * (mean), in ms.
   */
  steps: { step: string; n: number; median: number; mean: number; cpuMean: number }[];
  /** The same tool's paid calls in a row through the paid bridge, then as many gate off: not a goal. */
  backToBack: { tool: string; calls: number; paid: InARow; off: InARow };
  /** The deposit that opened the repeating paid bridge's channel (its first call, not timed). */
  depositTransaction: string;
  /**
   * The goal, signing included: through the bridge, the voucher-paid call − the same call gate off (medians of
   * the call repeated) ≤ `bound` ms: `diff`. `calls`: that call, then each tool of the two alternating (reported).
   */
  goal: {
    diff: number;
    bound: number;
    met: boolean;
    calls: GoalCall[];
  };
}

/**
 * One of the goal's measurements: a tool's voucher-paid and gate-off medians through the bridge, repeated or
 * alternating.
 */
interface GoalCall {
  tool: string;
  how: 'repeated' | 'alternating';
  paid: number;
  off: number;
  diff: number;
}

const ms = (x: number, digits = 2) => x.toFixed(digits);
const signed = (x: number, digits = 2) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(digits)}`;
const cpu = (x: number | null) => (x === null ? '-' : ms(x));
const sizes = (parts: Record<string, number>) =>
  Object.entries(parts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

/** A row by its key. */
function rowOf(rows: Row[], key: string): Row {
  const row = rows.find((r) => r.key === key);
  if (!row) throw new Error(`the bridge results have no row ${key}`);
  return row;
}

/** A step by its number ('1', '3a'). */
function stepOf(b: BridgeResult, n: string): BridgeResult['steps'][number] {
  const step = b.steps.find((s) => s.step.trim().startsWith(`${n}. `));
  if (!step) throw new Error(`the bridge results have no step ${n}`);
  return step;
}

/** A goal measurement in words: "get_summary repeated", "compare_states alternating". */
const said = (c: GoalCall) => `${c.tool} ${c.how}`;

export function goalOf(rows: Row[]): BridgeResult['goal'] {
  const [paid, off] = [rowOf(rows, 'bridgePaid'), rowOf(rows, 'bridgeOff')];
  const repeated: GoalCall = {
    tool: SUMMARY.tool,
    how: 'repeated',
    paid: paid.median,
    off: off.median,
    diff: paid.median - off.median,
  };
  const alternating = rows
    .filter((r) => r.key.startsWith('bridgePaidAlt:'))
    .map((r): GoalCall => {
      const tool = r.key.slice('bridgePaidAlt:'.length);
      const off = rowOf(rows, `bridgeOffAlt:${tool}`).median;
      return { tool, how: 'alternating', paid: r.median, off, diff: r.median - off };
    });
  const calls = [repeated, ...alternating];
  return { diff: repeated.diff, bound: GOAL_MS, met: repeated.diff <= GOAL_MS, calls };
}

/**
 * Where paid − gate off through the bridge goes, medians' differences, in three columns: the repeated tool, then the
 * two tools alternating. The server's paid path is measured over direct HTTP for the repeated tool; for the other,
 * its SDK path is measured and the payment's own work taken from the repeated tool's.
 */
function parts(b: BridgeResult) {
  const row = (key: string) => rowOf(b.rows, key).median;
  const [tool, other] = [b.tools[0].tool, b.tools[1].tool];
  const payment = row('directPaid') - row('directSdk');
  const sdkPath = row('directSdk') - row('directOff');
  const otherSdkPath = row(`directSdk:${other}`) - row(`directOff:${other}`);
  const column = (bridge: number, sdk: number, own: number, loop: number | null) => ({
    bridge,
    server: sdk + payment,
    sdk,
    payment,
    own,
    loop,
    rest: bridge - sdk - payment - own,
  });
  return {
    tool,
    other,
    columns: [
      column(
        row('bridgePaid') - row('bridgeOff'),
        sdkPath,
        row('ownPaid') - row('ownOff'),
        stepOf(b, '1').median - stepOf(b, '2').median,
      ),
      column(
        row(`bridgePaidAlt:${tool}`) - row(`bridgeOffAlt:${tool}`),
        sdkPath,
        row(`ownAlt:${tool}`) - row('ownOff'),
        null,
      ),
      column(
        row(`bridgePaidAlt:${other}`) - row(`bridgeOffAlt:${other}`),
        otherSdkPath,
        row(`ownAlt:${other}`) - row('ownOff'),
        null,
      ),
    ],
    noise: row('directPaid') - row('directPaidAgain'),
    hop: row('bridgeOff') - row('directOff'),
    sign: stepOf(b, '3'),
    signature: stepOf(b, '3a'),
    bookkeeping: stepOf(b, '4'),
  };
}

/** The lines saying where voucher-paid − gate off through the bridge goes. */
function breakdown(b: BridgeResult): string[] {
  const p = parts(b);
  const cell = (x: number | null, digits = 2) => (x === null ? '-' : signed(x, digits)).padStart(16);
  const line = (what: string, pick: (c: (typeof p.columns)[number]) => number | null, digits = 2) =>
    `  ${what.padEnd(78)}${p.columns.map((c) => cell(pick(c), digits)).join('')}`;
  const cpuOf = (key: string) => cpu(rowOf(b.rows, key).bridgeCpuMs);
  return [
    `where voucher-paid − gate off through the bridge goes (medians of ${b.calls}; ms; every paid call signing ` +
      `its voucher in the call):`,
    `  ${''.padEnd(78)}${[p.tool, p.tool, p.other].map((x) => x.padStart(16)).join('')}`,
    `  ${''.padEnd(78)}${['repeated', 'alternating', 'alternating'].map((x) => x.padStart(16)).join('')}`,
    line('through the bridge', (c) => c.bridge),
    line("the server's paid path over HTTP (direct voucher-paid − direct gate off)", (c) => c.server),
    line("  of which the SDK's path instead of kept bytes (gate off: SDK's path − fast)", (c) => c.sdk),
    line(`  and the payment's own work (direct voucher-paid − SDK's path; ${p.tool}'s)`, (c) => c.payment),
    line("the bridge's paying, signing included (the rest)", (c) => c.bridge - c.server),
    line('  its own code until the answer, in process, instant remote, in the rounds', (c) => c.own),
    line('  the same in a tight loop (steps 1 − 2)', (c) => c.loop, 3),
    line('  the rest (a bigger answer over stdio; the waits)', (c) => c.rest),
    `  the noise of a median here: the same direct voucher-paid call in two rows of the rounds differs ` +
      `by ${signed(p.noise)} ms`,
    `  signing, in every paid call: wallet.sign alone (step 3) ${ms(p.sign.median, 3)} ms, of which the ` +
      `voucher's signature (3a) ${ms(p.signature.median, 3)} ms`,
    `  after the answer, off the call's path unless the next call comes first: the bookkeeping (step ` +
      `4) ${ms(p.bookkeeping.median, 3)} ms; ` +
      `bridge CPU a call: ${p.tool} repeated ${cpuOf('bridgePaid')}, ${p.tool} ` +
      `alternating ${cpuOf(`bridgePaidAlt:${p.tool}`)}, ${p.other} ` +
      `alternating ${cpuOf(`bridgePaidAlt:${p.other}`)}; gate off, ${p.tool} repeated, ${cpuOf('bridgeOff')} ms`,
    `the bridge's own hop, for context (bridge gate off − direct gate off, ${p.tool}): ${signed(p.hop)} ms`,
  ];
}

/** What the calls in a row show, in one sentence with its figures. */
function backToBackText(b: BridgeResult): string {
  const { tool, calls, paid, off } = b.backToBack;
  return (
    `Back to back (not a goal): ${calls} paid calls of \`${tool}\` in a row through the paid bridge, each sent ` +
    `when the last answer came back, ${ms(paid.median)} ms a call (median; mean ${ms(paid.mean)}, ` +
    `p99 ${ms(paid.p99, 1)}, ${ms(paid.totalMs, 0)} ms in all), ` +
    `against ${ms(off.median)} ms (mean ${ms(off.mean)}, p99 ${ms(off.p99, 1)}, ${ms(off.totalMs, 0)} ms in all) ` +
    `for ${calls} in a row through the gate-off bridge: ${signed(paid.median - off.median)} ms a call ` +
    `(median), ${signed(paid.mean - off.mean)} ms (mean). ` +
    `A paid call answers before its bookkeeping but holds the state lock through it, so each paid call sent at ` +
    `once waits for the previous call's bookkeeping (the receipt into the channel file, the spending written) ` +
    `before it signs its own voucher: ` +
    `this is what a client calling without pause pays, which the rounds, with other calls between two calls of a ` +
    `bridge, hide.`
  );
}

/** The rounds' table, the goal's measurements, the calls in a row, the sizes, the steps and where the time goes. */
export function printBridge(b: BridgeResult): void {
  const width = Math.max(...b.rows.map((r) => r.label.length));
  console.log(
    `\n${'call'.padEnd(width)} ${'n'.padStart(4)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(7)} ` +
      `${'mean ms'.padStart(8)} ${'bridge CPU'.padStart(10)} ${'server CPU'.padStart(10)}`,
  );
  for (const r of b.rows)
    console.log(
      `${r.label.padEnd(width)} ${String(r.n).padStart(4)} ${ms(r.median).padStart(10)} ` +
        `${ms(r.p99, 1).padStart(7)} ${ms(r.mean).padStart(8)} ${cpu(r.bridgeCpuMs).padStart(10)} ` +
        `${cpu(r.serverCpuMs).padStart(10)}`,
    );
  console.log(
    "bridge CPU, server CPU: ms of the bridge's and the answering server's own CPU per call (user + system, from " +
      '/proc, a mean in 10 ms ticks). p99 is the nearest rank.',
  );
  const g = b.goal;
  console.log(`\nvoucher-paid − gate off through the bridge, medians of ${b.calls}:`);
  for (const c of g.calls) console.log(`  ${said(c)}: ${ms(c.paid)} against ${ms(c.off)} ms: ${signed(c.diff)} ms`);
  console.log(`\n${backToBackText(b)}`);
  const { bytes } = b;
  console.log(
    `\nsize sent over HTTP (one call, as the SDK client the bridge uses sends it): a paid ` +
      `tools/call ${bytes.paidRequest} bytes (its x402 payment ${bytes.payment} bytes) against ${bytes.offRequest} ` +
      `bytes gate off; ` +
      `the answer ${bytes.paidAnswer} bytes paid (with its receipt) against ${bytes.offAnswer} bytes`,
  );
  console.log(
    `  the payment's members, JSON bytes: ${sizes(bytes.paymentParts)}; its extensions: ${sizes(bytes.extensions)}`,
  );
  console.log(
    `\nstep by step, in this process (no stdio, no socket; median of ${b.steps[0].n} each, interleaved, the lock ` +
      `drained before each; ms elapsed, and this process's CPU a run):`,
  );
  const stepWidth = Math.max(...b.steps.map((s) => s.step.length));
  console.log(`${'step'.padEnd(stepWidth)}  ${'median'.padStart(7)} ${'mean'.padStart(7)} ${'CPU mean'.padStart(8)}`);
  for (const s of b.steps)
    console.log(
      `${s.step.padEnd(stepWidth)}  ${ms(s.median, 3).padStart(7)} ${ms(s.mean, 3).padStart(7)} ` +
        `${ms(s.cpuMean, 3).padStart(8)}`,
    );
  console.log('');
  for (const l of breakdown(b)) console.log(l);
  console.log(`\n${goalLine(b, false)}`);
}

/** The goal line: the call repeated, with the alternating calls given beside it. */
function goalLine(b: BridgeResult, md: boolean): string {
  const g = b.goal;
  const verdict = g.met ? (md ? 'Met' : 'goal MET') : md ? '**Missed**' : 'goal MISSED';
  const [one, ...others] = g.calls;
  const each = others.map((c) => `${said(c)} ${ms(c.paid)} against ${ms(c.off)} ms, ${signed(c.diff)} ms`).join('; ');
  return (
    `${verdict}: a voucher-paid tool call through the bridge (${one.tool}, the same call repeated), its voucher ` +
    `signed in the call, ${signed(g.diff)} ms above the same call through the bridge with the gate off ` +
    `(medians of ${b.calls}: ${ms(one.paid)} against ${ms(one.off)} ms; goal ≤ ${g.bound} ms, signing included). ` +
    `Also measured, two tools of different prices alternating: ${each}.`
  );
}

/** The section of docs/benchmarks.md and its goal line. */
export function bridgeSection(b: BridgeResult): { md: string[]; goals: string[] } {
  const [one, two] = b.tools;
  const call = (t: BridgeResult['tools'][number]) => `\`${t.tool}\` ${JSON.stringify(t.args)} (${t.priceUsd} USD)`;
  const md = [
    '## The MCP bridge (surplus-lines-mcp, stdio)',
    '',
    `\`npm run bench:bridge\` (bench/bridge.ts): bridge/cli.mjs spawned over stdio by the MCP SDK's v2 client, ` +
      `as an MCP client launches it: two bridges forwarding to the built server with the gate on (each paying from ` +
      `its own prepaid channel, opened by its first call's deposit, not timed) and two to the same build with the ` +
      `gate off; each with a state directory of its own, on the same shards and the local chain. A paid call signs ` +
      `its voucher in the call (from the channel's record), returns its answer once the receipt is checked and ` +
      `does its bookkeeping after, holding the state lock: the receipt into the channel file, the spending ` +
      `written. ${b.calls} rounds after ${b.warmup} warm-up, one call at a time, the order rotating: ${call(one)} ` +
      `repeated through one paid bridge and one gate-off bridge; ${call(one)} and ${call(two)} alternating through ` +
      `the other two, each bridge calling them in the same order, twice a round (two prices from one channel); the ` +
      `first's paid − gate off difference is **the goal's measurement** (the issue's: one tool call, median ` +
      `of ${b.calls}), signing included, the alternating ones reported beside it. For context, ${call(one)} over ` +
      `direct HTTP MCP (no bridge; the SDK client the bridge uses upstream, the voucher signed by the bridge's ` +
      `wallet in the benchmark's process before the call is timed) paid, gate off, gate off through the server's ` +
      `SDK path (a \`_meta\` its MCP fast path does not take, as a paid call's), and paid again (the same call ` +
      `twice a round: their difference is the noise of a median), with ${call(two)} gate off both ways too; and in ` +
      `the benchmark's process the bridge's own code (bridge/tool-calls.mjs over its wallet, ledger and state ` +
      `lock) until its answer with a remote answering at once, paid (the same call repeated, and the two prices ` +
      `alternating) and gate off. Each call timed from the client's callTool to its resolution; every answer ` +
      `checked (the gate-off figures; on a paid call a successful receipt for its price with no chain transaction: ` +
      `a voucher; none gate off), and neither the chain nor the facilitator moved while timing. Times in ms; ` +
      `bridge and server CPU are each process's own CPU time per call (from /proc, in 10 ms ticks).`,
    '',
    '| call | n | median | p99 | mean | bridge CPU a call | server CPU a call |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...b.rows.map(
      (r) =>
        `| ${r.label} | ${r.n} | ${ms(r.median)} | ${ms(r.p99, 1)} | ${ms(r.mean)} | ${cpu(r.bridgeCpuMs)} ` +
        `| ${cpu(r.serverCpuMs)} |`,
    ),
    '',
    `Voucher-paid − gate off through the bridge, medians, every paid call signing its voucher in the ` +
      `call: ${b.goal.calls.map((c) => `${signed(c.diff)} ms for \`${c.tool}\` ${c.how}`).join(', ')}.`,
    '',
    backToBackText(b),
    '',
    '```',
    ...breakdown(b),
    '```',
    '',
    `Size sent: a paid tools/call is ${b.bytes.paidRequest} bytes over HTTP against ${b.bytes.offRequest} gate ` +
      `off; its x402 payment is ${b.bytes.payment} bytes (${sizes(b.bytes.paymentParts)}; ` +
      `extensions: ${sizes(b.bytes.extensions)}); its answer ${b.bytes.paidAnswer} bytes ` +
      `against ${b.bytes.offAnswer}.`,
    '',
    `Step by step in process (no stdio, no socket; median of ${b.steps[0].n} each, interleaved, the state lock ` +
      `drained before each): the bridge's own code for the call (bridge/tool-calls.mjs over its wallet, ledger and ` +
      `state lock in a temp directory) with a remote answering at once with recorded answers, until its answer, ` +
      `and its parts timed alone, the bookkeeping after the answer included; the paid call checked to sign one ` +
      `voucher in the call, and the bookkeeping none (the wallet's signatures counted). Elapsed ms, and the ` +
      `process's CPU a run.`,
    '',
    '| step | median | mean | CPU mean |',
    '|---|---:|---:|---:|',
    ...b.steps.map((s) => `| ${s.step.trim()} | ${ms(s.median, 3)} | ${ms(s.mean, 3)} | ${ms(s.cpuMean, 3)} |`),
    '',
  ];
  return { md, goals: [goalLine(b, true)] };
}
