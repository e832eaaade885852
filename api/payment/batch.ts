// x402's `batch-settlement` scheme on the paid path (docs/design.md §13): a payer deposits once into x402's escrow and
// pays each later answer with a voucher, a signed cumulative maximum that the scheme checks here (no facilitator or
// chain call) and that the server claims on chain later, many at once (./claims.ts). The order of a paid request:
// the scheme's check, which reserves the channel; the answer computed; no figure: the reservation released and
// nothing charged; else the voucher recorded (durably, ./channel-journal.ts or Redis) and the answer sent with
// its receipt. A deposit is settled by the facilitator in place of the record, and a cooperative refund asks
// for no answer at all.
import { isBatchSettlementDepositPayload, isBatchSettlementVoucherPayload } from '@x402/evm';
import { BatchSettlementEvmScheme, type ChannelStorage } from '@x402/evm/batch-settlement/server';
import type { x402ResourceServer } from '@x402/core/server';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { errorLine } from './error-line.ts';
import type { SetAsideStore } from './set-aside.ts';
import type { PaymentSettings } from './settings.ts';
import { type VoucherCheck, voucherCheck } from './voucher-check.ts';
import { ownVoucherCheck } from './voucher-hooks.ts';
import { type PaidStep, type Paid, type SchemePart, facilitatorSettle, paidOrRefused, refused } from './scheme.ts';
import { minDepositAmount, paymentPrice } from './prices.ts';

export const BATCH_SCHEME = 'batch-settlement';
/**
 * How long a deposit's signed authorization is good for; the scheme also holds a channel's reservation this long
 * at most, so a request that dies mid-way (its process killed) blocks its channel no longer.
 */
const BATCH_TIMEOUT_S = 60;
/** The scheme's reason when the channel store could not be read or written. */
const STATE_UNAVAILABLE = 'invalid_batch_settlement_evm_verification_state_unavailable';

/** The channel store could not be reached: nothing was charged or answered. */
export class ChannelsUnavailable extends Error {}

export type BatchPart = SchemePart & { server: BatchSettlementEvmScheme; setAside: SetAsideStore; check: VoucherCheck };

/** The scheme's part; loads the native voucher check (./voucher-check.ts), and throws when it cannot. */
export function batchPart(settings: PaymentSettings, storage: ChannelStorage, setAside: SetAsideStore): BatchPart {
  const key = settings.channels.receiverAuthorizerKey;
  const authorizer = key ? privateKeyToAccount(key) : undefined;
  const server = new BatchSettlementEvmScheme(settings.payTo as Hex, {
    storage,
    // The server's own key signs claims and refunds; without one, the facilitator's advertised authorizer does.
    ...(authorizer ? { receiverAuthorizerSigner: { address: authorizer.address, signTypedData: (args) => authorizer.signTypedData(args as never) } } : {}),
    withdrawDelay: settings.channels.withdrawDelayS,
    enforceMinDeposit: true,
  });
  const check = voucherCheck(settings.network);
  ownVoucherCheck(server, check, setAside);
  const terms = { asset: settings.asset, minDepositUsd: settings.channels.minDepositUsd };

  return {
    scheme: BATCH_SCHEME,
    server,
    setAside,
    check,
    option: (route: RouteContract) => ({
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
        return receipt.success ? { kind: 'acknowledged', body: verified.skipHandler.body ?? {}, receipt } : refused(receipt.errorReason ?? 'settlement_failed', receipt);
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
      if (!isBatchSettlementVoucherPayload(raw) && !isBatchSettlementDepositPayload(raw)) return { reason: 'invalid_payment' };
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
async function recordVoucher<A extends { hasFigures: boolean }>(scheme: BatchSettlementEvmScheme, step: PaidStep<A>, computed: A): Promise<Paid<A>> {
  const { payload, matching, declared, transport } = step;
  let outcome;
  try {
    outcome = await scheme.schemeHooks.onBeforeSettle!({ paymentPayload: payload, requirements: matching, declaredExtensions: declared, phase: 'after-handler', transportContext: transport });
  } catch (e) {
    console.error(`x402: channel store unavailable while recording a voucher: ${errorLine(e)}`);
    throw new ChannelsUnavailable();
  }
  if (outcome && 'skip' in outcome && outcome.skip) return { kind: 'answered', answer: computed, receipt: outcome.result };
  if (outcome && 'abort' in outcome && outcome.abort) return refused(outcome.reason);
  throw new Error('batch-settlement: the scheme neither recorded nor refused a checked voucher');
}

/** Why the facilitator cannot serve channels on `network` (none advertised, no receiver authorizer), or null. */
export function batchSupportProblem(resourceServer: x402ResourceServer, part: BatchPart, network: PaymentSettings['network']): string | null {
  const kind = resourceServer.getSupportedKind(2, network, BATCH_SCHEME);
  if (!kind) return `the facilitator does not offer ${BATCH_SCHEME} on ${network}`;
  return part.server.validateFacilitatorSupport(network, kind, []) ?? null;
}
