// Read access to the shards the ingest wrote. Files are read once and kept: free bodies as bytes,
// ready to send.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where the shards are: SHARDS_DIR, else `shards/` in the working directory (also on Vercel). */
export function shardsDir(): string {
  return resolve(process.env.SHARDS_DIR ?? 'shards');
}

const bytesCache = new Map<string, Uint8Array<ArrayBuffer> | null>();

/** The precomputed body at `free/<path>`, or null when there is none. */
export function freeBody(path: string): Uint8Array<ArrayBuffer> | null {
  const file = join(shardsDir(), 'free', path);
  if (!bytesCache.has(file)) {
    try {
      bytesCache.set(file, new Uint8Array(readFileSync(file)));
    } catch {
      bytesCache.set(file, null);
    }
  }
  return bytesCache.get(file)!;
}

/** Forget cached files (tests that rebuild shards in the same process). */
export function resetStore(): void {
  bytesCache.clear();
}
