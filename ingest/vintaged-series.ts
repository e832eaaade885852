// Figures → series with every vintage (docs/design.md §1-3). Each row of a series keeps a list of
// snapshots: from `asOf` on, the row reads `values`, last published on `reportDate`. Answering "as of D"
// is then one lookup per row: the last snapshot with asOf <= D.
import {
  SERIES_FIELDS,
  type PrintedFigure,
  type PrintedFigures,
  type SeriesField,
  type SeriesValues,
} from '../domain/contract.ts';
import { type PeriodType, monthKey } from '../domain/periods.ts';
import { emptyValues, latestPublication } from '../domain/vintages.ts';
import { type Metric, YTD_SUFFIX } from '../domain/metrics.ts';
import { shortenedCitations } from './citations.ts';
import { COUNT_UNITS, type CountUnit, type Dataset, type Figure, isPrintedMetric } from './model-types.ts';
import type { Publication } from './sources/header.ts';
import { byPublicationOrder, comparePeriods, union } from './model-order.ts';

export interface Snapshot {
  asOf: string;
  reportDate: string;
  dataAsOf: string;
  values: SeriesValues;
  /** Figures printed for this period that fill no series field (docs/design.md §9), by key. */
  printed: PrintedFigures;
  /**
   * Where each figure shown comes from: a series field (non-null ones only), or `printed.<key>`, → the
   * ids of the publications that printed it (several for a sum), sorted.
   */
  sources: Record<string, string[]>;
  /** True when the values are a row the source printed for this period; false when summed here. */
  published: boolean;
}
export interface VintagedRow {
  period: string;
  snapshots: Snapshot[];
}
export interface Series {
  state: string;
  /** `all`, `line:<id>` or `category:<name>`. */
  lineKey: string;
  county: string | null;
  periodType: PeriodType;
  countUnit: CountUnit | null;
  /** What the premium is (bases.csv): the series' own period type's, else that of the rows it was summed from. */
  basis: string | null;
  /** Sorted by period. */
  rows: VintagedRow[];
}

const DIRECT_FIELDS: Partial<Record<Metric, SeriesField>> = {
  premium: 'premium',
  new_business_premium: 'new_business_premium',
  renewal_premium: 'renewal_premium',
  new_business_policy_pct: 'new_business_policy_pct',
  renewal_policy_pct: 'renewal_policy_pct',
};
const sameValues = (a: SeriesValues, b: SeriesValues) => SERIES_FIELDS.every((f) => a[f] === b[f]);
const samePrinted = (a: PrintedFigures, b: PrintedFigures) => JSON.stringify(a) === JSON.stringify(b);
const sortedKeys = (o: PrintedFigures): PrintedFigures =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * The unit policy_count carries for a state and period type: the first of COUNT_UNITS it publishes. A
 * quarter, half-year or year on its months' basis counts its months' units as its own, so that a period
 * summed from its months and one the source printed carry one unit (a TX quarter's filings beside its
 * months' policies are a printed entry, not a unit that would empty every summed quarter).
 */
export function chooseCountUnits(figures: Figure[], bases: Map<string, string>): Map<string, CountUnit> {
  const seen = new Map<string, Set<string>>();
  const metricsOf = (key: string) => seen.get(key) ?? seen.set(key, new Set()).get(key)!;
  const monthStates = new Set<string>();
  for (const f of figures) {
    if (!f.exact || f.insurer || !(COUNT_UNITS as readonly string[]).includes(f.metric)) continue;
    metricsOf(`${f.state}|${f.period.type}`).add(f.metric);
    if (f.period.type === 'month') monthStates.add(f.state);
  }
  for (const state of monthStates) {
    const months = seen.get(`${state}|month`)!;
    for (const type of ROLLED_UP)
      if (sumsFrom(bases.get(`${state}|${type}`), bases.get(`${state}|month`)))
        for (const metric of months) metricsOf(`${state}|${type}`).add(metric);
  }
  const units = new Map<string, CountUnit>();
  for (const [key, metrics] of seen)
    units.set(
      key,
      COUNT_UNITS.find((u) => metrics.has(u))!,
    );
  return units;
}
const ROLLED_UP = ['quarter', 'half_year', 'year'] as const;

/**
 * Whether a period type on `basis` is summed from its parts on `partsBasis` (ingest/rollups.ts): when it has no basis
 * of its own, or theirs.
 */
export const sumsFrom = (basis: string | null | undefined, partsBasis: string | null | undefined) =>
  !basis || basis === partsBasis;

/** The publications a snapshot cites: those of every figure it shows. */
export const snapshotPubs = (s: Snapshot) => union(Object.values(s.sources));

/** Equal but for as_of: the later one adds nothing. */
export const sameSnapshot = (a: Snapshot, b: Snapshot) =>
  a.reportDate === b.reportDate &&
  a.dataAsOf === b.dataAsOf &&
  a.published === b.published &&
  sameValues(a.values, b.values) &&
  samePrinted(a.printed, b.printed) &&
  JSON.stringify(a.sources) === JSON.stringify(b.sources);

/** One figure of one publication, placed in its row: a series field, or a printed figure under `printedKey`. */
interface Placed {
  metric: Metric;
  field?: SeriesField;
  printedKey?: string;
  value: number;
  figure?: PrintedFigure;
  /**
   * For a shortened citation (ingest/citations.ts): the report_date of the first exact printing it agrees
   * with. From that date on it is ignored, as if never printed (docs/design.md §1).
   */
  hiddenFrom?: string;
}

/**
 * A printed entry (docs/design.md §9): what it measures is said once per answer (printed_keys), its period only where
 * it is not the row's.
 */
function printedFigure(f: Figure, rowPeriod: string): PrintedFigure {
  return {
    value: f.value,
    as_printed: f.printed,
    ...(f.qualifier ? { qualifier: f.qualifier } : {}),
    ...(f.period.key !== rowPeriod ? { period: f.period.key } : {}),
  };
}

/** The series field an exact figure of `metric` fills where its period's count unit is `unit`, if any. */
const seriesFieldOf = (metric: Metric, unit: CountUnit | null) =>
  DIRECT_FIELDS[metric] ?? (metric === unit ? 'policy_count' : undefined);

/**
 * Where a figure goes: a series field of its own period's row when exact and the field exists, else a
 * printed figure of that row. A year-to-date figure is printed on the row of its last month.
 */
function placeFigure(
  f: Figure,
  unit: CountUnit | null,
  hidden: Pick<Placed, 'hiddenFrom'>,
): { periodType: PeriodType; period: string; placed: Placed } {
  if (f.period.type === 'year_to_date') {
    const period = monthKey(f.period.year, f.period.lastMonth);
    const placed = {
      metric: f.metric,
      printedKey: `${f.metric}${YTD_SUFFIX}`,
      value: f.value,
      figure: printedFigure(f, period),
      ...hidden,
    };
    return { periodType: 'month', period, placed };
  }
  const field = f.exact && !isPrintedMetric(f.metric) ? seriesFieldOf(f.metric, unit) : undefined;
  const placed: Placed = field
    ? { metric: f.metric, field, value: f.value, ...hidden }
    : { metric: f.metric, printedKey: f.metric, value: f.value, figure: printedFigure(f, f.period.key), ...hidden };
  return { periodType: f.period.type, period: f.period.key, placed };
}

/**
 * Rows as the publications printed them. As of each publication date, every field and printed figure
 * takes the value of the latest publication that printed it. A press copy counts only for a figure no
 * office publication printed (docs/design.md §1), exact or not: a press copy that drops the office's
 * "nearly" does not turn the office's qualified figure into an exact one. A shortened citation of an exact
 * figure (ingest/citations.ts), an exact printing coarser than another included, counts for nothing from
 * the day the finer figure was first published: neither shown nor keeping a press copy's finer figure out,
 * so the finer value stands (docs/design.md §1).
 */
export function baseSeries(dataset: Dataset, units: Map<string, CountUnit>): Map<string, Series> {
  const shortened = shortenedCitations(dataset.figures);
  const groups = new Map<string, { series: Omit<Series, 'rows'>; periods: Map<string, Map<Publication, Placed[]>> }>();
  const add = (f: Figure, periodType: PeriodType, period: string, placed: Placed) => {
    const lineKey = f.line === 'all' ? 'all' : `line:${dataset.lines.get(f.state)!.get(f.line)!.id}`;
    const key = [f.state, lineKey, f.county ?? '', periodType].join('|');
    if (!groups.has(key)) {
      const unit = units.get(`${f.state}|${periodType}`) ?? null;
      // A month row that holds only year-to-date figures is on the year to date's basis.
      const basis =
        dataset.bases.get(`${f.state}|${periodType}`) ?? dataset.bases.get(`${f.state}|${f.period.type}`) ?? null;
      groups.set(key, {
        series: { state: f.state, lineKey, county: f.county, periodType, countUnit: unit, basis },
        periods: new Map(),
      });
    }
    const periods = groups.get(key)!.periods;
    if (!periods.has(period)) periods.set(period, new Map());
    const byPub = periods.get(period)!;
    if (!byPub.has(f.pub)) byPub.set(f.pub, []);
    byPub.get(f.pub)!.push(placed);
  };
  for (const f of dataset.figures) {
    if (f.insurer) continue;
    const hiddenFrom = shortened.get(f)?.from;
    const hidden = hiddenFrom === undefined ? {} : { hiddenFrom };
    const unit = units.get(`${f.state}|${f.period.type}`) ?? null;
    const { periodType, period, placed } = placeFigure(f, unit, hidden);
    add(f, periodType, period, placed);
    // A year-to-date series of exact figures is kept too: /v1/coverage reports its span and unit.
    if (f.period.type === 'year_to_date' && f.exact && !isPrintedMetric(f.metric)) {
      const field = seriesFieldOf(f.metric, unit);
      if (field) add(f, 'year_to_date', f.period.key, { metric: f.metric, field, value: f.value, ...hidden });
    }
  }
  const out = new Map<string, Series>();
  for (const [key, { series, periods }] of groups) {
    const rows: VintagedRow[] = [];
    for (const [period, byPub] of periods) {
      const pubs = [...byPub.keys()].sort(byPublicationOrder);
      const snapshots: Snapshot[] = [];
      for (const date of [...new Set(pubs.map((p) => p.reportDate))]) {
        const known = pubs.filter((p) => p.reportDate <= date);
        const counts = (e: Placed) => e.hiddenFrom === undefined || e.hiddenFrom > date;
        // What an office printed, by figure: a year to date (`premium_ytd`) is another figure than the month's premium.
        const figureOf = (e: Placed) => e.printedKey ?? e.metric;
        const byOffice = new Set(
          known.filter((p) => !p.secondary).flatMap((p) => byPub.get(p)!.filter(counts).map(figureOf)),
        );
        const values = emptyValues();
        const printed: PrintedFigures = {};
        const valueSetters = new Map<string, Publication>();
        const printedSetters = new Map<string, Publication>();
        for (const pub of known) {
          for (const e of byPub.get(pub)!) {
            if (!counts(e) || (pub.secondary && byOffice.has(figureOf(e)))) continue;
            if (e.field) {
              values[e.field] = e.value;
              valueSetters.set(e.field, pub);
            } else {
              printed[e.printedKey!] = e.figure!;
              printedSetters.set(e.printedKey!, pub);
            }
          }
        }
        const sources: Record<string, string[]> = {};
        for (const f of SERIES_FIELDS) if (valueSetters.has(f)) sources[f] = [valueSetters.get(f)!.id];
        for (const k of Object.keys(sortedKeys(printed))) sources[`printed.${k}`] = [printedSetters.get(k)!.id];
        const shown = [...valueSetters.values(), ...printedSetters.values()];
        if (!shown.length) continue;
        const latest = latestPublication(shown);
        const snap: Snapshot = {
          asOf: date,
          reportDate: latest.reportDate,
          dataAsOf: latest.dataAsOf,
          values,
          printed: sortedKeys(printed),
          sources,
          published: true,
        };
        if (snapshots.length && sameSnapshot(snapshots.at(-1)!, snap)) continue;
        snapshots.push(snap);
      }
      if (snapshots.length) rows.push({ period, snapshots });
    }
    rows.sort((a, b) => comparePeriods(a.period, b.period));
    out.set(key, { ...series, rows });
  }
  return out;
}

/** A series' key in the model's map of series. */
export const seriesKey = (s: Pick<Series, 'state' | 'lineKey' | 'county' | 'periodType'>) =>
  [s.state, s.lineKey, s.county ?? '', s.periodType].join('|');
