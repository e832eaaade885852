// Step by step, in this process (no stdio, no socket): the bridge's own code for a tool call, bridge/tool-calls.mjs
// over its wallet, ledger and state lock in a temp state directory, with a remote that answers at once with answers
// recorded from the servers (each tool's terms, a voucher-paid answer with a receipt for its price, the gate-off
// answer). A paid call signs its voucher in the call and returns its answer before its bookkeeping (the receipt into
// the channel file, the spending written), which it does still holding the state lock; so every paid call here is
// timed until its answer, and the lock is then let drain, untimed, before anything else is timed: the bookkeeping
// is timed as a step of its own. Timed: the paid call (its signing included), the gate-off call, and the parts
// alone: wallet.sign (a voucher from the channel's record), the voucher's signature in it, the channel id, the
// bookkeeping and its parts. The paid calls and the gate-off one are also timed in the rounds (./bridge-rounds.ts),
// between the calls over stdio and HTTP: code run between waits is slower on this machine than in a tight loop.
// Every paid call is checked to have signed one voucher in the call, and the bookkeeping none (the wallet's
// signatures counted).
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client';
import { FileClientChannelStorage } from '@x402/evm/batch-settlement/client/file-storage';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ALTERNATING, type Call, STEP_N, STEP_WARMUP, SUMMARY, bridgeFlags, voucherNote } from './bridge-config.ts';
import type { BridgeResult } from './bridge-report.ts';
import type { CallResult } from './bridge-rig.ts';
import { mean, median } from './stats.ts';
import { ledger as openLedger } from '../bridge/ledger.mjs';
import { parseOptions } from '../bridge/options.mjs';
import { stateLock } from '../bridge/state-lock.mjs';
import { chooseTerms } from '../bridge/terms.mjs';
import { RECEIPT_META, toolCalls } from '../bridge/tool-calls.mjs';
import { createWallet } from '../bridge/wallet.mjs';

/**
 * One step: `run` is timed (elapsed and this process's CPU); `before` and `after` are not (setup, checks, the lock
 * drained).
 */
interface Step {
  label: string;
  before?(): Promise<void>;
  run(): Promise<unknown>;
  after?(out: unknown): Promise<void> | void;
}

/** Each step's elapsed and CPU times over STEP_N rounds after STEP_WARMUP, one step later first each round. */
async function interleaved(steps: Step[]): Promise<{ elapsed: number[]; cpu: number[] }[]> {
  const times = steps.map(() => ({ elapsed: [] as number[], cpu: [] as number[] }));
  for (let r = 0; r < STEP_WARMUP + STEP_N; r++) {
    for (let k = 0; k < steps.length; k++) {
      const i = (r + k) % steps.length;
      await steps[i].before?.();
      const cpu = process.cpuUsage();
      const t = performance.now();
      const out = await steps[i].run();
      const elapsed = performance.now() - t;
      const used = process.cpuUsage(cpu);
      await steps[i].after?.(out);
      if (r >= STEP_WARMUP) {
        times[i].elapsed.push(elapsed);
        times[i].cpu.push((used.user + used.system) / 1000);
      }
    }
  }
  return times;
}

/**
 * The answers the instant remote gives, recorded from the servers: the paid and gate-off answers of SUMMARY, and each
 * alternating tool's terms.
 */
export interface Recorded {
  paid: CallResult;
  off: CallResult;
  terms: Record<string, PaymentRequired>;
}

/**
 * The remotes that answer at once, with the answers recorded from the servers: the paid one answers a call without a
 * payment with the tool's terms, and one with a payment with the paid answer and a receipt for the tool's price; the
 * gate-off one answers every call with the gate-off answer.
 */
function instantRemotes(
  recorded: Recorded,
  url: string,
  network: SettleResponse['network'],
  payer: SettleResponse['payer'],
) {
  const receiptOf = (price: bigint): SettleResponse => ({
    success: true,
    transaction: '',
    network,
    payer,
    extra: { chargedAmount: String(price) },
  });
  const answers = new Map(
    ALTERNATING.map((c) => {
      const required = recorded.terms[c.tool];
      const terms: CallResult = {
        isError: true,
        content: [{ type: 'text', text: JSON.stringify(required) }],
        structuredContent: required,
      };
      return [
        c.tool,
        {
          terms,
          paid: {
            ...recorded.paid,
            _meta: { ...recorded.paid._meta, [RECEIPT_META]: receiptOf(c.price) },
          },
        },
      ];
    }),
  );
  const remote = (answer: (tool: string, meta: unknown) => CallResult) => ({
    url: new URL(url),
    tools: async () => [],
    call: async (tool: string, _a: unknown, meta?: unknown) => answer(tool, meta),
  });
  return {
    receiptOf,
    paidRemote: remote((tool, meta) => (meta ? answers.get(tool)!.paid : answers.get(tool)!.terms)),
    offRemote: remote(() => recorded.off),
  };
}

/**
 * The bridge's code on a fresh payer whose channel file says it holds far more than the run spends (so no deposit is
 * ever signed, and nothing reads the chain): its vouchers go to no server (its remote answers at once). The
 * signings are counted (the wallet's signer: one signature a voucher), and what the channel file and the
 * spending record must end up saying is kept.
 */
async function ownBridge(recorded: Recorded, url: string, rpcUrl: string, tmp: string) {
  const stateDir = mkdtempSync(join(tmp, 'in-process-state-'));
  const key = generatePrivateKey();
  const options = parseOptions(bridgeFlags(url, rpcUrl, stateDir, '100000'));
  const wallet = createWallet(options, key);
  const offerOf = (c: Call) => {
    const required = recorded.terms[c.tool];
    const choice = chooseTerms(required, options, 0n);
    if ('refusal' in choice)
      throw new Error(`the in-process bridge refused ${c.tool}'s terms: ${choice.refusal.message}`);
    return { required, requirement: choice.requirement };
  };
  const offers = new Map(ALTERNATING.map((c) => [c.tool, offerOf(c)]));
  const channelId = wallet.channelIdOf(offers.get(SUMMARY.tool)!.requirement);
  if (ALTERNATING.some((c) => wallet.channelIdOf(offers.get(c.tool)!.requirement) !== channelId))
    throw new Error('the alternating tools are paid from different channels');
  await new FileClientChannelStorage({ directory: stateDir }).set(channelId.toLowerCase(), {
    chargedCumulativeAmount: '0',
    balance: String(10n ** 12n),
  });
  const ledger = openLedger(stateDir);
  const lock = stateLock(stateDir);
  // Every voucher is one signature by the wallet's signer (no deposit is made here).
  const sign = wallet.signer.signTypedData.bind(wallet.signer);
  let signings = 0;
  wallet.signer.signTypedData = (...a: Parameters<typeof sign>) => (signings++, sign(...a));
  const { receiptOf, paidRemote, offRemote } = instantRemotes(
    recorded,
    url,
    offers.get(SUMMARY.tool)!.requirement.network,
    wallet.address,
  );
  const paidCalls = toolCalls({ remote: paidRemote, wallet, ledger, lock, limits: options });
  const offCalls = toolCalls({ remote: offRemote, wallet, ledger, lock, limits: options });
  /** What the channel file (charged) and the spending record (spent) must say. */
  const expect = { charged: 0n, spent: 0n };
  return {
    key,
    options,
    wallet,
    ledger,
    lock,
    offers,
    channelId,
    paidCalls,
    offCalls,
    expect,
    receiptOf,
    signings: () => signings,
    /** The last paid call's bookkeeping, done after its answer: waited for, untimed. */
    drained: () => lock.run(async () => {}),
    /** Checks a paid call's answer (a voucher's receipt for its price, the bridge's note) and counts its charge. */
    checkPaid(c: Call, out: unknown) {
      const r = out as CallResult;
      if (
        r.isError ||
        (r._meta?.[RECEIPT_META] as SettleResponse | undefined)?.success !== true ||
        !voucherNote(c.price).test((r.content as { text?: string }[]).at(-1)?.text ?? '')
      )
        throw new Error(`the in-process paid call of ${c.tool} answered ${JSON.stringify(r).slice(0, 300)}`);
      expect.charged += c.price;
      expect.spent += c.price;
    },
    /** The channel file and the spending record say what was charged (the lock drained first). */
    async checkFiles() {
      await lock.run(async () => {});
      const charged = (await wallet.channel(channelId))?.charged;
      if (charged !== expect.charged)
        throw new Error(`the in-process channel file says ${charged} charged, not ${expect.charged}`);
      const { spent } = ledger.read();
      if (spent !== expect.spent)
        throw new Error(`the in-process spending record says ${spent} spent, not ${expect.spent}`);
    },
  };
}

type OwnBridge = Awaited<ReturnType<typeof ownBridge>>;

/** The bridge's own code in this process: its paid calls and its gate-off call, and the paid call's parts. */
export interface InProcess {
  /** SUMMARY, the same paid call again, signing its voucher in the call; its ms until the answer. */
  paid(): Promise<number>;
  /**
   * The next of ALTERNATING on a bridge of its own, signing its voucher in the call; its tool and ms until the answer.
   */
  alternating(): Promise<{ tool: string; ms: number }>;
  /** The same call with the gate off (the answer forwarded as it is), checked; its elapsed ms. */
  off(): Promise<number>;
  /**
   * Every call and part, interleaved, STEP_N each after STEP_WARMUP; then the channel files and spending records
   * checked.
   */
  stepByStep(): Promise<BridgeResult['steps']>;
}

/**
 * A paid call until its answer, its bookkeeping then drained (untimed); checked, and checked to have signed one voucher
 * in the call.
 */
async function paidCall(own: OwnBridge, c: Call): Promise<number> {
  const before = own.signings();
  const t = performance.now();
  const out = await own.paidCalls.call(c.tool, c.args);
  const ms = performance.now() - t;
  const signed = own.signings() - before;
  own.checkPaid(c, out);
  if (signed !== 1)
    throw new Error(`the in-process paid call of ${c.tool} signed ${signed} voucher(s) in the call, not 1`);
  await own.drained();
  return ms;
}

export async function inProcess(recorded: Recorded, url: string, rpcUrl: string, tmp: string): Promise<InProcess> {
  const own = await ownBridge(recorded, url, rpcUrl, tmp);
  const alt = await ownBridge(recorded, url, rpcUrl, tmp);
  let next = 0;
  return {
    paid: () => paidCall(own, SUMMARY),
    async alternating() {
      const c = ALTERNATING[next++ % ALTERNATING.length];
      return { tool: c.tool, ms: await paidCall(alt, c) };
    },
    async off() {
      const t = performance.now();
      const out = await own.offCalls.call(SUMMARY.tool, SUMMARY.args);
      const ms = performance.now() - t;
      if (out !== recorded.off) throw new Error('the in-process gate-off call did not forward the answer as it is');
      return ms;
    },
    async stepByStep() {
      const steps = await stepsOf(own, recorded);
      const times = await interleaved(steps);
      await own.checkFiles();
      await alt.checkFiles();
      return steps.map((s, i) => ({
        step: s.label,
        n: times[i].elapsed.length,
        median: median(times[i].elapsed),
        mean: mean(times[i].elapsed),
        cpuMean: mean(times[i].cpu),
      }));
    },
  };
}

/**
 * The steps, on `own` (its lock drained before each): the calls, then the parts alone, each labelled with what it
 * holds.
 */
async function stepsOf(own: OwnBridge, recorded: Recorded): Promise<Step[]> {
  const { wallet, ledger, lock, options, channelId, expect } = own;
  const { required, requirement } = own.offers.get(SUMMARY.tool)!;
  const voucherSigner = toClientEvmSigner(privateKeyToAccount(own.key));
  const payment: PaymentPayload = await wallet.sign(required, requirement, options.budget);
  const receipt = own.receiptOf(SUMMARY.price);
  let signed = 0;
  let signings = 0;
  /** Counts the signings in the timed run, and checks them. */
  const signing = (n: number) => ({
    before: async () => void (signings = own.signings()),
    check: () => {
      if (own.signings() - signings !== n)
        throw new Error(`a step signed ${own.signings() - signings} voucher(s), not ${n}`);
    },
  });
  /** The spending as the bookkeeping writes it: read before (in the bridge, before the answer), untimed. */
  let spending = ledger.read();
  const [sign1, sign3, sign4] = [signing(1), signing(1), signing(0)];
  return [
    {
      label:
        `1. the bridge's paid call until its answer, its voucher signed in it (its bookkeeping after, not ` +
        `included; ${SUMMARY.tool})`,
      before: sign1.before,
      run: () => own.paidCalls.call(SUMMARY.tool, SUMMARY.args),
      after: async (out) => (sign1.check(), own.checkPaid(SUMMARY, out), await own.drained()),
    },
    {
      label: '2. the same call, gate off (no terms: the answer forwarded as it is)',
      run: () => own.offCalls.call(SUMMARY.tool, SUMMARY.args),
      after: (out) => {
        if (out !== recorded.off) throw new Error('the in-process gate-off call did not forward the answer as it is');
      },
    },
    {
      label: "  3. in 1: wallet.sign (the channel's record read, the voucher signed: bridge/channel-vouchers.mjs)",
      before: sign3.before,
      run: () => wallet.sign(required, requirement, options.budget),
      after: sign3.check,
    },
    {
      label:
        "    3a. in 3: the voucher's signature, x402's signVoucher through the wallet's signer (native libsecp256k1)",
      run: () => signVoucher(wallet.signer, channelId, String(SUMMARY.price * BigInt(++signed)), requirement.network),
    },
    {
      label: '    3c. for comparison, the same signature by viem (signTypedData in JavaScript)',
      run: () => signVoucher(voucherSigner, channelId, String(SUMMARY.price * BigInt(++signed)), requirement.network),
    },
    {
      label:
        "    3b. x402's computeChannelId, once (the bridge derives it once per offer; the scheme's bookkeeping " +
        'twice after the answer, in 4a)',
      run: async () => computeChannelId(wallet.batch.buildChannelConfig(requirement), requirement.network),
    },
    {
      label:
        "4. after 1's answer, its bookkeeping alone: the state lock taken, wallet.settled, the spending written, " +
        'the lock let go (no voucher signed)',
      before: async () => (await own.drained(), (spending = ledger.read()), await sign4.before()),
      run: () =>
        lock.run(async () => {
          await wallet.settled(payment, receipt);
          ledger.write({ ...spending, spent: spending.spent + SUMMARY.price });
        }),
      after: () => {
        sign4.check();
        expect.charged += SUMMARY.price;
        expect.spent += SUMMARY.price;
      },
    },
    {
      label:
        "  4a. in 4: wallet.settled, the receipt into the channel file (x402's handlePaymentResponse), under the lock",
      run: () => lock.run(() => wallet.settled(payment, receipt)),
      after: () => void (expect.charged += SUMMARY.price),
    },
    {
      label:
        '  4c. in 4: the state lock taken and released, the spending read once (1 does, before the answer) and ' +
        'written once (4 does)',
      run: () => lock.run(async () => ledger.write({ ...ledger.read() })),
    },
  ];
}
