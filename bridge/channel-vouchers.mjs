// @ts-check
// The prepaid channel of each offer the bridge pays, and the vouchers it signs on it: the channel's config and id
// derived once per offer (hashing the config costs 0.1 ms), and a voucher payment made from the channel's record as
// the scheme's createPaymentPayload makes one when the balance covers it (the voucher signed with the scheme's own
// signVoucher), without its re-deriving the channel for every call. A deposit is left to the scheme.
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client';
import { BATCH } from './terms.mjs';
import { atomicUnits } from './usd.mjs';

/**
 * @typedef {import('@x402/core/types').PaymentRequired} PaymentRequired
 * @typedef {import('@x402/core/types').PaymentRequirements} PaymentRequirements
 * @typedef {import('@x402/core/types').PaymentPayload} PaymentPayload
 */

/**
 * @param {import('@x402/evm/batch-settlement/client').BatchSettlementEvmScheme} batch the scheme (its channel config)
 * @param {import('./channel-file.mjs').ChannelFile} storage the channels' records
 * @param {import('@x402/evm').ClientEvmSigner} signer the payer (its vouchers' signer)
 */
export function channelVouchers(batch, storage, signer) {
  /** Each offer's channel: its config and id (hashing the config costs 0.1 ms), by the offer as JSON. */
  const channels = new Map();
  /**
   * @param {PaymentRequirements} requirement
   * @returns {{ config: ReturnType<typeof batch.buildChannelConfig>, id: `0x${string}` }}
   */
  const channelOf = (requirement) => {
    const key = JSON.stringify(requirement);
    let channel = channels.get(key);
    if (!channel) {
      const config = batch.buildChannelConfig(requirement);
      channels.set(key, (channel = { config, id: computeChannelId(config, requirement.network) }));
    }
    return channel;
  };
  /** @param {PaymentRequirements} requirement */
  const channelIdOf = (requirement) => channelOf(requirement).id;

  /**
   * A voucher payment, when the channel's balance covers the next voucher: what the scheme's createPaymentPayload
   * makes then (the voucher signed with the scheme's signVoucher over the channel's config), without its re-deriving
   * the channel for every call; null when a deposit is needed (the scheme makes it, under the bridge's strategy).
   * tests/bridge/wallet.test.ts holds it to the official client's payment, byte for byte.
   * @param {PaymentRequired} required
   * @param {PaymentRequirements} requirement
   * @returns {Promise<PaymentPayload | null>}
   */
  const voucherOnly = async (required, requirement) => {
    if (requirement.scheme !== BATCH) return null;
    const { config, id } = channelOf(requirement);
    const record = await storage.get(id);
    if (!record || !record.balance || record.balance === '0') return null;
    const claimable = atomicUnits(record.chargedCumulativeAmount) + atomicUnits(requirement.amount);
    if (claimable > atomicUnits(record.balance)) return null;
    const voucher = await signVoucher(signer, id, claimable.toString(), requirement.network);
    return {
      x402Version: required.x402Version,
      payload: { type: 'voucher', channelConfig: config, voucher },
      extensions: {},
      resource: required.resource,
      accepted: requirement,
    };
  };

  return { channelIdOf, voucherOnly };
}
