// Step by step, in this process (no stdio, no socket): the bridge's own code for a tool call, bridge/tool-calls.mjs
// over its wallet, ledger and state lock in a temp state directory, with a remote that answers at once with answers
// recorded from the servers (the terms, a voucher-paid answer with its receipt, the gate-off answer); the paid call
// against the gate-off one, and the paid call's parts timed alone: x402's createPaymentPayload (wallet.sign), the
// voucher's signature in it, the channel id, the receipt taken into the channel file (wallet.settled), and the
// bookkeeping (the state lock, the spending read and written). The paid call and its gate-off twin are also timed in
// the rounds (./bridge-rounds.ts), between the calls over stdio and HTTP: code run between waits is slower on this
// machine than in a tight loop.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { signVoucher } from '@x402/evm/batch-settlement/client';
import { FileClientChannelStorage } from '@x402/evm/batch-settlement/client/file-storage';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ARGS, PRICE, STEP_N, STEP_WARMUP, TOOL, VOUCHER_NOTE } from './bridge-config.ts';
import type { BridgeResult } from './bridge-report.ts';
import type { CallResult, DirectPayer } from './bridge-rig.ts';
import { mean, median } from './stats.ts';
import { ledger as openLedger } from '../bridge/ledger.mjs';
import { parseOptions } from '../bridge/options.mjs';
import { stateLock } from '../bridge/state-lock.mjs';
import { RECEIPT_META, toolCalls } from '../bridge/tool-calls.mjs';
import { createWallet } from '../bridge/wallet.mjs';

/** One step: `run` is timed (elapsed and this process's CPU); `after` is not (checks). */
interface Step {
  label: string;
  run(): Promise<unknown>;
  after?(out: unknown): void;
}

/** Each step's elapsed and CPU times over STEP_N rounds after STEP_WARMUP, one step later first each round. */
async function interleaved(steps: Step[]): Promise<{ elapsed: number[]; cpu: number[] }[]> {
  const times = steps.map(() => ({ elapsed: [] as number[], cpu: [] as number[] }));
  for (let r = 0; r < STEP_WARMUP + STEP_N; r++) {
    for (let k = 0; k < steps.length; k++) {
      const i = (r + k) % steps.length;
      const cpu = process.cpuUsage();
      const t = performance.now();
      const out = await steps[i].run();
      const elapsed = performance.now() - t;
      const used = process.cpuUsage(cpu);
      steps[i].after?.(out);
      if (r >= STEP_WARMUP) times[i].elapsed.push(elapsed), times[i].cpu.push((used.user + used.system) / 1000);
    }
  }
  return times;
}

/** The answers the instant remote gives, recorded from the servers. */
export interface Recorded {
  paid: CallResult;
  off: CallResult;
}

/** The bridge's own code in this process on a fresh payer: its paid call and its gate-off call, and the paid call's parts. */
export interface InProcess {
  /** The bridge's paid call with the remote answering at once, checked; its elapsed ms. */
  paid(): Promise<number>;
  /** The same call with the gate off (the answer forwarded as it is), checked; its elapsed ms. */
  off(): Promise<number>;
  /** Every call and part, interleaved, STEP_N each after STEP_WARMUP; then the channel file checked. */
  stepByStep(): Promise<BridgeResult['steps']>;
}

/**
 * The bridge's code on a fresh payer whose channel file says it holds far more than the run spends (so no deposit is
 * ever signed, and nothing reads the chain): its vouchers go to no server, and only their signing is timed.
 */
export async function inProcess(payer: DirectPayer, recorded: Recorded, url: string, rpcUrl: string, tmp: string): Promise<InProcess> {
  const stateDir = mkdtempSync(join(tmp, 'in-process-state-'));
  const key = generatePrivateKey();
  const options = parseOptions(['--url', url, '--rpc-url', rpcUrl, '--state-dir', stateDir, '--budget-usd', '100000', '--max-deposit-usd', '100000']);
  const wallet = createWallet(options, key);
  const { required, requirement } = payer;
  const channelId = wallet.channelIdOf(requirement);
  await new FileClientChannelStorage({ directory: stateDir }).set(channelId.toLowerCase(), { chargedCumulativeAmount: '0', balance: String(10n ** 12n) });
  const ledger = openLedger(stateDir);
  const lock = stateLock(stateDir);
  const receipt: SettleResponse = { success: true, transaction: '', network: requirement.network, payer: wallet.address, extra: { chargedAmount: String(PRICE) } };
  const paidAnswer: CallResult = { ...recorded.paid, _meta: { ...recorded.paid._meta, [RECEIPT_META]: receipt } };
  const terms: CallResult = { isError: true, content: [{ type: 'text', text: JSON.stringify(required) }], structuredContent: required as never };
  const remote = (answer: (meta: unknown) => CallResult) => ({ url: new URL(url), tools: async () => [], call: async (_n: string, _a: unknown, meta?: unknown) => answer(meta) });
  const paidCalls = toolCalls({ remote: remote((meta) => (meta ? paidAnswer : terms)) as never, wallet, ledger, lock, limits: options });
  const offCalls = toolCalls({ remote: remote(() => recorded.off) as never, wallet, ledger, lock, limits: options });
  const voucherSigner = toClientEvmSigner(privateKeyToAccount(key));
  let payment: PaymentPayload = await wallet.sign(required, requirement, { spent: 0n, left: options.budget });
  let signed = 0;
  /** Charges taken into the channel file: one a paid call, one a settled step. */
  let charges = 0n;
  const checkPaid = (out: unknown) => {
    const r = out as CallResult;
    if (r.isError || (r._meta?.[RECEIPT_META] as SettleResponse | undefined)?.success !== true || !VOUCHER_NOTE.test((r.content as { text?: string }[]).at(-1)?.text ?? ''))
      throw new Error(`the in-process paid call answered ${JSON.stringify(r).slice(0, 300)}`);
    charges++;
  };
  const checkOff = (out: unknown) => {
    if (out !== recorded.off) throw new Error('the in-process gate-off call did not forward the answer as it is');
  };
  const timed = async (run: () => Promise<unknown>, check: (out: unknown) => void) => {
    const t = performance.now();
    const out = await run();
    const elapsed = performance.now() - t;
    check(out);
    return elapsed;
  };

  const steps: Step[] = [
    { label: "1. the bridge's paid call (bridge/tool-calls.mjs's call), the remote answering at once", run: () => paidCalls.call(TOOL, ARGS), after: checkPaid },
    { label: '2. the same call, gate off (no terms: the answer forwarded as it is)', run: () => offCalls.call(TOOL, ARGS), after: checkOff },
    { label: "  3. in 1: wallet.sign, x402's createPaymentPayload (channel file read, channel id, voucher signed)", run: async () => (payment = await wallet.sign(required, requirement, { spent: 0n, left: options.budget })) },
    { label: "    3a. in 3: the voucher's signature, x402's signVoucher (viem signTypedData, the payer's key)", run: () => signVoucher(voucherSigner, channelId, String(PRICE * BigInt(++signed)), requirement.network) },
    { label: '    3b. computeChannelId, once (1 makes 3: in 3, in 4 and itself)', run: async () => wallet.channelIdOf(requirement) },
    { label: "  4. in 1: wallet.settled, the receipt into the channel file (x402's handlePaymentResponse)", run: () => lock.run(() => wallet.settled(payment, receipt)), after: () => charges++ },
    {
      label: '  5. in 1: the state lock taken and released, the spending read twice and written once',
      run: () =>
        lock.run(async () => {
          const s = ledger.read();
          ledger.write({ ...ledger.read(), spent: s.spent });
        }),
    },
  ];
  return {
    paid: () => timed(() => paidCalls.call(TOOL, ARGS), checkPaid),
    off: () => timed(() => offCalls.call(TOOL, ARGS), checkOff),
    async stepByStep() {
      const times = await interleaved(steps);
      await lock.run(async () => {}); // the last paid call's bookkeeping, done after its answer
      // Every charge took one price into the channel file: the vouchers moved on as the bridge's do.
      const charged = (await wallet.channel(channelId))?.charged;
      if (charged !== charges * PRICE) throw new Error(`the in-process channel file says ${charged} charged, not ${charges * PRICE}`);
      return steps.map((s, i) => ({ step: s.label, n: times[i].elapsed.length, median: median(times[i].elapsed), mean: mean(times[i].elapsed), cpuMean: mean(times[i].cpu) }));
    },
  };
}
