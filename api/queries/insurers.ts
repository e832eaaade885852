// /v1/insurers: the source's per-insurer list for a month or year, ranked by premium (ties by name).
import type { InsurersParams, InsurersResponse } from '../contract.ts';
import { HttpError } from '../http.ts';
import { parsePeriod } from '../periods.ts';
import type { InsurersShard } from '../shard-types.ts';
import { privateShard } from '../store.ts';
import { stateIndex } from './series.ts';

type Ranking = InsurersShard['periods'][number];

/** A list can be ranked when it is for a month or a year and every premium in it is exact. */
const rankable = (p: Ranking) => ['month', 'year'].includes(parsePeriod(p.period)?.type ?? '') && p.insurers.every((i) => i.premium !== null);

export function insurersQuery({ state, period }: InsurersParams): InsurersResponse {
  const entry = stateIndex(state);
  const periods = privateShard<InsurersShard>(`insurers/${state}.json`)?.periods ?? [];
  const found = periods.find((p) => p.period === period && rankable(p));
  if (!found) {
    const served = periods.filter(rankable).map((p) => p.period);
    const unserved = periods.filter((p) => !rankable(p)).map((p) => p.period);
    const has = served.length ? `periods with a ranking: ${served.join(', ')}` : `${state} has no month or year ranking with exact premiums`;
    const aside = unserved.length ? ` (also published, but not as a month or year with exact premiums: ${unserved.join(', ')})` : '';
    throw new HttpError(404, `no insurer ranking for ${state} ${period}: ${has}${aside}`);
  }
  const ranked = [...found.insurers].sort((a, b) => b.premium! - a.premium! || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    state,
    period,
    insurers: ranked.map((i, n) => ({ rank: n + 1, name: i.name, premium: i.premium!, policy_count: i.policy_count })),
    report_date: found.reportDate,
    data_as_of: found.dataAsOf,
    source: entry.source,
  };
}
