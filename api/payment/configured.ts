// The gate the service runs with: made from the environment on first use (none without X402_PAY_TO,
// so priced routes are free). Tests install their own.
//
// A short cold start: the payment stack (viem, @x402/*: a quarter of a second to import) is loaded here, by
// dynamic import, only when the first priced request or call finds the gate on. Without X402_PAY_TO nothing
// of it is ever loaded; free routes never ask for the gate at all.
import type { FacilitatorClient } from '@x402/core/server';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import type { ChannelStorage } from '@x402/evm/batch-settlement/server';
import type { Gate } from './gate.ts';
import type { SetAsideStore } from './set-aside.ts';
import type { FacilitatorSettings, PaymentSettings } from './settings.ts';

let current: Promise<Gate | null> | undefined;

export const configuredGate = (): Promise<Gate | null> => (current ??= gateFromEnv());

/** Replaces the configured gate (null: off); `undefined` goes back to the environment's on next use. */
export function installGate(gate: Gate | null | undefined): void {
  current = gate === undefined ? undefined : Promise.resolve(gate);
}

/**
 * The gate's settings from the environment (api/payment/settings.ts, which throws on a bad value), or null
 * when X402_PAY_TO is unset: the gate is off, and settings.ts (which imports viem and @x402/evm) is not loaded.
 */
export async function configuredSettings(
  env: Record<string, string | undefined> = process.env,
): Promise<PaymentSettings | null> {
  // settings.ts's own rule for "off" (it returns null on the same test), checked before loading it.
  if (!env.X402_PAY_TO?.trim()) return null;
  const { paymentSettings } = await import('./settings.ts');
  return paymentSettings(env);
}

async function gateFromEnv(): Promise<Gate | null> {
  const settings = await configuredSettings();
  if (!settings) return null;
  const [{ createGate }, { memoryPaymentIds, redisPaymentIds }, stores, facilitator] = await Promise.all([
    import('./gate.ts'),
    import('./settled-payment-ids.ts'),
    channelStores(settings),
    facilitatorClient(settings.facilitator),
  ]);
  // Settled payment ids: in Redis when REDIS_URL is set (Vercel's function instances share no memory), else here.
  const ids = settings.redisUrl ? redisPaymentIds(settings.redisUrl) : memoryPaymentIds();
  return createGate(settings, facilitator, ROUTE_CONTRACTS, { ids, ...stores });
}

/**
 * Where prepaid channels are kept (docs/design.md §13): in Redis with REDIS_URL, shared by every process; else, on the
 * Node server, in X402_CHANNELS_DIR. A Vercel function without Redis has no durable place for vouchers, so it
 * offers `exact` alone.
 */
async function channelStores(
  settings: PaymentSettings,
): Promise<{ channels?: ChannelStorage; setAside?: SetAsideStore }> {
  if (settings.redisUrl) {
    const [{ RedisChannelStorage }, { sharedRedis }, { redisSetAside }] = await Promise.all([
      import('@x402/evm/batch-settlement/server/redis-storage'),
      import('./redis.ts'),
      import('./set-aside.ts'),
    ]);
    const client = await sharedRedis(settings.redisUrl);
    return { channels: new RedisChannelStorage({ client: client }), setAside: redisSetAside(client) };
  }
  if (process.env.VERCEL) {
    console.warn('x402: batch-settlement not offered: a Vercel function keeps vouchers only in Redis (set REDIS_URL)');
    return {};
  }
  const [{ ChannelJournal }, { fileSetAside }] = await Promise.all([
    import('./channel-journal.ts'),
    import('./set-aside.ts'),
  ]);
  const journal = ChannelJournal.open(settings.channels.dir);
  closers.push(() => journal.close());
  const setAside = fileSetAside(settings.channels.dir);
  await setAside.list(); // a damaged set-aside file stops the server at start, naming it, as a damaged journal does
  return { channels: journal, setAside };
}

/** What the configured gate opened and must give up when the process stops (the channel directory). */
const closers: (() => void)[] = [];
export function closePaymentStores(): void {
  for (const close of closers.splice(0)) close();
}

async function facilitatorClient(settings: FacilitatorSettings): Promise<FacilitatorClient> {
  const { HTTPFacilitatorClient } = await import('@x402/core/server');
  if (settings.kind === 'url') return new HTTPFacilitatorClient({ url: settings.url, timeoutMs: settings.timeoutMs });
  // Coinbase's hosted facilitator signs each call with a short-lived JWT made from the CDP API key.
  const { createFacilitatorConfig } = await import('@coinbase/x402');
  return new HTTPFacilitatorClient({
    ...createFacilitatorConfig(settings.apiKeyId, settings.apiKeySecret),
    timeoutMs: settings.timeoutMs,
  });
}
