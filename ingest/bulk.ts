// The bulk files (/v1/bulk/premium.csv and .parquet): every figure of every series shard, every vintage,
// one row per figure in the long columns of a CSV answer, plus the county and `latest`. Rows come from the
// same snapshots the API answers from and are written by the same CSV writer, so a bulk row is a line some
// query answers: `latest` where the query without report_date does, the other rows with report_date.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { type SeriesRecord, csvText, seriesRecords } from '../domain/csv-answer.ts';
import { BULK_COLUMNS, type BulkColumn } from '../domain/contract-shared.ts';
import { SERIES_FIELDS } from '../domain/contract.ts';
import { sha256 } from '../domain/manifest.ts';
import type { PublicationRef, SeriesShard } from '../domain/shard-types.ts';
import { bulkDataPackage } from './datapackage.ts';
import { dataPackageResponse } from '../domain/contract-bulk.ts';

/** A bulk row: a CSV answer's line, the county after the line (empty statewide), and whether the latest vintage shows it. */
export interface BulkRow {
  values: SeriesRecord;
  latest: boolean;
}

/** What a state's series contribute: their rows, the publications they cite (positions), and the newest data_as_of. */
export interface BulkPart {
  rows: BulkRow[];
  cited: Set<number>;
  dataAsOf: string;
}

const GRANULARITIES = ['month', 'quarter', 'half_year', 'year'];
const col = (name: BulkColumn) => BULK_COLUMNS.indexOf(name);

/**
 * A series shard's figures, each distinct (value, words, publication) once, in period order. `line` is the
 * shard's line as /v1/premium's `line` takes it: `all`, a source code, or `category:<name>` (a category
 * spelt so that it is never read as a line).
 */
export function bulkRows(shard: SeriesShard, line: string, refs: readonly PublicationRef[], part: BulkPart): void {
  const csvLine = (tuple: SeriesShard['rows'][number]['snapshots'][number], period: string) => {
    const [, , , premium, policy_count, new_business_premium, renewal_premium, new_business_policy_pct, renewal_policy_pct, , sources, printed] = tuple;
    const row = { period, premium, policy_count, new_business_premium, renewal_premium, new_business_policy_pct, renewal_policy_pct, printed };
    const cited = Object.fromEntries(Object.entries(sources).map(([figure, at]) => [figure, at.map((p) => refs[p])]));
    for (const positions of Object.values(sources)) for (const p of positions) part.cited.add(p);
    return seriesRecords([{ state: shard.state, line, granularity: shard.granularity, countUnit: shard.count_unit, rows: [{ row, sources: cited }] }]);
  };
  for (const { period, snapshots } of shard.rows) {
    const seen = new Map<string, BulkRow>();
    snapshots.forEach((tuple, i) => {
      if (tuple[2] > part.dataAsOf) part.dataAsOf = tuple[2];
      for (const values of csvLine(tuple, period)) {
        const key = JSON.stringify(values);
        const row = seen.get(key) ?? { values: [...values.slice(0, 2), shard.county ?? '', ...values.slice(2)], latest: false };
        seen.set(key, row);
        if (i === snapshots.length - 1) row.latest = true;
      }
    });
    part.rows.push(...seen.values());
  }
}

const byCode = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const lineRank = (line: string) => (line === 'all' ? 0 : line.startsWith('category:') ? 2 : 1);
const fieldRank = (field: string) => {
  const at = (SERIES_FIELDS as readonly string[]).indexOf(field);
  return at < 0 ? SERIES_FIELDS.length : at;
};
const text = (row: BulkRow, name: BulkColumn) => String(row.values[col(name)]);

/** State, line (all, lines by code, categories), county, granularity, period, field (series fields first), then vintage. */
function compareRows(a: BulkRow, b: BulkRow): number {
  const strings = (name: BulkColumn) => (text(a, name) < text(b, name) ? -1 : text(a, name) > text(b, name) ? 1 : 0);
  return (
    strings('state') ||
    lineRank(text(a, 'line')) - lineRank(text(b, 'line')) ||
    byCode.compare(text(a, 'line'), text(b, 'line')) ||
    strings('line') ||
    strings('county') ||
    GRANULARITIES.indexOf(text(a, 'granularity')) - GRANULARITIES.indexOf(text(b, 'granularity')) ||
    strings('period') ||
    fieldRank(text(a, 'field')) - fieldRank(text(b, 'field')) ||
    strings('field') ||
    strings('report_date') ||
    strings('publication_url') ||
    strings('as_printed') ||
    Number(a.values[col('value')]) - Number(b.values[col('value')]) ||
    // Any two rows left are told apart by the whole line, so the order (and the file's bytes) is total.
    (JSON.stringify(a.values) < JSON.stringify(b.values) ? -1 : JSON.stringify(a.values) > JSON.stringify(b.values) ? 1 : 0)
  );
}

/** The table as Parquet: text as UTF-8 strings (an empty cell as null), value as double, report_date as a date, latest as boolean. */
function parquetOf(rows: readonly BulkRow[]): Uint8Array<ArrayBuffer> {
  const columnData = BULK_COLUMNS.map((name) => ({
    name,
    data:
      name === 'latest'
        ? rows.map((r) => r.latest)
        : name === 'value'
          ? rows.map((r) => Number(r.values[col(name)]))
          : name === 'report_date'
            ? rows.map((r) => new Date(`${text(r, name)}T00:00:00Z`))
            : rows.map((r) => text(r, name) || null),
  }));
  const schema = [
    { name: 'root', num_children: BULK_COLUMNS.length },
    ...BULK_COLUMNS.map((name) =>
      name === 'latest'
        ? { name, type: 'BOOLEAN' as const, repetition_type: 'REQUIRED' as const }
        : name === 'value'
          ? { name, type: 'DOUBLE' as const, repetition_type: 'REQUIRED' as const }
          : name === 'report_date'
            ? { name, type: 'INT32' as const, converted_type: 'DATE' as const, repetition_type: 'REQUIRED' as const }
            : { name, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const, repetition_type: 'OPTIONAL' as const },
    ),
  ];
  return new Uint8Array(parquetWriteBuffer({ columnData, schema, createdBy: 'surplus-lines-market-data (hyparquet-writer)' }));
}

/** The bulk files from every state's part: `private/bulk/premium.{csv,parquet}` and the free `free/bulk/datapackage.json`. */
export function renderBulk(parts: readonly BulkPart[], refs: readonly PublicationRef[]): [string, string | Uint8Array<ArrayBuffer>][] {
  const rows = parts.flatMap((p) => p.rows).sort(compareRows);
  const csv = csvText(BULK_COLUMNS, rows.map((r) => [...r.values, r.latest ? 'true' : 'false']));
  const parquet = parquetOf(rows);
  const cited = [...new Set(parts.flatMap((p) => [...p.cited]))].sort((a, b) => a - b).map((p) => refs[p]);
  const dataAsOf = parts.reduce((newest, p) => (p.dataAsOf > newest ? p.dataAsOf : newest), '');
  const file = (bytes: Uint8Array) => ({ bytes: bytes.length, hash: `sha256:${sha256(bytes)}` });
  const csvBytes = new Uint8Array(Buffer.from(csv));
  const descriptor = dataPackageResponse.parse(bulkDataPackage({ sources: cited, dataAsOf, csv: file(csvBytes), parquet: file(parquet) }));
  return [
    ['private/bulk/premium.csv', csvBytes],
    ['private/bulk/premium.parquet', parquet],
    ['free/bulk/datapackage.json', `${JSON.stringify(descriptor, null, 1)}\n`],
  ];
}
