// Builds shards from a data folder into a fresh temporary directory, and points the API's store at them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readShardsFrom } from '../../api/store.ts';
import { buildShards } from '../../ingest/build.ts';

export const FIXTURE_DATA = join(import.meta.dirname, '..', 'fixtures', 'data');
export const REAL_DATA = join(import.meta.dirname, '..', '..', 'data');

export function buildInto(dataDir: string): string {
  const out = join(mkdtempSync(join(tmpdir(), 'slmd-shards-')), 'shards');
  buildShards(dataDir, out);
  return out;
}

/** Serves the shards at `dir` in this process (SHARDS_DIR); returns what puts the previous ones back. */
export const serveShards = readShardsFrom;

/** For a whole test file: serve shards built from `dataDir`, and restore the previous ones after. */
export function useShardsOf(dataDir: string): void {
  let restore = () => {};
  beforeAll(() => {
    restore = serveShards(buildInto(dataDir));
  });
  afterAll(() => restore());
}
