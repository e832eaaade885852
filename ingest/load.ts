// Reads and validates the whole data folder. Every problem in every file is collected; if there is
// any, an IngestError lists them all and nothing downstream runs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readCsv } from './csv.ts';
import { Problems } from './errors.ts';
import type { Dataset, Figure, Line, Publication } from './model-types.ts';
import { PUBLICATION_COLUMNS, parsePublication } from './sources/publication.ts';
import {
  CATEGORIES_COLUMNS, LINE_IDS_COLUMNS, LINES_COLUMNS, STATES_COLUMNS,
  parseCategories, parseLineIds, parseLines, parseStates,
} from './sources/registries.ts';

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
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      problems.add(shown(path), 1, 1, 'the file is missing');
      return null;
    }
    return readCsv(shown(path), text, columns, problems, { metaHeader });
  };

  const statesCsv = read(join(dataDir, 'states.csv'), STATES_COLUMNS);
  const categoriesCsv = read(join(dataDir, 'categories.csv'), CATEGORIES_COLUMNS);
  const states = statesCsv ? parseStates(statesCsv, problems) : new Map();
  const categories = categoriesCsv ? parseCategories(categoriesCsv, problems) : [];

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
        problems.add(shown(idsPath), 1, 1, `line ${state} '${line.sourceCode}' (${lineFiles.get(state)}) has no id: add the row '${nextId++},${state},${line.sourceCode}' (the next unused id)`);
        continue;
      }
      withIds.set(line.sourceCode, { ...line, id });
    }
    lines.set(state, withIds);
  }

  const publications: Publication[] = [];
  const figures: Figure[] = [];
  const pubDir = join(dataDir, 'publications');
  const counties = new Map<string, { name: string; file: string; line: number }>();
  for (const path of listCsv(pubDir)) {
    const csv = read(path, PUBLICATION_COLUMNS, true);
    if (!csv) continue;
    const id = relative(pubDir, path).replace(/\.csv$/, '');
    const parsed = parsePublication(csv, id, states, taxonomy, problems, counties);
    if (!parsed) continue;
    publications.push(parsed.pub);
    figures.push(...parsed.figures);
  }
  if (publications.length === 0 && problems.list.length === 0)
    problems.add(shown(pubDir), 1, 1, 'no publication files: expected publications/<publisher>/<id>.csv');

  problems.throwIfAny();
  return { states, categories, lines, publications, figures };
}
