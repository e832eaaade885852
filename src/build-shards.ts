// The shards a build's prerendered pages read: the ones the build runs over (`npm run build` runs the
// ingest first), else, for a build with no shards at all (a test build on a fresh clone), an ingest of
// the data folder (DATA_DIR, else data/) into a temporary folder, once per data folder and process.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MANIFEST } from '../domain/manifest.ts';
import { readShardsFrom, shardsDir } from '../api/store.ts';

/** Data folder → the temporary shards ingested from it. */
const ingested = new Map<string, string>();

async function ingestIntoTemporaryFolder(data: string): Promise<string> {
  console.warn(`pages: no shards in ${shardsDir()}; building them from an ingest of ${data}`);
  const { buildShards } = await import('../ingest/build.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'slmd-pages-'));
  process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
  buildShards(data, join(tmp, 'shards'));
  return join(tmp, 'shards');
}

/** Makes the API's store (api/store.ts) read a complete set of shards in this build process. */
export async function useBuildShards(): Promise<void> {
  const own = [...ingested.values()].includes(shardsDir());
  if (!own && existsSync(join(shardsDir(), MANIFEST))) return;
  const data = resolve(process.env.DATA_DIR ?? 'data');
  let dir = ingested.get(data);
  if (!dir) ingested.set(data, (dir = await ingestIntoTemporaryFolder(data)));
  if (shardsDir() !== dir) readShardsFrom(dir); // for the rest of the build
}
