// /v1/insurers: the source's per-insurer list for a month or year, ranked by premium (ties by name).
import type { InsurersParams, InsurersResponse } from '../../domain/contract.ts';
import { HttpError } from '../http.ts';
import { isRankable } from '../../domain/insurers.ts';
import type { InsurersShard } from '../../domain/shard-types.ts';
import { privateShard } from '../store.ts';
import { cite, stateIndex } from './series.ts';

type Published = InsurersShard['periods'][number];
interface Rankings {
  /** Month and year lists whose premiums are all exact, ranked: what the route serves. */
  ranked: Map<string, Pick<InsurersResponse, 'insurers' | 'report_date' | 'data_as_of'> & { positions: number[] }>;
  /** Other published lists (half-years, or with a rounded premium): named in the 404. */
  unserved: string[];
}

/** Ranks each servable list once, when the shard loads: by premium, ties by name. */
function rank(shard: InsurersShard): Rankings {
  const ranked: Rankings['ranked'] = new Map();
  for (const p of shard.periods.filter(isRankable)) {
    const order = [...p.insurers].sort((a, b) => b.premium! - a.premium! || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    ranked.set(p.period, {
      insurers: order.map((i, n) => ({ rank: n + 1, name: i.name, premium: i.premium!, policy_count: i.policy_count })),
      report_date: p.reportDate,
      data_as_of: p.dataAsOf,
      positions: p.publications,
    });
  }
  return { ranked, unserved: shard.periods.filter((p) => !isRankable(p)).map((p) => p.period) };
}

/** Finds the ranking now (404 when there is none), and returns the answer to give once paid. */
export function prepareInsurers({ state, period }: InsurersParams): () => InsurersResponse {
  const entry = stateIndex(state);
  const { ranked, unserved } = privateShard(`insurers/${state}.json`, rank) ?? { ranked: new Map(), unserved: [] };
  const found = ranked.get(period);
  if (!found) {
    const has = ranked.size ? `periods with a ranking: ${[...ranked.keys()].join(', ')}` : `${state} has no month or year ranking with exact premiums`;
    const aside = unserved.length ? ` (also published, but not as a month or year with exact premiums: ${unserved.join(', ')})` : '';
    throw new HttpError(404, `no insurer ranking for ${state} ${period}: ${has}${aside}`);
  }
  const { positions, ...answer } = found;
  return () => ({ state, period, ...answer, source: entry.source, publications: cite(positions) });
}
