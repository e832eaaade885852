// The coverage the prerendered pages and /llms.txt are generated from: the build's own /v1/coverage body.
import type { CoverageItem } from '../domain/contract.ts';
import { coverage } from '../api/store.ts';
import { useBuildShards } from './build-shards.ts';

export async function buildCoverage(): Promise<readonly CoverageItem[]> {
  await useBuildShards();
  return coverage();
}
