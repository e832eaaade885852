// The bridge benchmark's rounds, one call at a time, in an order that rotates round by round so machine noise hits
// every target alike: a voucher-paid call through the bridge, the same call through the gate-off bridge, and for
// context the same two over direct HTTP MCP (no bridge; the voucher signed beforehand by the bridge's wallet in this
// process) and the gate-off one through the server's SDK path instead of its fast path; and in this process, the
// bridge's own code for the paid call and its gate-off twin with a remote answering at once (./bridge-steps.ts).
// Each call is timed from the client's callTool to its resolution; every answer is checked (a wrong one stops the
// run): the figures the gate-off server gives, and on a paid one a successful receipt for one price with no chain
// transaction (a voucher), on a gate-off one no receipt at all.
import type { Client } from '@modelcontextprotocol/client';
import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import { PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { ARGS, N, PRICE, TOOL, VOUCHER_NOTE, WARMUP } from './bridge-config.ts';
import type { BridgeResult } from './bridge-report.ts';
import type { CallResult, DirectPayer, McpClient, Servers, Wire } from './bridge-rig.ts';
import type { InProcess } from './bridge-steps.ts';
import { cpuMs } from './run.ts';
import { mean, median, p99 } from './stats.ts';
import { PAYMENT_META, RECEIPT_META } from '../bridge/tool-calls.mjs';

interface Target {
  label: string;
  bridgePid: number | null;
  serverPid: number | undefined;
  run(): Promise<number>;
}

export interface Targets {
  bridgePaid: McpClient;
  bridgeOff: McpClient;
  directPaid: McpClient;
  directOff: McpClient;
  payer: DirectPayer;
  wire: Wire;
  inProcess: InProcess;
}

/** A paid call's receipt. */
export const receiptOf = (r: CallResult) => r._meta?.[RECEIPT_META] as SettleResponse | undefined;

/** The answer every call must give: the gate-off server's, read once over direct HTTP. */
export async function referenceOf(directOff: Client): Promise<{ content: string; structured: string; bytes: number }> {
  const r = (await directOff.callTool({ name: TOOL, arguments: ARGS })) as CallResult;
  if (r.isError || !r.structuredContent) throw new Error(`the gate-off server answered ${TOOL} with an error: ${JSON.stringify(r).slice(0, 300)}`);
  return { content: JSON.stringify(r.content), structured: JSON.stringify(r.structuredContent), bytes: Buffer.byteLength(JSON.stringify(r)) };
}

type Reference = Awaited<ReturnType<typeof referenceOf>>;

/** Checks an answer: the reference figures; paid, a voucher's receipt for one price (through the bridge, its note after them); else no receipt. */
function check(what: string, r: CallResult, ref: Reference, paid: boolean, viaBridge: boolean): void {
  const content = r.content as { type: string; text?: string }[];
  const figures = viaBridge && paid ? content.slice(0, -1) : content;
  if (r.isError || JSON.stringify(r.structuredContent) !== ref.structured || JSON.stringify(figures) !== ref.content)
    throw new Error(`${what}: not the gate-off server's answer: ${JSON.stringify(r).slice(0, 300)}`);
  const receipt = receiptOf(r);
  if (!paid) {
    if (r._meta && RECEIPT_META in r._meta) throw new Error(`${what}: a gate-off answer carries a receipt ${JSON.stringify(receipt)}`);
    return;
  }
  if (receipt?.success !== true || receipt.transaction !== '' || receipt.extra?.chargedAmount !== String(PRICE))
    throw new Error(`${what}: not a voucher's receipt for ${PRICE}: ${JSON.stringify(receipt)}`);
  if (viaBridge && !VOUCHER_NOTE.test(content.at(-1)?.text ?? '')) throw new Error(`${what}: the bridge's note reads ${JSON.stringify(content.at(-1))}`);
}

/** A payment whose extensions are its payment id alone. */
const idOnly = (payment: PaymentPayload): PaymentPayload => ({ ...payment, extensions: { [PAYMENT_IDENTIFIER]: payment.extensions?.[PAYMENT_IDENTIFIER] } });

/** A call's `_meta` the server's MCP fast path does not take (api/mcp/fast.ts): the SDK answers the call. */
const SDK_PATH = { 'bench/sdk-path': true };

const timedCall = async (client: Client, meta?: Record<string, unknown>) => {
  const t = performance.now();
  const r = (await client.callTool({ name: TOOL, arguments: ARGS, ...(meta ? { _meta: meta } : {}) })) as CallResult;
  return { r, ms: performance.now() - t };
};

function targetsOf(servers: Servers, t: Targets, ref: Reference): Target[] {
  const on = servers.on.child.pid;
  const off = servers.off.child.pid;
  let n = 0;
  const via = (client: McpClient, label: string, serverPid: number | undefined, paid: boolean): Target => ({
    label,
    bridgePid: client.pid,
    serverPid,
    async run() {
      const { r, ms } = await timedCall(client.client);
      check(`${label}, call ${++n}`, r, ref, paid, true);
      return ms;
    },
  });
  const directPaid: Target = {
    label: 'direct HTTP MCP (no bridge), voucher-paid, signed beforehand',
    bridgePid: null,
    serverPid: on,
    async run() {
      const payment: PaymentPayload = await t.payer.sign();
      const { r, ms } = await timedCall(t.directPaid.client, { [PAYMENT_META]: payment });
      check(`direct voucher-paid, call ${++n}`, r, ref, true, false);
      await t.payer.settled(payment, receiptOf(r)!);
      return ms;
    },
  };
  // The same, the payment echoing only the payment id of the declared extensions, not Bazaar's discovery info
  // (x402 checks an echo against what was declared, and asks none): what the echo costs the request and the server.
  const directPaidIdOnly: Target = {
    label: 'direct HTTP MCP (no bridge), voucher-paid, payment id echoed only',
    bridgePid: null,
    serverPid: on,
    async run() {
      const payment = idOnly(await t.payer.sign());
      const { r, ms } = await timedCall(t.directPaid.client, { [PAYMENT_META]: payment });
      check(`direct voucher-paid, payment id only, call ${++n}`, r, ref, true, false);
      await t.payer.settled(payment, receiptOf(r)!);
      return ms;
    },
  };
  const directOff: Target = {
    label: 'direct HTTP MCP (no bridge), gate off',
    bridgePid: null,
    serverPid: off,
    async run() {
      const { r, ms } = await timedCall(t.directOff.client);
      check(`direct gate off, call ${++n}`, r, ref, false, false);
      return ms;
    },
  };
  // The gate-off server's MCP fast path answers a repeated call from kept bytes; a `_meta` it does not take (anything
  // but the request's envelope) sends the same call to the SDK's path, as a paid call goes: the server's two paths apart.
  const directSdk: Target = {
    label: "direct HTTP MCP (no bridge), gate off, the SDK's path",
    bridgePid: null,
    serverPid: off,
    async run() {
      const { r, ms } = await timedCall(t.directOff.client, SDK_PATH);
      check(`direct gate off through the SDK's path, call ${++n}`, r, ref, false, false);
      return ms;
    },
  };
  const inProcess = (label: string, run: () => Promise<number>): Target => ({ label, bridgePid: null, serverPid: undefined, run });
  return [
    via(t.bridgePaid, 'bridge (stdio), voucher-paid', on, true),
    via(t.bridgeOff, 'bridge (stdio), gate off', off, false),
    directPaid,
    directOff,
    directSdk,
    inProcess("in process: the bridge's paid call, instant remote", t.inProcess.paid),
    inProcess("in process: the bridge's gate-off call, instant remote", t.inProcess.off),
    directPaidIdOnly,
  ];
}

/**
 * The paid bridge's first call: the terms, then a deposit with the first voucher (its receipt names the deposit's
 * transaction); not timed. Returns the deposit's transaction.
 */
export async function openBridgeChannel(bridgePaid: McpClient, ref: Reference): Promise<string> {
  const r = (await bridgePaid.client.callTool({ name: TOOL, arguments: ARGS })) as CallResult;
  const receipt = receiptOf(r);
  const note = (r.content as { text?: string }[]).at(-1)?.text ?? '';
  if (r.isError || JSON.stringify(r.structuredContent) !== ref.structured || receipt?.success !== true || !/^0x[0-9a-f]{64}$/i.test(receipt.transaction) || !/ a deposit of \d+\.\d+ USD/.test(note))
    throw new Error(`the paid bridge's first call did not open its channel: ${JSON.stringify(r).slice(0, 400)} ${bridgePaid.stderr()}`);
  return receipt.transaction;
}

/** WARMUP rounds, then N timed rounds of every target; no deposit, chain transaction or facilitator call may happen while timing. */
export async function rounds(servers: Servers, t: Targets, ref: Reference): Promise<BridgeResult['rows']> {
  const targets = targetsOf(servers, t, ref);
  const times = new Map<Target, number[]>(targets.map((x) => [x, []]));
  const bridgeCpu = new Map<Target, (number | null)[]>(targets.map((x) => [x, []]));
  const serverCpu = new Map<Target, (number | null)[]>(targets.map((x) => [x, []]));
  const cpuDiff = (before: number | null, after: number | null) => (before === null || after === null ? null : after - before);
  let height = '';
  let facilitator = 0;
  for (let r = 0; r < WARMUP + N; r++) {
    if (r === WARMUP) [height, facilitator] = [await servers.chain.rpc<string>('eth_blockNumber'), servers.facilitatorCalls()];
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(r + k) % targets.length];
      const [b0, s0] = [target.bridgePid === null ? null : cpuMs(target.bridgePid), cpuMs(target.serverPid)];
      const ms = await target.run();
      const [b1, s1] = [target.bridgePid === null ? null : cpuMs(target.bridgePid), cpuMs(target.serverPid)];
      if (r < WARMUP) continue;
      times.get(target)!.push(ms);
      bridgeCpu.get(target)!.push(cpuDiff(b0, b1));
      serverCpu.get(target)!.push(cpuDiff(s0, s1));
    }
  }
  const [heightAfter, facilitatorAfter] = [await servers.chain.rpc<string>('eth_blockNumber'), servers.facilitatorCalls()];
  if (heightAfter !== height || facilitatorAfter !== facilitator)
    throw new Error(`while timing, the chain went from block ${height} to ${heightAfter} and the facilitator was called ${facilitatorAfter - facilitator} time(s): not vouchers alone`);
  const meanOrNull = (xs: (number | null)[]) => (xs.length && xs.every((x) => x !== null) ? mean(xs as number[]) : null);
  return targets.map((x) => {
    const xs = times.get(x)!;
    return { label: x.label, n: xs.length, median: median(xs), p99: p99(xs), mean: mean(xs), bridgeCpuMs: x.bridgePid === null ? null : meanOrNull(bridgeCpu.get(x)!), serverCpuMs: meanOrNull(serverCpu.get(x)!) };
  });
}

/**
 * The bytes of one tools/call request and its answer over HTTP, paid (with its voucher) and gate off, as the direct
 * clients send them; and those two answers, which the in-process steps give back as their remote's (./bridge-steps.ts).
 */
export async function wireSizes(t: Pick<Targets, 'directPaid' | 'directOff' | 'payer' | 'wire'>, ref: Reference): Promise<{ bytes: BridgeResult['bytes']; recorded: { paid: CallResult; off: CallResult } }> {
  t.wire.recording = true;
  try {
    const payment = await t.payer.sign();
    const paid = (await timedCall(t.directPaid.client, { [PAYMENT_META]: payment })).r;
    check('the recorded paid call', paid, ref, true, false);
    await t.payer.settled(payment, receiptOf(paid)!);
    const [paidRequest, paidAnswer] = [t.wire.requests.at(-1)!, t.wire.responses.at(-1)!];
    const off = (await timedCall(t.directOff.client)).r;
    check('the recorded gate-off call', off, ref, false, false);
    const [offRequest, offAnswer] = [t.wire.requests.at(-1)!, t.wire.responses.at(-1)!];
    const bytes = {
      paidRequest: Buffer.byteLength(paidRequest),
      offRequest: Buffer.byteLength(offRequest),
      payment: Buffer.byteLength(JSON.stringify(payment)),
      paymentParts: Object.fromEntries(Object.entries(payment).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v))])),
      extensions: Object.fromEntries(Object.entries(payment.extensions ?? {}).map(([k, v]) => [k, Buffer.byteLength(JSON.stringify(v))])),
      paidAnswer: Buffer.byteLength(paidAnswer),
      offAnswer: Buffer.byteLength(offAnswer),
    };
    return { bytes, recorded: { paid, off } };
  } finally {
    t.wire.recording = false;
  }
}
