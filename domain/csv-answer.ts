// A series answer as CSV (docs/design.md §11): long ("tidy") form, one line per figure, exact and printed, each
// naming the publication that printed that very figure. The ingest writes the free sample's CSV with it and
// the API the priced answers' (/v1/premium, /v1/compare), so both say the same thing the same way.
import { stringify } from 'csv-stringify/sync';
import { type InsurersResponse, SERIES_FIELDS, type SeriesRow } from './contract.ts';
import { CSV_COLUMNS } from './contract-shared.ts';
import { printedKeyInfo, seriesFieldInfo } from './metrics.ts';
import type { PublicationRef } from './shard-types.ts';

/** One state's rows, each with the publications behind each of its figures (a series field, or `printed.<key>`). */
export interface CsvSeries {
  state: string;
  line: string;
  granularity: string;
  /** What policy_count counts in this series (policies, transactions or items). */
  countUnit: string | null;
  rows: { row: SeriesRow; sources: Record<string, readonly PublicationRef[]> }[];
}

/**
 * `report_date` and `publication_url` of a figure: its publication's. A figure summed here from several
 * published parts (a quarter from its months) names every part's publication, URLs separated by a space (no
 * URL holds one), and the latest of their dates.
 */
function citationOf(refs: readonly PublicationRef[] | undefined, what: string): [string, string] {
  if (!refs?.length) throw new Error(`${what} has no publication: every figure must name the one that printed it`);
  const sorted = [...refs].sort((a, b) => (a.report_date < b.report_date ? -1 : a.report_date > b.report_date ? 1 : 0));
  return [sorted.at(-1)!.report_date, [...new Set(sorted.map((r) => r.url))].join(' ')];
}

/** A CSV line's values, in CSV_COLUMNS order. */
export type SeriesRecord = (string | number)[];

/** The series' CSV lines, in order: each row's series fields (SERIES_FIELDS order), then its printed figures. */
export function seriesRecords(series: readonly CsvSeries[]): SeriesRecord[] {
  const records: SeriesRecord[] = [];
  for (const { state, line, granularity, countUnit, rows } of series) {
    for (const { row, sources } of rows) {
      const where = `${state} ${line} ${row.period}`;
      for (const field of SERIES_FIELDS) {
        const value = row[field];
        if (value === null) continue;
        const { measures, unit } = seriesFieldInfo(field, countUnit);
        records.push([
          state,
          line,
          granularity,
          row.period,
          field,
          value,
          'exact',
          '',
          '',
          measures,
          unit,
          ...citationOf(sources[field], `${where} ${field}`),
        ]);
      }
      for (const [key, entry] of Object.entries(row.printed ?? {})) {
        const info = printedKeyInfo(key);
        if (!info) throw new Error(`${where}: printed key '${key}' has no legend`);
        const cited = citationOf(sources[`printed.${key}`], `${where} printed.${key}`);
        records.push([
          state,
          line,
          granularity,
          entry.period ?? row.period,
          key,
          entry.value,
          'printed',
          entry.as_printed ?? '',
          entry.qualifier ?? '',
          info.measures,
          info.unit,
          ...cited,
        ]);
      }
    }
  }
  return records;
}

/**
 * CSV text (RFC 4180: CRLF, quoted where needed) of records under a header: the one writer of every CSV the service
 * gives.
 */
export const csvText = (columns: readonly string[], records: readonly (readonly unknown[])[]) =>
  stringify(records as unknown[][], { header: true, columns: [...columns], record_delimiter: 'windows' });
/** The same records' lines alone, for a file written in parts under one header (the bulk CSV). */
export const csvRows = (records: readonly (readonly unknown[])[]) =>
  stringify(records as unknown[][], { record_delimiter: 'windows' });

/** The CSV text of the series, in order; the header line alone when they hold no figure. */
export const seriesCsv = (series: readonly CsvSeries[]): string => csvText(CSV_COLUMNS, seriesRecords(series));

/** A file name for an answer's Content-Disposition: its words, each reduced to letters, digits, `-` and `_`. */
export const csvFileName = (...words: string[]) =>
  `${words.map((w) => w.replace(/[^A-Za-z0-9_-]+/g, '_')).join('-')}.csv`;

const INSURER_CSV_COLUMNS = [
  'state',
  'period',
  'rank',
  'name',
  'premium',
  'market_share_pct',
  'as_printed',
  'qualifier',
  'note',
  'entity',
  'basis',
  'report_date',
  'publication_url',
] as const;

/**
 * An insurers answer as CSV: one line per insurer, ranked then unranked (rank empty), each naming the ranking and the
 * publications that printed it.
 */
export function insurersCsv(body: InsurersResponse): string {
  const { entity, basis } = body.ranking;
  const urls = [...new Set(body.publications.map((p) => p.url))].join(' ');
  const line = (rank: number | '', i: Omit<InsurersResponse['unranked'][number], 'note'> & { note?: string }) => [
    body.state,
    body.period,
    rank,
    i.name,
    i.premium,
    i.market_share_pct ?? '',
    i.as_printed ?? '',
    i.qualifier ?? '',
    i.note ?? '',
    entity,
    basis,
    body.report_date ?? '',
    urls,
  ];
  const records = [...body.insurers.map((i) => line(i.rank, i)), ...body.unranked.map((i) => line('', i))];
  return csvText(INSURER_CSV_COLUMNS, records);
}
