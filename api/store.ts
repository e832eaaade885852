// Read access to the shards the ingest wrote. The build's manifest (`manifest.json`) lists every shard
// file with its SHA-256: a file it lists is checked against that hash when first read, and a file it
// does not list does not exist in this build (no such data). Files are read once and kept: free bodies
// as bytes, ready to send; private shards parsed, ready to query. A listed file that is missing or
// damaged is a ShardError (the query answers 500) and is never cached, so the next request tries again.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CoverageItem, coverageResponse } from '../domain/contract.ts';
import { unknownState } from '../domain/errors.ts';
import { MANIFEST, type Manifest, sha256 } from '../domain/manifest.ts';

/** Where the shards are: SHARDS_DIR, else `shards/` in the working directory (also on Vercel). */
export function shardsDir(): string {
  return resolve(process.env.SHARDS_DIR ?? 'shards');
}

/** A shard the build lists is missing, unreadable or not what the build wrote. */
export class ShardError extends Error {}

let manifestCache: Manifest | undefined;
const bytesCache = new Map<string, Buffer<ArrayBuffer> | null>();
const jsonCache = new Map<string, unknown>();

function readManifest(): Manifest {
  let text: string;
  try {
    text = readFileSync(join(shardsDir(), MANIFEST), 'utf8');
  } catch (e) {
    throw new ShardError(
      `${MANIFEST} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}): run the ingest`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ShardError(`${MANIFEST} is not valid JSON: the build is damaged; run the ingest`);
  }
  const files = (parsed as Partial<Manifest> | null)?.files;
  const valid =
    typeof files === 'object' &&
    files !== null &&
    Object.values(files).every((h) => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h));
  if (!valid)
    throw new ShardError(`${MANIFEST} does not list files with SHA-256 hashes: the build is damaged; run the ingest`);
  return { files: files };
}

const manifest = (): Manifest => (manifestCache ??= readManifest());

/** A file the manifest lists, checked against its hash; a ShardError says what is wrong with it. */
function readListed(path: string, expected: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(shardsDir(), path));
  } catch (e) {
    throw new ShardError(
      `${path}: listed in ${MANIFEST} but ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable'}`,
    );
  }
  if (sha256(bytes) !== expected) throw new ShardError(`${path}: does not match its SHA-256 in ${MANIFEST}`);
  return bytes;
}

/** The bytes of a shard the build has, checked; null when the build has no such file. */
function verifiedBytes(path: string): Buffer | null {
  const { files } = manifest();
  return Object.hasOwn(files, path) ? readListed(path, files[path]) : null;
}

/** Each kept file's SHA-256 as the manifest lists it (checked when read): its ETag, not hashed again. */
const listedHashes = new WeakMap<Uint8Array, string>();

/** The bytes of the file at `key` (a path below the shards folder), read once; null when the build has none. */
function keptBytes(key: string): Buffer<ArrayBuffer> | null {
  if (!bytesCache.has(key)) {
    const bytes = verifiedBytes(key);
    // A Buffer over memory of its own: the same object each time, which caches of its ETag and codings are keyed by.
    const kept = bytes && Buffer.from(new Uint8Array(bytes).buffer);
    if (kept) listedHashes.set(kept, manifest().files[key]);
    bytesCache.set(key, kept);
  }
  return bytesCache.get(key)!;
}

/** The SHA-256 (hex) the manifest lists for bytes this store read from a file, or undefined for any other bytes. */
export const listedSha256 = (bytes: Uint8Array) => listedHashes.get(bytes);

/** The precomputed body at `free/<path>`, or null when the build has none. */
const freeBody = (path: string) => keptBytes(`free/${path}`);

/** A free route's precomputed body at `free/<path>`; the build must have it. */
export function requiredFreeBody(path: string): Buffer<ArrayBuffer> {
  const body = freeBody(path);
  if (!body) throw new ShardError(`free/${path} is not in the build: run the ingest`);
  return body;
}

/** A state's precomputed free body (`free/<folder>/<state>.<ext>`); 404 for a state the build does not have. */
export function freeStateBody(folder: string, state: string, ext: 'json' | 'csv' = 'json'): Buffer<ArrayBuffer> {
  const body = freeBody(`${folder}/${state}.${ext}`);
  if (body) return body;
  requiredFreeBody('coverage.json'); // no build at all is a 500, not "unknown state"
  throw unknownState(state);
}

/**
 * Every state's coverage (the free body of /v1/coverage), parsed once: for the answers, llms.txt and the MCP texts that
 * name it.
 */
export function coverage(): readonly CoverageItem[] {
  const key = 'free/coverage.json';
  if (!jsonCache.has(key))
    jsonCache.set(key, coverageResponse.parse(JSON.parse(requiredFreeBody('coverage.json').toString('utf8'))));
  return jsonCache.get(key) as readonly CoverageItem[];
}

/** The private file at `private/<path>` as bytes (a bulk download), or null when the build has none. */
export const privateFile = (path: string) => keptBytes(`private/${path}`);

/**
 * The private shard at `private/<path>`, parsed and then shaped once by `prepare` (for the query
 * that reads it), or null when the build has none.
 */
export function privateShard<T, R = T>(
  path: string,
  prepare: (shard: T) => R = (shard) => shard as unknown as R,
): R | null {
  const key = `private/${path}`;
  if (!jsonCache.has(key)) {
    const bytes = verifiedBytes(key);
    jsonCache.set(key, bytes && prepare(JSON.parse(bytes.toString('utf8')) as T));
  }
  return jsonCache.get(key) as R | null;
}

/**
 * Every problem of the build on disk, checked in full (what the server does before it listens): the
 * manifest unreadable, a listed file missing, or a file whose content is not what the build wrote.
 */
export function checkShards(): string[] {
  let files: Record<string, string>;
  try {
    files = readManifest().files;
  } catch (e) {
    return [(e as Error).message];
  }
  const problems: string[] = [];
  for (const [path, expected] of Object.entries(files)) {
    try {
      readListed(path, expected);
    } catch (e) {
      problems.push((e as ShardError).message);
    }
  }
  return problems;
}

/** What else is computed from the cached files, forgotten with them. */
const dependents: (() => void)[] = [];

/** Calls `forget` whenever the cached files are forgotten: for what is computed from them and kept. */
export function onStoreReset(forget: () => void): void {
  dependents.push(forget);
}

/** Forget cached files (tests that rebuild shards in the same process), and what was computed from them. */
export function resetStore(): void {
  manifestCache = undefined;
  bytesCache.clear();
  jsonCache.clear();
  for (const forget of dependents) forget();
}

/** Makes this process read the shards at `dir` (SHARDS_DIR); returns what puts the previous ones back. */
export function readShardsFrom(dir: string): () => void {
  const previous = process.env.SHARDS_DIR;
  process.env.SHARDS_DIR = dir;
  resetStore();
  return () => {
    if (previous === undefined) delete process.env.SHARDS_DIR;
    else process.env.SHARDS_DIR = previous;
    resetStore();
  };
}
