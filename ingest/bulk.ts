// The bulk files (/v1/bulk/premium.csv and .parquet): every figure of every series shard, every vintage,
// one row per figure in the long columns of a CSV answer, plus the county and `latest`. Rows come from the
// same snapshots the API answers from and are written by the same CSV writer, so a bulk row is a line some
// query answers: `latest` where the query without report_date does, the other rows with report_date.
// The files are written as the build renders each state, 50,000 rows at a time (appended to the CSV, a row
// group of the Parquet file), so the ingest's memory stays that of the largest state.
import { appendFileSync, writeFileSync } from 'node:fs';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { type SeriesRecord, csvRows, csvText, seriesRecords } from '../domain/csv-answer.ts';
import { BULK_COLUMNS, type BulkColumn } from '../domain/contract-shared.ts';
import { SERIES_FIELDS } from '../domain/contract.ts';
import { dataPackageResponse } from '../domain/contract-bulk.ts';
import type { PublicationRef, SeriesShard } from '../domain/shard-types.ts';
import { bulkDataPackage } from './datapackage.ts';
import type { Staging } from './write.ts';

const CSV_PATH = 'private/bulk/premium.csv';
const PARQUET_PATH = 'private/bulk/premium.parquet';
const GRANULARITIES = ['month', 'quarter', 'half_year', 'year'];
/** Rows per Parquet row group, and the most the ingest holds before writing them. */
const ROW_GROUP = 50_000;
const byCode = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A bulk row: a CSV answer's line with the county after the line (empty statewide), and whether the latest vintage
 * shows it.
 */
interface BulkRow {
  values: SeriesRecord;
  latest: boolean;
}

/**
 * A series shard and its line as /v1/premium's `line` takes it: `all`, a source code, or `category:<name>` (never read
 * as a line).
 */
export interface BulkSeries {
  shard: SeriesShard;
  line: string;
}

const lineRank = (line: string) => (line === 'all' ? 0 : line.startsWith('category:') ? 2 : 1);

/** Where a series goes in the files. */
export interface BulkPlace {
  line: string;
  county: string | null;
  granularity: string;
}

/**
 * A state's series in file order: all lines, then lines by code, then categories; statewide before counties; month to
 * year.
 */
export const compareBulkPlaces = (a: BulkPlace, b: BulkPlace) =>
  lineRank(a.line) - lineRank(b.line) ||
  byCode.compare(a.line, b.line) ||
  compareText(a.line, b.line) ||
  compareText(a.county ?? '', b.county ?? '') ||
  GRANULARITIES.indexOf(a.granularity) - GRANULARITIES.indexOf(b.granularity);

const FIELD = BULK_COLUMNS.indexOf('field');
const REPORT_DATE = BULK_COLUMNS.indexOf('report_date');
const fieldRank = (field: string) => {
  const at = (SERIES_FIELDS as readonly string[]).indexOf(field);
  return at < 0 ? SERIES_FIELDS.length : at;
};
/**
 * A period's figures: the series fields in their order, then printed keys by name; each by vintage, then by the whole
 * line.
 */
const compareFigures = (a: BulkRow, b: BulkRow) =>
  fieldRank(String(a.values[FIELD])) - fieldRank(String(b.values[FIELD])) ||
  compareText(String(a.values[FIELD]), String(b.values[FIELD])) ||
  compareText(String(a.values[REPORT_DATE]), String(b.values[REPORT_DATE])) ||
  compareText(a.values.join('\u0001'), b.values.join('\u0001'));

/**
 * A shard's rows: per period, each distinct figure (value, words, publication) once, `latest` where the last snapshot
 * shows it.
 */
function rowsOf(
  { shard, line }: BulkSeries,
  refs: readonly PublicationRef[],
  cited: Set<number>,
): { rows: BulkRow[]; dataAsOf: string } {
  const rows: BulkRow[] = [];
  let dataAsOf = '';
  for (const { period, snapshots } of shard.rows) {
    const seen = new Map<string, BulkRow>();
    snapshots.forEach((tuple, i) => {
      const [
        ,
        ,
        asOfData,
        premium,
        policy_count,
        new_business_premium,
        renewal_premium,
        new_business_policy_pct,
        renewal_policy_pct,
        ,
        sources,
        printed,
      ] = tuple;
      if (asOfData > dataAsOf) dataAsOf = asOfData;
      const row = {
        period,
        premium,
        policy_count,
        new_business_premium,
        renewal_premium,
        new_business_policy_pct,
        renewal_policy_pct,
        printed,
      };
      const figures = Object.fromEntries(
        Object.entries(sources).map(([figure, at]) => [figure, at.map((p) => refs[p])]),
      );
      for (const positions of Object.values(sources)) for (const p of positions) cited.add(p);
      const csv = seriesRecords([
        {
          state: shard.state,
          line,
          granularity: shard.granularity,
          countUnit: shard.count_unit,
          rows: [{ row, sources: figures }],
        },
      ]);
      for (const values of csv) {
        // The whole line is the figure's identity (no value holds the separator, a control character).
        const key = values.join('\u0001');
        const bulk = seen.get(key) ?? {
          values: [...values.slice(0, 2), shard.county ?? '', ...values.slice(2)],
          latest: false,
        };
        seen.set(key, bulk);
        if (i === snapshots.length - 1) bulk.latest = true;
      }
    });
    rows.push(...[...seen.values()].sort(compareFigures));
  }
  return { rows, dataAsOf };
}

/**
 * The Parquet schema: text as UTF-8 strings (an empty cell as null), value a double, report_date a date, latest a
 * boolean.
 */
const PARQUET_SCHEMA = [
  { name: 'root', num_children: BULK_COLUMNS.length },
  ...BULK_COLUMNS.map((name) =>
    name === 'latest'
      ? { name, type: 'BOOLEAN' as const, repetition_type: 'REQUIRED' as const }
      : name === 'value'
        ? { name, type: 'DOUBLE' as const, repetition_type: 'REQUIRED' as const }
        : name === 'report_date'
          ? { name, type: 'INT32' as const, converted_type: 'DATE' as const, repetition_type: 'REQUIRED' as const }
          : {
              name,
              type: 'BYTE_ARRAY' as const,
              converted_type: 'UTF8' as const,
              repetition_type: 'OPTIONAL' as const,
            },
  ),
];

/** A column of rows as the Parquet schema types it. */
function columnOf(rows: readonly BulkRow[], name: BulkColumn, at: number): unknown[] {
  if (name === 'latest') return rows.map((r) => r.latest);
  if (name === 'value') return rows.map((r) => Number(r.values[at]));
  if (name === 'report_date') return rows.map((r) => new Date(`${r.values[at]}T00:00:00Z`));
  return rows.map((r) => (r.values[at] === '' ? null : String(r.values[at])));
}

/**
 * The bulk files of one build, written into its staging tree state by state; `finish` closes them and gives the data
 * package.
 */
export class BulkFiles {
  private readonly staging: Staging;
  private readonly parquet: ParquetWriter;
  private readonly cited = new Set<number>();
  private dataAsOf = '';
  /** Rows not yet written: written every ROW_GROUP rows (a Parquet row group), so memory holds at most that many. */
  private pending: BulkRow[] = [];

  constructor(staging: Staging) {
    this.staging = staging;
    writeFileSync(staging.pathOf(CSV_PATH), csvText(BULK_COLUMNS, []));
    this.parquet = new ParquetWriter({
      writer: fileWriter(staging.pathOf(PARQUET_PATH)),
      schema: PARQUET_SCHEMA,
      createdBy: 'surplus-lines-market-data (hyparquet-writer)',
    });
  }

  /**
   * A series, appended to both files: the caller gives each state's series in file order (compareBulkPlaces), states by
   * code.
   */
  add(series: BulkSeries, refs: readonly PublicationRef[]): void {
    const part = rowsOf(series, refs, this.cited);
    for (const row of part.rows) this.pending.push(row);
    if (part.dataAsOf > this.dataAsOf) this.dataAsOf = part.dataAsOf;
    if (this.pending.length >= ROW_GROUP) this.flush();
  }

  /** Writes the pending rows: appended to the CSV, a row group of the Parquet file. */
  private flush(): void {
    const rows = this.pending;
    if (!rows.length) return;
    this.pending = [];
    appendFileSync(this.staging.pathOf(CSV_PATH), csvRows(rows.map((r) => [...r.values, r.latest ? 'true' : 'false'])));
    // A fileWriter writes as it goes, synchronously: write() and finish() return no promise here.
    void this.parquet.write({
      columnData: BULK_COLUMNS.map((name, at) => ({ name, data: columnOf(rows, name, at) })),
      rowGroupSize: rows.length,
    });
  }

  /** Closes both files, records them in the build, and gives the free data package that describes them. */
  finish(refs: readonly PublicationRef[]): [string, string] {
    this.flush();
    void this.parquet.finish();
    const csv = this.staging.adopt(CSV_PATH);
    const parquet = this.staging.adopt(PARQUET_PATH);
    const file = ({ size, hash }: { size: number; hash: string }) => ({ bytes: size, hash: `sha256:${hash}` });
    const sources = [...this.cited].sort((a, b) => a - b).map((p) => refs[p]);
    const descriptor = dataPackageResponse.parse(
      bulkDataPackage({ sources, dataAsOf: this.dataAsOf, csv: file(csv), parquet: file(parquet) }),
    );
    return ['free/bulk/datapackage.json', `${JSON.stringify(descriptor, null, 1)}\n`];
  }
}
