// @ts-check
// The payer: x402's official client (@x402/core's x402Client) with @x402/evm's `batch-settlement` and `exact` client
// schemes, signing with the payer's key and reading the channel from the chain; the channel's state kept in the
// state directory in the package's own file layout (./channel-file.mjs), so a restart pays from the same channel.
// The client's own spend controls are off: the bridge's limits (./terms.mjs) are checked before this signs anything.
import { x402Client } from '@x402/core/client';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ChannelFile } from './channel-file.mjs';
import { channelVouchers } from './channel-vouchers.mjs';
import { typedDataSigner } from './typed-data-signer.mjs';
import { depositAmount } from './terms.mjs';
import { atomicUnits } from './usd.mjs';

/**
 * @typedef {import('@x402/core/types').PaymentRequired} PaymentRequired
 * @typedef {import('@x402/core/types').PaymentRequirements} PaymentRequirements
 * @typedef {import('@x402/core/types').PaymentPayload} PaymentPayload
 * @typedef {import('@x402/core/types').SettleResponse} SettleResponse
 * @typedef {import('./terms.mjs').Refusal} Refusal
 */

/**
 * What a receipt says the server charged: its `chargedAmount` (a voucher), else the offer's amount (`exact`); never
 * more than the offer's amount, which is all a voucher or a transfer allows.
 * @param {PaymentPayload} payment
 * @param {SettleResponse} receipt
 */
export function chargedBy(payment, receipt) {
  const price = atomicUnits(payment.accepted.amount);
  const said = receipt.extra?.chargedAmount;
  const charged = typeof said === 'string' ? atomicUnits(said) : price;
  return charged < price ? charged : price;
}

/** A deposit the bridge's limits refuse: thrown from the deposit strategy, before anything is signed. */
export class DepositRefused extends Error {
  /** @param {Refusal} refusal */
  constructor(refusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

/**
 * The payment as sent: only the payment-identifier extension echoed, with a fresh id (x402's payment-identifier,
 * where the server declares it: the same payment sent again after a lost answer gets that answer and its receipt,
 * not a second charge). The server's other declarations (its Bazaar discovery, 1.5 KB) are not sent back.
 * @param {PaymentPayload} payment
 * @param {PaymentRequired} required
 * @returns {PaymentPayload}
 */
function withId(payment, required) {
  const declared = required.extensions?.['payment-identifier'];
  const extensions = declared
    ? appendPaymentIdentifierToExtensions({ 'payment-identifier': structuredClone(declared) })
    : {};
  // The voucher names no tool; the payment names this call's.
  return { ...payment, ...(required.resource ? { resource: required.resource } : {}), extensions };
}

/**
 * The scheme's deposit sizing, by the bridge's rule (./terms.mjs): a refusal thrown before anything is signed.
 * @param {bigint} maxDeposit
 * @param {() => bigint} budgetLeft what is left of the budget for the payment being made
 * @returns {import('@x402/evm/batch-settlement/client').BatchSettlementDepositStrategy}
 */
const depositStrategy = (maxDeposit, budgetLeft) => (context) => {
  const charged = atomicUnits(context.clientContext.chargedCumulativeAmount);
  const balance = atomicUnits(context.currentBalance);
  const amount = depositAmount({
    needed: atomicUnits(context.minimumDepositAmount),
    minDeposit: atomicUnits(context.paymentRequirements.extra?.minDeposit),
    unspentInChannel: balance > charged ? balance - charged : 0n,
    budgetLeft: budgetLeft(),
    maxDeposit,
  });
  if (typeof amount !== 'bigint') throw new DepositRefused(amount);
  return amount;
};

/**
 * @param {import('./options.mjs').Options} options
 * @param {`0x${string}`} key
 */
export function createWallet(options, key) {
  const account = privateKeyToAccount(key);
  const reader = createPublicClient({ chain: options.chain, transport: http(options.rpcUrl) });
  const signer = {
    ...toClientEvmSigner(account, /** @type {never} */ (reader)),
    signTypedData: typedDataSigner(account, key),
  };
  const storage = new ChannelFile(options.stateDir);
  /** What is left of the budget for the payment being made (set by `sign`, read by the deposit strategy). */
  let budgetLeft = 0n;
  const batch = new BatchSettlementEvmScheme(signer, {
    storage,
    depositStrategy: depositStrategy(options.maxDeposit, () => budgetLeft),
  });
  const client = new x402Client()
    .register(options.network, batch)
    .register(options.network, new ExactEvmScheme(signer))
    .setSpendControls(false);

  const { channelIdOf, voucherOnly } = channelVouchers(batch, storage, signer);

  /**
   * @param {PaymentRequired} required
   * @param {PaymentRequirements} requirement
   */
  const signed = async (required, requirement) =>
    (await voucherOnly(required, requirement)) ??
    client.createPaymentPayload({ ...required, accepts: [requirement], extensions: {} });

  return {
    address: account.address,
    /** The payer as x402's schemes see it (what signs its vouchers and deposits). */
    signer,
    batch,
    channelIdOf,
    /**
     * A payment of `requirement` (one of `required`'s offers): a voucher from the channel's record, or the scheme's own
     * payment (a deposit with its voucher, or an `exact` transfer).
     * @param {PaymentRequired} required
     * @param {PaymentRequirements} requirement
     * @param {bigint} left what is left of the budget (a deposit's size depends on it)
     * @returns {Promise<PaymentPayload>}
     */
    async sign(required, requirement, left) {
      budgetLeft = left;
      return withId(await signed(required, requirement), required);
    },
    /**
     * Takes a paid call's receipt into the channel's state (the scheme's own bookkeeping).
     * @param {PaymentPayload} payment
     * @param {SettleResponse} receipt
     */
    async settled(payment, receipt) {
      await client.handlePaymentResponse({
        paymentPayload: payment,
        requirements: payment.accepted,
        settleResponse: receipt,
      });
    },
    /**
     * Resynchronises the channel from a corrective refusal (a voucher out of step with the server's record, which
     * the scheme checks against the payer's own signature and the chain); true when it did.
     * @param {PaymentPayload} payment
     * @param {PaymentRequired} refusal
     */
    async recover(payment, refusal) {
      return (
        (
          await client.handlePaymentResponse({
            paymentPayload: payment,
            requirements: payment.accepted,
            paymentRequired: refusal,
          })
        )?.recovered === true
      );
    },
    /**
     * The channel's record as the state directory keeps it (deposited balance, charged total); null when none.
     * @param {string} channelId
     */
    async channel(channelId) {
      const record = await storage.get(channelId);
      return record
        ? { balance: atomicUnits(record.balance), charged: atomicUnits(record.chargedCumulativeAmount) }
        : null;
    },
  };
}

/** @typedef {ReturnType<typeof createWallet>} Wallet */
