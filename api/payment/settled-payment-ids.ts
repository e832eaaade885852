// The payment identifiers already settled (docs/design.md §7, x402's `payment-identifier` extension): a paid request
// whose payment carries an id settled within 24 hours for the same method and canonical resource gets that
// answer again with the original receipt, and its new payment is not settled. The Node server keeps them in
// memory (bounded); Vercel's function instances share no memory, so with REDIS_URL set they live in Redis.
//
// An id is first claimed while its payment settles, so that two requests racing with one id settle once: the
// second finds the claim and waits for it to end (settled: the answer again; released: it may claim).
import type { SettleResponse } from '@x402/core/types';
import { closeRedis, sharedRedis } from './redis.ts';

/** How long a settled id is honoured. */
export const SETTLED_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What holds an id: a claim being settled, or a settled payment with its receipt; `key` is the method and canonical
 * resource.
 */
type PaymentIdEntry =
  { key: string; state: 'claimed'; token: string } | { key: string; state: 'settled'; receipt: SettleResponse };

export interface PaymentIds {
  /** Claims `id` for `key` until `claimMs` have passed, released or settled: null when claimed, else what holds it. */
  claim(id: string, key: string, token: string, claimMs: number): Promise<PaymentIdEntry | null>;
  /** What holds `id`, if anything. */
  get(id: string): Promise<PaymentIdEntry | null>;
  /** Records the settled payment of the claim `token` (for SETTLED_TTL_MS). */
  settle(id: string, key: string, receipt: SettleResponse): Promise<void>;
  /** Ends the claim `token` without a settlement (no figure, or a refused payment): the id is free again. */
  release(id: string, token: string): Promise<void>;
  close(): Promise<void>;
}

/** In memory, for one process: at most `limit` ids, expired ones dropped first, then the oldest. */
export function memoryPaymentIds(limit = 100_000, now = () => Date.now()): PaymentIds {
  const entries = new Map<string, { entry: PaymentIdEntry; expires: number }>();
  const live = (id: string) => {
    const held = entries.get(id);
    if (held && held.expires <= now()) entries.delete(id);
    return held && held.expires > now() ? held.entry : null;
  };
  const put = (id: string, entry: PaymentIdEntry, ttl: number) => {
    entries.delete(id);
    if (entries.size >= limit) for (const [old, held] of entries) if (held.expires <= now()) entries.delete(old);
    while (entries.size >= limit) entries.delete(entries.keys().next().value!);
    entries.set(id, { entry, expires: now() + ttl });
  };
  return {
    async claim(id, key, token, claimMs) {
      const held = live(id);
      if (held) return held;
      put(id, { key, state: 'claimed', token }, claimMs);
      return null;
    },
    get: async (id) => live(id),
    async settle(id, key, receipt) {
      put(id, { key, state: 'settled', receipt }, SETTLED_TTL_MS);
    },
    async release(id, token) {
      const held = live(id);
      if (held?.state === 'claimed' && held.token === token) entries.delete(id);
    },
    close: async () => {},
  };
}

/** Ends a claim only if it is still the one `token` made: a claim that expired and was taken over is left alone. */
const RELEASE = `local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held).token == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * In Redis at `url`, shared by every process that names it: one key per id (`x402:payment-id:<id>`), expiring
 * with it, on the gate's one Redis client (./redis.ts).
 */
export async function redisPaymentIds(url: string): Promise<PaymentIds> {
  const client = await sharedRedis(url);
  const keyOf = (id: string) => `x402:payment-id:${id}`;
  const parse = (text: string | null): PaymentIdEntry | null =>
    text === null ? null : (JSON.parse(text) as PaymentIdEntry);
  const get = async (id: string) => parse(await client.get(keyOf(id)));
  const claim = async (id: string, key: string, token: string, claimMs: number): Promise<PaymentIdEntry | null> => {
    const entry = JSON.stringify({ key, state: 'claimed', token } satisfies PaymentIdEntry);
    const set = await client.set(keyOf(id), entry, { condition: 'NX', expiration: { type: 'PX', value: claimMs } });
    // Not set: held, unless it expired in between, when it is claimed again.
    return set === 'OK' ? null : ((await get(id)) ?? (await claim(id, key, token, claimMs)));
  };
  return {
    claim,
    get,
    async settle(id, key, receipt) {
      await client.set(keyOf(id), JSON.stringify({ key, state: 'settled', receipt } satisfies PaymentIdEntry), {
        expiration: { type: 'PX', value: SETTLED_TTL_MS },
      });
    },
    async release(id, token) {
      await client.eval(RELEASE, { keys: [keyOf(id)], arguments: [token] });
    },
    close: () => closeRedis(url),
  };
}
