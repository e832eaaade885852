// Reads and validates the whole data folder. Every problem in every file is collected; if there is any,
// an IngestError lists them all and nothing is built. `readFolder` hands each figure on as it is read and
// keeps none, so a build need not hold every state's figures at once (ingest/build.ts); `loadDataset`
// keeps them all, for tools that want the whole folder in memory.
import { join, relative } from 'node:path';
import { type Conflict, conflictProblem, sameDayConflicts } from './conflicts.ts';
import { type Problem, Problems } from './errors.ts';
import type { Dataset, Figure, Line, State } from './model-types.ts';
import { listCsv, readDataFile, shown } from './read.ts';
import { PUBLICATION_COLUMNS, type PublicationContext, parsePublication } from './sources/publication.ts';
import { DATASET_FILES, DATASET_NAMES, type DatasetRecord, columnsOf, parseDatasetFile } from './sources/datasets.ts';
import type { Publication } from './sources/header.ts';
import { type PublishedRanking, RANKING_COLUMNS, parseRanking } from './sources/ranking.ts';
import {
  BASES_COLUMNS,
  CATEGORIES_COLUMNS,
  LINE_IDS_COLUMNS,
  LINES_COLUMNS,
  STATES_COLUMNS,
  parseBases,
  parseCategories,
  parseLineIds,
  parseLines,
  parseStates,
} from './sources/registries.ts';

/** The data folder read and checked, but for its figures, which went to `readFolder`'s `onFigure`. */
export interface Folder extends Omit<Dataset, 'figures'> {
  figureCount: number;
  /** The published rankings served (rankings/): one per state (or US) and period, an office's before a press copy. */
  rankings: PublishedRanking[];
  /** True when a problem is known already: the build will be refused, so there is nothing to model. */
  failed: boolean;
  /**
   * Adds the same-day conflicts (ingest/conflicts.ts), which need the figures, then the problems reported
   * after them, in the order one pass over the folder reports them; throws an IngestError if there is any.
   */
  finish(conflicts: Conflict[]): void;
}

type Registries = Pick<Dataset, 'states' | 'categories' | 'bases' | 'lines'> & {
  /** Line taxonomies by state, ids or not: what publications are checked against. */
  taxonomy: Map<string, Map<string, Omit<Line, 'id'>>>;
  basesRead: boolean;
};

function readRegistries(dataDir: string, problems: Problems): Registries {
  const statesCsv = readDataFile(join(dataDir, 'states.csv'), STATES_COLUMNS, problems);
  const categoriesCsv = readDataFile(join(dataDir, 'categories.csv'), CATEGORIES_COLUMNS, problems);
  const states = statesCsv ? parseStates(statesCsv, problems) : new Map<string, State>();
  const categories = categoriesCsv ? parseCategories(categoriesCsv, problems) : [];
  const basesCsv = readDataFile(join(dataDir, 'bases.csv'), BASES_COLUMNS, problems);
  const bases = basesCsv ? parseBases(basesCsv, states, problems) : new Map<string, string>();

  const taxonomy = new Map<string, Map<string, Omit<Line, 'id'>>>();
  const lineFiles = new Map<string, string>();
  for (const path of listCsv(join(dataDir, 'lines'))) {
    const state = path.match(/([^/]+)\.csv$/)![1];
    if (!states.has(state)) {
      problems.add(
        shown(path),
        1,
        1,
        `lines file for unknown state '${state}': expected lines/<STATE>.csv with a code from states.csv`,
      );
      continue;
    }
    const csv = readDataFile(path, LINES_COLUMNS, problems);
    if (csv) taxonomy.set(state, parseLines(csv, state, categories, problems));
    lineFiles.set(state, shown(path));
  }

  const idsPath = join(dataDir, 'line-ids.csv');
  const idsCsv = taxonomy.size ? readDataFile(idsPath, LINE_IDS_COLUMNS, problems) : null;
  const ids = idsCsv ? parseLineIds(idsCsv, problems) : new Map<string, number>();
  const lines = new Map<string, Map<string, Line>>();
  let nextId = Math.max(0, ...ids.values()) + 1;
  for (const [state, byCode] of taxonomy) {
    const withIds = new Map<string, Line>();
    for (const line of byCode.values()) {
      const id = ids.get(`${state} ${line.sourceCode}`);
      if (id === undefined) {
        // An unreadable registry is one problem already, not one more per line.
        if (idsCsv)
          problems.add(
            shown(idsPath),
            1,
            1,
            `line ${state} '${line.sourceCode}' (${lineFiles.get(state)}) has no id: add the row ` +
              `'${nextId++},${state},${line.sourceCode}' (the next unused id)`,
          );
        continue;
      }
      withIds.set(line.sourceCode, { ...line, id });
    }
    lines.set(state, withIds);
  }
  return { states, categories, bases, lines, taxonomy, basesRead: basesCsv !== null };
}

function readRecords(dataDir: string, today: string, problems: Problems): Dataset['records'] {
  const records = Object.fromEntries(DATASET_NAMES.map((name) => [name, [] as DatasetRecord[]])) as Dataset['records'];
  for (const name of DATASET_NAMES) {
    const dir = join(dataDir, 'datasets', DATASET_FILES[name].folder);
    for (const path of listCsv(dir)) {
      const csv = readDataFile(path, columnsOf(name), problems, true);
      if (!csv) continue;
      const id = `${DATASET_FILES[name].folder}/${relative(dir, path).replace(/\.csv$/, '')}`;
      records[name].push(...parseDatasetFile(name, csv, id, today, problems));
    }
  }
  return records;
}

/**
 * The rankings of rankings/, one served per state and period: an office's publication before a press copy of
 * it (data/README.md, "Office before press"); two of the same rank for one state and period are a problem.
 */
function readRankings(
  dataDir: string,
  states: Registries['states'],
  today: string,
  problems: Problems,
): PublishedRanking[] {
  const dir = join(dataDir, 'rankings');
  const served = new Map<string, PublishedRanking>();
  for (const path of listCsv(dir)) {
    const csv = readDataFile(path, RANKING_COLUMNS, problems, true);
    if (!csv) continue;
    const ranking = parseRanking(csv, `rankings/${relative(dir, path).replace(/\.csv$/, '')}`, states, today, problems);
    if (!ranking) continue;
    const key = `${ranking.state} ${ranking.period}`;
    const other = served.get(key);
    if (!other || (other.pub.secondary && !ranking.pub.secondary)) served.set(key, ranking);
    else if (other.pub.secondary === ranking.pub.secondary)
      problems.add(
        ranking.pub.file,
        1,
        1,
        `a second ranking for ${ranking.state} ${ranking.period} (the first is ${other.pub.file}): one ranking ` +
          `is served per state and period; keep the one the publication of record printed`,
      );
  }
  return [...served.values()].sort((a, b) =>
    a.state < b.state ? -1 : a.state > b.state ? 1 : a.period < b.period ? -1 : a.period > b.period ? 1 : 0,
  );
}

/** Reads and checks every file of `dataDir` once; `onFigure` gets each figure, in reading order. */
export function readFolder(dataDir: string, onFigure: (f: Figure) => void): Folder {
  const problems = new Problems();
  const registries = readRegistries(dataDir, problems);
  const { states, bases, basesRead } = registries;
  const today = new Date().toISOString().slice(0, 10);

  const publications: Publication[] = [];
  const pubDir = join(dataDir, 'publications');
  const context: PublicationContext = { states, lines: registries.taxonomy, today, counties: new Map() };
  /**
   * Each report date's first publication with an exact figure: same-day conflicts are reported date by date in this
   * order.
   */
  const dateRank = new Map<string, number>();
  /** A figure whose state and period type bases.csv lacks, the first of each: reported after the conflicts. */
  const missingBases = new Map<string, Problem>();
  let figureCount = 0;
  for (const path of listCsv(pubDir)) {
    const csv = readDataFile(path, PUBLICATION_COLUMNS, problems, true);
    if (!csv) continue;
    const id = relative(pubDir, path).replace(/\.csv$/, '');
    const parsed = parsePublication(csv, id, context, problems);
    if (!parsed) continue;
    publications.push(parsed.pub);
    for (const f of parsed.figures) {
      if (f.exact && !dateRank.has(f.pub.reportDate)) dateRank.set(f.pub.reportDate, publications.length - 1);
      const key = `${f.state}|${f.period.type}`;
      if (basesRead && !bases.has(key) && !missingBases.has(key))
        missingBases.set(key, {
          file: f.pub.file,
          line: f.fileLine,
          column: 1,
          message:
            `no basis for ${f.state} ${f.period.type} figures: add '${f.state},${f.period.type},<what this premium ` +
            `is, and whose compilation>,' to ${shown(join(dataDir, 'bases.csv'))}`,
        });
      onFigure(f);
    }
    figureCount += parsed.figures.length;
  }
  // Checked now, before any state is built; reported after the publications' problems and conflicts, as always.
  const datasetProblems = new Problems();
  const records = readRecords(dataDir, today, datasetProblems);
  const rankings = readRankings(dataDir, states, today, datasetProblems);

  const { taxonomy: _taxonomy, basesRead: _basesRead, ...dataset } = registries;
  return {
    ...dataset,
    // The rankings' publications too: the insurers answers cite them, by their place in the index's list.
    publications: [...publications, ...rankings.map((r) => r.pub)],
    records,
    rankings,
    figureCount,
    failed:
      problems.list.length > 0 || datasetProblems.list.length > 0 || missingBases.size > 0 || publications.length === 0,
    finish(conflicts) {
      const position = new Map(publications.map((p, i) => [p, i]));
      const order = (c: Conflict) => [
        dateRank.get(c.figure.pub.reportDate)!,
        position.get(c.figure.pub)!,
        c.figure.fileLine,
      ];
      const sorted = conflicts
        .map((c) => ({ c, key: order(c) }))
        .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
      for (const { c } of sorted) {
        const p = conflictProblem(c);
        problems.add(p.file, p.line, p.column, p.message);
      }
      problems.append(datasetProblems);
      for (const p of missingBases.values()) problems.add(p.file, p.line, p.column, p.message);
      if (publications.length === 0 && problems.list.length === 0)
        problems.add(shown(pubDir), 1, 1, 'no publication files: expected publications/<publisher>/<id>.csv');
      problems.throwIfAny();
    },
  };
}

/** The whole data folder, every figure in memory. */
export function loadDataset(dataDir: string): Dataset {
  const figures: Figure[] = [];
  const {
    figureCount: _count,
    failed: _failed,
    finish,
    rankings: _rankings,
    ...folder
  } = readFolder(dataDir, (f) => figures.push(f));
  finish(sameDayConflicts(figures));
  return { ...folder, figures };
}
