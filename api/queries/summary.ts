// /v1/premium/summary: a year's statewide all-lines totals with their basis, and a like-for-like
// prior year (DECISIONS.md §5). Latest vintage of every figure.
import type { SeriesValues, SummaryParams, SummaryResponse } from '../contract.ts';
import { emptyValues, latestPublication, sumValues, type Published } from '../vintages.ts';
import { seriesRows, stateIndex } from './series.ts';

interface Figures extends Published {
  values: SeriesValues;
}
type Basis = SummaryResponse['basis'];
interface YearTotal {
  basis: Basis;
  values: SeriesValues;
  /** Calendar months (`01`-`12`) of the year considered that have a published monthly row. */
  months: string[];
  used: Figures[];
}

/** The latest vintage of each row of a statewide all-lines shard, by period. */
function latestRows(state: string, granularity: 'month' | 'year'): Map<string, Figures & { published: boolean }> {
  const out = new Map<string, Figures & { published: boolean }>();
  for (const { period, snapshots } of seriesRows(`series/${state}/all/${granularity}.json`)) {
    const { reportDate, dataAsOf, published, row } = snapshots.at(-1)!;
    const { period: _, ...values } = row;
    out.set(period, { reportDate, dataAsOf, values, published });
  }
  return out;
}

function monthsOfYear(months: Map<string, Figures>, year: number, only?: readonly string[]): Map<string, Figures> {
  const out = new Map<string, Figures>();
  for (const m of only ?? ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']) {
    const figures = months.get(`${year}-${m}`);
    if (figures) out.set(m, figures);
  }
  return out;
}

/** The year on its own basis: all 12 months summed, else the source's year row, else the months it has. */
function ownBasis(monthRows: Map<string, Figures>, yearRows: Map<string, Figures & { published: boolean }>, year: number): YearTotal {
  const months = monthsOfYear(monthRows, year);
  const list = [...months.values()];
  const monthKeys = [...months.keys()];
  if (list.length === 12 && list.every((f) => f.values.premium !== null))
    return { basis: 'monthly_sum', values: sumValues(list.map((f) => f.values)), months: monthKeys, used: list };
  const yearRow = yearRows.get(String(year));
  if (yearRow?.published) return { basis: 'annual_report', values: yearRow.values, months: monthKeys, used: [yearRow] };
  if (list.length) return { basis: 'partial_monthly_sum', values: sumValues(list.map((f) => f.values)), months: monthKeys, used: list };
  return { basis: null, values: emptyValues(), months: [], used: [] };
}

/** (current / prior - 1) x 100 to 2 decimals; null when either is null or the prior is 0. */
function yoy(current: number | null, prior: number | null): number | null {
  if (current === null || prior === null || prior === 0) return null;
  return Math.round((current / prior - 1) * 10000) / 100;
}

export function summaryQuery({ state, year }: SummaryParams): SummaryResponse {
  const entry = stateIndex(state);
  const monthRows = latestRows(state, 'month');
  const yearRows = latestRows(state, 'year');
  const current = ownBasis(monthRows, yearRows, year);

  let prior: YearTotal;
  let likeForLike: boolean;
  if (current.basis === 'partial_monthly_sum') {
    // The prior year over the same calendar months; comparable only when it has every one of them.
    const months = monthsOfYear(monthRows, year - 1, current.months);
    const list = [...months.values()];
    prior = { basis: 'partial_monthly_sum', values: list.length ? sumValues(list.map((f) => f.values)) : emptyValues(), months: [...months.keys()], used: list };
    likeForLike = months.size === current.months.length;
  } else {
    prior = ownBasis(monthRows, yearRows, year - 1);
    // A full year compares with a full year only: a prior partial sum would overstate the growth.
    likeForLike = prior.basis !== 'partial_monthly_sum';
  }

  const used = [...current.used, ...prior.used];
  const latest = used.length ? latestPublication(used) : null;
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
    yoy_premium_pct: likeForLike ? yoy(current.values.premium, prior.values.premium) : null,
    yoy_policy_count_pct: likeForLike ? yoy(current.values.policy_count, prior.values.policy_count) : null,
    report_date: latest?.reportDate ?? null,
    data_as_of: latest?.dataAsOf ?? null,
    source: entry.source,
  };
}
