// Figures → series with every vintage (DECISIONS.md §1-3). Each row of a series keeps a list of
// snapshots: from `asOf` on, the row reads `values`, last published on `reportDate`. Answering "as of D"
// is then one lookup per row: the last snapshot with asOf <= D. Roll-ups and category sums are computed
// here, vintage by vintage, so the API never merges or sums on the request path.
import { SERIES_FIELDS, type PrintedFigure, type PrintedFigures, type SeriesField, type SeriesValues } from '../domain/contract.ts';
import { type PeriodType, monthKey, monthsOf, parsePeriod, rollupKey } from '../domain/periods.ts';
import { emptyValues, inForceOn, latestPublication, sumValues } from '../domain/vintages.ts';
import { type Metric, YTD_SUFFIX } from '../domain/metrics.ts';
import { shortenedCitations } from './citations.ts';
import { COUNT_UNITS, type CountUnit, type Dataset, type Figure, type Publication, isPrintedMetric } from './model-types.ts';

export interface Snapshot {
  asOf: string;
  reportDate: string;
  dataAsOf: string;
  values: SeriesValues;
  /** Figures printed for this period that fill no series field (DECISIONS §9), by key. */
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
export interface InsurerRow {
  name: string;
  premium: number | null;
  policy_count: number | null;
}
export interface InsurerPeriod {
  period: string;
  reportDate: string;
  dataAsOf: string;
  pubs: string[];
  insurers: InsurerRow[];
}
export interface Model {
  series: Series[];
  /** By state, sorted by period. */
  insurers: Map<string, InsurerPeriod[]>;
}

const DIRECT_FIELDS: Partial<Record<Metric, SeriesField>> = {
  premium: 'premium',
  new_business_premium: 'new_business_premium',
  renewal_premium: 'renewal_premium',
  new_business_policy_pct: 'new_business_policy_pct',
  renewal_policy_pct: 'renewal_policy_pct',
};
const allNull = (v: SeriesValues) => SERIES_FIELDS.every((f) => v[f] === null);
const isEmpty = (s: { values: SeriesValues; printed: PrintedFigures }) => allNull(s.values) && !Object.keys(s.printed).length;
const sameValues = (a: SeriesValues, b: SeriesValues) => SERIES_FIELDS.every((f) => a[f] === b[f]);
const samePrinted = (a: PrintedFigures, b: PrintedFigures) => JSON.stringify(a) === JSON.stringify(b);
const byPublicationOrder = (a: Publication, b: Publication) =>
  a.reportDate < b.reportDate ? -1 : a.reportDate > b.reportDate ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
const comparePeriods = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedKeys = (o: PrintedFigures): PrintedFigures => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The unit policy_count carries for a state and period type: the first of COUNT_UNITS it publishes. */
function chooseCountUnits(figures: Figure[]): Map<string, CountUnit> {
  const seen = new Map<string, Set<string>>();
  for (const f of figures) {
    if (!f.exact || f.insurer || !(COUNT_UNITS as readonly string[]).includes(f.metric)) continue;
    const key = `${f.state}|${f.period.type}`;
    if (!seen.has(key)) seen.set(key, new Set());
    seen.get(key)!.add(f.metric);
  }
  const units = new Map<string, CountUnit>();
  for (const [key, metrics] of seen) units.set(key, COUNT_UNITS.find((u) => metrics.has(u))!);
  return units;
}

interface Combined {
  values: SeriesValues;
  printed: PrintedFigures;
  /** The snapshots whose values the row shows, and the one whose printed figures it shows. */
  valuesFrom: Snapshot[];
  printedFrom?: Snapshot;
  published: boolean;
}

const union = (lists: string[][]) => [...new Set(lists.flat())].sort();

/** The publications a snapshot cites: those of every figure it shows. */
export const snapshotPubs = (s: Snapshot) => union(Object.values(s.sources));

/** The sources of `values` (non-null fields, each from the same field of the rows summed) and of `printed` (from `printedFrom`). */
function sourcesOf(values: SeriesValues, valuesFrom: Snapshot[], printed: PrintedFigures, printedFrom?: Snapshot): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of SERIES_FIELDS) if (values[f] !== null) out[f] = union(valuesFrom.map((s) => s.sources[f] ?? []));
  for (const k of Object.keys(printed)) out[`printed.${k}`] = printedFrom!.sources[`printed.${k}`];
  return out;
}

/**
 * Combines component rows vintage by vintage: at every date on which any component changed,
 * `compute` sees each component as of that date (undefined if it did not exist yet) and returns
 * the values and the snapshots it used, or null for "no row as of this date".
 */
function combine(components: Snapshot[][], pubById: Map<string, Publication>, compute: (current: (Snapshot | undefined)[]) => Combined | null): Snapshot[] {
  const dates = [...new Set(components.flatMap((c) => c.map((s) => s.asOf)))].sort();
  const out: Snapshot[] = [];
  for (const date of dates) {
    const result = compute(components.map((c) => inForceOn(c, date, (s) => s.asOf)));
    if (!result || isEmpty(result)) continue;
    const sources = sourcesOf(result.values, result.valuesFrom, result.printed, result.printedFrom);
    // report_date and data_as_of: the latest publication whose figures the row shows, not one that changed only a part's other figures.
    const latest = latestPublication(union(Object.values(sources)).map((id) => pubById.get(id)!));
    const snap: Snapshot = { asOf: date, reportDate: latest.reportDate, dataAsOf: latest.dataAsOf, values: result.values, printed: result.printed, sources, published: result.published };
    if (out.length && sameSnapshot(out.at(-1)!, snap)) continue;
    out.push(snap);
  }
  return out;
}

/** Equal but for as_of: the later one adds nothing. */
const sameSnapshot = (a: Snapshot, b: Snapshot) =>
  a.reportDate === b.reportDate && a.dataAsOf === b.dataAsOf && a.published === b.published && sameValues(a.values, b.values) &&
  samePrinted(a.printed, b.printed) && JSON.stringify(a.sources) === JSON.stringify(b.sources);

/** One figure of one publication, placed in its row: a series field, or a printed figure under `printedKey`. */
interface Placed {
  metric: Metric;
  field?: SeriesField;
  printedKey?: string;
  value: number;
  figure?: PrintedFigure;
  /**
   * For a shortened citation (ingest/citations.ts): the report_date of the first exact printing it agrees
   * with. From that date on it is ignored, as if never printed (DECISIONS §1).
   */
  hiddenFrom?: string;
}

/** A printed entry (DECISIONS §9): what it measures is said once per answer (printed_keys), its period only where it is not the row's. */
function printedFigure(f: Figure, rowPeriod: string): PrintedFigure {
  return { value: f.value, as_printed: f.printed, ...(f.qualifier ? { qualifier: f.qualifier } : {}), ...(f.period.key !== rowPeriod ? { period: f.period.key } : {}) };
}

/**
 * Where a figure goes: a series field of its own period's row when exact and the field exists, else a
 * printed figure of that row. A year-to-date figure is printed on the row of its last month.
 */
function placeFigure(f: Figure, unit: CountUnit | null, hiddenFrom: string | undefined): { periodType: PeriodType; period: string; placed: Placed } {
  const hidden = hiddenFrom === undefined ? {} : { hiddenFrom };
  if (f.period.type === 'year_to_date') {
    const period = monthKey(f.period.year, f.period.lastMonth);
    const placed = { metric: f.metric, printedKey: `${f.metric}${YTD_SUFFIX}`, value: f.value, figure: printedFigure(f, period), ...hidden };
    return { periodType: 'month', period, placed };
  }
  const field = f.exact && !isPrintedMetric(f.metric) ? (DIRECT_FIELDS[f.metric] ?? (f.metric === unit ? 'policy_count' : undefined)) : undefined;
  const placed: Placed = field ? { metric: f.metric, field, value: f.value } : { metric: f.metric, printedKey: f.metric, value: f.value, figure: printedFigure(f, f.period.key), ...hidden };
  return { periodType: f.period.type, period: f.period.key, placed };
}

/**
 * Rows as the publications printed them. As of each publication date, every field and printed figure
 * takes the value of the latest publication that printed it. A press copy counts only for a figure no
 * office publication printed (DECISIONS §1), exact or not: a press copy that drops the office's
 * "nearly" does not turn the office's qualified figure into an exact one. A shortened citation of an exact
 * figure (ingest/citations.ts) counts for nothing from the day that exact figure was first published:
 * neither shown nor keeping a press copy's exact figure out, so the exact value stands (DECISIONS §1).
 */
function baseSeries(dataset: Dataset, units: Map<string, CountUnit>): Map<string, Series> {
  const shortened = shortenedCitations(dataset.figures);
  const groups = new Map<string, { series: Omit<Series, 'rows'>; periods: Map<string, Map<Publication, Placed[]>> }>();
  const add = (f: Figure, periodType: PeriodType, period: string, placed: Placed) => {
    const lineKey = f.line === 'all' ? 'all' : `line:${dataset.lines.get(f.state)!.get(f.line)!.id}`;
    const key = [f.state, lineKey, f.county ?? '', periodType].join('|');
    if (!groups.has(key)) {
      const unit = units.get(`${f.state}|${periodType}`) ?? null;
      // A month row that holds only year-to-date figures is on the year to date's basis.
      const basis = dataset.bases.get(`${f.state}|${periodType}`) ?? dataset.bases.get(`${f.state}|${f.period.type}`) ?? null;
      groups.set(key, { series: { state: f.state, lineKey, county: f.county, periodType, countUnit: unit, basis }, periods: new Map() });
    }
    const periods = groups.get(key)!.periods;
    if (!periods.has(period)) periods.set(period, new Map());
    const byPub = periods.get(period)!;
    if (!byPub.has(f.pub)) byPub.set(f.pub, []);
    byPub.get(f.pub)!.push(placed);
  };
  for (const f of dataset.figures) {
    if (f.insurer) continue;
    const { periodType, period, placed } = placeFigure(f, units.get(`${f.state}|${f.period.type}`) ?? null, shortened.get(f)?.from);
    add(f, periodType, period, placed);
    // A year-to-date series of exact figures is kept too: /v1/coverage reports its span and unit.
    if (f.period.type === 'year_to_date' && f.exact && !isPrintedMetric(f.metric)) {
      const field = DIRECT_FIELDS[f.metric] ?? (f.metric === units.get(`${f.state}|year_to_date`) ? 'policy_count' : undefined);
      if (field) add(f, 'year_to_date', f.period.key, { metric: f.metric, field, value: f.value });
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
        const byOffice = new Set(known.filter((p) => !p.secondary).flatMap((p) => byPub.get(p)!.filter(counts).map(figureOf)));
        const values = emptyValues();
        const printed: PrintedFigures = {};
        const valueSetters = new Map<string, Publication>();
        const printedSetters = new Map<string, Publication>();
        for (const pub of known) {
          for (const e of byPub.get(pub)!) {
            if (!counts(e) || (pub.secondary && byOffice.has(figureOf(e)))) continue;
            if (e.field) (values[e.field] = e.value), valueSetters.set(e.field, pub);
            else (printed[e.printedKey!] = e.figure!), printedSetters.set(e.printedKey!, pub);
          }
        }
        const sources: Record<string, string[]> = {};
        for (const f of SERIES_FIELDS) if (valueSetters.has(f)) sources[f] = [valueSetters.get(f)!.id];
        for (const k of Object.keys(sortedKeys(printed))) sources[`printed.${k}`] = [printedSetters.get(k)!.id];
        const shown = [...valueSetters.values(), ...printedSetters.values()];
        if (!shown.length) continue;
        const latest = latestPublication(shown);
        const snap: Snapshot = {
          asOf: date, reportDate: latest.reportDate, dataAsOf: latest.dataAsOf, values, printed: sortedKeys(printed),
          sources, published: true,
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

const seriesKey = (s: Pick<Series, 'state' | 'lineKey' | 'county' | 'periodType'>) =>
  [s.state, s.lineKey, s.county ?? '', s.periodType].join('|');

/**
 * Quarter, half-year and year rows: the source's own where it published figures for the period, else
 * summed from complete parts (months; for a year, also H1 + H2), only where the parts' basis is the
 * target's (bases.csv: never two bases in one series). A row keeps what its source printed for the
 * period itself (its `printed`) whichever way its values come.
 */
function rollUp(all: Map<string, Series>, dataset: Dataset, pubById: Map<string, Publication>, target: 'quarter' | 'half_year' | 'year', from: 'month' | 'half_year'): void {
  for (const parts of [...all.values()].filter((s) => s.periodType === from)) {
    const key = seriesKey({ ...parts, periodType: target });
    const own = all.get(key);
    const targetBasis = own?.basis ?? dataset.bases.get(`${parts.state}|${target}`) ?? null;
    if (targetBasis && parts.basis !== targetBasis) continue;
    const ownRows = new Map(own?.rows.map((r) => [r.period, r]));
    const partRows = new Map(parts.rows.map((r) => [r.period, r]));
    const unitsMatch = !own?.countUnit || !parts.countUnit || own.countUnit === parts.countUnit;
    const partsOf = (period: string) => {
      const p = parsePeriod(period)!;
      return from === 'month' ? monthsOf(p) : [`${p.year}-H1`, `${p.year}-H2`];
    };
    const targets = new Set([...ownRows.keys(), ...parts.rows.map((r) => (from === 'month' ? rollupKey(r.period, target) : r.period.slice(0, 4)))]);
    const rows: VintagedRow[] = [];
    for (const period of [...targets].sort(comparePeriods)) {
      const components = partsOf(period).map((m) => partRows.get(m)?.snapshots ?? []);
      const ownSnapshots = ownRows.get(period)?.snapshots ?? [];
      const snapshots = combine([ownSnapshots, ...components], pubById, ([source, ...current]): Combined | null => {
        // The row already there (the source's own, or summed by an earlier roll-up) keeps its values.
        if (source && !allNull(source.values)) return { values: source.values, printed: source.printed, valuesFrom: [source], printedFrom: source, published: source.published };
        const printed = source?.printed ?? {};
        const complete = current.every((s) => s && !allNull(s.values));
        if (!complete) return source ? { values: emptyValues(), printed, valuesFrom: [], printedFrom: source, published: true } : null;
        const used = current as Snapshot[];
        return { values: sumValues(used.map((s) => s.values), unitsMatch), printed, valuesFrom: used, printedFrom: source, published: false };
      });
      if (snapshots.length) rows.push({ period, snapshots });
    }
    all.set(key, { ...parts, periodType: target, countUnit: own?.countUnit ?? parts.countUnit, basis: targetBasis ?? parts.basis, rows });
  }
}

/** Category rows: the sum of the state's lines in the category that have figures for the period. */
function categorySeries(dataset: Dataset, all: Map<string, Series>, pubById: Map<string, Publication>): void {
  const categoryOf = new Map<string, string | null>();
  for (const byCode of dataset.lines.values()) for (const l of byCode.values()) categoryOf.set(`line:${l.id}`, l.category);
  const groups = new Map<string, Series[]>();
  for (const s of all.values()) {
    if (!s.lineKey.startsWith('line:') || !['month', 'quarter', 'half_year', 'year'].includes(s.periodType)) continue;
    const category = categoryOf.get(s.lineKey);
    if (!category) continue;
    const key = seriesKey({ ...s, lineKey: `category:${category}` });
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(s);
  }
  for (const [key, parts] of groups) {
    const byPeriod = parts.map((p) => new Map(p.rows.map((r) => [r.period, r.snapshots])));
    const periods = [...new Set(parts.flatMap((p) => p.rows.map((r) => r.period)))].sort(comparePeriods);
    const rows: VintagedRow[] = [];
    for (const period of periods) {
      const components = byPeriod.map((p) => p.get(period) ?? []);
      const snapshots = combine(components, pubById, (current) => {
        // A line with only printed figures for the period is not summed in: it has no exact figure to add.
        const used = current.filter((s): s is Snapshot => !!s && !allNull(s.values));
        return used.length ? { values: sumValues(used.map((s) => s.values)), printed: {}, valuesFrom: used, published: false } : null;
      });
      if (snapshots.length) rows.push({ period, snapshots });
    }
    const [state, lineKey] = key.split('|');
    all.set(key, { state, lineKey, county: parts[0].county, periodType: parts[0].periodType, countUnit: parts[0].countUnit, basis: parts[0].basis, rows });
  }
}

/** Per-insurer rows, latest vintage, field by field as for series; plus year rankings summed from months. */
function insurerRows(dataset: Dataset): Map<string, InsurerPeriod[]> {
  const groups = new Map<string, Figure[]>();
  for (const f of dataset.figures) {
    if (!f.insurer) continue;
    const key = `${f.state}|${f.period.key}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(f);
  }
  const out = new Map<string, InsurerPeriod[]>();
  for (const [key, figures] of groups) {
    const [state, period] = key.split('|');
    figures.sort((a, b) => byPublicationOrder(a.pub, b.pub));
    const byName = new Map<string, InsurerRow>();
    for (const f of figures) {
      const row = byName.get(f.insurer!) ?? { name: f.insurer!, premium: null, policy_count: null };
      if (f.exact) row[f.metric === 'insurer_premium' ? 'premium' : 'policy_count'] = f.value;
      byName.set(f.insurer!, row);
    }
    const latest = figures.at(-1)!.pub;
    if (!out.has(state)) out.set(state, []);
    out.get(state)!.push({
      period,
      reportDate: latest.reportDate,
      dataAsOf: latest.dataAsOf,
      pubs: [...new Set(figures.map((f) => f.pub.id))].sort(),
      insurers: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
    });
  }
  for (const list of out.values()) {
    list.push(...yearsFromMonths(list));
    list.sort((a, b) => comparePeriods(a.period, b.period));
  }
  return out;
}

/**
 * A year ranking summed from months (DECISIONS.md §4), only where the source published the year's 12
 * monthly lists with the same insurers in each and every premium exact: a top-N list missing an
 * insurer in some month says nothing of its premium that month, so no sum is made from it.
 */
function yearsFromMonths(periods: InsurerPeriod[]): InsurerPeriod[] {
  const byYear = new Map<string, InsurerPeriod[]>();
  for (const p of periods) {
    if (parsePeriod(p.period)?.type !== 'month') continue;
    const year = p.period.slice(0, 4);
    if (!byYear.has(year)) byYear.set(year, []);
    byYear.get(year)!.push(p);
  }
  const published = new Set(periods.map((p) => p.period));
  const out: InsurerPeriod[] = [];
  for (const [year, months] of byYear) {
    if (published.has(year) || months.length !== 12) continue;
    const names = months[0].insurers.map((i) => i.name).join('\n');
    const complete = months.every((m) => m.insurers.map((i) => i.name).join('\n') === names && m.insurers.every((i) => i.premium !== null));
    if (!complete) continue;
    const latest = latestPublication(months);
    out.push({
      period: year,
      reportDate: latest.reportDate,
      dataAsOf: latest.dataAsOf,
      pubs: union(months.map((m) => m.pubs)),
      insurers: months[0].insurers.map((insurer, i) => {
        const sum = sumValues(months.map((m) => ({ ...emptyValues(), premium: m.insurers[i].premium, policy_count: m.insurers[i].policy_count })));
        return { name: insurer.name, premium: sum.premium, policy_count: sum.policy_count };
      }),
    });
  }
  return out;
}

export function buildModel(dataset: Dataset): Model {
  const all = baseSeries(dataset, chooseCountUnits(dataset.figures));
  const pubById = new Map(dataset.publications.map((p) => [p.id, p]));
  rollUp(all, dataset, pubById, 'quarter', 'month');
  rollUp(all, dataset, pubById, 'half_year', 'month');
  rollUp(all, dataset, pubById, 'year', 'month');
  rollUp(all, dataset, pubById, 'year', 'half_year');
  categorySeries(dataset, all, pubById);
  const series = [...all.values()].sort((a, b) => (seriesKey(a) < seriesKey(b) ? -1 : 1));
  return { series, insurers: insurerRows(dataset) };
}

