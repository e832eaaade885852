// The coverage the prerendered pages and /llms.txt are generated from: the build's own /v1/coverage body.
import { type CoverageItem, coverageResponse } from '../domain/contract-discovery.ts';
import { requiredFreeBody } from '../api/http.ts';
import { useBuildShards } from './build-shards.ts';

export async function buildCoverage(): Promise<CoverageItem[]> {
  await useBuildShards();
  return coverageResponse.parse(JSON.parse(Buffer.from(requiredFreeBody('coverage.json')).toString('utf8')));
}
