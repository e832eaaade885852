// The `# key: value` header every publication file starts with (data/README.md): who published what,
// where, when, and how many rows follow. Shared by figures publications and the further datasets.
import { isIsoDate } from '../../domain/periods.ts';
import type { CsvFile, MetaEntry } from '../csv.ts';
import type { Problems } from '../errors.ts';

const HEADER_KEYS = [
  'publisher',
  'source',
  'title',
  'url',
  'report_date',
  'report_date_basis',
  'data_as_of',
  'rows',
] as const;

/**
 * A publication as its file's header describes it. Here rather than in ingest/model-types.ts, which takes the
 * datasets parser's record types, so that the parsers need not import that module back.
 */
export interface Publication {
  /** Path below publications/, without `.csv`: e.g. `sltx/2023-12-enews`. */
  id: string;
  file: string;
  publisher: string;
  source: string;
  title: string;
  url: string;
  reportDate: string;
  reportDateEstimated: boolean;
  /**
   * A press article reprinting an office's figures (publications/press/): outranked by primary sources (docs/design.md
   * §1).
   */
  secondary: boolean;
  dataAsOf: string;
}

/**
 * The publication a file's header describes, or null when a header is missing (each problem is added).
 * `extraKeys` are the further headers this kind of file requires; their values are returned.
 */
export function parseHeader(
  csv: CsvFile,
  id: string,
  today: string,
  problems: Problems,
  extraKeys: readonly string[] = [],
  /** What a row after the CSV header is, in messages: 'figure rows' in a figures publication. */
  rowNoun = 'rows',
  /** Further headers this kind of file may give: returned in `extra` when given. */
  optionalKeys: readonly string[] = [],
): { pub: Publication; extra: Record<string, string> } | null {
  const { file, meta } = csv;
  const known = [...HEADER_KEYS, ...extraKeys, ...optionalKeys];
  for (const key of meta.keys()) {
    if (!known.includes(key))
      problems.add(file, meta.get(key)!.line, 3, `unknown header '${key}': expected ${known.join(', ')}`);
  }
  const get = (key: string) => {
    const entry = meta.get(key);
    if (!entry || !entry.value) problems.add(file, entry?.line ?? 1, 1, `missing header '# ${key}: ...'`);
    return entry;
  };
  const [publisher, source, title, url, reportDate, basis, dataAsOf, rows] = HEADER_KEYS.map(get);
  const extra = extraKeys.map(get);
  checkSourceAndDates({ url, reportDate, basis, dataAsOf }, file, today, problems);
  checkRowCount(rows, csv, rowNoun, problems);
  if (
    !publisher ||
    !source ||
    !title ||
    !url ||
    !reportDate ||
    !basis ||
    !dataAsOf ||
    !rows ||
    extra.some((e) => !e?.value)
  )
    return null;
  return {
    pub: {
      id,
      file,
      publisher: publisher.value,
      source: source.value,
      title: title.value,
      url: url.value,
      reportDate: reportDate.value,
      reportDateEstimated: basis.value !== 'printed',
      secondary: id.startsWith('press/'),
      dataAsOf: dataAsOf.value,
    },
    extra: Object.fromEntries([
      ...extraKeys.map((k, i): [string, string] => [k, extra[i]!.value]),
      ...optionalKeys.flatMap((k): [string, string][] => (meta.get(k)?.value ? [[k, meta.get(k)!.value]] : [])),
    ]),
  };
}

/**
 * The headers saying where the figures come from and when: an http(s) URL, dates that are dates, a report date
 * printed or estimated, data as of no later than the report, and a report not dated after today.
 */
function checkSourceAndDates(
  { url, reportDate, basis, dataAsOf }: Record<'url' | 'reportDate' | 'basis' | 'dataAsOf', MetaEntry | undefined>,
  file: string,
  today: string,
  problems: Problems,
): void {
  if (url?.value && !/^https?:\/\/\S+$/.test(url.value))
    problems.add(file, url.line, url.column, `expected an http(s) URL, got '${url.value}'`);
  for (const d of [reportDate, dataAsOf]) {
    if (d?.value && !isIsoDate(d.value))
      problems.add(file, d.line, d.column, `expected a date YYYY-MM-DD, got '${d.value}'`);
  }
  if (basis?.value && basis.value !== 'printed' && !/^estimated: \S/.test(basis.value))
    problems.add(
      file,
      basis.line,
      basis.column,
      "report_date_basis: expected 'printed' or 'estimated: <the cadence it follows>'",
    );
  if (
    reportDate &&
    dataAsOf &&
    isIsoDate(reportDate.value) &&
    isIsoDate(dataAsOf.value) &&
    dataAsOf.value > reportDate.value
  )
    problems.add(
      file,
      dataAsOf.line,
      dataAsOf.column,
      `data_as_of ${dataAsOf.value} is after report_date ${reportDate.value}`,
    );
  if (reportDate && isIsoDate(reportDate.value) && reportDate.value > today)
    problems.add(
      file,
      reportDate.line,
      reportDate.column,
      `report_date ${reportDate.value} is in the future (today is ${today}, UTC): expected the day it was published`,
    );
}

/** The `rows` header: a count, and the count of records the file has (else it was cut short or added to). */
function checkRowCount(rows: MetaEntry | undefined, csv: CsvFile, rowNoun: string, problems: Problems): void {
  if (rows?.value && !/^\d+$/.test(rows.value))
    problems.add(
      csv.file,
      rows.line,
      rows.column,
      `expected the number of ${rowNoun} after the CSV header, got '${rows.value}'`,
    );
  else if (rows?.value && Number(rows.value) !== csv.recordCount)
    problems.add(
      csv.file,
      rows.line,
      rows.column,
      `declares rows: ${rows.value} but has ${csv.recordCount} ${rowNoun}: ${
        csv.recordCount < Number(rows.value)
          ? 'the file may be truncated'
          : 'a row may be duplicated or new; if rows were added, update the count'
      }`,
    );
}
