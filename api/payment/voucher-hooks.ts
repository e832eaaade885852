// The batch-settlement scheme's verify step with this server's own voucher check in it (docs/design.md §13). Every
// voucher the server would keep (a voucher payment, the voucher inside a deposit, a cooperative refund's) is
// checked as the escrow will check it (./voucher-check.ts) before the scheme reserves the channel or a facilitator
// is asked anything; a channel set aside or whose payer asked the escrow to withdraw takes no more. A voucher the
// scheme would check locally (its channel's on-chain state fresh, a payer authorizer) is then accepted here on the
// same terms as the package's local check, without its second, slower signature check and channel-id hashing;
// everything else (the corrective 402, the facilitator's verify, the reservation, the record, the receipt) stays
// the package's. Hooks are read when the scheme is registered, so these are installed on a new scheme.
import type { PaymentRequirements, VerifyResponse } from '@x402/core/types';
import {
  isBatchSettlementDepositPayload,
  isBatchSettlementRefundPayload,
  isBatchSettlementVoucherPayload,
} from '@x402/evm';
import type { BatchSettlementEvmScheme, Channel } from '@x402/evm/batch-settlement/server';
import { errorLine } from './error-line.ts';
import { randomBytes } from 'node:crypto';
import { zeroAddress } from 'viem';
import type { SetAsideStore } from './set-aside.ts';
import { WITHDRAW_DELAY_S } from './settings.ts';
import { type ChannelTerms, type SignedVoucher, type VoucherCheck, EXCEEDS_BALANCE } from './voucher-check.ts';

/** This server's reasons, beside the scheme's, for a channel that takes no more vouchers. */
const CHANNEL_SET_ASIDE = 'channel_set_aside';
const CHANNEL_WITHDRAWING = 'channel_withdrawal_pending';
const STATE_UNAVAILABLE = 'invalid_batch_settlement_evm_verification_state_unavailable';
const BELOW_CLAIMED = 'invalid_batch_settlement_evm_cumulative_below_claimed';

type Hooks = BatchSettlementEvmScheme['schemeHooks'];
type VerifyContext = Parameters<NonNullable<Hooks['onBeforeVerify']>>[0];
type ChannelPayment = { channelConfig: ChannelTerms; voucher: SignedVoucher };
const abort = (reason: string, message: string) => ({ abort: true as const, reason, message });
const withdrawing = abort(
  CHANNEL_WITHDRAWING,
  "The payer asked the escrow to withdraw this channel's deposit: it takes no more vouchers; open a new channel",
);

/**
 * Puts the project's voucher check into `scheme`'s verify step; `setAside`: the channels that take no more vouchers.
 */
export function ownVoucherCheck(scheme: BatchSettlementEvmScheme, check: VoucherCheck, setAside: SetAsideStore): void {
  const hooks = scheme.schemeHooks;
  const packageBefore = hooks.onBeforeVerify!;
  const packageAfter = hooks.onAfterVerify!;
  const storage = scheme.getStorage();

  hooks.onBeforeVerify = async (ctx) => {
    const raw = ctx.paymentPayload.payload;
    const isVoucher = isBatchSettlementVoucherPayload(raw);
    if (!isVoucher && !isBatchSettlementDepositPayload(raw) && !isBatchSettlementRefundPayload(raw))
      return packageBefore(ctx);
    const { channelConfig, voucher } = raw as unknown as ChannelPayment;
    // A hook that throws is only logged by the resource server, which then goes on without it: nothing here may throw.
    let channel: Channel | undefined;
    try {
      const problem = check.problem(channelConfig, voucher);
      if (problem) return abort(problem, 'The voucher is not in the form the escrow accepts for this channel');
      if (await setAside.get(voucher.channelId))
        return abort(
          CHANNEL_SET_ASIDE,
          'This channel is set aside: its vouchers could not be claimed; open a new channel',
        );
      channel = await storage.get(voucher.channelId);
    } catch (e) {
      console.error(`x402: channel state unavailable while checking a voucher: ${errorLine(e)}`);
      return abort(STATE_UNAVAILABLE, 'Unable to establish channel verification state');
    }
    // A withdrawal as last read on chain; once that read is stale the scheme reads the chain again (the facilitator's
    // verify), where a withdrawal finalized or undone no longer stops the channel.
    if (channel && channel.withdrawRequestedAt > 0 && isFresh(scheme, channel) && !isBatchSettlementRefundPayload(raw))
      return withdrawing;
    if (
      isVoucher &&
      channel &&
      isLocal(scheme, channel, channelConfig) &&
      BigInt(voucher.maxClaimableAmount) === BigInt(channel.chargedCumulativeAmount) + BigInt(ctx.requirements.amount)
    )
      return acceptLocally(scheme, ctx, channelConfig, voucher, channel);
    return packageBefore(ctx);
  };

  // A facilitator's verify reads the channel on chain: a withdrawal it reports stops the channel here, before the
  // scheme reserves it, and is kept in the channel's record so the next voucher is refused without asking.
  hooks.onAfterVerify = async (ctx) => {
    const raw = ctx.paymentPayload.payload;
    const requestedAt = Number(ctx.result.extra?.withdrawRequestedAt ?? 0);
    if (
      ctx.result.isValid &&
      requestedAt > 0 &&
      (isBatchSettlementVoucherPayload(raw) || isBatchSettlementDepositPayload(raw))
    ) {
      try {
        const now = Date.now();
        await storage.updateChannel(raw.voucher.channelId, (current) =>
          current ? { ...current, withdrawRequestedAt: requestedAt, onchainSyncedAt: now } : current,
        );
      } catch (e) {
        console.error(`x402: channel state unavailable while recording a withdrawal: ${errorLine(e)}`);
        return abort(STATE_UNAVAILABLE, 'Unable to establish channel verification state');
      }
      return withdrawing;
    }
    return packageAfter(ctx);
  };
}

/** The channel's on-chain state was read within the scheme's refresh (its onchainStateTtlMs). */
const isFresh = (scheme: BatchSettlementEvmScheme, channel: Channel) =>
  channel.onchainSyncedAt !== undefined && Date.now() - channel.onchainSyncedAt <= scheme.getOnchainStateTtlMs();

/**
 * The package checks a voucher itself (no facilitator) when the channel's on-chain state is fresh and it has a payer
 * authorizer.
 */
const isLocal = (scheme: BatchSettlementEvmScheme, channel: Channel, config: ChannelTerms) =>
  config.payerAuthorizer.toLowerCase() !== zeroAddress && isFresh(scheme, channel);

/**
 * The package's local voucher check (its verifyVoucherLocally) on a voucher whose signature and channel id were just
 * checked: the channel's terms against the offer, the amount against the deposit and what is claimed; the request
 * context the scheme's later steps read.
 */
function acceptLocally(
  scheme: BatchSettlementEvmScheme,
  ctx: VerifyContext,
  config: ChannelTerms,
  voucher: SignedVoucher,
  channel: Channel,
) {
  const payer = config.payer;
  scheme.mergeRequestContext(ctx.paymentPayload, {
    channelId: voucher.channelId,
    pendingId: `0x${randomBytes(32).toString('hex')}`,
    channelSnapshot: channel,
  });
  const invalid = (invalidReason: string): { skip: true; result: VerifyResponse } => ({
    skip: true,
    result: { isValid: false, invalidReason, payer },
  });
  const termsProblem = channelTermsProblem(config, ctx.requirements);
  if (termsProblem) return invalid(termsProblem);
  const amount = BigInt(voucher.maxClaimableAmount);
  if (amount > BigInt(channel.balance)) return invalid(EXCEEDS_BALANCE);
  if (amount <= BigInt(channel.totalClaimed)) return invalid(BELOW_CLAIMED);
  scheme.mergeRequestContext(ctx.paymentPayload, { localVerify: true });
  return {
    skip: true as const,
    result: {
      isValid: true,
      payer,
      extra: {
        channelId: voucher.channelId,
        balance: channel.balance,
        totalClaimed: channel.totalClaimed,
        withdrawRequestedAt: channel.withdrawRequestedAt,
        refundNonce: channel.refundNonce.toString(),
      },
    },
  };
}

/**
 * The package's validateChannelConfig, less the channel id (./voucher-check.ts has checked it): the terms this server
 * offers.
 */
function channelTermsProblem(config: ChannelTerms, requirements: PaymentRequirements): string | undefined {
  const same = (a: unknown, b: unknown) =>
    typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
  const extra = requirements.extra ?? {};
  if (!same(config.receiver, requirements.payTo)) return 'invalid_batch_settlement_evm_receiver_mismatch';
  if (
    !extra.receiverAuthorizer ||
    same(extra.receiverAuthorizer, zeroAddress) ||
    !same(config.receiverAuthorizer, extra.receiverAuthorizer)
  )
    return 'invalid_batch_settlement_evm_receiver_authorizer_mismatch';
  if (!same(config.token, requirements.asset)) return 'invalid_batch_settlement_evm_token_mismatch';
  if (extra.withdrawDelay !== undefined && config.withdrawDelay !== Number(extra.withdrawDelay))
    return 'invalid_batch_settlement_evm_withdraw_delay_mismatch';
  if (config.withdrawDelay < WITHDRAW_DELAY_S.min || config.withdrawDelay > WITHDRAW_DELAY_S.max)
    return 'invalid_batch_settlement_evm_withdraw_delay_out_of_range';
  return undefined;
}
