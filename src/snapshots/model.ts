// The monthly snapshots: what each /snapshots/YYYY-MM/ page shows, computed once per build from the
// shards the API serves, with the API's own vintage rule (a figure as of a date is the one the API
// answers for report_date=that date).
//
// A snapshot exists for every month some state has monthly figures for. Its date (`asOf`) is the day the
// last of those monthly figures was first published; every figure on the page is read as of that date.
// States with figures for the month show them; the others show the latest period (month, quarter,
// half-year or year) that ended by the month and was published by that date, labelled with its period.
import type { CoverageItem } from '../../domain/contract.ts';
import { GRANULARITIES, type Granularity, lastDay, parsePeriod } from '../../domain/periods.ts';
import { byDateThenUrl } from '../../domain/publications.ts';
import type { PublicationRef } from '../../domain/shard-types.ts';
import { inForceOn } from '../../domain/vintages.ts';
import { type PreparedRow, type PreparedSnapshot, cite, seriesRows, stateIndex } from '../../api/queries/series.ts';
import { type Figure, type RowRef, countWord, figuresOf } from './figures.ts';
import { periodLabel, previousPeriod } from './periods.ts';

export type { Figure } from './figures.ts';

export interface ChartPoint {
  period: string;
  label: string;
  premium: Figure | null;
}

interface LineFigure {
  name: string;
  code: string;
  premium: Figure;
}

export interface StateBlock {
  state: string;
  name: string;
  granularity: Granularity;
  period: string;
  periodLabel: string;
  /** True when the figures are for the snapshot's own month. */
  current: boolean;
  basis: string | null;
  countUnit: string | null;
  premium: Figure | null;
  count: Figure | null;
  /** The published change in premium from the same period a year earlier. */
  change: Figure | null;
  yearToDate: Figure[];
  newRenewal: Figure[];
  other: Figure[];
  /** The lines the publications printed premium for, that period, largest first (at most five). */
  lines: LineFigure[];
  /** The last 13 periods of the same kind, oldest first; null when fewer than three have a premium. */
  chart: ChartPoint[] | null;
}

interface Restatement {
  state: string;
  name: string;
  periodLabel: string;
  before: Figure;
  after: Figure;
}

interface ComparisonRow {
  state: string;
  name: string;
  premium: Figure | null;
  change: Figure | null;
}

export interface Comparison {
  period: string;
  label: string;
  rows: ComparisonRow[];
}

interface HeadlinePart {
  name: string;
  /** The premium, else the count. */
  level: Figure | null;
  /** "premium", or what the count counts. */
  levelWord: string;
  change: Figure | null;
}

interface CitedPublication extends PublicationRef {
  /** Its position in the build's publications: the page's anchor `#pub-<id>`. */
  id: number;
}

export interface Snapshot {
  month: string;
  label: string;
  asOf: string;
  headline: string;
  headlineParts: HeadlinePart[];
  states: StateBlock[];
  comparison: Comparison | null;
  restatements: Restatement[];
  publications: CitedPublication[];
  /** Every figure the page shows, once: what its CSV lists. */
  figures: Figure[];
}

/** A half-year comparison older than this many months before the snapshot is not shown. */
const COMPARISON_WINDOW_MONTHS = 24;
const LINES_SHOWN = 5;
/** A chart of fewer figures says less than its table: the block shows the figures alone. */
const CHART_MIN_FIGURES = 3;

const endOf = (period: string) => lastDay(parsePeriod(period)!);

interface Rows {
  list: PreparedRow[];
  byPeriod: Map<string, PreparedRow>;
}
const rowsCache = new Map<string, Rows>();
function rowsOf(state: string, dir: string, granularity: Granularity): Rows {
  const path = `series/${state}/${dir}/${granularity}.json`;
  let rows = rowsCache.get(path);
  if (!rows) {
    const list = seriesRows(path);
    rows = { list, byPeriod: new Map(list.map((r) => [r.period, r])) };
    rowsCache.set(path, rows);
  }
  return rows;
}

const asOfDate = (row: PreparedRow | undefined, date: string): PreparedSnapshot | undefined =>
  row && inForceOn(row.snapshots, date, (s) => s.asOf);

function rowFigures(
  state: string,
  line: string,
  dir: string,
  granularity: Granularity,
  period: string,
  date: string,
  countUnit: string | null,
): Figure[] {
  const snap = asOfDate(rowsOf(state, dir, granularity).byPeriod.get(period), date);
  if (!snap) return [];
  const ref: RowRef = { state, line, granularity, period, asOf: date };
  return figuresOf(ref, snap, countUnit);
}

const pick = (figures: Figure[], ...fields: string[]) => {
  for (const f of fields) {
    const hit = figures.find((x) => x.field === f);
    if (hit) return hit;
  }
  return null;
};
const premiumOf = (figures: Figure[]) => pick(figures, 'premium', 'printed.premium');

/** The latest period of a state's statewide series that ended by `monthEnd` and was published by `date`. */
function latestPeriod(
  state: string,
  monthEnd: string,
  date: string,
): { granularity: Granularity; period: string } | null {
  let best: { granularity: Granularity; period: string; end: string } | null = null;
  for (const granularity of GRANULARITIES) {
    for (const row of rowsOf(state, 'all', granularity).list) {
      const end = endOf(row.period);
      if (end > monthEnd || !asOfDate(row, date)) continue;
      // GRANULARITIES runs finest first: a coarser period ending the same day does not replace it.
      if (!best || end > best.end) best = { granularity, period: row.period, end };
    }
  }
  return best && { granularity: best.granularity, period: best.period };
}

function stateBlock(item: CoverageItem, month: string, date: string): StateBlock | null {
  const { state } = item;
  const found = latestPeriod(state, endOf(month), date);
  if (!found) return null;
  const { granularity, period } = found;
  const coverage = item.period_types[granularity];
  const countUnit = coverage?.count_unit ?? null;
  const figures = rowFigures(state, 'all', 'all', granularity, period, date, countUnit);
  const premium = premiumOf(figures);
  const count = pick(figures, 'policy_count', 'printed.policies', 'printed.items', 'printed.transactions');
  const change = pick(figures, 'printed.premium_yoy_pct');
  const shown = new Set([premium, count, change]);
  const rest = figures.filter((f) => !shown.has(f));
  const yearToDate = rest.filter((f) => f.field.endsWith('_ytd'));
  const newRenewal = rest.filter(
    (f) => !f.field.endsWith('_ytd') && /(^|\.)(new_business|renewal|non_policy)_/.test(f.field),
  );
  const other = rest.filter((f) => !yearToDate.includes(f) && !newRenewal.includes(f));

  const entry = stateIndex(state);
  const lines = entry.lines
    .map((l) => ({
      name: l.name,
      code: l.source_code,
      premium: premiumOf(rowFigures(state, l.source_code, l.dir, granularity, period, date, countUnit)),
    }))
    .filter((l): l is LineFigure => l.premium !== null)
    .sort((a, b) => b.premium.value - a.premium.value || a.name.localeCompare(b.name))
    .slice(0, LINES_SHOWN);

  const periods = [period];
  while (periods.length < 13) periods.unshift(previousPeriod(periods[0], granularity));
  const points = periods.map((p) => ({
    period: p,
    label: periodLabel(p, true),
    premium: premiumOf(rowFigures(state, 'all', 'all', granularity, p, date, countUnit)),
  }));
  const chart = points.filter((p) => p.premium).length >= CHART_MIN_FIGURES ? points : null;

  return {
    state,
    name: item.name,
    granularity,
    period,
    periodLabel: periodLabel(period),
    current: granularity === 'month' && period === month,
    basis: coverage?.basis ?? null,
    countUnit,
    premium,
    count,
    change,
    yearToDate,
    newRenewal,
    other,
    lines,
    chart,
  };
}

/** Figures of the period a block showed, re-read as of a later date, that changed value. */
function restatementsOf(before: StateBlock, beforeDate: string, date: string): Restatement[] {
  const then = rowFigures(before.state, 'all', 'all', before.granularity, before.period, beforeDate, before.countUnit);
  const now = rowFigures(before.state, 'all', 'all', before.granularity, before.period, date, before.countUnit);
  return then.flatMap((old) => {
    const after = now.find((f) => f.field === old.field);
    return after && !sameAtCommonPrecision(old.value, after.value)
      ? [{ state: before.state, name: before.name, periodLabel: before.periodLabel, before: old, after }]
      : [];
  });
}

const significantDigits = (v: number) => {
  const digits = Math.abs(v).toExponential().split('e')[0].replace('.', '').replace(/^0+/, '');
  return Math.max(1, digits.length);
};

/**
 * Two printings of one figure that agree to the precision of the less precise one ("+14.97%" and
 * "+15%", "$970,200,000" and "$970.2M") are the same figure, not a restatement.
 */
export function sameAtCommonPrecision(a: number, b: number): boolean {
  const digits = Math.min(significantDigits(a), significantDigits(b));
  return Number(a.toPrecision(digits)) === Number(b.toPrecision(digits));
}

function comparisonOf(coverage: readonly CoverageItem[], month: string, date: string): Comparison | null {
  const monthEnd = endOf(month);
  const earliest = endOf(previousPeriod(month, 'month', COMPARISON_WINDOW_MONTHS));
  const periods = new Set<string>();
  for (const { state } of coverage) {
    for (const row of rowsOf(state, 'all', 'half_year').list) {
      const end = endOf(row.period);
      if (end <= monthEnd && end > earliest) periods.add(row.period);
    }
  }
  for (const period of [...periods].sort().reverse()) {
    const rows = coverage
      .map((item) => {
        const figures = rowFigures(
          item.state,
          'all',
          'all',
          'half_year',
          period,
          date,
          item.period_types.half_year?.count_unit ?? null,
        );
        return {
          state: item.state,
          name: item.name,
          premium: premiumOf(figures),
          change: pick(figures, 'printed.premium_yoy_pct'),
        };
      })
      .filter((r) => r.premium || r.change);
    if (rows.filter((r) => r.premium).length < 2) continue;
    rows.sort((a, b) => (b.premium?.value ?? -1) - (a.premium?.value ?? -1) || a.state.localeCompare(b.state));
    return { period, label: periodLabel(period), rows };
  }
  return null;
}

/** Per state reporting the month: its premium (else its count) and its published change. */
function headlinePartsOf(blocks: StateBlock[]): HeadlinePart[] {
  return blocks.flatMap((b) => {
    const level = b.premium ?? b.count;
    if (!b.current || (!level && !b.change)) return [];
    return [
      {
        name: b.name,
        level,
        levelWord: level === b.premium ? 'premium' : level ? countWord(level) : '',
        change: b.change,
      },
    ];
  });
}

/** The headline as text (page description, feed): what the Headline component shows with its links. */
function headlineOf(label: string, parts: HeadlinePart[]): string {
  const says = parts.map(
    (p) =>
      `${p.name} ` +
      [p.level && `${p.level.text} ${p.levelWord}`, p.change && `${p.change.text} on a year earlier`]
        .filter(Boolean)
        .join(', '),
  );
  return `${label}: ${says.length ? says.join('; ') : 'figures published for the month'}.`;
}

function figuresShown(s: Omit<Snapshot, 'figures' | 'publications'>): Figure[] {
  const all: (Figure | null)[] = [];
  for (const b of s.states) {
    all.push(
      b.premium,
      b.count,
      b.change,
      ...b.yearToDate,
      ...b.newRenewal,
      ...b.other,
      ...b.lines.map((l) => l.premium),
    );
    for (const p of b.chart ?? []) all.push(p.premium);
  }
  for (const r of s.comparison?.rows ?? []) all.push(r.premium, r.change);
  for (const r of s.restatements) all.push(r.before, r.after);
  const seen = new Map<string, Figure>();
  for (const f of all) {
    if (f) seen.set([f.state, f.line, f.granularity, f.period, f.field, f.asOf].join('|'), f);
  }
  return [...seen.values()];
}

/** The months with monthly figures, and for each the day the last of them was first published. */
function snapshotDates(coverage: readonly CoverageItem[]): Map<string, string> {
  const dates = new Map<string, string>();
  for (const { state } of coverage) {
    for (const row of rowsOf(state, 'all', 'month').list) {
      const first = row.snapshots[0]?.asOf;
      if (first && !(dates.get(row.period)! >= first)) dates.set(row.period, first);
    }
  }
  return dates;
}

/** Every snapshot, newest first. */
export function buildSnapshots(coverage: readonly CoverageItem[]): Snapshot[] {
  const out: Snapshot[] = [];
  let previous: Snapshot | undefined;
  for (const [month, asOf] of [...snapshotDates(coverage)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const label = periodLabel(month);
    const states = coverage.map((item) => stateBlock(item, month, asOf)).filter((b): b is StateBlock => b !== null);
    states.sort((a, b) => Number(b.current) - Number(a.current) || a.state.localeCompare(b.state));
    const restatements =
      previous && previous.asOf < asOf ? previous.states.flatMap((b) => restatementsOf(b, previous!.asOf, asOf)) : [];
    const headlineParts = headlinePartsOf(states);
    const partial = {
      month,
      label,
      asOf,
      headline: headlineOf(label, headlineParts),
      headlineParts,
      states,
      comparison: comparisonOf(coverage, month, asOf),
      restatements,
    };
    const figures = figuresShown(partial);
    const ids = [...new Set(figures.flatMap((f) => f.sources))];
    const publications = ids.map((id) => ({ id, ...cite([id])[0] })).sort(byDateThenUrl);
    previous = { ...partial, figures, publications };
    out.push(previous);
  }
  return out.reverse();
}

let built: Promise<Snapshot[]> | undefined;

/** The build's snapshots, newest first, computed once per build process. */
export function allSnapshots(): Promise<Snapshot[]> {
  return (built ??= import('../llms-coverage.ts').then(async ({ buildCoverage }) =>
    buildSnapshots(await buildCoverage()),
  ));
}
