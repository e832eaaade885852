// @ts-check
// USD amounts as the bridge's flags and answers say them, and the asset's atomic units (USDC: 6 decimals) it pays in.
// Exact decimal arithmetic on bigints: a budget is money, never a float.

const USDC_DECIMALS = 6;

/**
 * A USD amount given as text (`1`, `1.00`, `0.25`) in atomic units; `what` names it in the error.
 * @param {string} text
 * @param {string} what
 * @returns {bigint}
 */
export function parseUsd(text, what) {
  const m = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!m)
    throw new Error(
      `${what} must be an amount in USD such as 1.00 (at most 6 decimals), not ${JSON.stringify(text.slice(0, 40))}`,
    );
  return BigInt(m[1]) * 10n ** BigInt(USDC_DECIMALS) + BigInt((m[2] ?? '').padEnd(USDC_DECIMALS, '0'));
}

/**
 * Atomic units as USD text, with at least two decimals and no trailing zero beyond them (`100000` → `0.10`).
 * @param {bigint} atomic
 * @returns {string}
 */
export function formatUsd(atomic) {
  const sign = atomic < 0n ? '-' : '';
  const abs = atomic < 0n ? -atomic : atomic;
  const unit = 10n ** BigInt(USDC_DECIMALS);
  const fraction = (abs % unit).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${abs / unit}.${fraction}`;
}

/**
 * An amount in atomic units as the server or the channel's record says it (a decimal string); null when it is not one.
 * @param {unknown} text
 */
export const atomicOrNull = (text) => (typeof text === 'string' && /^\d{1,30}$/.test(text) ? BigInt(text) : null);

/** @param {unknown} text an amount in atomic units, 0 when it is not one */
export const atomicUnits = (text) => atomicOrNull(text) ?? 0n;
