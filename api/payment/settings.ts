// The payment gate's settings, read from the environment (docs/design.md §7). The gate is on when
// X402_PAY_TO is set; everything else has a default: Base mainnet USDC, and a facilitator chosen
// from what is configured. A bad value stops the service with the variable's name and what it expects.
import { getDefaultAsset } from '@x402/evm';
import { resolve } from 'node:path';
import { getAddress, isAddress, isHex } from 'viem';

export const BASE_MAINNET = 'eip155:8453';
const BASE_SEPOLIA = 'eip155:84532';
/** The public facilitator of the x402 project: test networks only. */
const PUBLIC_TESTNET_FACILITATOR = 'https://x402.org/facilitator';
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

/** How amounts of the asset are named for people: Circle's USD Coin as USDC, any other token by its name. */
export const assetSymbol = (asset: PaymentAsset): string => (asset.name === 'USD Coin' ? 'USDC' : asset.name);

export type FacilitatorSettings =
  | { kind: 'url'; url: string; timeoutMs: number }
  | { kind: 'cdp'; apiKeyId: string; apiKeySecret: string; timeoutMs: number };

/**
 * Prepaid channels (x402 `batch-settlement`, docs/design.md §13): where vouchers are kept, and when they are claimed.
 */
interface ChannelSettings {
  /** The Node server's durable channel state when REDIS_URL is unset (X402_CHANNELS_DIR). */
  dir: string;
  /** Claim and settle every vouchers held this often, in seconds (X402_CLAIM_INTERVAL_S). */
  claimIntervalS: number;
  /**
   * A channel with no paid request for this many days is claimed and its remainder refunded (X402_CHANNEL_IDLE_DAYS).
   */
  idleDays: number;
  /** The least a first deposit may be, in USD (X402_MIN_DEPOSIT_USD); a route's price when that is more. */
  minDepositUsd: string;
  /** How long a payer's withdrawal waits on chain, in seconds (X402_WITHDRAW_DELAY_S): the server claims within it. */
  withdrawDelayS: number;
  /** The key that signs claims and refunds (X402_RECEIVER_AUTHORIZER_KEY); null: the facilitator's advertised one. */
  receiverAuthorizerKey: `0x${string}` | null;
}

export interface PaymentSettings {
  payTo: string;
  network: `${string}:${string}`;
  asset: PaymentAsset;
  facilitator: FacilitatorSettings;
  /**
   * Where settled payment ids and channels are kept for every process (REDIS_URL); null: in this process (ids in
   * memory, channels in `channels.dir`).
   */
  redisUrl: string | null;
  channels: ChannelSettings;
}

export class PaymentSettingsError extends Error {}

type Env = Record<string, string | undefined>;

function address(env: Env, name: string): string {
  const value = env[name]!.trim();
  if (!isAddress(value, { strict: false }))
    throw new PaymentSettingsError(`${name}='${value}': expected an EVM address, 0x and 40 hex digits`);
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
    if (!known)
      throw new PaymentSettingsError(
        `X402_NETWORK=${network} has no default stablecoin: set X402_ASSET, X402_ASSET_NAME, ` +
          `X402_ASSET_VERSION and X402_ASSET_DECIMALS`,
      );
    return known;
  }
  const chosen = address(env, 'X402_ASSET');
  if (known && chosen === known.address && !env.X402_ASSET_NAME) return known;
  const missing = ['X402_ASSET_NAME', 'X402_ASSET_VERSION'].filter((n) => !env[n]);
  if (missing.length)
    throw new PaymentSettingsError(
      `X402_ASSET=${chosen} is not ${network}'s default stablecoin: also set ${missing.join(' and ')} ` +
        `(the token's EIP-712 domain)`,
    );
  const decimals = Number(env.X402_ASSET_DECIMALS ?? 6);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36)
    throw new PaymentSettingsError(
      `X402_ASSET_DECIMALS='${env.X402_ASSET_DECIMALS}': expected a whole number of decimals, 0 to 36`,
    );
  return { address: chosen, name: env.X402_ASSET_NAME!, version: env.X402_ASSET_VERSION!, decimals };
}

function facilitator(env: Env, network: string): FacilitatorSettings {
  const timeoutMs = Number(env.X402_FACILITATOR_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    throw new PaymentSettingsError(
      `X402_FACILITATOR_TIMEOUT_MS='${env.X402_FACILITATOR_TIMEOUT_MS}': expected a positive whole ` +
        `number of milliseconds`,
    );
  if (env.X402_FACILITATOR_URL) {
    let url: URL;
    try {
      url = new URL(env.X402_FACILITATOR_URL);
    } catch {
      url = new URL('invalid:');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new PaymentSettingsError(
        `X402_FACILITATOR_URL='${env.X402_FACILITATOR_URL}': expected an http(s) URL such as ` +
          `https://facilitator.example.com`,
      );
    return { kind: 'url', url: env.X402_FACILITATOR_URL.replace(/\/+$/, ''), timeoutMs };
  }
  if (env.CDP_API_KEY_ID || env.CDP_API_KEY_SECRET) {
    if (!env.CDP_API_KEY_ID || !env.CDP_API_KEY_SECRET)
      throw new PaymentSettingsError('Coinbase CDP facilitator: set both CDP_API_KEY_ID and CDP_API_KEY_SECRET');
    return { kind: 'cdp', apiKeyId: env.CDP_API_KEY_ID, apiKeySecret: env.CDP_API_KEY_SECRET, timeoutMs };
  }
  if (network === BASE_SEPOLIA) return { kind: 'url', url: PUBLIC_TESTNET_FACILITATOR, timeoutMs };
  throw new PaymentSettingsError(
    `no facilitator for ${network}: set X402_FACILITATOR_URL (a self-hosted x402 facilitator) or ` +
      `CDP_API_KEY_ID and CDP_API_KEY_SECRET (Coinbase's); ${PUBLIC_TESTNET_FACILITATOR} serves test ` +
      `networks only`,
  );
}

/** The gate's settings, or null when X402_PAY_TO is unset (gate off: priced routes are free). */
export function paymentSettings(env: Env = process.env): PaymentSettings | null {
  if (!env.X402_PAY_TO?.trim()) return null;
  const payTo = address(env, 'X402_PAY_TO');
  const network = (env.X402_NETWORK?.trim() || BASE_MAINNET) as PaymentSettings['network'];
  if (!/^eip155:[1-9][0-9]*$/.test(network))
    throw new PaymentSettingsError(
      `X402_NETWORK='${network}': expected an EVM network as a CAIP-2 id, e.g. ${BASE_MAINNET} (Base) ` +
        `or ${BASE_SEPOLIA} (Base Sepolia)`,
    );
  return {
    payTo,
    network,
    asset: asset(env, network),
    facilitator: facilitator(env, network),
    redisUrl: redisUrl(env),
    channels: channels(env),
  };
}

/** The scheme's bounds on a withdrawal delay (15 minutes to 30 days). */
export const WITHDRAW_DELAY_S = { min: 900, max: 2_592_000 };

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number, unit: string): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new PaymentSettingsError(`${name}='${text}': expected a whole number of ${unit}, ${min} to ${max}`);
  return value;
}

/** Where the Node server keeps its prepaid channels without Redis (X402_CHANNELS_DIR). */
export const channelsDir = (env: Env): string => resolve(env.X402_CHANNELS_DIR?.trim() || '.data/channels');

function channels(env: Env): ChannelSettings {
  const claimIntervalS = wholeNumber(env, 'X402_CLAIM_INTERVAL_S', 3600, 10, 86_400, 'seconds');
  const withdrawDelayS = wholeNumber(
    env,
    'X402_WITHDRAW_DELAY_S',
    86_400,
    WITHDRAW_DELAY_S.min,
    WITHDRAW_DELAY_S.max,
    'seconds',
  );
  // A payer's withdrawal finalizes after the delay: the server must have claimed by then, with a run to spare.
  if (withdrawDelayS < 2 * claimIntervalS)
    throw new PaymentSettingsError(
      `X402_WITHDRAW_DELAY_S=${withdrawDelayS} is less than twice X402_CLAIM_INTERVAL_S=` +
        `${claimIntervalS}: vouchers must be claimed before a payer's withdrawal can finalize`,
    );
  const minDeposit = env.X402_MIN_DEPOSIT_USD?.trim() || '1.00';
  if (!/^\d{1,6}(\.\d{1,6})?$/.test(minDeposit) || Number(minDeposit) <= 0)
    throw new PaymentSettingsError(
      `X402_MIN_DEPOSIT_USD='${minDeposit}': expected a positive amount in USD such as 1.00`,
    );
  const key = env.X402_RECEIVER_AUTHORIZER_KEY?.trim();
  if (key && !(isHex(key) && key.length === 66))
    throw new PaymentSettingsError('X402_RECEIVER_AUTHORIZER_KEY: expected a private key, 0x and 64 hex digits');
  return {
    dir: channelsDir(env),
    claimIntervalS,
    idleDays: wholeNumber(env, 'X402_CHANNEL_IDLE_DAYS', 30, 1, 3650, 'days'),
    minDepositUsd: minDeposit,
    withdrawDelayS,
    receiverAuthorizerKey: key ? (key as `0x${string}`) : null,
  };
}

function redisUrl(env: Env): string | null {
  const text = env.REDIS_URL?.trim();
  if (!text) return null;
  if (!/^rediss?:\/\/[^\s]+$/.test(text) || !URL.canParse(text))
    throw new PaymentSettingsError(
      `REDIS_URL='${text}': expected a Redis URL such as redis://127.0.0.1:6379 (rediss:// for TLS)`,
    );
  return text;
}
