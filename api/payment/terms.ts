// What the service tells crawlers and agents about paying, before they ask (/openapi.json's
// x-payment-info, /llms.txt): network, asset and the price of each priced route in the asset's atomic
// units, and the payee when the gate was on at build time. The 402 challenge stays authoritative.
import type { PaymentTerms } from './prices.ts';
import { registeredSchemes } from './schemes.ts';
import { BASE_MAINNET, type PaymentSettings, defaultAsset, paymentSettings } from './settings.ts';

export { type PaymentTerms, atomicAmount, paymentPrice } from './prices.ts';
export { SCHEMES_SENTENCE } from './schemes.ts';

/** The x402 protocol version the gate speaks. */
export const X402_VERSION = 2;
/** The names of the x402 payment schemes a 402 offers (those the facilitator serves), in its order (./schemes.ts). */
export const X402_SCHEMES: readonly string[] = registeredSchemes().map((scheme) => scheme.name);
/** The least first deposit of a channel when X402_MIN_DEPOSIT_USD is unset. */
const DEFAULT_MIN_DEPOSIT_USD = '1.00';
/**
 * x402's MCP transport keys: the payment in a call's `_meta`, the receipt in its result's (defined in ./mcp-keys.ts,
 * which loads nothing).
 */
export { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from './mcp-keys.ts';

const NETWORK_NAMES: Record<string, string> = { 'eip155:8453': 'Base', 'eip155:84532': 'Base Sepolia' };
export const networkName = (network: string) => NETWORK_NAMES[network] ?? network;

/**
 * The gate's terms (`settings`, default: the environment's), else the gate's defaults: Base mainnet
 * and its USDC, with no payee.
 */
export function paymentTerms(settings: PaymentSettings | null = paymentSettings()): PaymentTerms {
  if (settings)
    return {
      network: settings.network,
      asset: settings.asset,
      payTo: settings.payTo,
      minDepositUsd: settings.channels.minDepositUsd,
    };
  return {
    network: BASE_MAINNET,
    asset: defaultAsset(BASE_MAINNET)!,
    payTo: null,
    minDepositUsd: DEFAULT_MIN_DEPOSIT_USD,
  };
}
