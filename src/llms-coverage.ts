// The coverage /llms.txt is generated from at build time: the build's own /v1/coverage body (the build
// runs the ingest first, `npm run build`), else, for a build with no shards at all (a test build on a
// fresh clone), the ingest of the same data folder computed into a temporary folder.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoverageItem, coverageResponse } from '../domain/contract.ts';
import { MANIFEST } from '../domain/manifest.ts';
import { requiredFreeBody } from '../api/http.ts';
import { shardsDir } from '../api/store.ts';

export async function buildCoverage(): Promise<CoverageItem[]> {
  if (existsSync(join(shardsDir(), MANIFEST))) return coverageResponse.parse(JSON.parse(Buffer.from(requiredFreeBody('coverage.json')).toString('utf8')));
  console.warn(`llms.txt: no shards in ${shardsDir()}; taking the coverage from an ingest of ${process.env.DATA_DIR ?? 'data'}`);
  const { buildShards } = await import('../ingest/build.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'slmd-llms-'));
  try {
    buildShards(process.env.DATA_DIR ?? 'data', join(tmp, 'shards'));
    return coverageResponse.parse(JSON.parse(readFileSync(join(tmp, 'shards', 'free', 'coverage.json'), 'utf8')));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
