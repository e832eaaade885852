// Quarter, half-year, year and category rows made from a state's vintaged series (ingest/vintaged-series.ts).
// Roll-ups and category sums are computed here, vintage by vintage, so the API never merges or sums on the request
// path.
import { SERIES_FIELDS, type PrintedFigures, type SeriesValues } from '../domain/contract.ts';
import { monthsOf, parsePeriod, rollupKey } from '../domain/periods.ts';
import { emptyValues, inForceOn, latestPublication, sumValues } from '../domain/vintages.ts';
import type { Dataset } from './model-types.ts';
import type { Publication } from './sources/header.ts';
import { type Series, type Snapshot, type VintagedRow, sameSnapshot, seriesKey, sumsFrom } from './vintaged-series.ts';
import { comparePeriods, union } from './model-order.ts';

const allNull = (v: SeriesValues) => SERIES_FIELDS.every((f) => v[f] === null);
const isEmpty = (s: { values: SeriesValues; printed: PrintedFigures }) =>
  allNull(s.values) && !Object.keys(s.printed).length;

interface Combined {
  values: SeriesValues;
  printed: PrintedFigures;
  /** The snapshots whose values the row shows, and the one whose printed figures it shows. */
  valuesFrom: Snapshot[];
  printedFrom?: Snapshot;
  published: boolean;
}

/**
 * The sources of `values` (non-null fields, each from the same field of the rows summed) and of `printed` (from
 * `printedFrom`).
 */
function sourcesOf(
  values: SeriesValues,
  valuesFrom: Snapshot[],
  printed: PrintedFigures,
  printedFrom?: Snapshot,
): Record<string, string[]> {
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
function combine(
  components: Snapshot[][],
  pubById: Map<string, Publication>,
  compute: (current: (Snapshot | undefined)[]) => Combined | null,
): Snapshot[] {
  const dates = [...new Set(components.flatMap((c) => c.map((s) => s.asOf)))].sort();
  const out: Snapshot[] = [];
  for (const date of dates) {
    const result = compute(components.map((c) => inForceOn(c, date, (s) => s.asOf)));
    if (!result || isEmpty(result)) continue;
    const sources = sourcesOf(result.values, result.valuesFrom, result.printed, result.printedFrom);
    // report_date and data_as_of: the latest publication whose figures the row shows, not one that changed only a
    // part's other figures.
    const latest = latestPublication(union(Object.values(sources)).map((id) => pubById.get(id)!));
    const snap: Snapshot = {
      asOf: date,
      reportDate: latest.reportDate,
      dataAsOf: latest.dataAsOf,
      values: result.values,
      printed: result.printed,
      sources,
      published: result.published,
    };
    if (out.length && sameSnapshot(out.at(-1)!, snap)) continue;
    out.push(snap);
  }
  return out;
}

/**
 * Quarter, half-year and year rows: the source's own where it published figures for the period, else
 * summed from complete parts (months; for a year, also H1 + H2), only where the parts' basis is the
 * target's (bases.csv: never two bases in one series). A row keeps what its source printed for the
 * period itself (its `printed`) whichever way its values come.
 */
export function rollUp(
  all: Map<string, Series>,
  dataset: Dataset,
  pubById: Map<string, Publication>,
  target: 'quarter' | 'half_year' | 'year',
  from: 'month' | 'half_year',
): void {
  for (const parts of [...all.values()].filter((s) => s.periodType === from)) {
    const key = seriesKey({ ...parts, periodType: target });
    const own = all.get(key);
    const targetBasis = own?.basis ?? dataset.bases.get(`${parts.state}|${target}`) ?? null;
    if (!sumsFrom(targetBasis, parts.basis)) continue;
    const ownRows = new Map(own?.rows.map((r) => [r.period, r]));
    const partRows = new Map(parts.rows.map((r) => [r.period, r]));
    const unitsMatch = !own?.countUnit || !parts.countUnit || own.countUnit === parts.countUnit;
    const partsOf = (period: string) => {
      const p = parsePeriod(period)!;
      return from === 'month' ? monthsOf(p) : [`${p.year}-H1`, `${p.year}-H2`];
    };
    const targets = new Set([
      ...ownRows.keys(),
      ...parts.rows.map((r) => (from === 'month' ? rollupKey(r.period, target) : r.period.slice(0, 4))),
    ]);
    const rows: VintagedRow[] = [];
    for (const period of [...targets].sort(comparePeriods)) {
      const components = partsOf(period).map((m) => partRows.get(m)?.snapshots ?? []);
      const ownSnapshots = ownRows.get(period)?.snapshots ?? [];
      const snapshots = combine([ownSnapshots, ...components], pubById, ([source, ...current]): Combined | null => {
        // The row already there (the source's own, or summed by an earlier roll-up) keeps its values.
        if (source && !allNull(source.values))
          return {
            values: source.values,
            printed: source.printed,
            valuesFrom: [source],
            printedFrom: source,
            published: source.published,
          };
        const printed = source?.printed ?? {};
        const complete = current.every((s) => s && !allNull(s.values));
        if (!complete)
          return source
            ? { values: emptyValues(), printed, valuesFrom: [], printedFrom: source, published: true }
            : null;
        const used = current as Snapshot[];
        return {
          values: sumValues(
            used.map((s) => s.values),
            unitsMatch,
          ),
          printed,
          valuesFrom: used,
          printedFrom: source,
          published: false,
        };
      });
      if (snapshots.length) rows.push({ period, snapshots });
    }
    all.set(key, {
      ...parts,
      periodType: target,
      countUnit: own?.countUnit ?? parts.countUnit,
      basis: targetBasis ?? parts.basis,
      rows,
    });
  }
}

/** Category rows: the sum of the state's lines in the category that have figures for the period. */
export function categorySeries(dataset: Dataset, all: Map<string, Series>, pubById: Map<string, Publication>): void {
  const categoryOf = new Map<string, string | null>();
  for (const byCode of dataset.lines.values())
    for (const l of byCode.values()) categoryOf.set(`line:${l.id}`, l.category);
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
        return used.length
          ? { values: sumValues(used.map((s) => s.values)), printed: {}, valuesFrom: used, published: false }
          : null;
      });
      if (snapshots.length) rows.push({ period, snapshots });
    }
    const [state, lineKey] = key.split('|');
    all.set(key, {
      state,
      lineKey,
      county: parts[0].county,
      periodType: parts[0].periodType,
      countUnit: parts[0].countUnit,
      basis: parts[0].basis,
      rows,
    });
  }
}
