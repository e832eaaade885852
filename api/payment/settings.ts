// The payment gate's settings, read from the environment (DECISIONS.md §7). The gate is on when
// X402_PAY_TO is set; everything else has a default: Base mainnet USDC, and a facilitator chosen
// from what is configured. A bad value stops the service with the variable's name and what it expects.
import { getDefaultAsset } from '@x402/evm';
import { getAddress, isAddress } from 'viem';

export const BASE_MAINNET = 'eip155:8453';
export const BASE_SEPOLIA = 'eip155:84532';
/** The public facilitator of the x402 project: test networks only. */
export const PUBLIC_TESTNET_FACILITATOR = 'https://x402.org/facilitator';
/**
 * Per facilitator call. A paid request makes up to two (settle, and the SDK's one retry of a pending
 * settle; a retry with a settled payment id one verify): 2 x 8 s stays inside the Vercel function's
 * maxDuration of 30 s.
 */
const DEFAULT_TIMEOUT_MS = 8_000;

export interface PaymentAsset {
  address: string;
  /** EIP-712 domain of the token, which the payer signs over. */
  name: string;
  version: string;
  decimals: number;
}

export type FacilitatorSettings =
  | { kind: 'url'; url: string; timeoutMs: number }
  | { kind: 'cdp'; apiKeyId: string; apiKeySecret: string; timeoutMs: number };

export interface PaymentSettings {
  payTo: string;
  network: `${string}:${string}`;
  asset: PaymentAsset;
  facilitator: FacilitatorSettings;
  /** Where settled payment ids are kept for every process (REDIS_URL); null: in this process's memory. */
  redisUrl: string | null;
}

export class PaymentSettingsError extends Error {}

type Env = Record<string, string | undefined>;

function address(env: Env, name: string): string {
  const value = env[name]!.trim();
  if (!isAddress(value, { strict: false })) throw new PaymentSettingsError(`${name}='${value}': expected an EVM address, 0x and 40 hex digits`);
  return getAddress(value);
}

/** The x402 SDK's default stablecoin of a network (Base: USDC), or null when it has none. */
export function defaultAsset(network: PaymentSettings['network']): PaymentAsset | null {
  let known: ReturnType<typeof getDefaultAsset>;
  try {
    known = getDefaultAsset(network);
  } catch {
    return null;
  }
  return { address: getAddress(known.asset), name: known.name, version: known.version, decimals: known.decimals };
}

function asset(env: Env, network: PaymentSettings['network']): PaymentAsset {
  const known = defaultAsset(network);
  if (!env.X402_ASSET) {
    if (!known) throw new PaymentSettingsError(`X402_NETWORK=${network} has no default stablecoin: set X402_ASSET, X402_ASSET_NAME, X402_ASSET_VERSION and X402_ASSET_DECIMALS`);
    return known;
  }
  const chosen = address(env, 'X402_ASSET');
  if (known && chosen === known.address && !env.X402_ASSET_NAME) return known;
  const missing = ['X402_ASSET_NAME', 'X402_ASSET_VERSION'].filter((n) => !env[n]);
  if (missing.length) throw new PaymentSettingsError(`X402_ASSET=${chosen} is not ${network}'s default stablecoin: also set ${missing.join(' and ')} (the token's EIP-712 domain)`);
  const decimals = Number(env.X402_ASSET_DECIMALS ?? 6);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
    throw new PaymentSettingsError(`X402_ASSET_DECIMALS='${env.X402_ASSET_DECIMALS}': expected a whole number of decimals, 0 to 36`);
  return { address: chosen, name: env.X402_ASSET_NAME!, version: env.X402_ASSET_VERSION!, decimals };
}

function facilitator(env: Env, network: string): FacilitatorSettings {
  const timeoutMs = Number(env.X402_FACILITATOR_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new PaymentSettingsError(`X402_FACILITATOR_TIMEOUT_MS='${env.X402_FACILITATOR_TIMEOUT_MS}': expected a positive whole number of milliseconds`);
  if (env.X402_FACILITATOR_URL) {
    let url: URL;
    try {
      url = new URL(env.X402_FACILITATOR_URL);
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new PaymentSettingsError(`X402_FACILITATOR_URL='${env.X402_FACILITATOR_URL}': expected an http(s) URL such as https://facilitator.example.com`);
    return { kind: 'url', url: env.X402_FACILITATOR_URL.replace(/\/+$/, ''), timeoutMs };
  }
  if (env.CDP_API_KEY_ID || env.CDP_API_KEY_SECRET) {
    if (!env.CDP_API_KEY_ID || !env.CDP_API_KEY_SECRET)
      throw new PaymentSettingsError('Coinbase CDP facilitator: set both CDP_API_KEY_ID and CDP_API_KEY_SECRET');
    return { kind: 'cdp', apiKeyId: env.CDP_API_KEY_ID, apiKeySecret: env.CDP_API_KEY_SECRET, timeoutMs };
  }
  if (network === BASE_SEPOLIA) return { kind: 'url', url: PUBLIC_TESTNET_FACILITATOR, timeoutMs };
  throw new PaymentSettingsError(
    `no facilitator for ${network}: set X402_FACILITATOR_URL (a self-hosted x402 facilitator) or CDP_API_KEY_ID and CDP_API_KEY_SECRET (Coinbase's); ${PUBLIC_TESTNET_FACILITATOR} serves test networks only`,
  );
}

/** The gate's settings, or null when X402_PAY_TO is unset (gate off: priced routes are free). */
export function paymentSettings(env: Env = process.env): PaymentSettings | null {
  if (!env.X402_PAY_TO?.trim()) return null;
  const payTo = address(env, 'X402_PAY_TO');
  const network = (env.X402_NETWORK?.trim() || BASE_MAINNET) as PaymentSettings['network'];
  if (!/^eip155:[1-9][0-9]*$/.test(network))
    throw new PaymentSettingsError(`X402_NETWORK='${network}': expected an EVM network as a CAIP-2 id, e.g. ${BASE_MAINNET} (Base) or ${BASE_SEPOLIA} (Base Sepolia)`);
  return { payTo, network, asset: asset(env, network), facilitator: facilitator(env, network), redisUrl: redisUrl(env) };
}

function redisUrl(env: Env): string | null {
  const text = env.REDIS_URL?.trim();
  if (!text) return null;
  if (!/^rediss?:\/\/[^\s]+$/.test(text) || !URL.canParse(text))
    throw new PaymentSettingsError(`REDIS_URL='${text}': expected a Redis URL such as redis://127.0.0.1:6379 (rediss:// for TLS)`);
  return text;
}
