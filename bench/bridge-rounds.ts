// The bridge benchmark's rounds, one call at a time, in an order that rotates round by round so machine noise hits
// every target alike. Through the bridges, every paid call signing its voucher in the call: the same paid call
// repeated against the same call through a gate-off bridge; and, on two bridges of their own, two priced tools of
// different prices alternating (each bridge calling them in the same order): each tool's paid call against its
// gate-off twin. For context the repeated call over direct HTTP MCP (no bridge; the voucher signed by the bridge's
// wallet in this process before the call is timed) paid and gate off, and gate off through the server's SDK path
// instead of its fast path (the other tool's gate off both ways too); in this process, the bridge's own code with a
// remote answering at once (./bridge-steps.ts): paid, the same call repeated and the tools alternating, and gate
// off. Each call is timed from the client's callTool to its resolution; every answer is checked (a wrong one stops
// the run): the figures the gate-off server gives, and on a paid one a successful receipt for its price with no chain
// transaction (a voucher), on a gate-off one no receipt at all.
import type { Client } from '@modelcontextprotocol/client';
import type { SettleResponse } from '@x402/core/types';
import { ALTERNATING, type Call, N, OTHER, SUMMARY, WARMUP, voucherNote } from './bridge-config.ts';
import type { BridgeResult } from './bridge-report.ts';
import type { CallResult, DirectPayer, McpClient, Wire } from './bridge-rig.ts';
import type { ServerPair } from './channels-servers.ts';
import type { InProcess } from './bridge-steps.ts';
import { cpuMs } from './run.ts';
import { mean, median, p99 } from './stats.ts';
import { formatUsd } from '../bridge/usd.mjs';
import { PAYMENT_META, RECEIPT_META } from '../bridge/tool-calls.mjs';

/** One entry of a round: a call, checked; the row it counts in and its ms. */
interface Target {
  bridgePid: number | null;
  serverPid: number | undefined;
  run(): Promise<{ row: string; ms: number }>;
}

export interface Targets {
  bridgePaid: McpClient;
  bridgeOff: McpClient;
  /** The bridges calling ALTERNATING in turn, paid and gate off. */
  bridgePaidAlt: McpClient;
  bridgeOffAlt: McpClient;
  directPaid: McpClient;
  directOff: McpClient;
  payer: DirectPayer;
  wire: Wire;
  inProcess: InProcess;
}

/** The rows the rounds report, in order: the key the report finds each by, and its label. */
function rowLabels(): { key: string; label: string }[] {
  const usd = (c: Call) => `${c.tool} (${formatUsd(c.price)} USD)`;
  return [
    { key: 'bridgePaid', label: `bridge (stdio), voucher-paid, the same call repeated, ${usd(SUMMARY)}` },
    { key: 'bridgeOff', label: `bridge (stdio), gate off, the same call repeated, ${SUMMARY.tool}` },
    ...ALTERNATING.flatMap((c) => [
      { key: `bridgePaidAlt:${c.tool}`, label: `bridge (stdio), voucher-paid, two prices alternating, ${usd(c)}` },
      { key: `bridgeOffAlt:${c.tool}`, label: `bridge (stdio), gate off, two prices alternating, ${c.tool}` },
    ]),
    {
      key: 'directPaid',
      label: `direct HTTP MCP (no bridge), voucher-paid, signed before the timing, ${SUMMARY.tool}`,
    },
    { key: 'directOff', label: `direct HTTP MCP (no bridge), gate off, ${SUMMARY.tool}` },
    { key: 'directSdk', label: `direct HTTP MCP (no bridge), gate off, the SDK's path, ${SUMMARY.tool}` },
    { key: `directOff:${OTHER.tool}`, label: `direct HTTP MCP (no bridge), gate off, ${OTHER.tool}` },
    { key: `directSdk:${OTHER.tool}`, label: `direct HTTP MCP (no bridge), gate off, the SDK's path, ${OTHER.tool}` },
    {
      key: 'directPaidAgain',
      label:
        `direct HTTP MCP (no bridge), voucher-paid, signed before the timing, ${SUMMARY.tool}, again (a noise ` +
        `check)`,
    },
    {
      key: 'ownPaid',
      label:
        `in process: the bridge's paid call until its answer, instant remote, the same call ` +
        `repeated, ${SUMMARY.tool}`,
    },
    ...ALTERNATING.map((c) => ({
      key: `ownAlt:${c.tool}`,
      label: `in process: the bridge's paid call until its answer, instant remote, two prices alternating, ${c.tool}`,
    })),
    { key: 'ownOff', label: `in process: the bridge's gate-off call, instant remote, ${SUMMARY.tool}` },
  ];
}

/** A paid call's receipt. */
const receiptOf = (r: CallResult) => r._meta?.[RECEIPT_META] as SettleResponse | undefined;

/** The answer every call of `call` must give: the gate-off server's, read once over direct HTTP. */
export async function referenceOf(directOff: Client, call: Call): Promise<Reference> {
  const r = (await directOff.callTool({ name: call.tool, arguments: call.args })) as CallResult;
  if (r.isError || !r.structuredContent)
    throw new Error(`the gate-off server answered ${call.tool} with an error: ${JSON.stringify(r).slice(0, 300)}`);
  return {
    content: JSON.stringify(r.content),
    structured: JSON.stringify(r.structuredContent),
    bytes: Buffer.byteLength(JSON.stringify(r)),
  };
}

export interface Reference {
  content: string;
  structured: string;
  bytes: number;
}

/** Each tool's reference answer. */
export type References = Map<string, Reference>;

/**
 * Checks an answer: the reference figures; paid (`paid` the call paid for), a voucher's receipt for its price
 * (through the bridge, its note after the figures); gate off (`paid` null), no receipt.
 */
export function check(what: string, r: CallResult, ref: Reference, paid: Call | null, viaBridge: boolean): void {
  const content = r.content as { type: string; text?: string }[];
  const figures = viaBridge && paid ? content.slice(0, -1) : content;
  if (r.isError || JSON.stringify(r.structuredContent) !== ref.structured || JSON.stringify(figures) !== ref.content)
    throw new Error(`${what}: not the gate-off server's answer: ${JSON.stringify(r).slice(0, 300)}`);
  const receipt = receiptOf(r);
  if (!paid) {
    if (r._meta && RECEIPT_META in r._meta)
      throw new Error(`${what}: a gate-off answer carries a receipt ${JSON.stringify(receipt)}`);
    return;
  }
  if (receipt?.success !== true || receipt.transaction !== '' || receipt.extra?.chargedAmount !== String(paid.price))
    throw new Error(`${what}: not a voucher's receipt for ${paid.price}: ${JSON.stringify(receipt)}`);
  if (viaBridge && !voucherNote(paid.price).test(content.at(-1)?.text ?? ''))
    throw new Error(`${what}: the bridge's note reads ${JSON.stringify(content.at(-1))}`);
}

/** A call's `_meta` the server's MCP fast path does not take (api/mcp/fast.ts): the SDK answers the call. */
const SDK_PATH = { 'bench/sdk-path': true };

/** `call` on `client`, timed from callTool to its resolution. */
export const timedCall = async (client: Client, call: Call, meta?: Record<string, unknown>) => {
  const t = performance.now();
  const r = (await client.callTool({
    name: call.tool,
    arguments: call.args,
    ...(meta ? { _meta: meta } : {}),
  })) as CallResult;
  return { r, ms: performance.now() - t };
};

/**
 * The rounds' entries: the alternating bridges' and the in-process alternating call's twice each, half a round apart.
 */
function targetsOf(servers: ServerPair, t: Targets, refs: References): Target[] {
  const on = servers.on.child.pid;
  const off = servers.off.child.pid;
  const ref = refs.get(SUMMARY.tool)!;
  let n = 0;
  const via = (client: McpClient, row: string, serverPid: number | undefined, paid: boolean): Target => ({
    bridgePid: client.pid,
    serverPid,
    async run() {
      const { r, ms } = await timedCall(client.client, SUMMARY);
      check(`${row}, call ${++n}`, r, ref, paid ? SUMMARY : null, true);
      return { row, ms };
    },
  });
  // Each alternating bridge calls ALTERNATING in turn, both in the same order.
  const alternating = (client: McpClient, row: string, serverPid: number | undefined, paid: boolean): Target => {
    let next = 0;
    return {
      bridgePid: client.pid,
      serverPid,
      async run() {
        const c = ALTERNATING[next++ % ALTERNATING.length];
        const { r, ms } = await timedCall(client.client, c);
        check(`${row} ${c.tool}, call ${++n}`, r, refs.get(c.tool)!, paid ? c : null, true);
        return { row: `${row}:${c.tool}`, ms };
      },
    };
  };
  const paidDirect = (row: string): Target => ({
    bridgePid: null,
    serverPid: on,
    async run() {
      const payment = await t.payer.sign();
      const { r, ms } = await timedCall(t.directPaid.client, SUMMARY, { [PAYMENT_META]: payment });
      check(`${row}, call ${++n}`, r, ref, SUMMARY, false);
      await t.payer.settled(payment, receiptOf(r)!);
      return { row, ms };
    },
  });
  // The gate-off server's MCP fast path answers a repeated call from kept bytes; a `_meta` it does not take (anything
  // but the request's envelope) sends the same call to the SDK's path, as a paid call goes: the server's two paths
  // apart.
  const offDirect = (row: string, c: Call, meta?: Record<string, unknown>): Target => ({
    bridgePid: null,
    serverPid: off,
    async run() {
      const { r, ms } = await timedCall(t.directOff.client, c, meta);
      check(`${row}, call ${++n}`, r, refs.get(c.tool)!, null, false);
      return { row, ms };
    },
  });
  const own = (row: string, run: () => Promise<number>): Target => ({
    bridgePid: null,
    serverPid: undefined,
    run: async () => ({ row, ms: await run() }),
  });
  const ownAlternating: Target = {
    bridgePid: null,
    serverPid: undefined,
    async run() {
      const { tool, ms } = await t.inProcess.alternating();
      return { row: `ownAlt:${tool}`, ms };
    },
  };
  const paidAlt = alternating(t.bridgePaidAlt, 'bridgePaidAlt', on, true);
  const offAlt = alternating(t.bridgeOffAlt, 'bridgeOffAlt', off, false);
  // The direct paid call twice a round: the same call (the bridge's wallet already echoes only the
  // payment id of the server's declared extensions), so the two rows' difference is the noise of a median here.
  return [
    via(t.bridgePaid, 'bridgePaid', on, true),
    paidAlt,
    offAlt,
    paidDirect('directPaid'),
    ownAlternating,
    offDirect('directOff', SUMMARY),
    offDirect(`directOff:${OTHER.tool}`, OTHER),
    own('ownPaid', t.inProcess.paid),
    via(t.bridgeOff, 'bridgeOff', off, false),
    paidAlt,
    offAlt,
    offDirect('directSdk', SUMMARY, SDK_PATH),
    ownAlternating,
    own('ownOff', t.inProcess.off),
    offDirect(`directSdk:${OTHER.tool}`, OTHER, SDK_PATH),
    paidDirect('directPaidAgain'),
  ];
}

/**
 * A paid bridge's first call: the terms, then a deposit with the first voucher (its receipt names the deposit's
 * transaction); not timed. Returns the deposit's transaction.
 */
export async function openBridgeChannel(bridgePaid: McpClient, ref: Reference): Promise<string> {
  const r = (await bridgePaid.client.callTool({ name: SUMMARY.tool, arguments: SUMMARY.args })) as CallResult;
  const receipt = receiptOf(r);
  const note = (r.content as { text?: string }[]).at(-1)?.text ?? '';
  if (
    r.isError ||
    JSON.stringify(r.structuredContent) !== ref.structured ||
    receipt?.success !== true ||
    !/^0x[0-9a-f]{64}$/i.test(receipt.transaction) ||
    !/ a deposit of \d+\.\d+ USD/.test(note)
  )
    throw new Error(
      `the paid bridge's first call did not open its ` +
        `channel: ${JSON.stringify(r).slice(0, 400)} ${bridgePaid.stderr()}`,
    );
  return receipt.transaction;
}

/** The chain's height and the facilitator's calls: neither may move while timing (vouchers only). */
export async function stillness(servers: ServerPair): Promise<() => Promise<void>> {
  const height = await servers.chain.rpc<string>('eth_blockNumber');
  const facilitator = servers.facilitatorCalls();
  return async () => {
    const [heightAfter, facilitatorAfter] = [
      await servers.chain.rpc<string>('eth_blockNumber'),
      servers.facilitatorCalls(),
    ];
    if (heightAfter !== height || facilitatorAfter !== facilitator)
      throw new Error(
        `while timing, the chain went from block ${height} to ${heightAfter} and the facilitator was ` +
          `called ${facilitatorAfter - facilitator} time(s): not vouchers alone`,
      );
  };
}

type Row = BridgeResult['rows'][number];

/**
 * WARMUP rounds, then N timed rounds of every entry; no deposit, chain transaction or facilitator call may happen while
 * timing.
 */
export async function rounds(servers: ServerPair, t: Targets, refs: References): Promise<Row[]> {
  const targets = targetsOf(servers, t, refs);
  const labels = rowLabels();
  const samples = new Map(
    labels.map((l) => [
      l.key,
      { ms: [] as number[], bridgeCpu: [] as (number | null)[], serverCpu: [] as (number | null)[] },
    ]),
  );
  const cpuDiff = (before: number | null, after: number | null) =>
    before === null || after === null ? null : after - before;
  let still: () => Promise<void> = async () => {};
  for (let r = 0; r < WARMUP + N; r++) {
    if (r === WARMUP) still = await stillness(servers);
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(r + k) % targets.length];
      const [b0, s0] = [target.bridgePid === null ? null : cpuMs(target.bridgePid), cpuMs(target.serverPid)];
      const { row, ms } = await target.run();
      const [b1, s1] = [target.bridgePid === null ? null : cpuMs(target.bridgePid), cpuMs(target.serverPid)];
      if (r < WARMUP) continue;
      const s = samples.get(row);
      if (!s) throw new Error(`no row ${row}`);
      s.ms.push(ms);
      s.bridgeCpu.push(target.bridgePid === null ? null : cpuDiff(b0, b1));
      s.serverCpu.push(cpuDiff(s0, s1));
    }
  }
  await still();
  const meanOrNull = (xs: (number | null)[]) => (xs.length && xs.every((x) => x !== null) ? mean(xs) : null);
  return labels.map(({ key, label }) => {
    const s = samples.get(key)!;
    if (s.ms.length !== N) throw new Error(`${label}: ${s.ms.length} calls timed, not ${N}`);
    return {
      key,
      label,
      n: N,
      median: median(s.ms),
      p99: p99(s.ms),
      mean: mean(s.ms),
      bridgeCpuMs: meanOrNull(s.bridgeCpu),
      serverCpuMs: meanOrNull(s.serverCpu),
    };
  });
}

/**
 * The bytes of one tools/call request and its answer over HTTP, paid (with its voucher) and gate off, as the direct
 * clients send them; and those two answers, which the in-process steps give back as their remote's (./bridge-steps.ts).
 */
export async function wireSizes(
  t: Pick<Targets, 'directPaid' | 'directOff' | 'payer' | 'wire'>,
  ref: Reference,
): Promise<{ bytes: BridgeResult['bytes']; recorded: { paid: CallResult; off: CallResult } }> {
  t.wire.recording = true;
  try {
    const payment = await t.payer.sign();
    const paid = (await timedCall(t.directPaid.client, SUMMARY, { [PAYMENT_META]: payment })).r;
    check('the recorded paid call', paid, ref, SUMMARY, false);
    await t.payer.settled(payment, receiptOf(paid)!);
    const [paidRequest, paidAnswer] = [t.wire.requests.at(-1)!, t.wire.responses.at(-1)!];
    const off = (await timedCall(t.directOff.client, SUMMARY)).r;
    check('the recorded gate-off call', off, ref, null, false);
    const [offRequest, offAnswer] = [t.wire.requests.at(-1)!, t.wire.responses.at(-1)!];
    const bytes = {
      paidRequest: Buffer.byteLength(paidRequest),
      offRequest: Buffer.byteLength(offRequest),
      payment: Buffer.byteLength(JSON.stringify(payment)),
      paymentParts: Object.fromEntries(
        Object.entries(payment).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v))]),
      ),
      extensions: Object.fromEntries(
        Object.entries(payment.extensions ?? {}).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v))]),
      ),
      paidAnswer: Buffer.byteLength(paidAnswer),
      offAnswer: Buffer.byteLength(offAnswer),
    };
    return { bytes, recorded: { paid, off } };
  } finally {
    t.wire.recording = false;
  }
}
