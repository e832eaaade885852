// Provenance on the real dataset (docs/design.md §10): every figure of every data answer is held by a
// publication the answer lists, and every listed publication gives the answer a figure. The
// expectations are read off data/ with this file's own CSV reader and its own vintage and sum rules
// (docs/design.md §1-3, §5, data/README.md), never off the shards or the code's output. Answers are
// computed in process from shards built from data/ into a temporary folder, with the payment gate off.
//
// For each answer, the publications it lists are matched to data files by their url and report_date
// headers. Then:
// - a printed entry must be a row of a listed file with the row's state and line, the entry's period,
//   metric (key less `_ytd`), value, words as printed and qualifier;
// - a series field must be an exact row of a listed file with the row's state, period, line and value
//   (policy_count: the metric is /v1/coverage's count_unit for the period type); else it is a sum, and
//   it must equal the sum this file computes from the data files (months, H1 + H2, or a category's
//   lines, each part its latest exact vintage), every part's publication being listed;
// - every listed publication holds at least one figure the answer shows, and `publications` is empty
//   exactly when the answer shows no figure.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installGate } from '../../api/payment/configured.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';
import { csvFields, csvRecords } from '../support/csv.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const DATA = join(ROOT, 'data');

// ---- the data files, read here --------------------------------------------------------------------

interface Pub {
  file: string;
  publisher: string;
  title: string;
  url: string;
  reportDate: string;
  basis: 'printed' | 'estimated';
  /** Under publications/press/: a secondary source (docs/design.md §1). */
  press: boolean;
}
interface DataRow {
  pub: Pub;
  state: string;
  period: string;
  line: string;
  county: string;
  insurer: string;
  metric: string;
  value: number;
  qualifier: string;
  printed: string;
}

const csvFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.csv'))
    .map((e) => join(e.parentPath, e.name))
    .sort();

const PUBS: Pub[] = [];
const ROWS: DataRow[] = [];

/** Each file of `folder` (under data/), read: its publication (listed in PUBS) and its records. */
function* readFolder(
  folder: string,
): Generator<{ pub: Pub; header: Record<string, string>; records: Record<string, string>[] }> {
  for (const path of csvFiles(join(DATA, folder))) {
    const { header, records } = csvRecords(readFileSync(path, 'utf8'));
    const file = relative(join(DATA, folder), path);
    const pub: Pub = {
      file,
      publisher: header.publisher,
      title: header.title,
      url: header.url,
      reportDate: header.report_date,
      basis: header.report_date_basis === 'printed' ? 'printed' : 'estimated',
      press: file.startsWith('press/'),
    };
    PUBS.push(pub);
    yield { pub, header, records };
  }
}

for (const { pub, records } of readFolder('publications'))
  for (const r of records)
    ROWS.push({
      pub,
      state: r.state,
      period: r.period,
      line: r.line,
      county: r.county,
      insurer: r.insurer,
      metric: r.metric,
      value: Number(r.value),
      qualifier: r.qualifier,
      printed: r.printed,
    });

// The rankings (data/rankings/): each line an insurer_premium row of its ranking's state and period, as printed.
for (const { pub, header, records } of readFolder('rankings'))
  for (const r of records)
    ROWS.push({
      pub,
      state: header.state,
      period: header.period,
      line: 'all',
      county: '',
      insurer: r.name,
      metric: 'insurer_premium',
      value: Number(r.premium),
      qualifier: r.qualifier,
      printed: r.printed,
    });

/** Statewide, non-insurer rows by state|line|period|metric. */
const key = (state: string, line: string, period: string, metric: string) => [state, line, period, metric].join('|');
const STATEWIDE = new Map<string, DataRow[]>();
for (const r of ROWS) {
  if (r.county || r.insurer) continue;
  const k = key(r.state, r.line, r.period, r.metric);
  if (!STATEWIDE.has(k)) STATEWIDE.set(k, []);
  STATEWIDE.get(k)!.push(r);
}

/** data/lines/<STATE>.csv: each line's category. */
const CATEGORY_LINES = new Map<string, string[]>(); // state|category → source codes
for (const path of csvFiles(join(DATA, 'lines'))) {
  const state = path.slice(-6, -4);
  for (const r of csvRecords(readFileSync(path, 'utf8')).records) {
    if (!r.category) continue;
    const k = `${state}|${r.category.toLowerCase()}`;
    if (!CATEGORY_LINES.has(k)) CATEGORY_LINES.set(k, []);
    CATEGORY_LINES.get(k)!.push(r.source_code);
  }
}

/** data/bases.csv: what the premium of a state's period type is. */
const BASES = new Map(
  csvRecords(readFileSync(join(DATA, 'bases.csv'), 'utf8')).records.map((r) => [
    `${r.state}|${r.period_type}`,
    r.basis,
  ]),
);
const STATES = csvRecords(readFileSync(join(DATA, 'states.csv'), 'utf8')).records.map((r) => r.code);

// ---- latest vintages and sums, by the rules ----------------------------------------------------------

const FIELDS = [
  'premium',
  'policy_count',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
] as const;
type Field = (typeof FIELDS)[number];
const MONEY: Field[] = ['premium', 'new_business_premium', 'renewal_premium'];
const PCTS: Field[] = ['new_business_policy_pct', 'renewal_policy_pct'];

/** A row's values, and for each field the publications its value comes from. */
interface Expected {
  values: Record<Field, number | null>;
  sources: Record<Field, Set<Pub>>;
  summed: boolean;
}
const noValues = (): Expected => ({
  values: Object.fromEntries(FIELDS.map((f) => [f, null])) as Record<Field, number | null>,
  sources: Object.fromEntries(FIELDS.map((f) => [f, new Set<Pub>()])) as Record<Field, Set<Pub>>,
  summed: false,
});
const hasValues = (e: Expected | null): e is Expected => !!e && FIELDS.some((f) => e.values[f] !== null);

/** The unit of the last digit `words` print for `value` (`$947.5M` → 100000, `$503 million` → 1000000), or null. */
function printedUnit(words: string, value: number): number | null {
  const SCALE: Record<string, number> = {
    k: 1e3,
    thousand: 1e3,
    m: 1e6,
    mn: 1e6,
    million: 1e6,
    b: 1e9,
    bn: 1e9,
    billion: 1e9,
  };
  for (const m of words.matchAll(/(\d[\d,]*(?:\.(\d+))?)\s*(thousand|million|billion|mn|bn|k|m|b)?(?![a-z])/gi)) {
    const n = Number(m[1].replace(/,/g, ''));
    const scale = (m[3] ? [SCALE[m[3].toLowerCase()]] : [1, 1e3, 1e6, 1e9]).find(
      (s) => Math.abs(n * s - value) <= 1e-9 * value,
    );
    if (scale) return scale / 10 ** (m[2]?.length ?? 0);
  }
  return null;
}
/**
 * docs/design.md §1, a shortened citation is not a restatement: a qualified row that agrees with an exact row
 * of the same figure (printed finer) to its own precision is as if unprinted. "nearly"-like words put the
 * exact figure at most one unit below, "more than"-like at most one unit above; "rounded"-like within half.
 * An exact row printed coarser than another exact row (`$622.7 million` beside `$622.75 million`) is read
 * as rounded: within half its unit, a tie either way.
 */
function shortens(q: DataRow, exact: DataRow[]): boolean {
  const unit = printedUnit(q.printed, q.value);
  if (unit === null) return false;
  const side = /^(|rounded|about|approximately|around|roughly|near|neighbourhood)$/.test(q.qualifier)
    ? 0
    : /^(nearly|almost|just under)$/.test(q.qualifier)
      ? -1
      : /^(over|more than|exceeding|exceeded|exceed|just over|surpassing)$/.test(q.qualifier)
        ? 1
        : null;
  if (side === null) return false;
  return exact.some((e) => {
    const finer = (e.printed ? printedUnit(e.printed, e.value) : null) ?? (Number.isInteger(e.value) ? 1 : 0.01);
    if (!(finer < unit)) return false;
    const d = e.value - q.value;
    return side === 0 ? Math.abs(d) <= unit / 2 : side < 0 ? d <= 0 && -d < unit : d >= 0 && d < unit;
  });
}

/**
 * The latest exact figure for a statewide (state, line, period, metric): office publications first,
 * a press copy only where no office publication printed the figure at all (exact or not); then the
 * latest report_date. Ties: the publications of that date (the ingest refuses differing values).
 */
function latestExact(
  state: string,
  line: string,
  period: string,
  metric: string,
): { value: number; pubs: Pub[] } | null {
  const printed = STATEWIDE.get(key(state, line, period, metric)) ?? [];
  const exactRows = printed.filter((r) => r.qualifier === '');
  const all = printed.filter((r) => !shortens(r, exactRows));
  const office = all.filter((r) => !r.pub.press);
  const exact = (office.length ? office : all).filter((r) => r.qualifier === '');
  if (!exact.length) return null;
  const date = exact
    .map((r) => r.pub.reportDate)
    .sort()
    .at(-1)!;
  const latest = exact.filter((r) => r.pub.reportDate === date);
  return { value: latest[0].value, pubs: latest.map((r) => r.pub) };
}

type LineSpec = { kind: 'all' } | { kind: 'line'; code: string } | { kind: 'category'; name: string; codes: string[] };
type PeriodType = 'month' | 'quarter' | 'half_year' | 'year';

function monthsOf(period: string): string[] {
  const y = period.slice(0, 4);
  const range = (a: number, b: number) =>
    Array.from({ length: b - a + 1 }, (_, i) => `${y}-${String(a + i).padStart(2, '0')}`);
  if (/^\d{4}$/.test(period)) return range(1, 12);
  const q = /-Q(\d)$/.exec(period);
  if (q) return range(+q[1] * 3 - 2, +q[1] * 3);
  const h = /-H(\d)$/.exec(period);
  if (h) return range(+h[1] * 6 - 5, +h[1] * 6);
  return [period];
}

/** Sums rows (docs/design.md §3): money to the cent, counts exactly, a field null when any part has it null; shares count-weighted. */
function sum(parts: Expected[], countsMatch: boolean): Expected {
  const out = noValues();
  out.summed = true;
  for (const f of MONEY)
    if (parts.every((p) => p.values[f] !== null)) {
      out.values[f] = parts.reduce((cents, p) => cents + Math.round(p.values[f]! * 100), 0) / 100;
      parts.forEach((p) => p.sources[f].forEach((s) => out.sources[f].add(s)));
    }
  if (countsMatch && parts.every((p) => p.values.policy_count !== null)) {
    out.values.policy_count = parts.reduce((n, p) => n + p.values.policy_count!, 0);
    parts.forEach((p) => p.sources.policy_count.forEach((s) => out.sources.policy_count.add(s)));
  }
  for (const f of PCTS) {
    const total = out.values.policy_count;
    if (total && parts.every((p) => p.values[f] !== null)) {
      out.values[f] =
        Math.round((parts.reduce((s, p) => s + p.values[f]! * p.values.policy_count!, 0) / total) * 100) / 100;
      parts.forEach((p) => [...p.sources[f], ...p.sources.policy_count].forEach((s) => out.sources[f].add(s)));
    }
  }
  return out;
}

/** What /v1/coverage says policy_count counts, by state and period type (filled in beforeAll). */
const COUNT_UNIT = new Map<string, string | null>();
const countUnit = (state: string, type: string) => COUNT_UNIT.get(`${state}|${type}`) ?? null;

/** A statewide row of one line (or all lines) as its sources printed it: each field its latest exact figure. */
function ownRow(state: string, line: string, type: PeriodType, period: string): Expected {
  const out = noValues();
  for (const f of FIELDS) {
    const metric = f === 'policy_count' ? countUnit(state, type) : f;
    if (!metric) continue;
    const hit = latestExact(state, line, period, metric);
    if (!hit) continue;
    out.values[f] = hit.value;
    hit.pubs.forEach((p) => out.sources[f].add(p));
  }
  return out;
}

/** Months are summed into a period type only on the same basis (bases.csv). */
const sameBasis = (state: string, from: PeriodType, to: PeriodType) => {
  const target = BASES.get(`${state}|${to}`);
  return !target || BASES.get(`${state}|${from}`) === target;
};
const sameUnit = (state: string, from: PeriodType, to: PeriodType) => {
  const a = countUnit(state, from);
  const b = countUnit(state, to);
  return !a || !b || a === b;
};

/**
 * The row the rules give for (state, line, period), from the data files: the source's own where it
 * printed an exact figure for the period; else complete months summed (a year: else H1 + H2); a
 * category: the sum of its lines that have a row.
 */
function expectedRow(state: string, line: LineSpec, type: PeriodType, period: string): Expected | null {
  if (line.kind === 'category') {
    const parts = line.codes.map((code) => expectedRow(state, { kind: 'line', code }, type, period)).filter(hasValues);
    return parts.length ? sum(parts, true) : null;
  }
  const code = line.kind === 'all' ? 'all' : line.code;
  const own = ownRow(state, code, type, period);
  if (hasValues(own)) return own;
  if (type === 'month') return null;
  if (sameBasis(state, 'month', type)) {
    const months = monthsOf(period).map((m) => expectedRow(state, line, 'month', m));
    if (months.every(hasValues)) return sum(months, sameUnit(state, 'month', type));
  }
  if (type === 'year' && sameBasis(state, 'half_year', 'year')) {
    const halves = [`${period}-H1`, `${period}-H2`].map((h) => expectedRow(state, line, 'half_year', h));
    if (halves.every(hasValues)) return sum(halves, sameUnit(state, 'half_year', 'year'));
  }
  return null;
}

// ---- checking one answer ---------------------------------------------------------------------------

interface PublicationRef {
  publisher: string;
  title: string;
  url: string;
  report_date: string;
  report_date_basis: string;
}
interface PrintedEntry {
  value: number;
  as_printed: string | null;
  qualifier?: string;
  period?: string;
}
type SeriesRow = Record<Field, number | null> & { period: string; printed: Record<string, PrintedEntry> | null };
type PrintedKeys = Record<string, { measures: string; unit: string }>;

const counts = {
  answers: 0,
  emptyAnswers: 0,
  fields: 0,
  summedFields: 0,
  printed: 0,
  summaryFigures: 0,
  insurerFigures: 0,
  publications: 0,
};

/** One answer being checked: its listed publications, what each contributed, and the problems found. */
class Answer {
  readonly listed: Pub[] = [];
  readonly contributed = new Set<Pub>();
  readonly problems: string[] = [];
  figures = 0;

  readonly query: string;
  readonly refs: PublicationRef[];

  constructor(query: string, refs: PublicationRef[]) {
    this.query = query;
    this.refs = refs;
    counts.answers++;
    counts.publications += refs.length;
    const order = [...refs].sort((a, b) =>
      a.report_date < b.report_date
        ? -1
        : a.report_date > b.report_date
          ? 1
          : a.url < b.url
            ? -1
            : a.url > b.url
              ? 1
              : 0,
    );
    if (JSON.stringify(order) !== JSON.stringify(refs))
      this.problem('publications are not ordered by report_date, then url');
    for (const ref of refs) {
      const files = PUBS.filter((p) => p.url === ref.url && p.reportDate === ref.report_date);
      if (!files.length) {
        this.problem(
          `lists ${ref.url} (${ref.report_date}): no file in data/publications or data/rankings has that url and report_date`,
        );
        continue;
      }
      if (
        !files.some((p) => p.title === ref.title && p.publisher === ref.publisher && p.basis === ref.report_date_basis)
      )
        this.problem(
          `lists ${ref.url} (${ref.report_date}) as ${JSON.stringify([ref.publisher, ref.title, ref.report_date_basis])}: its file says otherwise`,
        );
      this.listed.push(...files);
    }
  }

  problem(text: string) {
    this.problems.push(`${this.query}: ${text}`);
  }

  /** Listed rows: statewide (state, line, period, metric) of a listed publication. */
  listedRows(state: string, lines: string[], period: string, metric: string): DataRow[] {
    return lines
      .flatMap((l) => STATEWIDE.get(key(state, l, period, metric)) ?? [])
      .filter((r) => this.listed.includes(r.pub));
  }

  /** A series field: an exact row of a listed publication, else the sum the rules give, every part listed. */
  field(state: string, line: LineSpec, type: PeriodType, row: SeriesRow, f: Field) {
    const v = row[f]!;
    this.figures++;
    counts.fields++;
    const metric = f === 'policy_count' ? countUnit(state, type) : f;
    const where = `${state} ${row.period} ${f}=${v}`;
    if (!metric) return this.problem(`${where}: /v1/coverage gives no count_unit for ${state} ${type}`);
    const lines = line.kind === 'all' ? ['all'] : line.kind === 'line' ? [line.code] : [];
    const direct = this.listedRows(state, lines, row.period, metric).filter((r) => r.qualifier === '' && r.value === v);
    if (direct.length) return direct.forEach((r) => this.contributed.add(r.pub));
    const expected = expectedRow(state, line, type, row.period);
    if (!expected || expected.values[f] === null)
      return this.problem(
        `${where}: no listed publication prints it (line ${JSON.stringify(lines)}, metric ${metric}), and the data files give no sum for it`,
      );
    if (expected.values[f] !== v)
      return this.problem(
        `${where}: the data files give ${expected.values[f]} (${expected.summed ? 'summed' : 'as printed'})`,
      );
    const unlisted = [...expected.sources[f]].filter((p) => !this.listed.includes(p));
    if (!expected.summed)
      return this.problem(
        `${where}: printed by ${[...expected.sources[f]].map((p) => p.file).join(', ')}, which the answer does not list`,
      );
    counts.summedFields++;
    if (unlisted.length)
      this.problem(
        `${where}: summed from parts printed by ${unlisted.map((p) => p.file).join(', ')}, which the answer does not list`,
      );
    expected.sources[f].forEach((p) => this.contributed.add(p));
  }

  /** A printed entry: a row of a listed publication with the same state, line, period, metric, value, words and qualifier. */
  printedEntry(state: string, line: LineSpec, row: SeriesRow, k: string, e: PrintedEntry) {
    this.figures++;
    counts.printed++;
    const where = `${state} ${row.period} printed.${k}=${e.value}`;
    const ytd = k.endsWith('_ytd');
    const metric = ytd ? k.slice(0, -4) : k;
    // A period is given only where it is not the row's (docs/design.md §9): a year to date ending in the row's month.
    const ytdMatch = /^(\d{4})-01\.\.(\d{2})$/.exec(e.period ?? '');
    if (ytd ? !ytdMatch || `${ytdMatch[1]}-${ytdMatch[2]}` !== row.period : e.period !== undefined)
      this.problem(
        `${where}: its period ${e.period} is not ${ytd ? 'a year to date ending in' : 'left out as'} the row's period ${row.period}`,
      );
    const period = e.period ?? row.period;
    const lines = line.kind === 'all' ? ['all'] : line.kind === 'line' ? [line.code] : line.codes;
    const held = this.listedRows(state, lines, period, metric).filter(
      (r) => r.value === e.value && (r.printed || null) === e.as_printed && (r.qualifier || undefined) === e.qualifier,
    );
    if (!held.length) {
      const anywhere = lines
        .flatMap((l) => STATEWIDE.get(key(state, l, period, metric)) ?? [])
        .filter((r) => r.value === e.value);
      return this.problem(
        `${where} (${JSON.stringify(e.as_printed)}, ${e.qualifier}): no listed publication prints it` +
          (anywhere.length
            ? `; printed in ${anywhere.map((r) => `${r.pub.file} as ${JSON.stringify(r.printed)}/${r.qualifier || 'exact'}`).join(', ')}`
            : ''),
      );
    }
    held.forEach((r) => this.contributed.add(r.pub));
  }

  /**
   * printed_keys (docs/design.md §9): the legend of exactly the keys the rows use, each unit the one its name
   * implies (a share or change is a percent, a premium or an average premium is USD, anything else a count).
   */
  legend(printedKeys: Record<string, { measures: string; unit: string }> | undefined, rows: SeriesRow[]) {
    const used = [...new Set(rows.flatMap((r) => Object.keys(r.printed ?? {})))].sort();
    if (!printedKeys) return this.problem('has no printed_keys');
    if (JSON.stringify(Object.keys(printedKeys).sort()) !== JSON.stringify(used))
      this.problem(
        `printed_keys lists ${Object.keys(printedKeys).join(', ') || 'nothing'}, the rows use ${used.join(', ') || 'nothing'}`,
      );
    for (const [key, { measures, unit }] of Object.entries(printedKeys)) {
      const expected = /_pct(_ytd)?$/.test(key)
        ? 'percent'
        : /^(premium|avg_premium_per_[a-z]+|new_business_premium|renewal_premium)(_ytd)?$/.test(key)
          ? 'USD'
          : 'count';
      if (unit !== expected || !measures)
        this.problem(
          `printed_keys.${key} is ${JSON.stringify({ measures, unit })}: expected a ${expected} with what it measures`,
        );
    }
  }

  series(state: string, line: LineSpec, type: PeriodType, rows: SeriesRow[]) {
    for (const row of rows) {
      for (const f of FIELDS) if (row[f] !== null) this.field(state, line, type, row, f);
      for (const [k, e] of Object.entries(row.printed ?? {})) this.printedEntry(state, line, row, k, e);
    }
  }

  /** No padding, and no figure without a publication. */
  finish(): string[] {
    for (const ref of this.refs) {
      const files = PUBS.filter((p) => p.url === ref.url && p.reportDate === ref.report_date);
      if (files.length && !files.some((p) => this.contributed.has(p)))
        this.problem(
          `lists ${files.map((p) => p.file).join(' / ')} (${ref.url}), which holds none of the figures it shows`,
        );
    }
    if ((this.figures === 0) !== (this.refs.length === 0))
      this.problem(
        `${this.figures} figures and ${this.refs.length} publications: publications must be empty exactly when no figure is returned`,
      );
    if (this.figures === 0) counts.emptyAnswers++;
    return this.problems;
  }
}

// ---- the answers --------------------------------------------------------------------------------------

async function get<T>(path: string): Promise<T> {
  const res = await callHandler(`http://service.test${path}`);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface CoverageItem {
  state: string;
  period_types: Partial<Record<string, { count_unit: string | null }>>;
  insurer_periods: string[];
}
interface LineItem {
  source_code: string;
  category: string | null;
}
const GRANULARITIES: PeriodType[] = ['month', 'quarter', 'half_year', 'year'];
let coverage: CoverageItem[] = [];
const allProblems: string[] = [];

/** Fails with the problems found (the first 40 spelled out). */
function expectNoProblems(problems: string[]) {
  allProblems.push(...problems);
  expect(problems.length === 0 ? [] : [`${problems.length} problems`, ...problems.slice(0, 40)]).toEqual([]);
}

let restore = () => {};
beforeAll(async () => {
  restore = serveShards(buildInto(REAL_DATA));
  installGate(null);
  coverage = await get<CoverageItem[]>('/v1/coverage');
  for (const c of coverage)
    for (const [type, t] of Object.entries(c.period_types)) COUNT_UNIT.set(`${c.state}|${type}`, t!.count_unit);
});
afterAll(() => {
  installGate(undefined);
  restore();
  console.log(
    `provenance: ${JSON.stringify(counts)}; ${allProblems.length} problems${allProblems.map((p) => `\n  ${p}`).join('')}`,
  );
});

const granularitiesOf = (state: string) =>
  GRANULARITIES.filter((g) => coverage.find((c) => c.state === state)!.period_types[g]);

describe('the data files read here', () => {
  it('hold publications with url and report_date, figures, bases, and the states /v1/coverage lists', () => {
    expect(PUBS.length).toBeGreaterThan(50);
    for (const p of PUBS)
      expect([p.file, p.url, p.reportDate]).toEqual([
        p.file,
        expect.stringMatching(/^https?:\/\//),
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      ]);
    expect(ROWS.length).toBeGreaterThan(1000);
    expect(ROWS.filter((r) => !Number.isFinite(r.value))).toEqual([]);
    expect(coverage.map((c) => c.state)).toEqual(STATES);
    expect(BASES.size).toBeGreaterThan(10);
  });

  it('parse quoted fields', () => {
    expect(csvFields('a,"b, c","say ""hi""",,e')).toEqual(['a', 'b, c', 'say "hi"', '', 'e']);
  });
});

describe('every figure of every answer is held by a publication it lists, and each listed publication holds one', () => {
  it.each(STATES)('%s: /v1/premium for every granularity, line=all, every line and every category', async (state) => {
    const problems: string[] = [];
    const lines = await get<LineItem[]>(`/v1/lines?state=${state}`);
    const specs: { param: string; echo: string; spec: LineSpec }[] = [
      { param: 'all', echo: 'all', spec: { kind: 'all' } },
    ];
    for (const l of lines)
      specs.push({ param: l.source_code, echo: l.source_code, spec: { kind: 'line', code: l.source_code } });
    for (const name of new Set(lines.map((l) => l.category).filter((c): c is string => !!c)))
      specs.push({
        param: `category:${name}`,
        echo: name,
        spec: { kind: 'category', name, codes: CATEGORY_LINES.get(`${state}|${name.toLowerCase()}`) ?? [] },
      });
    for (const g of granularitiesOf(state)) {
      for (const { param, echo, spec } of specs) {
        const query = `/v1/premium?state=${state}&line=${encodeURIComponent(param)}&granularity=${g}`;
        const body = await get<{
          line: string;
          granularity: string;
          data: SeriesRow[];
          printed_keys: PrintedKeys;
          publications: PublicationRef[];
        }>(query);
        const answer = new Answer(query, body.publications);
        if (body.line !== echo || body.granularity !== g)
          answer.problem(`echoes line ${body.line}, granularity ${body.granularity}`);
        answer.series(state, spec, g, body.data);
        answer.legend(body.printed_keys, body.data);
        problems.push(...answer.finish());
      }
    }
    expectNoProblems(problems);
  });

  it.each(GRANULARITIES)('/v1/compare of every state, granularity %s', async (g) => {
    const query = `/v1/compare?states=${STATES.join(',')}&granularity=${g}`;
    const body = await get<{
      series: Record<string, SeriesRow[]>;
      printed_keys: PrintedKeys;
      publications: PublicationRef[];
    }>(query);
    const answer = new Answer(query, body.publications);
    expect(Object.keys(body.series).sort()).toEqual([...STATES].sort());
    for (const [state, rows] of Object.entries(body.series)) answer.series(state, { kind: 'all' }, g, rows);
    answer.legend(body.printed_keys, Object.values(body.series).flat());
    expectNoProblems(answer.finish());
  });

  it.each(STATES)('%s: /v1/premium/sample', async (state) => {
    const query = `/v1/premium/sample?state=${state}`;
    const body = await get<{ data: SeriesRow[]; printed_keys: PrintedKeys; publications: PublicationRef[] }>(query);
    const answer = new Answer(query, body.publications);
    answer.series(state, { kind: 'all' }, 'month', body.data);
    answer.legend(body.printed_keys, body.data);
    expectNoProblems(answer.finish());
  });

  it.each(STATES)('%s: /v1/premium/summary for every year 2019 to 2025', async (state) => {
    const problems: string[] = [];
    /** The months of a year with an exact statewide all-lines figure, as the data files give them. */
    const monthsWithFigures = (year: number) =>
      monthsOf(String(year))
        .map((m) => [m, expectedRow(state, { kind: 'all' }, 'month', m)] as const)
        .filter((e): e is readonly [string, Expected] => hasValues(e[1]));
    for (let year = 2019; year <= 2025; year++) {
      const query = `/v1/premium/summary?state=${state}&year=${year}`;
      const body = await get<
        Record<Field, number | null> & {
          prior_year: { premium: number | null; policy_count: number | null };
          publications: PublicationRef[];
        }
      >(query);
      const answer = new Answer(query, body.publications);
      const current = monthsWithFigures(year);
      const calendar = new Set(current.map(([m]) => m.slice(5)));
      const prior = monthsWithFigures(year - 1);
      const figures: [string, number, Field, number | null][] = [
        ...FIELDS.map((f) => [`${f}`, year, f, body[f]] as [string, number, Field, number | null]),
        ['prior_year.premium', year - 1, 'premium', body.prior_year.premium],
        ['prior_year.policy_count', year - 1, 'policy_count', body.prior_year.policy_count],
      ];
      for (const [name, y, f, v] of figures) {
        if (v === null) continue;
        answer.figures++;
        counts.summaryFigures++;
        const where = `${name}=${v}`;
        // The source's year row, printed by a listed publication...
        const metric = f === 'policy_count' ? countUnit(state, 'year') : f;
        const direct = metric
          ? answer.listedRows(state, ['all'], String(y), metric).filter((r) => r.qualifier === '' && r.value === v)
          : [];
        if (direct.length) {
          direct.forEach((r) => answer.contributed.add(r.pub));
          continue;
        }
        // ...or the months summed: all the year's months with a figure, or (the prior year) those of the current year's calendar months.
        const sets = y === year ? [current] : [prior, prior.filter(([m]) => calendar.has(m.slice(5)))];
        const sums = sets
          .filter((s) => s.length)
          .map((s) =>
            sum(
              s.map(([, e]) => e),
              true,
            ),
          );
        const match = sums.find((s) => s.values[f] === v);
        if (!match) {
          answer.problem(
            `${where}: no listed publication prints it for ${y}, and the months give ${JSON.stringify(sums.map((s) => s.values[f]))}`,
          );
          continue;
        }
        const unlisted = [...match.sources[f]].filter((p) => !answer.listed.includes(p));
        if (unlisted.length)
          answer.problem(
            `${where}: summed from months printed by ${unlisted.map((p) => p.file).join(', ')}, which the answer does not list`,
          );
        match.sources[f].forEach((p) => answer.contributed.add(p));
      }
      problems.push(...answer.finish());
    }
    expectNoProblems(problems);
  });

  it.each(STATES)('%s: /v1/insurers for every period of insurer_periods', async (state) => {
    const problems: string[] = [];
    for (const period of coverage.find((c) => c.state === state)!.insurer_periods) {
      const query = `/v1/insurers?state=${state}&period=${period}`;
      type Item = {
        name: string;
        premium: number;
        policy_count: number | null;
        as_printed?: string;
        qualifier?: string;
      };
      const body = await get<{ insurers: Item[]; unranked: Item[]; publications: PublicationRef[] }>(query);
      const answer = new Answer(query, body.publications);
      let item: Item;
      // Exact rows, or (a premium printed rounded) the row of the words and qualifier the item shows.
      const insurerRows = (p: string, metric: string, name: string) =>
        ROWS.filter(
          (r) =>
            r.state === state &&
            r.period === p &&
            r.metric === metric &&
            r.insurer === name &&
            !r.county &&
            r.qualifier === (item.qualifier ?? '') &&
            (!item.as_printed || r.printed === item.as_printed),
        );
      for (item of [...body.insurers, ...body.unranked]) {
        for (const [metric, v] of [
          ['insurer_premium', item.premium],
          ['insurer_policies', item.policy_count],
        ] as const) {
          if (v === null) continue;
          answer.figures++;
          counts.insurerFigures++;
          const direct = insurerRows(period, metric, item.name).filter(
            (r) => r.value === v && answer.listed.includes(r.pub),
          );
          if (direct.length) {
            direct.forEach((r) => answer.contributed.add(r.pub));
            continue;
          }
          // A year summed from its 12 months, each month's latest exact figure.
          const months = /^\d{4}$/.test(period)
            ? monthsOf(period).map((m) => {
                const rows = insurerRows(m, metric, item.name);
                const date = rows
                  .map((r) => r.pub.reportDate)
                  .sort()
                  .at(-1);
                return rows.filter((r) => r.pub.reportDate === date);
              })
            : [];
          const total =
            months.length === 12 && months.every((m) => m.length)
              ? months.reduce((s, m) => s + Math.round(m[0].value * 100), 0) / 100
              : null;
          if (total !== v) {
            answer.problem(
              `${item.name} ${metric}=${v}: no listed publication prints it for ${period}, and its months give ${total}`,
            );
            continue;
          }
          for (const m of months) {
            if (!m.some((r) => answer.listed.includes(r.pub)))
              answer.problem(`${item.name} ${metric}: the month printed by ${m[0].pub.file} is not listed`);
            m.forEach((r) => answer.contributed.add(r.pub));
          }
        }
      }
      problems.push(...answer.finish());
    }
    expectNoProblems(problems);
  });
});

describe('what was checked', () => {
  it('a real amount of it', () => {
    // Runs after the rest of the file (vitest runs a file's tests in order). Lower bounds well under
    // what data/ held when this was written (460 answers, 501 fields of which 73 summed, 2,200 printed
    // entries, 36 summary figures): the data only grows.
    expect(counts.answers).toBeGreaterThan(400);
    expect(counts.fields).toBeGreaterThan(400);
    expect(counts.summedFields).toBeGreaterThan(50);
    expect(counts.printed).toBeGreaterThan(1500);
    expect(counts.summaryFigures).toBeGreaterThan(20);
  });
});
