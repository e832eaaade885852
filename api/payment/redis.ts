// One Redis client per URL for everything the payment gate shares between processes (docs/design.md §7, §13):
// settled payment ids and prepaid channels. While Redis cannot be reached, commands fail at once (no offline
// queue, so a request answers 503 rather than hang) and the client reconnects by itself.
import type { RedisClientType } from 'redis';

/** How long a request waits for Redis at start before its commands fail. */
const CONNECT_WAIT_MS = 2_000;

export type SharedRedis = RedisClientType;

const clients = new Map<string, Promise<SharedRedis>>();

/** The client for `url`, connecting on first use; `close` ends it for every user. */
export function sharedRedis(url: string): Promise<SharedRedis> {
  let client = clients.get(url);
  if (!client) clients.set(url, (client = connect(url)));
  return client;
}

async function connect(url: string): Promise<SharedRedis> {
  const { createClient } = await import('redis');
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: CONNECT_WAIT_MS, reconnectStrategy: (retries) => Math.min(retries * 100, 2_000) },
  }) as SharedRedis;
  let reported = false;
  client.on('error', (e: Error) => {
    if (!reported) console.error(`x402: Redis at ${new URL(url).host} unavailable: ${e.message.split('\n')[0]}`);
    reported = true;
  });
  client.on('ready', () => (reported = false));
  await Promise.race([
    client.connect().catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, CONNECT_WAIT_MS).unref()),
  ]);
  return client;
}

/** Ends the client for `url` (gracefully when connected; one still trying to reconnect at once). */
export async function closeRedis(url: string): Promise<void> {
  const client = clients.get(url);
  if (!client) return;
  clients.delete(url);
  const c = await client;
  await (c.isReady ? c.close() : c.destroy());
}
