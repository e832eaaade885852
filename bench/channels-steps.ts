// Step by step, in process: each part of a voucher's paid path timed alone on the rig (./channels-rig.ts), down to
// the project's voucher check (api/payment/voucher-check.ts); beside it, off the path, what the package's own check
// would cost a voucher (viem's verifyTypedData, computeChannelId); then the whole paid request against the same with
// the gate off.
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { BATCH_SETTLEMENT_ADDRESS, BATCH_SETTLEMENT_DOMAIN, voucherTypes } from '@x402/evm';
import { computeChannelId } from '@x402/evm/batch-settlement/client';
import { type Hex, getAddress, hashTypedData, recoverAddress, verifyTypedData } from 'viem';
import { PRICE, STEP_N, STEP_WARMUP } from './channels-config.ts';
import { chargedOf, expectVoucherPaid, receiptOf, textOf } from './channels-payer.ts';
import type { Rig } from './channels-rig.ts';
import { median } from './stats.ts';
import { dispatch } from '../api/dispatch.ts';
import { installGate } from '../api/payment/configured.ts';
import { isWellFormedPayload } from '../api/payment/payload.ts';
import { voucherCheck } from '../api/payment/voucher-check.ts';
import { NETWORK } from '../tests/support/chain.ts';

/** One step of the in-process table: `run` is timed; `before` and `after` are not (setup, checks, release). */
interface Step {
  label: string;
  run(): unknown;
  before?(): unknown;
  after?(): unknown;
}

/**
 * Each step's times over STEP_N rounds after STEP_WARMUP. Every round runs every step once, starting one step later
 * each round, so that the machine's ups and downs (other processes on its 2 cores) weigh on every step alike.
 */
async function interleaved(steps: Step[]): Promise<number[][]> {
  const times = steps.map(() => [] as number[]);
  for (let r = 0; r < STEP_WARMUP + STEP_N; r++) {
    for (let k = 0; k < steps.length; k++) {
      const i = (r + k) % steps.length;
      const step = steps[i];
      await step.before?.();
      const t = performance.now();
      const out = step.run();
      // A synchronous step is not awaited: an await alone costs a microtask, which is not the step's.
      if (out instanceof Promise) await out;
      const elapsed = performance.now() - t;
      await step.after?.();
      if (r >= STEP_WARMUP) times[i].push(elapsed);
    }
  }
  return times;
}

export interface Steps {
  rows: { step: string; median: number }[];
  /** Step 4, the scheme's check (with the project's voucher check in it), and 4a, the project's voucher check. */
  checkAlone: number;
  voucherCheck: number;
  /**
   * Off the voucher path: what the package's own check spent on a voucher (verifyTypedData, and computeChannelId 3
   * times).
   */
  verifyTypedData: number;
  computeChannelId: number;
  paid: number;
  off: number;
  facilitatorCalls: number;
}

/**
 * A voucher payment's voucher, as the scheme checks it: its EIP-712 typed data and the address that must have signed
 * it.
 */
function voucherOf(payload: PaymentPayload) {
  const raw = payload.payload as {
    channelConfig: Parameters<typeof computeChannelId>[0];
    voucher: { channelId: Hex; maxClaimableAmount: string; signature: Hex };
  };
  const typed = {
    domain: {
      ...BATCH_SETTLEMENT_DOMAIN,
      chainId: Number(NETWORK.split(':')[1]),
      verifyingContract: getAddress(BATCH_SETTLEMENT_ADDRESS),
    },
    types: voucherTypes,
    primaryType: 'Voucher' as const,
    message: { channelId: raw.voucher.channelId, maxClaimableAmount: BigInt(raw.voucher.maxClaimableAmount) },
  };
  return { raw, typed, signer: getAddress(raw.channelConfig.payerAuthorizer) };
}

const assertMatched = (found: PaymentRequirements | undefined) => {
  if (found?.scheme !== 'batch-settlement') throw new Error(`the voucher matched ${found?.scheme ?? 'nothing'}`);
};

/** Counts one more charge on the rig's channel, which `receipt` must show. */
function chargeNext(rig: Rig, receipt: SettleResponse | null, what: string): void {
  rig.charged += PRICE;
  if (receipt?.success !== true || chargedOf(receipt) !== rig.charged)
    throw new Error(`${what}: receipt ${JSON.stringify(receipt)}, expected charged ${rig.charged}`);
}

/** Steps 1 to 4: the check's parts, each on the channel's next voucher. */
function checkSteps(rig: Rig): Step[] {
  const { server, offered, declared, matching, nextHeader } = rig;
  // Built once, as api/payment/batch.ts builds the server's: the channel id is computed once per channel config.
  const check = voucherCheck(NETWORK);
  // What each step works on, set up (untimed) by its `before`.
  let header = '';
  let payload = {} as PaymentPayload;
  let voucher = voucherOf(decodePaymentSignatureHeader(nextHeader()));
  const fresh = () => {
    header = nextHeader();
    payload = decodePaymentSignatureHeader(header);
    voucher = voucherOf(payload);
  };

  return [
    {
      label: '1. header decode (decodePaymentSignatureHeader)',
      before: fresh,
      run: () => decodePaymentSignatureHeader(header),
    },
    {
      label: '2. payload shape check (isWellFormedPayload)',
      before: fresh,
      run: () => {
        if (!isWellFormedPayload(payload)) throw new Error('the voucher is not a well-formed payment');
      },
    },
    {
      label: '3. matching (findMatchingRequirements)',
      before: fresh,
      run: () => assertMatched(server.findMatchingRequirements(offered.accepts, payload)),
    },
    {
      label: '3b. extension check (validateExtensions)',
      before: fresh,
      run: () => {
        if (!server.validateExtensions(offered, payload).valid)
          throw new Error('the voucher failed the extension check');
      },
    },
    {
      // It reserves the channel: released after (untimed), so the same voucher is the next one again.
      label:
        "4. the scheme's check: resourceServer.verifyPayment on a voucher, the project's voucher check in it " +
        '(checked locally, channel reserved)',
      before: fresh,
      run: async () => {
        const verified = await server.verifyPayment(payload, matching, declared);
        if (!verified.isValid) throw new Error(`the scheme's check refused the voucher: ${verified.invalidReason}`);
      },
      after: () =>
        server.createPaymentCancellationDispatcher(payload, matching, declared).cancel({ reason: 'handler_failed' }),
    },
    {
      label:
        "   4a. the project's voucher check: voucherCheck(NETWORK).problem(config, voucher), built once as the " +
        'server builds it',
      before: fresh,
      run: () => {
        const problem = check.problem(voucher.raw.channelConfig, voucher.raw.voucher);
        if (problem !== undefined) throw new Error(`the project's voucher check refused the voucher: ${problem}`);
      },
    },
  ];
}

/**
 * Steps 4c and 4d, off the voucher path: what the package's own check spent on a voucher, each on the channel's next
 * voucher (4b, the rest of step 4, is computed: stepByStep).
 */
function packageCheckSteps(rig: Rig): Step[] {
  // What each step works on, set up (untimed) by its `before`.
  let voucher = {} as ReturnType<typeof voucherOf>;
  let hash: Hex = '0x';
  const fresh = () => {
    voucher = voucherOf(decodePaymentSignatureHeader(rig.nextHeader()));
  };

  return [
    {
      label:
        "   4c. not on the voucher path, the package's check would cost: viem verifyTypedData of the voucher " +
        '(its signature check)',
      before: fresh,
      run: async () => {
        if (
          !(await verifyTypedData({
            address: voucher.signer,
            ...voucher.typed,
            signature: voucher.raw.voucher.signature,
          }))
        )
          throw new Error('verifyTypedData: not the payer');
      },
    },
    {
      label: '      4c.1 of which hashTypedData (the EIP-712 hash)',
      before: fresh,
      run: () => hashTypedData(voucher.typed),
    },
    {
      label: '      4c.2 of which recoverAddress (secp256k1 public key recovery, in JS)',
      before: () => (fresh(), (hash = hashTypedData(voucher.typed))),
      run: () => recoverAddress({ hash, signature: voucher.raw.voucher.signature }),
    },
    {
      label:
        "   4d. not on the voucher path: computeChannelId (one call; the package's check made 3 a voucher, the " +
        "project's makes 1 a channel config)",
      before: fresh,
      run: () => computeChannelId(voucher.raw.channelConfig, NETWORK),
    },
  ];
}

/** Step 5, the record, on the channel's next voucher once checked; step 6 encodes the receipt the record last gave. */
function recordSteps(rig: Rig): Step[] {
  const { server, batch, declared, matching, nextHeader } = rig;
  let payload = {} as PaymentPayload;
  let receipt: SettleResponse | null = null;
  return [
    {
      // The record needs the check's reservation first (untimed).
      label: "5. the record (the scheme's onBeforeSettle, as api/payment/batch.ts recordVoucher calls it)",
      before: async () => {
        payload = decodePaymentSignatureHeader(nextHeader());
        const verified = await server.verifyPayment(payload, matching, declared);
        if (!verified.isValid) throw new Error(`record: the check refused the voucher: ${verified.invalidReason}`);
      },
      run: async () => {
        const outcome = await batch.server.schemeHooks.onBeforeSettle!({
          paymentPayload: payload,
          requirements: matching,
          declaredExtensions: declared,
          phase: 'after-handler',
        } as never);
        receipt = outcome && 'skip' in outcome && outcome.skip ? outcome.result : null;
      },
      after: () => chargeNext(rig, receipt, 'the record'),
    },
    {
      label: '6. receipt header encode (encodePaymentResponseHeader)',
      run: () => encodePaymentResponseHeader(receipt!),
    },
  ];
}

/** Step 7, the whole paid request in process on the channel's next voucher, and step 8, the same with the gate off. */
function requestSteps(rig: Rig): Step[] {
  const { gate, url, reference, nextHeader } = rig;
  let request = new Request(url);
  let response: { status: number; text: string; receipt: SettleResponse | null } | null = null;
  const dispatched = async () => {
    const res = await dispatch(request);
    const text = textOf(res);
    response = { status: res.status, text, receipt: receiptOf(res) };
  };
  return [
    {
      label: '7. whole paid request in process (dispatch, gate on, voucher)',
      before: () => (
        installGate(gate),
        (request = new Request(url, { headers: { 'PAYMENT-SIGNATURE': nextHeader() } }))
      ),
      run: dispatched,
      after: () => {
        expectVoucherPaid(
          'in process, voucher',
          response!.status,
          response!.text,
          response!.receipt,
          rig.charged + PRICE,
          reference,
        );
        chargeNext(rig, response!.receipt, 'in process, voucher');
      },
    },
    {
      label: '8. the same request, gate off (installGate(null))',
      before: () => (installGate(null), (request = new Request(url))),
      run: dispatched,
      after: () => {
        if (response!.status !== 200 || response!.text !== reference)
          throw new Error(`in process, gate off: ${response!.status}, or another body`);
      },
    },
  ];
}

export async function stepByStep(rig: Rig): Promise<Steps> {
  try {
    const steps = [...checkSteps(rig), ...packageCheckSteps(rig), ...recordSteps(rig), ...requestSteps(rig)];
    // The record's receipt must exist before step 6 first runs, whatever the rotation: one record, untimed.
    const record = steps.find((s) => s.label.startsWith('5.'))!;
    await record.before!();
    await record.run();
    await record.after!();
    const times = await interleaved(steps);
    const medians = times.map(median);
    const rows = steps.map((step, i) => ({ step: step.label, median: medians[i] }));
    const indexOf = (prefix: string) => steps.findIndex((s) => s.label.trimStart().startsWith(`${prefix} `));
    const at = (prefix: string) => medians[indexOf(prefix)];
    const [checkAlone, ownCheck, verifyTyped, channelIdTime, paid, off] = [
      at('4.'),
      at('4a.'),
      at('4c.'),
      at('4d.'),
      at('7.'),
      at('8.'),
    ];
    rows.splice(indexOf('4a.') + 1, 0, {
      step: '   4b. the rest of the check (4 − 4a): set-aside and channel reads, terms and balance, reservation, hooks',
      median: checkAlone - ownCheck,
    });
    const ownSteps = ['1.', '2.', '3.', '3b.', '4.', '5.', '6.'].reduce((sum, p) => sum + at(p), 0);
    rows.push(
      { step: "9. the gate's part of a voucher-paid request (7 − 8)", median: paid - off },
      {
        step:
          '10. of which outside steps 1-6 (9 − Σ 1-6): canonical URL, challenge lookup, Response and its headers, ' +
          'awaits',
        median: paid - off - ownSteps,
      },
    );
    return {
      rows,
      checkAlone,
      voucherCheck: ownCheck,
      verifyTypedData: verifyTyped,
      computeChannelId: channelIdTime,
      paid,
      off,
      facilitatorCalls: rig.facilitatorCalls(),
    };
  } finally {
    installGate(undefined);
  }
}
