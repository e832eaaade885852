// data folder → validated dataset → model with vintages → shard files and their manifest, written atomically.
import { MANIFEST, type Manifest, sha256 } from '../domain/manifest.ts';
import { loadDataset } from './load.ts';
import { buildModel } from './model.ts';
import { renderShards } from './shards.ts';
import { writeAtomically } from './write.ts';

export interface BuildResult {
  publications: number;
  figures: number;
  /** Records of the further datasets (datasets/), by dataset. */
  records: Record<string, number>;
  files: number;
  bytes: number;
}

/** Every file with its SHA-256, which the server checks before serving a file (api/store.ts). */
function manifestOf(files: Map<string, string>): string {
  const manifest: Manifest = { files: Object.fromEntries([...files].map(([path, text]) => [path, sha256(Buffer.from(text))])) };
  return JSON.stringify(manifest, null, 1) + '\n';
}

export function buildShards(dataDir: string, outDir: string): BuildResult {
  const dataset = loadDataset(dataDir);
  const files = renderShards(dataset, buildModel(dataset));
  files.set(MANIFEST, manifestOf(files));
  writeAtomically(outDir, files);
  let bytes = 0;
  for (const text of files.values()) bytes += Buffer.byteLength(text);
  const records = Object.fromEntries(Object.entries(dataset.records).map(([name, rs]) => [name, rs.length]));
  return { publications: dataset.publications.length, figures: dataset.figures.length, records, files: files.size, bytes };
}
