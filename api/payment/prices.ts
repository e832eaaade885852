// Prices in a payment asset's atomic units, and the terms they are stated in. Below the payment schemes, which
// price their offers with it, and below ./terms.ts, which lists those schemes: neither imports the other through it.
import { parseUnits } from 'viem';
import type { PaymentAsset, PaymentSettings } from './settings.ts';

export interface PaymentTerms {
  network: PaymentSettings['network'];
  asset: PaymentAsset;
  /** The payee: known only when the gate was configured (X402_PAY_TO) where the document was made. */
  payTo: string | null;
  /** A prepaid channel's least first deposit, in USD (X402_MIN_DEPOSIT_USD; a route's price when that is more). */
  minDepositUsd: string;
}

/** A USD price in the asset's atomic units (USDC: 6 decimals, so 0.10 is 100000), with the token's EIP-712 domain. */
export const paymentPrice = (usd: string, asset: PaymentAsset) => ({
  amount: parseUnits(usd, asset.decimals).toString(),
  asset: asset.address,
  extra: { name: asset.name, version: asset.version },
});

/** A USD price in the asset's atomic units, as the gate's challenge states it ("0.10" → "100000" for USDC). */
export const atomicAmount = (usd: string, terms: Pick<PaymentTerms, 'asset'>): string =>
  paymentPrice(usd, terms.asset).amount;

/**
 * A route's least first deposit on a prepaid channel, in atomic units: X402_MIN_DEPOSIT_USD, or the price when that is
 * more.
 */
export const minDepositAmount = (usd: string, terms: Pick<PaymentTerms, 'asset' | 'minDepositUsd'>): string => {
  const [price, min] = [BigInt(atomicAmount(usd, terms)), BigInt(atomicAmount(terms.minDepositUsd, terms))];
  return String(price > min ? price : min);
};
