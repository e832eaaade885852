// Figures → series with every vintage (DECISIONS.md §1-3). Each row of a series keeps a list of
// snapshots: from `asOf` on, the row reads `values`, last published on `reportDate`. Answering "as of D"
// is then one lookup per row: the last snapshot with asOf <= D. Roll-ups and category sums are computed
// here, vintage by vintage, so the API never merges or sums on the request path.
import { SERIES_FIELDS, type SeriesField, type SeriesValues } from '../domain/contract.ts';
import { type PeriodType, monthsOf, parsePeriod, rollupKey } from '../domain/periods.ts';
import { emptyValues, inForceOn, latestPublication, sumValues } from '../domain/vintages.ts';
import { COUNT_UNITS, type CountUnit, type Dataset, type Figure, type Metric, type Publication } from './model-types.ts';

export interface Snapshot {
  asOf: string;
  reportDate: string;
  dataAsOf: string;
  values: SeriesValues;
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
const sameValues = (a: SeriesValues, b: SeriesValues) => SERIES_FIELDS.every((f) => a[f] === b[f]);
const byPublicationOrder = (a: Publication, b: Publication) =>
  a.reportDate < b.reportDate ? -1 : a.reportDate > b.reportDate ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
const comparePeriods = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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

/**
 * Combines component rows vintage by vintage: at every date on which any component changed,
 * `compute` sees each component as of that date (undefined if it did not exist yet) and returns
 * the values and the snapshots it used, or null for "no row as of this date".
 */
function combine(
  components: Snapshot[][],
  compute: (current: (Snapshot | undefined)[]) => { values: SeriesValues; used: Snapshot[]; published: boolean } | null,
): Snapshot[] {
  const dates = [...new Set(components.flatMap((c) => c.map((s) => s.asOf)))].sort();
  const out: Snapshot[] = [];
  for (const date of dates) {
    const result = compute(components.map((c) => inForceOn(c, date, (s) => s.asOf)));
    if (!result || allNull(result.values)) continue;
    const latest = latestPublication(result.used);
    const prev = out.at(-1);
    if (prev && prev.reportDate === latest.reportDate && prev.dataAsOf === latest.dataAsOf && prev.published === result.published && sameValues(prev.values, result.values)) continue;
    out.push({ asOf: date, reportDate: latest.reportDate, dataAsOf: latest.dataAsOf, values: result.values, published: result.published });
  }
  return out;
}

/** Rows as the publications printed them: one snapshot per publication that printed an exact field. */
function baseSeries(dataset: Dataset, units: Map<string, CountUnit>): Map<string, Series> {
  const groups = new Map<string, { series: Omit<Series, 'rows'>; periods: Map<string, Map<Publication, Partial<SeriesValues>>> }>();
  for (const f of dataset.figures) {
    if (!f.exact || f.insurer) continue;
    const unit = units.get(`${f.state}|${f.period.type}`) ?? null;
    const field = DIRECT_FIELDS[f.metric] ?? (f.metric === unit ? 'policy_count' : undefined);
    if (!field) continue;
    const lineKey = f.line === 'all' ? 'all' : `line:${dataset.lines.get(f.state)!.get(f.line)!.id}`;
    const key = [f.state, lineKey, f.county ?? '', f.period.type].join('|');
    if (!groups.has(key)) groups.set(key, { series: { state: f.state, lineKey, county: f.county, periodType: f.period.type, countUnit: unit }, periods: new Map() });
    const periods = groups.get(key)!.periods;
    if (!periods.has(f.period.key)) periods.set(f.period.key, new Map());
    const byPub = periods.get(f.period.key)!;
    byPub.set(f.pub, { ...byPub.get(f.pub), [field]: f.value });
  }
  const out = new Map<string, Series>();
  for (const [key, { series, periods }] of groups) {
    const rows: VintagedRow[] = [];
    for (const [period, byPub] of periods) {
      const snapshots: Snapshot[] = [];
      let values = emptyValues();
      for (const pub of [...byPub.keys()].sort(byPublicationOrder)) {
        values = { ...values, ...byPub.get(pub) };
        const snap = { asOf: pub.reportDate, reportDate: pub.reportDate, dataAsOf: pub.dataAsOf, values, published: true };
        if (snapshots.at(-1)?.asOf === pub.reportDate) snapshots[snapshots.length - 1] = snap;
        else snapshots.push(snap);
      }
      rows.push({ period, snapshots });
    }
    rows.sort((a, b) => comparePeriods(a.period, b.period));
    out.set(key, { ...series, rows });
  }
  return out;
}

const seriesKey = (s: Pick<Series, 'state' | 'lineKey' | 'county' | 'periodType'>) =>
  [s.state, s.lineKey, s.county ?? '', s.periodType].join('|');

/** Quarter and year rows: the source's own where it publishes them, else summed from complete months. */
function rollUp(all: Map<string, Series>, target: 'quarter' | 'year'): void {
  for (const months of [...all.values()].filter((s) => s.periodType === 'month')) {
    const key = seriesKey({ ...months, periodType: target });
    const published = all.get(key);
    const publishedRows = new Map(published?.rows.map((r) => [r.period, r]));
    const monthRows = new Map(months.rows.map((r) => [r.period, r]));
    const unitsMatch = !published?.countUnit || !months.countUnit || published.countUnit === months.countUnit;
    const targets = new Set([...publishedRows.keys(), ...months.rows.map((r) => rollupKey(r.period, target))]);
    const rows: VintagedRow[] = [];
    for (const period of [...targets].sort(comparePeriods)) {
      const parts = monthsOf(parsePeriod(period)!).map((m) => monthRows.get(m)?.snapshots ?? []);
      const own = publishedRows.get(period)?.snapshots ?? [];
      const snapshots = combine([own, ...parts], ([source, ...current]) => {
        if (source) return { values: source.values, used: [source], published: true };
        if (current.some((s) => !s)) return null;
        const used = current as Snapshot[];
        return { values: sumValues(used.map((s) => s.values), unitsMatch), used, published: false };
      });
      if (snapshots.length) rows.push({ period, snapshots });
    }
    all.set(key, { ...months, periodType: target, countUnit: published?.countUnit ?? months.countUnit, rows });
  }
}

/** Category rows: the sum of the state's lines in the category that have a row for the period. */
function categorySeries(dataset: Dataset, all: Map<string, Series>): void {
  const categoryOf = new Map<string, string | null>();
  for (const byCode of dataset.lines.values()) for (const l of byCode.values()) categoryOf.set(`line:${l.id}`, l.category);
  const groups = new Map<string, Series[]>();
  for (const s of all.values()) {
    if (!s.lineKey.startsWith('line:') || !['month', 'quarter', 'year'].includes(s.periodType)) continue;
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
      const snapshots = combine(components, (current) => {
        const used = current.filter((s): s is Snapshot => !!s);
        return used.length ? { values: sumValues(used.map((s) => s.values)), used, published: false } : null;
      });
      if (snapshots.length) rows.push({ period, snapshots });
    }
    const [state, lineKey] = key.split('|');
    all.set(key, { state, lineKey, county: parts[0].county, periodType: parts[0].periodType, countUnit: parts[0].countUnit, rows });
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
  rollUp(all, 'quarter');
  rollUp(all, 'year');
  categorySeries(dataset, all);
  const series = [...all.values()].sort((a, b) => (seriesKey(a) < seriesKey(b) ? -1 : 1));
  return { series, insurers: insurerRows(dataset) };
}

