// data folder → validated dataset → model with vintages → shard files, written atomically.
import { loadDataset } from './load.ts';
import { buildModel } from './model.ts';
import { renderShards } from './shards.ts';
import { writeAtomically } from './write.ts';

export interface BuildResult {
  publications: number;
  figures: number;
  files: number;
  bytes: number;
}

export function buildShards(dataDir: string, outDir: string): BuildResult {
  const dataset = loadDataset(dataDir);
  const files = renderShards(dataset, buildModel(dataset));
  writeAtomically(outDir, files);
  let bytes = 0;
  for (const text of files.values()) bytes += Buffer.byteLength(text);
  return { publications: dataset.publications.length, figures: dataset.figures.length, files: files.size, bytes };
}
