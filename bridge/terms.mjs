// @ts-check
// Which of a priced call's offers the bridge pays, decided before anything is signed: only the configured network's
// USDC; `batch-settlement` (a prepaid channel) when offered and its least deposit fits --max-deposit-usd, else
// `exact`; and only while the price fits what is left of --budget-usd. Anything else is a refusal that says why.
import { atomicOrNull, formatUsd } from './usd.mjs';

export const BATCH = 'batch-settlement';
const EXACT = 'exact';

/**
 * @typedef {import('@x402/core/types').PaymentRequired} PaymentRequired
 * @typedef {import('@x402/core/types').PaymentRequirements} PaymentRequirements
 * @typedef {{ code: 'budget_exceeded' | 'terms_refused', message: string }} Refusal
 * @typedef {{ network: string, asset: string, budget: bigint, maxDeposit: bigint }} Limits
 */

/**
 * @param {PaymentRequirements} offer
 * @param {Limits} limits
 */
function describe(offer, limits) {
  const asset = offer.asset?.toLowerCase() === limits.asset.toLowerCase() ? 'USDC' : `asset ${offer.asset}`;
  return `${offer.scheme} ${offer.amount} units of ${asset} on ${offer.network}`;
}

/**
 * @param {PaymentRequired} required what the server asks for this call
 * @param {Limits} limits
 * @param {bigint} spent what this state directory has spent so far
 * @returns {{ requirement: PaymentRequirements } | { refusal: Refusal }}
 */
export function chooseTerms(required, limits, spent) {
  const offers = Array.isArray(required.accepts) ? required.accepts : [];
  const payable = offers.filter(
    (o) =>
      o.network === limits.network &&
      o.asset?.toLowerCase() === limits.asset.toLowerCase() &&
      (o.scheme === BATCH || o.scheme === EXACT) &&
      atomicOrNull(o.amount) !== null,
  );
  const batch = payable.find((o) => o.scheme === BATCH);
  const minDeposit = batch ? (atomicOrNull(batch.extra?.minDeposit) ?? 0n) : 0n;
  const requirement = batch && minDeposit <= limits.maxDeposit ? batch : payable.find((o) => o.scheme === EXACT);
  if (!requirement) {
    const why = batch
      ? `its prepaid channel needs a deposit of at least ${formatUsd(minDeposit)} USD, above --max-deposit-usd (${formatUsd(limits.maxDeposit)} USD), and it offers no exact payment: raise --max-deposit-usd`
      : `this bridge pays USDC (${limits.asset}) on ${limits.network} only, by batch-settlement or exact; the server offers ${offers.map((o) => describe(o, limits)).join('; ') || 'nothing'}`;
    return { refusal: { code: 'terms_refused', message: `payment refused, nothing signed: ${why}` } };
  }
  const price = /** @type {bigint} */ (atomicOrNull(requirement.amount));
  if (spent + price > limits.budget) {
    return {
      refusal: {
        code: 'budget_exceeded',
        message: `spending cap reached, nothing signed: this call costs ${formatUsd(price)} USD and ${formatUsd(spent)} of the ${formatUsd(limits.budget)} USD budget is spent (--budget-usd, counted in this state directory); to spend more, raise --budget-usd in the bridge's configuration and restart it`,
      },
    };
  }
  return { requirement };
}

/**
 * The deposit to sign when the channel needs one: enough for what is left of the budget beyond what the channel
 * still holds, at least what the next voucher needs and the offer's least deposit, at most --max-deposit-usd.
 * @param {{ needed: bigint, minDeposit: bigint, unspentInChannel: bigint, budgetLeft: bigint, maxDeposit: bigint }} p
 * @returns {bigint | Refusal}
 */
export function depositAmount({ needed, minDeposit, unspentInChannel, budgetLeft, maxDeposit }) {
  const least = needed > minDeposit ? needed : minDeposit;
  if (least > maxDeposit) {
    return {
      code: 'terms_refused',
      message: `payment refused, nothing signed: the channel needs a deposit of ${formatUsd(least)} USD, above --max-deposit-usd (${formatUsd(maxDeposit)} USD): raise --max-deposit-usd`,
    };
  }
  const wanted = budgetLeft - unspentInChannel;
  const amount = wanted > least ? wanted : least;
  return amount > maxDeposit ? maxDeposit : amount;
}
