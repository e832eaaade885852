// What the service tells crawlers and agents about paying, before they ask (/openapi.json's
// x-payment-info, /llms.txt): network, asset and the price of each priced route in the asset's atomic
// units, and the payee when the gate was on at build time. The 402 challenge stays authoritative.
import { parseUnits } from 'viem';
import { BASE_MAINNET, type PaymentAsset, type PaymentSettings, defaultAsset, paymentSettings } from './settings.ts';

export interface PaymentTerms {
  network: PaymentSettings['network'];
  asset: PaymentAsset;
  /** The payee: known only when the gate was configured (X402_PAY_TO) where the document was made. */
  payTo: string | null;
}

/** The x402 protocol version the gate speaks. */
export const X402_VERSION = 2;
/** The x402 payment scheme the gate accepts. */
export const X402_SCHEME = 'exact';
/** x402's MCP transport keys: the payment in a call's `_meta`, the receipt in its result's (defined in ./mcp-keys.ts, which loads nothing). */
export { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from './mcp-keys.ts';

/** A USD price in the asset's atomic units (USDC: 6 decimals, so 0.10 is 100000), with the token's EIP-712 domain. */
export const paymentPrice = (usd: string, asset: PaymentAsset) => ({
  amount: parseUnits(usd, asset.decimals).toString(),
  asset: asset.address,
  extra: { name: asset.name, version: asset.version },
});

const NETWORK_NAMES: Record<string, string> = { 'eip155:8453': 'Base', 'eip155:84532': 'Base Sepolia' };
export const networkName = (network: string) => NETWORK_NAMES[network] ?? network;

/**
 * The gate's terms (`settings`, default: the environment's), else the gate's defaults: Base mainnet
 * and its USDC, with no payee.
 */
export function paymentTerms(settings: PaymentSettings | null = paymentSettings()): PaymentTerms {
  if (settings) return { network: settings.network, asset: settings.asset, payTo: settings.payTo };
  return { network: BASE_MAINNET, asset: defaultAsset(BASE_MAINNET)!, payTo: null };
}

/** A USD price in the asset's atomic units, as the gate's challenge states it ("0.10" → "100000" for USDC). */
export const atomicAmount = (usd: string, terms: PaymentTerms): string => paymentPrice(usd, terms.asset).amount;
