// Read access to the shards the ingest wrote. Files are read once and kept: free bodies as bytes,
// ready to send; private shards parsed, ready to query.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unknownState } from './http.ts';

/** Where the shards are: SHARDS_DIR, else `shards/` in the working directory (also on Vercel). */
export function shardsDir(): string {
  return resolve(process.env.SHARDS_DIR ?? 'shards');
}

const bytesCache = new Map<string, Uint8Array<ArrayBuffer> | null>();
const jsonCache = new Map<string, unknown>();

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** The precomputed body at `free/<path>`, or null when there is none. */
export function freeBody(path: string): Uint8Array<ArrayBuffer> | null {
  const file = join(shardsDir(), 'free', path);
  if (!bytesCache.has(file)) {
    const bytes = readOrNull(file);
    bytesCache.set(file, bytes && new Uint8Array(bytes));
  }
  return bytesCache.get(file)!;
}

/** A state's precomputed free body (`free/<folder>/<state>.json`); 404 for a state the data does not have. */
export function freeStateBody(folder: string, state: string): Uint8Array<ArrayBuffer> {
  const body = freeBody(`${folder}/${state}.json`);
  if (body) return body;
  if (!freeBody('coverage.json')) throw new Error('free shards missing: run the ingest'); // a 500, not "unknown state"
  throw unknownState(state);
}

/**
 * The private shard at `private/<path>`, parsed and then shaped once by `prepare` (for the query
 * that reads it), or null when there is none.
 */
export function privateShard<T, R = T>(path: string, prepare: (shard: T) => R = (shard) => shard as unknown as R): R | null {
  const file = join(shardsDir(), 'private', path);
  if (!jsonCache.has(file)) {
    const bytes = readOrNull(file);
    jsonCache.set(file, bytes && prepare(JSON.parse(bytes.toString('utf8')) as T));
  }
  return jsonCache.get(file) as R | null;
}

/** Forget cached files (tests that rebuild shards in the same process). */
export function resetStore(): void {
  bytesCache.clear();
  jsonCache.clear();
}
