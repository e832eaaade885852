// The build's manifest: written by the ingest, checked by the API before it serves a shard.
import { createHash } from 'node:crypto';

export const MANIFEST = 'manifest.json';

/** `manifest.json`: every other file of the build, by path below the shards folder, with its SHA-256 (hex). */
export interface Manifest {
  files: Record<string, string>;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
