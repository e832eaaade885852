// Parser for the further datasets' publication files (data/README.md, "Further datasets"): the shared
// header, then one record per row, each cell checked against its column's kind. A record keeps the
// publication it came from, so every answer can cite it.
import { ACTION_TYPE_NAMES, COVERAGE_CATEGORY_NAMES } from '../../domain/contract-datasets.ts';
import { isIsoDate } from '../../domain/periods.ts';
import type { CsvFile } from '../csv.ts';
import type { Problems } from '../errors.ts';
import { type Publication, parseHeader } from './header.ts';

/** Two-letter codes of the U.S. states, DC and the territories: a regulator or receiver may be any of them. */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH ' +
    'OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP'
  ).split(' '),
);

type Kind =
  | { kind: 'text' }
  | { kind: 'state' }
  /** `YYYY-MM-DD`, or a bare `YYYY` where the source gives only a year. */
  | { kind: 'date'; yearAllowed: boolean; notAfterReport?: boolean }
  | { kind: 'year' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'number'; min: number; max: number; decimals: number; what: string }
  | { kind: 'pattern'; pattern: RegExp; expected: string }
  | { kind: 'url' }
  | { kind: 'list' };

type Column = Kind & { name: string; required?: boolean };

const text = (name: string, required = false): Column => ({ name, kind: 'text', required });
const date = (name: string, yearAllowed: boolean, notAfterReport = false): Column => ({
  name,
  kind: 'date',
  yearAllowed,
  notAfterReport,
});
const NAIC = (name = 'naic_code'): Column => ({
  name,
  kind: 'pattern',
  pattern: /^\d{5}$/,
  expected: 'a five-digit NAIC company code',
});
const SYNDICATE = (required: boolean): Column => ({
  name: 'syndicate_no',
  kind: 'pattern',
  pattern: /^\d{1,4}$/,
  expected: "a Lloyd's syndicate number such as 2791",
  required,
});

const RECEIVERSHIP_STATUS = ['liquidation', 'rehabilitation', 'conservation', 'closed'] as const;

/** Each dataset's folder, the headers it requires besides the shared ones, and its columns in order. */
export const DATASET_FILES = {
  receiverships: {
    folder: 'receiverships',
    extraHeaders: [],
    columns: [
      { name: 'state', kind: 'state', required: true },
      text('company_name', true),
      NAIC(),
      { name: 'status', kind: 'enum', values: RECEIVERSHIP_STATUS, required: true },
      text('coverage_type'),
      text('case_number'),
      { name: 'guaranty_associations', kind: 'list' },
      text('domicile'),
      date('rehabilitation_date', true, true),
      date('liquidation_date', true, true),
      date('policy_cancellation_date', true),
      date('claims_deadline', true),
      date('discharge_date', true, true),
      { name: 'detail_url', kind: 'url' },
      text('note'),
    ],
  },
  enforcement: {
    folder: 'enforcement',
    extraHeaders: [],
    columns: [
      { name: 'state', kind: 'state', required: true },
      text('company_name', true),
      NAIC(),
      { name: 'action_type', kind: 'enum', values: ACTION_TYPE_NAMES, required: true },
      text('line_of_insurance'),
      { name: 'fine_amount', kind: 'number', min: 0, max: 1e10, decimals: 2, what: 'a fine in USD' },
      text('reason'),
      text('license_type'),
      text('case_number'),
      { name: 'period', kind: 'year', required: true },
      text('note'),
    ],
  },
  rateFilings: {
    folder: 'rate-filings',
    extraHeaders: [],
    columns: [
      { name: 'state', kind: 'state', required: true },
      text('serff_tracking'),
      text('company_name', true),
      NAIC(),
      text('toi_code'),
      text('toi_name', true),
      { name: 'coverage_category', kind: 'enum', values: COVERAGE_CATEGORY_NAMES, required: true },
      text('product_name'),
      {
        name: 'rate_change_pct',
        kind: 'number',
        min: -100,
        max: 1000,
        decimals: 3,
        what: 'an overall rate change in percent',
      },
      date('received_date', false, true),
      date('closed_date', false, true),
      date('effective_date_new', false),
      date('effective_date_renewal', false),
      { name: 'status', kind: 'enum', values: ['closed', 'pending'], required: true },
      text('disposition'),
      { name: 'record_kind', kind: 'enum', values: ['filing', 'annual_disclosure'], required: true },
      text('note'),
    ],
  },
  syndicates: {
    folder: 'syndicates',
    extraHeaders: ['edition'],
    columns: [
      SYNDICATE(true),
      text('syndicate_name'),
      text('managing_agent'),
      text('pseudonym'),
      text('status'),
      { name: 'year_of_account', kind: 'year', required: true },
      { name: 'capacity_gbp_000', kind: 'number', min: 0, max: 1e8, decimals: 1, what: 'capacity in thousands of GBP' },
      {
        name: 'worst_pct',
        kind: 'number',
        min: -100,
        max: 100,
        decimals: 2,
        what: 'a forecast result in % of capacity',
      },
      {
        name: 'best_pct',
        kind: 'number',
        min: -100,
        max: 100,
        decimals: 2,
        what: 'a forecast result in % of capacity',
      },
      text('note'),
    ],
  },
  eligibility: {
    folder: 'eligibility',
    extraHeaders: ['list'],
    columns: [
      { name: 'state', kind: 'state' },
      text('company_name', true),
      SYNDICATE(false),
      {
        name: 'alien_id',
        kind: 'pattern',
        pattern: /^AA-\d{7}$/,
        expected: 'an NAIC alien insurer id such as AA-1120337',
      },
      NAIC(),
      text('domicile'),
      date('eligible_since', true, true),
      text('status'),
      text('note'),
    ],
  },
} as const satisfies Record<string, { folder: string; extraHeaders: readonly string[]; columns: readonly Column[] }>;

export type DatasetName = keyof typeof DATASET_FILES;
export const DATASET_NAMES = Object.keys(DATASET_FILES) as DatasetName[];
export const columnsOf = (name: DatasetName): string[] => DATASET_FILES[name].columns.map((c) => c.name);

/** A cell's value: text, a number, a list of names, or null for an empty cell. */
type CellValue = string | number | string[] | null;

export interface DatasetRecord {
  pub: Publication;
  /** The headers beyond the shared ones (`edition`, `list`). */
  header: Record<string, string>;
  fileLine: number;
  values: Record<string, CellValue>;
}

function cellProblem(col: Column, raw: string, pub: Publication): string | null {
  switch (col.kind) {
    case 'text':
    case 'list':
      return null;
    case 'state':
      return US_STATES.has(raw) ? null : `unknown state '${raw}': expected a two-letter U.S. state code such as NY`;
    case 'date': {
      const ok = isIsoDate(raw) || (col.yearAllowed && /^(19|20)\d{2}$/.test(raw));
      if (!ok)
        return (
          `expected a date ` +
          `YYYY-MM-DD${col.yearAllowed ? ' (or a bare year YYYY where the source gives only a year)' : ''}, got ` +
          `'${raw}'`
        );
      if (col.notAfterReport && raw > pub.reportDate)
        return (
          `${col.name} ${raw} is after the publication's report_date ${pub.reportDate}: a report cannot print a ` +
          `date that had not come`
        );
      return null;
    }
    case 'year':
      return /^(19|20)\d{2}$/.test(raw) ? null : `expected a year YYYY, got '${raw}'`;
    case 'enum':
      return col.values.includes(raw) ? null : `unknown ${col.name} '${raw}': expected one of ${col.values.join(', ')}`;
    case 'number': {
      if (!/^-?\d+(\.\d+)?$/.test(raw))
        return `not a number: '${raw}': expected ${col.what} as a plain decimal, such as 12.5`;
      const value = Number(raw);
      if (value < col.min || value > col.max)
        return `${raw} is not plausible as ${col.what}: expected ${col.min} to ${col.max}`;
      if ((raw.split('.')[1]?.length ?? 0) > col.decimals) return `${raw} has more than ${col.decimals} decimals`;
      return null;
    }
    case 'pattern':
      return col.pattern.test(raw) ? null : `expected ${col.expected}, got '${raw}'`;
    case 'url':
      return /^https?:\/\/\S+$/.test(raw) ? null : `expected an http(s) URL, got '${raw}'`;
  }
}

function valueOf(col: Column, raw: string): CellValue {
  if (col.kind === 'number') return Number(raw);
  if (col.kind === 'list')
    return raw
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

/** Rules across a record's cells. */
function recordProblems(name: DatasetName, v: Record<string, CellValue>): [column: string, message: string][] {
  const out: [string, string][] = [];
  if (name === 'enforcement' && v.fine_amount !== null && v.action_type !== 'fine')
    out.push([
      'fine_amount',
      `a ${String(v.action_type)} carries no fine: leave fine_amount empty, or set action_type fine`,
    ]);
  if (name === 'syndicates') {
    if ((v.worst_pct === null) !== (v.best_pct === null))
      out.push([
        v.worst_pct === null ? 'worst_pct' : 'best_pct',
        'a forecast is a range: give both worst_pct and best_pct, or neither',
      ]);
    else if (v.worst_pct !== null && (v.worst_pct as number) > (v.best_pct as number))
      out.push(['worst_pct', `worst case ${String(v.worst_pct)} is above best case ${String(v.best_pct)}`]);
  }
  return out;
}

export function parseDatasetFile(
  name: DatasetName,
  csv: CsvFile,
  id: string,
  today: string,
  problems: Problems,
): DatasetRecord[] {
  const spec = DATASET_FILES[name];
  const header = parseHeader(csv, id, today, problems, spec.extraHeaders, 'records');
  if (!header) return [];
  const records: DatasetRecord[] = [];
  for (const { line, cells } of csv.rows) {
    let ok = true;
    const values: Record<string, CellValue> = {};
    for (const col of spec.columns as readonly Column[]) {
      const cell = cells[col.name];
      const raw = cell.value.trim();
      if (!raw) {
        if (col.required) {
          problems.add(csv.file, cell.line, cell.column, `${col.name} is required`);
          ok = false;
        }
        values[col.name] = null;
        continue;
      }
      const problem = cellProblem(col, raw, header.pub);
      if (problem) {
        problems.add(csv.file, cell.line, cell.column, problem);
        ok = false;
      }
      values[col.name] = valueOf(col, raw);
    }
    if (!ok) continue;
    const crossProblems = recordProblems(name, values);
    for (const [column, message] of crossProblems)
      problems.add(csv.file, cells[column].line, cells[column].column, message);
    if (crossProblems.length) continue;
    records.push({ pub: header.pub, header: header.extra, fileLine: line, values });
  }
  return records;
}
