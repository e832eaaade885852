// x402's `batch-settlement` scheme on the paid path (docs/design.md §13): a payer deposits once into x402's escrow and
// pays each later answer with a voucher, a signed cumulative maximum that the scheme checks here (no facilitator or
// chain call) and that the server claims on chain later, many at once (./claims.ts). The order of a paid request:
// the scheme's check, which reserves the channel; the answer computed; no figure: the reservation released and
// nothing charged; else the voucher recorded (durably, ./channel-journal.ts or Redis) and the answer sent with
// its receipt. A deposit is settled by the facilitator in place of the record, and a cooperative refund asks
// for no answer at all.
import { isBatchSettlementDepositPayload, isBatchSettlementVoucherPayload } from '@x402/evm';
import {
  BatchSettlementEvmScheme,
  type BatchSettlementChannelManager,
  type ChannelStorage,
} from '@x402/evm/batch-settlement/server';
import type { x402ResourceServer } from '@x402/core/server';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { errorLine } from './error-line.ts';
import { address, bytes32, hex, whole } from './payload-fields.ts';
import { minDepositAmount, paymentPrice } from './prices.ts';
import type { OfferedPart, PaymentScheme } from './scheme-registry.ts';
import { type SetAsideStore, memorySetAside } from './set-aside.ts';
import type { PaymentSettings } from './settings.ts';
import { type VoucherCheck, voucherCheck } from './voucher-check.ts';
import { ownVoucherCheck } from './voucher-hooks.ts';
import { type PaidStep, type Paid, StoreUnavailable, facilitatorSettle, paidOrRefused, refused } from './scheme.ts';

const BATCH_SCHEME = 'batch-settlement';
/**
 * How long a deposit's signed authorization is good for; the scheme also holds a channel's reservation this long
 * at most, so a request that dies mid-way (its process killed) blocks its channel no longer.
 */
const BATCH_TIMEOUT_S = 60;
/** The scheme's reason when the channel store could not be read or written. */
const STATE_UNAVAILABLE = 'invalid_batch_settlement_evm_verification_state_unavailable';

/** The channel store could not be reached: nothing was charged or answered. */
class ChannelsUnavailable extends StoreUnavailable {
  constructor() {
    super(
      'payment could not be processed: the store of prepaid channels is unavailable; ' +
        'you were not charged and no data was served; retry later',
    );
  }
}

const channelConfigPayload = z.object({
  payer: address,
  payerAuthorizer: address,
  receiver: address,
  receiverAuthorizer: address,
  token: address,
  withdrawDelay: z
    .number()
    .int()
    .min(0)
    .max(2 ** 40 - 1),
  salt: bytes32,
});
const channelPayload = {
  channelConfig: channelConfigPayload,
  voucher: z.object({ channelId: bytes32, maxClaimableAmount: whole, signature: hex }),
};
const erc3009Payload = z.object({
  validAfter: whole,
  validBefore: whole,
  salt: z.string().regex(/^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/),
  signature: hex,
});
const depositPayload = z.object({
  amount: whole,
  authorization: z.object({
    erc3009Authorization: erc3009Payload.optional(),
    permit2Authorization: z.object({}).loose().optional(),
  }),
});
/** What a payer signs: a channel's deposit, voucher or cooperative refund, each with its config and voucher. */
const batchPayload = z.discriminatedUnion('type', [
  z.object({ type: z.literal('voucher'), ...channelPayload }),
  z.object({ type: z.literal('deposit'), ...channelPayload, deposit: depositPayload }),
  z.object({ type: z.literal('refund'), ...channelPayload, amount: whole.optional() }),
]);

export type BatchPart = OfferedPart & {
  server: BatchSettlementEvmScheme;
  setAside: SetAsideStore;
  check: VoucherCheck;
};

/** The scheme's part; loads the native voucher check (./voucher-check.ts), and throws when it cannot. */
export function batchPart(settings: PaymentSettings, storage: ChannelStorage, setAside: SetAsideStore): BatchPart {
  const key = settings.channels.receiverAuthorizerKey;
  const authorizer = key ? privateKeyToAccount(key) : undefined;
  const server = new BatchSettlementEvmScheme(settings.payTo as Hex, {
    storage,
    // The server's own key signs claims and refunds; without one, the facilitator's advertised authorizer does.
    ...(authorizer
      ? {
          receiverAuthorizerSigner: {
            address: authorizer.address,
            signTypedData: (args) => authorizer.signTypedData(args),
          },
        }
      : {}),
    withdrawDelay: settings.channels.withdrawDelayS,
    enforceMinDeposit: true,
  });
  const check = voucherCheck(settings.network);
  ownVoucherCheck(server, check, setAside);
  const terms = { asset: settings.asset, minDepositUsd: settings.channels.minDepositUsd };
  let manager: BatchSettlementChannelManager | undefined;

  return {
    scheme: BATCH_SCHEME,
    server,
    setAside,
    check,
    // A refused voucher's 402 carries the channel state to resynchronise to: the official client recovers by itself.
    correctiveRefusal: true,
    supportProblem: (resourceServer) => batchSupportProblem(resourceServer, server, settings.network),
    channels(facilitator) {
      manager ??= server.createChannelManager(facilitator, settings.network, settings.asset.address as Hex);
      return { manager, storage: server.getStorage(), setAside, check };
    },
    option: (route) => ({
      scheme: BATCH_SCHEME,
      network: settings.network,
      payTo: settings.payTo,
      price: paymentPrice(route.priceUsd!, settings.asset),
      maxTimeoutSeconds: BATCH_TIMEOUT_S,
      // The least a first deposit may be (the route's price when that is more): the scheme announces and enforces it.
      extra: { minDeposit: minDepositAmount(route.priceUsd!, terms) },
    }),

    async pay(step) {
      const { server: resourceServer, payload, matching, declared, transport } = step;
      // The scheme's own check: a voucher locally (signature, channel, balance as last read on chain), a deposit or
      // refund by the facilitator; either way the channel is reserved for this request.
      const verified = await resourceServer.verifyPayment(payload, matching, declared, transport);
      if (!verified.isValid) {
        if (verified.invalidReason === STATE_UNAVAILABLE) throw new ChannelsUnavailable();
        return refused(verified.invalidReason ?? 'invalid_payment');
      }
      if (verified.skipHandler) {
        // A cooperative refund: no answer is asked for; the facilitator returns the channel's rest to the payer.
        const receipt = await facilitatorSettle(step);
        return receipt.success
          ? { kind: 'acknowledged', body: verified.skipHandler.body ?? {}, receipt }
          : refused(receipt.errorReason ?? 'settlement_failed', receipt);
      }
      const release = (reason: 'handler_threw' | 'handler_failed') =>
        resourceServer.createPaymentCancellationDispatcher(payload, matching, declared, transport).cancel({ reason });
      let computed;
      try {
        computed = await step.answer();
      } catch (e) {
        await release('handler_threw');
        throw e;
      }
      // No charge for nothing: the reservation is released and the voucher never recorded.
      if (!computed.hasFigures) {
        await release('handler_failed');
        return { kind: 'answered', answer: computed };
      }
      if (isBatchSettlementVoucherPayload(payload.payload)) return recordVoucher(server, step, computed);
      // A deposit: on chain first (the facilitator), then its voucher recorded by the scheme.
      return paidOrRefused(await facilitatorSettle(step), computed);
    },

    // A retry's voucher, checked as every kept voucher is (./voucher-check.ts), but not reserved or recorded.
    async payerOf({ payload }) {
      const raw = payload.payload;
      if (!isBatchSettlementVoucherPayload(raw) && !isBatchSettlementDepositPayload(raw))
        return { reason: 'invalid_payment' };
      const { channelConfig: config, voucher } = raw;
      const problem = check.problem(config, voucher);
      if (problem) return { reason: problem };
      return { payer: config.payer };
    },
  };
}

/**
 * Records a checked voucher: the scheme adds the price to the channel's charged total and keeps the voucher, in the
 * channel store, before the answer leaves. Called as the scheme's own settle step, directly: through the resource
 * server a store that fails here would be logged and the voucher sent on to the facilitator, which cannot settle it.
 */
async function recordVoucher<A extends { hasFigures: boolean }>(
  scheme: BatchSettlementEvmScheme,
  step: PaidStep<A>,
  computed: A,
): Promise<Paid<A>> {
  const { payload, matching, declared, transport } = step;
  let outcome;
  try {
    outcome = await scheme.schemeHooks.onBeforeSettle!({
      paymentPayload: payload,
      requirements: matching,
      declaredExtensions: declared,
      phase: 'after-handler',
      transportContext: transport,
    });
  } catch (e) {
    console.error(`x402: channel store unavailable while recording a voucher: ${errorLine(e)}`);
    throw new ChannelsUnavailable();
  }
  if (outcome && 'skip' in outcome && outcome.skip)
    return { kind: 'answered', answer: computed, receipt: outcome.result };
  if (outcome && 'abort' in outcome && outcome.abort) return refused(outcome.reason);
  throw new Error('batch-settlement: the scheme neither recorded nor refused a checked voucher');
}

/** Why the facilitator cannot serve channels on `network` (none advertised, no receiver authorizer), or null. */
function batchSupportProblem(
  resourceServer: x402ResourceServer,
  scheme: BatchSettlementEvmScheme,
  network: PaymentSettings['network'],
): string | null {
  const kind = resourceServer.getSupportedKind(2, network, BATCH_SCHEME);
  if (!kind) return `the facilitator does not offer ${BATCH_SCHEME} on ${network}`;
  return scheme.validateFacilitatorSupport(network, kind, []) ?? null;
}

/** What /openapi.json says of prepaid channels, beside the prices' rules. */
const OPENAPI_RULE = [
  '- **Prepaid channels (x402 `batch-settlement`).** Every 402 offers, after `exact`, `batch-settlement` at the same',
  "price, network and asset, when the facilitator serves it: the first payment deposits into x402's escrow contract",
  "(at least the offer's `extra.minDeposit`; its receipt names the deposit transaction and `amount`), and every later",
  'answer is paid by a signed voucher (a cumulative maximum for the channel) that the server checks itself and',
  'records before answering: no chain transaction and no facilitator call, so a paid answer takes milliseconds.',
  "Receipts carry `extra.chargedAmount` and `extra.channelState` (the channel's balance and charged total). The same",
  'rules hold: an answer without a figure releases the voucher uncharged; a replayed or out-of-step voucher gets 402',
  'with the reason `invalid_batch_settlement_evm_cumulative_amount_mismatch` and the channel state to resynchronise',
  'to (the official client recovers by itself); two vouchers at once on one channel: one is answered, the other gets',
  '`invalid_batch_settlement_evm_channel_busy` (retry); a voucher above the deposit gets',
  '`invalid_batch_settlement_evm_cumulative_exceeds_balance` (deposit more). A voucher is accepted only in the form',
  "the escrow accepts when it is claimed (a 65-byte ECDSA signature with low `s` and `v` 27 or 28, by the channel's",
  'payer authorizer, for this chain and escrow); any other gets `invalid_batch_settlement_evm_voucher_signature`, a',
  'deposit carrying one is not settled. A channel whose voucher the escrow refused at claim time is set aside',
  '(`channel_set_aside`), and one whose payer asked the escrow to withdraw takes no more vouchers',
  '(`channel_withdrawal_pending`): open a new channel (another salt). The server claims vouchers on chain in batches',
  '(hourly by default, and when it stops), refunds the rest of a deposit to a channel idle for 30 days, or at once on',
  "the payer's cooperative refund (the official client's `refund`, sent to any priced route: 200 with the refund's",
  "receipt, no data); a payer can always withdraw after the channel's `withdrawDelay`.",
].join(' ');

/**
 * The scheme as the gate offers it (./schemes.ts): with a channel store only, and once the facilitator says it serves
 * it; each route's terms in /openapi.json state a first deposit's least amount.
 */
export const batchScheme: PaymentScheme = {
  name: BATCH_SCHEME,
  payload: batchPayload,
  part: (settings, { channels, setAside }) =>
    channels ? batchPart(settings, channels, setAside ?? memorySetAside()) : null,
  paymentInfo: (priceUsd, terms) => ({ minDeposit: minDepositAmount(priceUsd, terms) }),
  openApiRule: OPENAPI_RULE,
};
