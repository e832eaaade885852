// Builds shards from a data folder into a fresh temporary directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildShards } from '../../ingest/build.ts';

export const FIXTURE_DATA = join(import.meta.dirname, '..', 'fixtures', 'data');
export const REAL_DATA = join(import.meta.dirname, '..', '..', 'data');

export function buildInto(dataDir: string): string {
  const out = join(mkdtempSync(join(tmpdir(), 'slmd-shards-')), 'shards');
  buildShards(dataDir, out);
  return out;
}
