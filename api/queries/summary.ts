// /v1/premium/summary: a year's statewide all-lines totals with their basis, and a like-for-like
// prior year (docs/design.md §5). Latest vintage of every figure.
import type { SeriesValues, SummaryResponse } from '../../domain/contract.ts';
import type { SummaryParams } from '../../domain/contract-params.ts';
import { monthsOf, parsePeriod } from '../../domain/periods.ts';
import { emptyValues, latestPublication, sumValues } from '../../domain/vintages.ts';
import { type PreparedRow, type PreparedSnapshot, cite, seriesRows, stateIndex } from './series.ts';
import { summaryRoute } from '../../domain/route-contracts.ts';
import { pricedOperation } from '../operation.ts';
import { summaryText } from '../text/index.ts';

type Basis = SummaryResponse['basis'];
interface YearTotal {
  basis: Basis;
  values: SeriesValues;
  /** Calendar months (`01`-`12`) of the year considered that have a published monthly row. */
  months: string[];
  used: PreparedSnapshot[];
}

const latestByShard = new WeakMap<PreparedRow[], Map<string, PreparedSnapshot>>();

/** The latest vintage of each row of a statewide all-lines shard, by period (built once per shard). */
function latestRows(state: string, granularity: 'month' | 'year'): Map<string, PreparedSnapshot> {
  const rows = seriesRows(`series/${state}/all/${granularity}.json`);
  let latest = latestByShard.get(rows);
  if (!latest) latestByShard.set(rows, (latest = new Map(rows.map((r) => [r.period, r.snapshots.at(-1)!]))));
  return latest;
}

const CALENDAR_MONTHS = monthsOf(parsePeriod('2000')!).map((m) => m.slice(5));

const hasFigure = (s: PreparedSnapshot) => Object.values(s.values).some((v) => v !== null);

/**
 * The months of `year` (of `only`) with a published exact figure: a month with printed figures only has nothing to sum.
 */
function monthsOfYear(
  months: Map<string, PreparedSnapshot>,
  year: number,
  only: readonly string[] = CALENDAR_MONTHS,
): Map<string, PreparedSnapshot> {
  const out = new Map<string, PreparedSnapshot>();
  for (const m of only) {
    const figures = months.get(`${year}-${m}`);
    if (figures && hasFigure(figures)) out.set(m, figures);
  }
  return out;
}

/**
 * The year on its own basis: the 12 months summed when each has a premium; else the source's year
 * row; else the months it has, summed: all 12 are still a monthly_sum (a field null where a month
 * has it null), fewer are a partial_monthly_sum.
 */
function ownBasis(
  monthRows: Map<string, PreparedSnapshot>,
  yearRows: Map<string, PreparedSnapshot>,
  year: number,
): YearTotal {
  const months = monthsOfYear(monthRows, year);
  const list = [...months.values()];
  const summed = (basis: Basis): YearTotal => ({
    basis,
    values: sumValues(list.map((f) => f.values)),
    months: [...months.keys()],
    used: list,
  });
  if (list.length === 12 && list.every((f) => f.values.premium !== null)) return summed('monthly_sum');
  const yearRow = yearRows.get(String(year));
  if (yearRow?.published && hasFigure(yearRow))
    return { basis: 'annual_report', values: yearRow.values, months: [...months.keys()], used: [yearRow] };
  if (list.length === 12) return summed('monthly_sum');
  if (list.length) return summed('partial_monthly_sum');
  return { basis: null, values: emptyValues(), months: [], used: [] };
}

/** (current / prior - 1) x 100 to 2 decimals; null when either is null or the prior is 0. */
function yoy(current: number | null, prior: number | null): number | null {
  if (current === null || prior === null || prior === 0) return null;
  return Math.round((current / prior - 1) * 10000) / 100;
}

/**
 * The publications of the figures of `total` the answer shows: only its non-null `fields`, each from the rows it was
 * summed from.
 */
function figuresFrom(total: YearTotal, fields: readonly (keyof SeriesValues)[]): number[] {
  return fields.filter((f) => total.values[f] !== null).flatMap((f) => total.used.flatMap((s) => s.sources[f] ?? []));
}

const isFullYear = (t: YearTotal) => t.basis === 'annual_report' || t.basis === 'monthly_sum';

/** docs/design.md §5: growth only across equal spans, the same calendar months or a full year on each side. */
function yoyBasis(current: YearTotal, prior: YearTotal): SummaryResponse['yoy_basis'] {
  if (!current.basis || !prior.used.length) return null;
  if (isFullYear(current) && isFullYear(prior)) return 'full_years';
  if (current.basis === 'partial_monthly_sum' && prior.months.join() === current.months.join()) return 'same_months';
  return 'unequal_spans';
}

/** Resolves the state now (404), and returns the answer to compute once paid. */
function prepareSummary({ state, year }: SummaryParams): () => SummaryResponse {
  const entry = stateIndex(state);
  return () => {
    const monthRows = latestRows(state, 'month');
    const yearRows = latestRows(state, 'year');
    const current = ownBasis(monthRows, yearRows, year);

    let prior: YearTotal;
    if (current.basis === 'partial_monthly_sum') {
      // Like-for-like: the prior year over the same calendar months (months_available counts those it has).
      const months = monthsOfYear(monthRows, year - 1, current.months);
      const list = [...months.values()];
      prior = {
        basis: 'partial_monthly_sum',
        values: list.length ? sumValues(list.map((f) => f.values)) : emptyValues(),
        months: [...months.keys()],
        used: list,
      };
    } else {
      prior = ownBasis(monthRows, yearRows, year - 1);
    }

    const used = [...current.used, ...prior.used];
    const figures = [
      ...figuresFrom(current, Object.keys(current.values) as (keyof SeriesValues)[]),
      ...figuresFrom(prior, ['premium', 'policy_count']),
    ];
    // An answer that shows no figure comes from no report: its dates are null, as its publications are empty.
    const latest = figures.length ? latestPublication(used) : null;
    const span = yoyBasis(current, prior);
    const growth = (c: number | null, p: number | null) =>
      span === 'full_years' || span === 'same_months' ? yoy(c, p) : null;
    return {
      state,
      year,
      ...current.values,
      months_available: current.months.length,
      basis: current.basis,
      prior_year: {
        year: year - 1,
        premium: prior.values.premium,
        policy_count: prior.values.policy_count,
        months_available: prior.months.length,
      },
      yoy_premium_pct: growth(current.values.premium, prior.values.premium),
      yoy_policy_count_pct: growth(current.values.policy_count, prior.values.policy_count),
      yoy_basis: span,
      report_date: latest?.reportDate ?? null,
      data_as_of: latest?.dataAsOf ?? null,
      source: entry.source,
      publications: cite(figures),
    };
  };
}

export const summary = pricedOperation(summaryRoute, prepareSummary, { text: summaryText });
