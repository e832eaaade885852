// The series a premium or compare query reads: resolving state, line and county against the shard
// index (404s), then picking each row's vintage as of a date (docs/design.md §1-3).
import type { SeriesRow, SeriesValues } from '../../domain/contract.ts';
import { echo } from '../../domain/echo.ts';
import { notFound, unknownState } from '../../domain/errors.ts';
import { type Granularity, firstMonthKey, parsePeriod } from '../../domain/periods.ts';
import { precomputed } from '../json.ts';
import { citedPublications } from '../../domain/publications.ts';
import type { CsvSeries } from '../../domain/csv-answer.ts';
import type { IndexShard, PublicationRef, SeriesShard, StateIndex } from '../../domain/shard-types.ts';
import { ShardError, privateShard } from '../store.ts';
import { inForceOn, latestPublication } from '../../domain/vintages.ts';

function index(): IndexShard {
  const shard = privateShard<IndexShard>('index.json');
  if (!shard) throw new ShardError('private/index.json is not in the build: run the ingest');
  return shard;
}

/** The publications at these positions of the build's list, as an answer cites them. */
export function cite(positions: Iterable<number>): PublicationRef[] {
  return citedPublications(index().publications, positions);
}

export function stateIndex(state: string): StateIndex {
  const entry = index().states[state];
  if (!entry) throw unknownState(state);
  return entry;
}

const CATEGORY_PREFIX = 'category:';

export interface ResolvedLine {
  /** The response's `line`: `all`, the line's source_code or the category name. */
  echo: string;
  dir: string;
}

/**
 * docs/design.md §2: case-insensitive, first match wins: all, source_code, name, category. A
 * `category:` prefix asks for the category alone: a line named like its category (FL's line 1000
 * "Commercial Property") would otherwise hide the category from that state.
 */
export function resolveLine(state: string, entry: StateIndex, line: string): ResolvedLine {
  const wanted = line.toLowerCase();
  const unknownLine = () =>
    notFound(
      `unknown line ${echo(line)} for ${state}: expected all, a source_code, a line name or a category ` +
        `(optionally written category:<name>) listed by /v1/lines?state=${state}`,
    );
  const findCategory = (name: string) => {
    const category = entry.categories.find((c) => c.name.toLowerCase() === name);
    return category && { echo: category.name, dir: category.dir };
  };
  if (wanted.startsWith(CATEGORY_PREFIX)) {
    const category = findCategory(wanted.slice(CATEGORY_PREFIX.length).trim());
    if (!category) throw unknownLine();
    return category;
  }
  if (wanted === 'all') return { echo: 'all', dir: 'all' };
  const match =
    entry.lines.find((l) => l.source_code.toLowerCase() === wanted) ??
    entry.lines.find((l) => l.name.toLowerCase() === wanted);
  if (match) return { echo: match.source_code, dir: match.dir };
  const category = findCategory(wanted);
  if (category) return category;
  throw unknownLine();
}

/** The county folder, or 404 when the state has no county data or not this county. */
export function resolveCounty(state: string, entry: StateIndex, county: string): { name: string; dir: string } {
  if (!entry.counties.length)
    throw notFound(
      `no county data for ${state}: omit 'county' for statewide figures (see has_county_data in /v1/coverage)`,
    );
  const match = entry.counties.find((c) => c.name.toUpperCase() === county);
  if (!match)
    throw notFound(
      `unknown county ${echo(county)} for ${state}: expected one ` +
        `of ${entry.counties.map((c) => c.name.toUpperCase()).join(', ')}`,
    );
  return { name: county, dir: match.dir };
}

export interface SeriesQuery {
  state: string;
  lineDir: string;
  countyDir: string | null;
  granularity: Granularity;
  from?: string;
  to?: string;
  reportDate?: string;
}

export interface SeriesAnswer {
  data: SeriesRow[];
  /** The latest publication among the figures returned; null when there are none. */
  latest: { reportDate: string; dataAsOf: string } | null;
  /** Positions (in the index's publications) of every publication the rows show. */
  publications: number[];
}

/** A snapshot ready to answer with: its row is built (and serialised) once, when the shard loads. */
export interface PreparedSnapshot {
  asOf: string;
  reportDate: string;
  dataAsOf: string;
  published: boolean;
  values: SeriesValues;
  /** Positions (in the index's publications) of the publications the snapshot shows. */
  publications: number[];
  /** The same by figure: a series field or `printed.<key>` → the positions of the publications that printed it. */
  sources: Record<string, number[]>;
  /** `values` with the period and printed figures: what a series answer lists. */
  row: SeriesRow;
}
export interface PreparedRow {
  period: string;
  /** `YYYY-MM` of the period's first month: what from/to compare against. */
  firstMonth: string;
  snapshots: PreparedSnapshot[];
}

/**
 * What a CSV line needs of a row that the JSON answer does not say: the publications behind each figure and
 * the series' count unit. Kept beside each row object (built once per shard and shared by every answer).
 */
const rowProvenance = new WeakMap<SeriesRow, { sources: Record<string, number[]>; countUnit: string | null }>();

/** A series answer's rows with the publications behind each figure: what its CSV lines say (docs/design.md §11). */
export function csvSeries(state: string, line: string, granularity: string, rows: readonly SeriesRow[]): CsvSeries {
  const refs = index().publications;
  const provenance = rows.map((row) => {
    const known = rowProvenance.get(row);
    if (!known) throw new Error(`${state} ${row.period}: a row not read from a series shard`);
    return known;
  });
  return {
    state,
    line,
    granularity,
    countUnit: provenance[0]?.countUnit ?? null,
    rows: rows.map((row, i) => ({
      row,
      sources: Object.fromEntries(
        Object.entries(provenance[i].sources).map(([figure, at]) => [figure, at.map((p) => refs[p])]),
      ),
    })),
  };
}

function prepare(shard: SeriesShard): PreparedRow[] {
  return shard.rows.map(({ period, snapshots }) => ({
    period,
    firstMonth: firstMonthKey(parsePeriod(period)!),
    snapshots: snapshots.map(
      ([
        asOf,
        reportDate,
        dataAsOf,
        premium,
        policy_count,
        new_business_premium,
        renewal_premium,
        new_business_policy_pct,
        renewal_policy_pct,
        published,
        sources,
        printed,
      ]) => {
        const values = {
          premium,
          policy_count,
          new_business_premium,
          renewal_premium,
          new_business_policy_pct,
          renewal_policy_pct,
        };
        const publications = [...new Set(Object.values(sources).flat())];
        const row = precomputed({ period, ...values, printed });
        rowProvenance.set(row, { sources, countUnit: shard.count_unit });
        return { asOf, reportDate, dataAsOf, published, values, publications, sources, row };
      },
    ),
  }));
}

/** The rows of a series shard (`series/<state>/<line dir>/[counties/<dir>/]<granularity>.json`), or []. */
export function seriesRows(path: string): PreparedRow[] {
  return privateShard(path, prepare) ?? [];
}

/** Rows in range, each as of `reportDate` (else its latest vintage); periods not yet published are absent. */
export function readSeries(q: SeriesQuery): SeriesAnswer {
  const rows = seriesRows(
    `series/${q.state}/${q.lineDir}/${q.countyDir ? `counties/${q.countyDir}/` : ''}${q.granularity}.json`,
  );
  const data: SeriesRow[] = [];
  const used: PreparedSnapshot[] = [];
  for (const row of rows) {
    if ((q.from && row.firstMonth < q.from) || (q.to && row.firstMonth > q.to)) continue;
    const snap = q.reportDate ? inForceOn(row.snapshots, q.reportDate, (s) => s.asOf) : row.snapshots.at(-1);
    if (!snap) continue;
    data.push(snap.row);
    used.push(snap);
  }
  const latest = used.length ? latestPublication(used) : null;
  return {
    data,
    latest: latest && { reportDate: latest.reportDate, dataAsOf: latest.dataAsOf },
    publications: used.flatMap((s) => s.publications),
  };
}
