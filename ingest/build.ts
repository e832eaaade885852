// data folder → shard files and their manifest, one state at a time, so memory is that of the largest
// state, not of the folder:
//   1. every file is read and checked once (ingest/load.ts); each figure is parked on disk with its
//      state's (ingest/spill.ts), beside the output;
//   2. state by state, in code order: its figures are read back and checked for same-day conflicts,
//      then modelled and rendered, and its files written to the staging tree (ingest/write.ts);
//   3. the files that cover every state (coverage, index, the further datasets) and the manifest are
//      written last, and the staging tree swapped into place.
// A problem anywhere, found in 1 or in 2, refuses the whole build: every problem is reported, the work
// folder is deleted and the previous build stays as it was. A state's files depend on no other state's
// figures (only on the list of every publication, known after step 1), so the bytes are those of a
// build that held everything at once.
import { join } from 'node:path';
import { type Conflict, sameDayConflicts } from './conflicts.ts';
import { type Folder, readFolder } from './load.ts';
import { buildModel } from './model.ts';
import { NATIONAL } from '../domain/insurers.ts';
import type { Dataset, Figure } from './model-types.ts';
import { type Citations, type StateShards, publicationRefs, renderShared } from './shards.ts';
import { renderState } from './state-shards.ts';
import { BulkFiles } from './bulk.ts';
import { Spill } from './spill.ts';
import { Staging } from './write.ts';

export interface BuildResult {
  publications: number;
  figures: number;
  /** Records of the further datasets (datasets/), by dataset. */
  records: Record<string, number>;
  files: number;
  bytes: number;
}

/** The folder as one state's model and rendering see it: its figures, and the lines and publications they use. */
function stateDataset(folder: Folder, code: string, figures: Figure[]): Dataset {
  const lines = folder.lines.get(code);
  return {
    states: folder.states,
    categories: folder.categories,
    bases: folder.bases,
    records: folder.records,
    lines: new Map(lines ? [[code, lines]] : []),
    publications: [...new Set(figures.map((f) => f.pub))],
    figures,
  };
}

/**
 * Checks state `code`'s figures for same-day conflicts (adding them to `conflicts`), and, unless the build
 * is refused already, writes its files. A function of its own so that the state's figures and model are
 * garbage once it returns, not held while the next state is read.
 */
function buildState(
  folder: Folder,
  code: string,
  spill: Spill,
  conflicts: Conflict[],
  citations: Citations,
  staging: Staging,
  bulk: BulkFiles,
): StateShards | null {
  const figures = spill.read(code);
  // Conflicts are looked for even in a refused build, so that it reports every problem at once.
  conflicts.push(...sameDayConflicts(figures));
  if (folder.failed || conflicts.length) return null;
  const dataset = stateDataset(folder, code, figures);
  const rankings = folder.rankings.filter((r) => r.state === code);
  return renderState(
    dataset,
    buildModel(dataset),
    code,
    citations,
    rankings,
    (path, text) => staging.write(path, text),
    bulk,
  );
}

export function buildShards(dataDir: string, outDir: string): BuildResult {
  const staging = new Staging(outDir);
  try {
    const spill = new Spill(join(staging.work, 'figures'));
    const folder = readFolder(dataDir, (f) => spill.add(f));
    const citations: Citations = publicationRefs(folder.publications);
    const conflicts: Conflict[] = [];
    const states: StateShards[] = [];
    const bulk = new BulkFiles(staging);
    for (const code of [...folder.states.keys()].sort()) {
      const shards = buildState(folder, code, spill, conflicts, citations, staging, bulk);
      if (shards) states.push(shards);
    }
    folder.finish(conflicts);
    for (const [path, text] of renderShared(
      states,
      citations,
      folder.records,
      folder.rankings.filter((r) => r.state === NATIONAL),
      bulk,
    ))
      staging.write(path, text);
    staging.commit();
    const records = Object.fromEntries(Object.entries(folder.records).map(([name, rs]) => [name, rs.length]));
    return {
      publications: folder.publications.length,
      figures: folder.figureCount,
      records,
      files: staging.files,
      bytes: staging.bytes,
    };
  } finally {
    staging.remove();
  }
}
