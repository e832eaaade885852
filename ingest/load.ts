// Reads and validates the whole data folder. Every problem in every file is collected; if there is
// any, an IngestError lists them all and nothing downstream runs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkSameDayConflicts } from './conflicts.ts';
import { readCsv } from './csv.ts';
import { decodeText } from './encoding.ts';
import { Problems } from './errors.ts';
import type { Dataset, Figure, Line, Publication } from './model-types.ts';
import { PUBLICATION_COLUMNS, type PublicationContext, parsePublication } from './sources/publication.ts';
import { DATASET_FILES, DATASET_NAMES, type DatasetRecord, columnsOf, parseDatasetFile } from './sources/datasets.ts';
import {
  BASES_COLUMNS, CATEGORIES_COLUMNS, LINE_IDS_COLUMNS, LINES_COLUMNS, STATES_COLUMNS,
  parseBases, parseCategories, parseLineIds, parseLines, parseStates,
} from './sources/registries.ts';

/**
 * The largest data file the ingest reads: the largest real publication is a few KB, so anything near
 * this is not a publication (a 50 MB junk file once took half a minute and gigabytes to reject).
 */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

function listCsv(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listCsv(path);
    return name.endsWith('.csv') ? [path] : [];
  });
}

export function loadDataset(dataDir: string): Dataset {
  const problems = new Problems();
  const shown = (path: string) => relative(process.cwd(), path) || path;
  const read = (path: string, columns: readonly string[], metaHeader = false) => {
    let bytes: Buffer;
    try {
      const size = statSync(path).size;
      if (size > MAX_FILE_BYTES) {
        problems.add(shown(path), 1, 1, `the file is ${size} bytes, over the ${MAX_FILE_BYTES}-byte (5 MB) limit for a data file: is it the right file?`);
        return null;
      }
      bytes = readFileSync(path);
    } catch {
      problems.add(shown(path), 1, 1, 'the file is missing');
      return null;
    }
    const text = decodeText(shown(path), bytes, problems);
    return text === null ? null : readCsv(shown(path), text, columns, problems, { metaHeader });
  };

  const statesCsv = read(join(dataDir, 'states.csv'), STATES_COLUMNS);
  const categoriesCsv = read(join(dataDir, 'categories.csv'), CATEGORIES_COLUMNS);
  const states = statesCsv ? parseStates(statesCsv, problems) : new Map();
  const categories = categoriesCsv ? parseCategories(categoriesCsv, problems) : [];
  const basesPath = join(dataDir, 'bases.csv');
  const basesCsv = read(basesPath, BASES_COLUMNS);
  const bases = basesCsv ? parseBases(basesCsv, states, problems) : new Map<string, string>();

  const taxonomy = new Map<string, Map<string, Omit<Line, 'id'>>>();
  const lineFiles = new Map<string, string>();
  for (const path of listCsv(join(dataDir, 'lines'))) {
    const state = path.match(/([^/]+)\.csv$/)![1];
    if (!states.has(state)) {
      problems.add(shown(path), 1, 1, `lines file for unknown state '${state}': expected lines/<STATE>.csv with a code from states.csv`);
      continue;
    }
    const csv = read(path, LINES_COLUMNS);
    if (csv) taxonomy.set(state, parseLines(csv, state, categories, problems));
    lineFiles.set(state, shown(path));
  }

  const idsPath = join(dataDir, 'line-ids.csv');
  const idsCsv = taxonomy.size ? read(idsPath, LINE_IDS_COLUMNS) : null;
  const ids = idsCsv ? parseLineIds(idsCsv, problems) : new Map<string, number>();
  const lines = new Map<string, Map<string, Line>>();
  let nextId = Math.max(0, ...ids.values()) + 1;
  for (const [state, byCode] of taxonomy) {
    const withIds = new Map<string, Line>();
    for (const line of byCode.values()) {
      const id = ids.get(`${state} ${line.sourceCode}`);
      if (id === undefined) {
        // An unreadable registry is one problem already, not one more per line.
        if (idsCsv) problems.add(shown(idsPath), 1, 1, `line ${state} '${line.sourceCode}' (${lineFiles.get(state)}) has no id: add the row '${nextId++},${state},${line.sourceCode}' (the next unused id)`);
        continue;
      }
      withIds.set(line.sourceCode, { ...line, id });
    }
    lines.set(state, withIds);
  }

  const publications: Publication[] = [];
  const figures: Figure[] = [];
  const pubDir = join(dataDir, 'publications');
  const context: PublicationContext = { states, lines: taxonomy, today: new Date().toISOString().slice(0, 10), counties: new Map() };
  for (const path of listCsv(pubDir)) {
    const csv = read(path, PUBLICATION_COLUMNS, true);
    if (!csv) continue;
    const id = relative(pubDir, path).replace(/\.csv$/, '');
    const parsed = parsePublication(csv, id, context, problems);
    if (!parsed) continue;
    publications.push(parsed.pub);
    figures.push(...parsed.figures);
  }
  checkSameDayConflicts(figures, problems);

  const records = Object.fromEntries(DATASET_NAMES.map((name) => [name, [] as DatasetRecord[]])) as Dataset['records'];
  for (const name of DATASET_NAMES) {
    const dir = join(dataDir, 'datasets', DATASET_FILES[name].folder);
    for (const path of listCsv(dir)) {
      const csv = read(path, columnsOf(name), true);
      if (!csv) continue;
      const id = `${DATASET_FILES[name].folder}/${relative(dir, path).replace(/\.csv$/, '')}`;
      records[name].push(...parseDatasetFile(name, csv, id, context.today, problems));
    }
  }
  if (basesCsv) {
    const missing = new Set<string>();
    for (const f of figures) {
      const key = `${f.state}|${f.period.type}`;
      if (bases.has(key) || missing.has(key)) continue;
      missing.add(key);
      problems.add(f.pub.file, f.fileLine, 1, `no basis for ${f.state} ${f.period.type} figures: add '${f.state},${f.period.type},<what this premium is, and whose compilation>,' to ${shown(basesPath)}`);
    }
  }
  if (publications.length === 0 && problems.list.length === 0)
    problems.add(shown(pubDir), 1, 1, 'no publication files: expected publications/<publisher>/<id>.csv');

  problems.throwIfAny();
  return { states, categories, lines, bases, publications, figures, records };
}
