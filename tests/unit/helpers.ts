// Small helpers for the ingest unit tests: copy the fixture dataset to a temp dir, edit one thing in
// it (every edit checks that it really changed the file), build into a fresh temp dir, read shards.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeEach, expect } from 'vitest';
import type { SeriesShard, SnapshotTuple } from '../../domain/shard-types.ts';
import { buildShards } from '../../ingest/build.ts';
import { IngestError, type Problem } from '../../ingest/errors.ts';
import { csvFields } from '../support/csv.ts';

import { FIXTURE_DATA } from '../support/shards.ts';

export { FIXTURE_DATA, REAL_DATA } from '../support/shards.ts';

/** The private series shard and its twelve-column snapshot tuple, as the ingest writes and the API reads them. */
export type { SeriesShard, SnapshotTuple };
export type ShardRow = SeriesShard['rows'][number];

/** One temp root per test file; `cleanup()` removes it. */
export function tempRoot(prefix: string) {
  const root = mkdtempSync(join(tmpdir(), `slmd-unit-${prefix}-`));
  let n = 0;
  return {
    root,
    /** A fresh, empty directory below the root. */
    dir(name = 'd'): string {
      return mkdtempSync(join(root, `${name}-${n++}-`));
    },
    /** A copy of the fixture dataset. */
    fixtureCopy(): string {
      const data = join(this.dir('data'), 'data');
      cpSync(FIXTURE_DATA, data, { recursive: true });
      return data;
    },
    /** Builds `dataDir` into a new `shards` folder and returns its path. */
    build(dataDir: string): string {
      const out = join(this.dir('out'), 'shards');
      buildShards(dataDir, out);
      return out;
    },
    cleanup(): void {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * For a test file of bad input: a fresh good build before each test (so a build that wrongly succeeds
 * cannot affect the next), and the checks that a build over it is refused and leaves it byte for byte
 * as it was.
 */
export function refusals(prefix: string) {
  const tmp = tempRoot(prefix);
  let shards = '';
  let before = new Map<string, Buffer>();
  beforeEach(() => {
    shards = tmp.build(tmp.fixtureCopy());
    before = readTree(shards);
  });
  afterAll(() => tmp.cleanup());
  return {
    tmp,
    /** The good build's folder, which failing builds are built over. */
    shards: () => shards,
    /** The good build's files. */
    built: () => before,
    /** Builds `data` over the good shards; returns the problems of the IngestError it must throw. */
    failingBuild(data: string): Problem[] {
      let error: unknown;
      try {
        buildShards(data, shards);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(IngestError);
      return (error as IngestError).problems;
    },
    expectUntouched(): void {
      const after = readTree(shards);
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [path, bytes] of before) expect(after.get(path)!.equals(bytes), path).toBe(true);
      // no temporary or old tree left beside it
      expect(readdirSync(dirname(shards))).toEqual(['shards']);
    },
  };
}

/** Checks that `problems` is one problem in `file` (a path ending) at `line` (and `column`), saying each of `says`. */
export function expectOneProblem(
  problems: Problem[],
  want: { file: string; line: number; column?: number; says: string[] },
): Problem {
  expect(problems).toHaveLength(1);
  const [p] = problems;
  expect(p.file.endsWith(`/${want.file}`) || p.file === want.file, `${p.file} should end with ${want.file}`).toBe(true);
  expect(p.line).toBe(want.line);
  if (want.column !== undefined) expect(p.column).toBe(want.column);
  for (const s of want.says) expect(p.message).toContain(s);
  return p;
}

/** Replaces exactly one occurrence of `from` in data file `rel` (fails if it is not there exactly once). */
export function replaceOnce(dataDir: string, rel: string, from: string, to: string): void {
  const path = join(dataDir, rel);
  const text = readFileSync(path, 'utf8');
  const count = text.split(from).length - 1;
  if (count !== 1) throw new Error(`fixture edit: expected '${from}' once in ${rel}, found ${count} times`);
  writeFileSync(path, text.replace(from, to));
}

/**
 * Appends CSV lines to a data file (the file is expected to end with a newline). In a publication file
 * the `# rows: N` header counts them too, as whoever adds rows must.
 */
export function appendLines(dataDir: string, rel: string, ...lines: string[]): void {
  const path = join(dataDir, rel);
  const text = readFileSync(path, 'utf8');
  if (!text.endsWith('\n')) throw new Error(`fixture edit: ${rel} does not end with a newline`);
  const counted = text.replace(/^# rows: (\d+)$/m, (_, n: string) => `# rows: ${Number(n) + lines.length}`);
  writeFileSync(path, counted + lines.map((l) => `${l}\n`).join(''));
}

export function writeData(dataDir: string, rel: string, text: string): void {
  writeFileSync(join(dataDir, rel), text);
}

/** A publication file: the `# key: value` header (with `# rows`), the CSV header, then `rows`. */
export function publication(
  h: { publisher?: string; title: string; report_date: string; data_as_of: string },
  rows: string[],
): string {
  return [
    `# publisher: ${h.publisher ?? 'FSLSO'}`,
    '# source: Fixture office monthly newsletter',
    `# title: ${h.title}`,
    `# url: https://example.org/${encodeURIComponent(h.title)}`,
    `# report_date: ${h.report_date}`,
    '# report_date_basis: printed',
    `# data_as_of: ${h.data_as_of}`,
    `# rows: ${rows.length}`,
    'state,period,line,county,insurer,metric,value,qualifier,printed,note',
    ...rows,
    '',
  ].join('\n');
}

/** Every file below `dir`, relative path → bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

/** A snapshot's sources column (index 10): each figure named (a series field, or `printed.<key>`) → `positions`. */
export const cited = (positions: number[], ...figures: string[]): Record<string, number[]> =>
  Object.fromEntries(figures.map((f) => [f, positions]));

/**
 * Where the number `value` occurs in the JSON files below `shards`: one `file path.to.it` per occurrence
 * (array indexes and object keys joined by dots), in file order.
 */
export function numberPaths(shards: string, value: number): string[] {
  const found: string[] = [];
  const walk = (file: string, node: unknown, path: string[]) => {
    if (node === value) found.push(`${file} ${path.join('.')}`);
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(file, v, [...path, k]);
  };
  for (const [file, bytes] of readTree(shards))
    if (file.endsWith('.json')) walk(file, JSON.parse(bytes.toString('utf8')), []);
  return found;
}

/**
 * A build's files with what cites publications taken out: index.json's list of publications, the
 * sources column of every snapshot (positions in that list), the insurer lists', the rankings' and the samples'
 * publications, and the manifest's hashes (its file names stay). Two builds whose figures are the same
 * but whose sources differ are equal here.
 */
export function uncited(tree: Map<string, Buffer>): Map<string, any> {
  const out = new Map<string, any>();
  for (const [path, bytes] of tree) {
    // The bulk CSV names each figure's publication in its report_date and publication_url columns, before latest;
    // the Parquet file holds the same rows, and the data package lists the sources and the files' hashes.
    if (path === 'private/bulk/premium.csv') {
      out.set(
        path,
        bytes
          .toString('utf8')
          .split('\r\n')
          .map((line) => csvFields(line).filter((_, i) => i !== 12 && i !== 13)),
      );
      continue;
    }
    if (path === 'private/bulk/premium.parquet') continue;
    if (path === 'free/bulk/datapackage.json') {
      const { sources: _sources, resources, ...rest } = JSON.parse(bytes.toString('utf8'));
      out.set(path, {
        ...rest,
        resources: resources.map(({ bytes: _bytes, hash: _hash, ...r }: Record<string, unknown>) => r),
      });
      continue;
    }
    // A CSV answer names each figure's publication in its last two columns (report_date, publication_url).
    if (path.endsWith('.csv')) {
      out.set(
        path,
        bytes
          .toString('utf8')
          .split('\r\n')
          .map((line) => csvFields(line).slice(0, -2)),
      );
      continue;
    }
    const body = JSON.parse(bytes.toString('utf8'));
    if (path === 'manifest.json') out.set(path, Object.keys(body.files));
    else if (path === 'private/index.json' || path.startsWith('free/sample/'))
      out.set(path, { ...body, publications: undefined });
    // Which publications exist and what each gave: the same tree, but for the publications themselves.
    else if (path.startsWith('free/publications/'))
      out.set(path, { ...body, report_dates: undefined, publications: undefined });
    else if (path.startsWith('private/insurers/'))
      out.set(path, { ...body, periods: body.periods.map((p: object) => ({ ...p, publications: undefined })) });
    else if (path.startsWith('private/rankings/'))
      out.set(path, { ...body, rankings: body.rankings.map((r: object) => ({ ...r, publications: undefined })) });
    else if (path.startsWith('private/series/'))
      out.set(path, {
        ...body,
        rows: body.rows.map((r: ShardRow) => ({
          ...r,
          snapshots: r.snapshots.map((t) => t.filter((_, i) => i !== 10)),
        })),
      });
    else out.set(path, body);
  }
  return out;
}

export function readJson<T = any>(shards: string, rel: string): T {
  return JSON.parse(readFileSync(join(shards, rel), 'utf8')) as T;
}

/** The row as of `date` (docs/design.md §1): the last snapshot with as_of <= date, or undefined. */
export function asOf(row: ShardRow | undefined, date: string): SnapshotTuple | undefined {
  let found: SnapshotTuple | undefined;
  for (const s of row?.snapshots ?? []) if (s[0] <= date) found = s;
  return found;
}

export function rowOf(shard: SeriesShard, period: string): ShardRow | undefined {
  return shard.rows.find((r) => r.period === period);
}

/** The publications a snapshot cites (its sources column, by figure), as positions in index.json, ascending. */
export const citedPositions = (sources: Record<string, number[]>): number[] =>
  [...new Set(Object.values(sources).flat())].sort((a, b) => a - b);
