// What the service tells crawlers and agents about paying, before they ask (/openapi.json's
// x-payment-info, /llms.txt): network, asset and the price of each priced route in the asset's atomic
// units, and the payee when the gate was on at build time. The 402 challenge stays authoritative.
import type { PaymentTerms } from './prices.ts';
import { BASE_MAINNET, type PaymentSettings, defaultAsset, paymentSettings } from './settings.ts';

export { type PaymentTerms, atomicAmount, minDepositAmount, paymentPrice } from './prices.ts';

/** The x402 protocol version the gate speaks. */
export const X402_VERSION = 2;
/**
 * The x402 payment schemes a 402 offers, in its order: `exact` (one settlement per answer) always, and
 * `batch-settlement` (a prepaid channel: a deposit once, then a voucher per answer) where the facilitator serves it.
 */
export const X402_SCHEMES = ['exact', 'batch-settlement'] as const;
/** The least first deposit of a channel when X402_MIN_DEPOSIT_USD is unset. */
const DEFAULT_MIN_DEPOSIT_USD = '1.00';
/** x402's MCP transport keys: the payment in a call's `_meta`, the receipt in its result's (defined in ./mcp-keys.ts, which loads nothing). */
export { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from './mcp-keys.ts';

const NETWORK_NAMES: Record<string, string> = { 'eip155:8453': 'Base', 'eip155:84532': 'Base Sepolia' };
export const networkName = (network: string) => NETWORK_NAMES[network] ?? network;

/**
 * The gate's terms (`settings`, default: the environment's), else the gate's defaults: Base mainnet
 * and its USDC, with no payee.
 */
export function paymentTerms(settings: PaymentSettings | null = paymentSettings()): PaymentTerms {
  if (settings) return { network: settings.network, asset: settings.asset, payTo: settings.payTo, minDepositUsd: settings.channels.minDepositUsd };
  return { network: BASE_MAINNET, asset: defaultAsset(BASE_MAINNET)!, payTo: null, minDepositUsd: DEFAULT_MIN_DEPOSIT_USD };
}

/** What a person or an agent reads of the schemes, in one sentence (llms.txt, /.well-known/x402, OpenAPI). */
export const SCHEMES_SENTENCE =
  'Two ways to pay the same price, both in every 402 where the facilitator serves both: `exact`, one signed transfer settled on chain per answer; and `batch-settlement`, a prepaid channel: the first payment deposits at least `minDeposit` into x402\'s escrow, every later answer is paid by a signed voucher the server checks itself, in milliseconds and with no chain transaction, and the server claims vouchers in batches later (the rest of a deposit is refunded when the channel idles, or on request).';
