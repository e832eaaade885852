// @ts-check
// The payer: x402's official client (@x402/core's x402Client) with @x402/evm's `batch-settlement` and `exact` client
// schemes, signing with the payer's key and reading the channel from the chain; the channel's state kept in the
// state directory by the package's own file storage, so a restart pays from the same channel. The client's own
// spend controls are off: the bridge's limits (./terms.mjs) are checked before this signs anything.
import { x402Client } from '@x402/core/client';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme, computeChannelId } from '@x402/evm/batch-settlement/client';
import { FileClientChannelStorage } from '@x402/evm/batch-settlement/client/file-storage';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositAmount } from './terms.mjs';

/**
 * @typedef {import('@x402/core/types').PaymentRequired} PaymentRequired
 * @typedef {import('@x402/core/types').PaymentRequirements} PaymentRequirements
 * @typedef {import('@x402/core/types').PaymentPayload} PaymentPayload
 * @typedef {import('@x402/core/types').SettleResponse} SettleResponse
 * @typedef {import('./terms.mjs').Refusal} Refusal
 */

/** A deposit the bridge's limits refuse: thrown from the deposit strategy, before anything is signed. */
export class DepositRefused extends Error {
  /** @param {Refusal} refusal */
  constructor(refusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

/** @param {unknown} text */
const atomic = (text) => (typeof text === 'string' && /^\d{1,30}$/.test(text) ? BigInt(text) : 0n);

/**
 * @param {import('./options.mjs').Options} options
 * @param {`0x${string}`} key
 */
export function createWallet(options, key) {
  const account = privateKeyToAccount(key);
  const reader = createPublicClient({ chain: options.chain, transport: http(options.rpcUrl) });
  const signer = toClientEvmSigner(account, /** @type {never} */ (reader));
  const storage = new FileClientChannelStorage({ directory: options.stateDir });
  /** What is left of the budget for the payment being made (set by `sign`, read by the deposit strategy). */
  let budgetLeft = 0n;
  const batch = new BatchSettlementEvmScheme(signer, {
    storage,
    depositStrategy: (context) => {
      const charged = atomic(context.clientContext.chargedCumulativeAmount);
      const balance = atomic(context.currentBalance);
      const amount = depositAmount({
        needed: atomic(context.minimumDepositAmount),
        minDeposit: atomic(context.paymentRequirements.extra?.minDeposit),
        unspentInChannel: balance > charged ? balance - charged : 0n,
        budgetLeft,
        maxDeposit: options.maxDeposit,
      });
      if (typeof amount !== 'bigint') throw new DepositRefused(amount);
      return amount;
    },
  });
  const client = new x402Client().register(options.network, batch).register(options.network, new ExactEvmScheme(signer)).setSpendControls(false);

  /** @param {PaymentRequirements} requirement */
  const channelIdOf = (requirement) => computeChannelId(batch.buildChannelConfig(requirement), requirement.network);

  return {
    address: account.address,
    batch,
    channelIdOf,
    /**
     * Signs a payment of `requirement` (one of `required`'s offers): a voucher, or a deposit with its voucher.
     * @param {PaymentRequired} required
     * @param {PaymentRequirements} requirement
     * @param {bigint} left what is left of the budget
     * @returns {Promise<PaymentPayload>}
     */
    sign(required, requirement, left) {
      budgetLeft = left;
      // A payment id where the server declares them (x402's payment-identifier): the same payment sent again after
      // a lost answer gets that answer and its receipt, not a second charge.
      const extensions = appendPaymentIdentifierToExtensions(structuredClone(required.extensions ?? {}));
      return client.createPaymentPayload({ ...required, accepts: [requirement], extensions });
    },
    /**
     * Takes a paid call's receipt into the channel's state; returns what the server charged.
     * @param {PaymentPayload} payment
     * @param {SettleResponse} receipt
     */
    async settled(payment, receipt) {
      await client.handlePaymentResponse({ paymentPayload: payment, requirements: payment.accepted, settleResponse: receipt });
      const charged = receipt.extra?.chargedAmount;
      return typeof charged === 'string' ? atomic(charged) : atomic(payment.accepted.amount);
    },
    /**
     * Resynchronises the channel from a corrective refusal (a voucher out of step with the server's record, which
     * the scheme checks against the payer's own signature and the chain); true when it did.
     * @param {PaymentPayload} payment
     * @param {PaymentRequired} refusal
     */
    async recover(payment, refusal) {
      return (await client.handlePaymentResponse({ paymentPayload: payment, requirements: payment.accepted, paymentRequired: refusal }))?.recovered === true;
    },
    /**
     * The channel's record as the state directory keeps it (deposited balance, charged total); null when none.
     * @param {string} channelId
     */
    async channel(channelId) {
      const record = await storage.get(channelId.toLowerCase());
      return record ? { balance: atomic(record.balance), charged: atomic(record.chargedCumulativeAmount) } : null;
    },
  };
}

/** @typedef {ReturnType<typeof createWallet>} Wallet */
