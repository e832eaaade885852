// /v1/insurers: a ranking as a publication printed it (private/rankings/, state or US), or a year ranked
// here from an office's complete monthly per-insurer lists (private/insurers/), for a month, half-year or year.
import type { z } from 'zod';
import type { InsurersResponse } from '../../domain/contract.ts';
import { csvFileName, insurersCsv } from '../../domain/csv-answer.ts';
import { notFound } from '../../domain/errors.ts';
import { LIST_BASIS, NATIONAL, isRankable } from '../../domain/insurers.ts';
import type { InsurersShard, RankingsShard } from '../../domain/shard-types.ts';
import { privateShard } from '../store.ts';
import { cite, stateIndex } from './series.ts';
import { insurersRoute } from '../../domain/route-contracts.ts';
import { pricedOperation } from '../operation.ts';
import { insurersText } from '../text/index.ts';

/** The route's parameters, as its contract parses them. */
type InsurersParams = z.infer<typeof insurersRoute.params>;

type Ranked = Omit<InsurersResponse, 'state' | 'period' | 'publications'> & { positions: number[] };
interface Rankings {
  /** What the route serves, by period. */
  ranked: Map<string, Ranked>;
  /** Lists published but not servable (half-years, or with a rounded premium): named in the 404. */
  unserved: string[];
}

/** Ranks each servable list once, when the shard loads: by premium, ties by name. */
function rankLists(shard: InsurersShard, source: string | null): Rankings {
  const ranked: Rankings['ranked'] = new Map();
  for (const p of shard.periods.filter(isRankable)) {
    const order = [...p.insurers].sort(
      (a, b) => b.premium! - a.premium! || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    ranked.set(p.period, {
      ranking: { entity: 'company', basis: LIST_BASIS, ranks_listed: order.length },
      insurers: order.map((i, n) => ({
        rank: n + 1,
        name: i.name,
        premium: i.premium!,
        policy_count: i.policy_count,
        market_share_pct: null,
      })),
      unranked: [],
      report_date: p.reportDate,
      data_as_of: p.dataAsOf,
      source,
      positions: p.publications,
    });
  }
  return { ranked, unserved: shard.periods.filter((p) => !isRankable(p)).map((p) => p.period) };
}

const byPeriod = (shard: RankingsShard) =>
  new Map(shard.rankings.map(({ period, publications, ...r }) => [period, { ...r, positions: publications }]));

/** Finds the ranking now (404 when there is none), and returns the answer to give once paid. */
function prepareInsurers({ state, period }: InsurersParams): () => InsurersResponse {
  // US holds the national rankings: no state of the index, only published rankings.
  const source = state === NATIONAL ? null : stateIndex(state).source;
  const published = privateShard(`rankings/${state}.json`, byPeriod) ?? new Map<string, Ranked>();
  const lists =
    state === NATIONAL
      ? null
      : privateShard(`insurers/${state}.json`, (shard: InsurersShard) => rankLists(shard, source));
  const found = published.get(period) ?? lists?.ranked.get(period);
  if (!found) {
    const periods = [...new Set([...published.keys(), ...(lists?.ranked.keys() ?? [])])].sort();
    const has = periods.length ? `periods with a ranking: ${periods.join(', ')}` : `${state} has no insurer ranking`;
    const unserved = lists?.unserved.filter((p) => !published.has(p)) ?? [];
    const aside = unserved.length
      ? ` (also published, but not a ranking with exact premiums: ${unserved.join(', ')})`
      : '';
    throw notFound(`no insurer ranking for ${state} ${period}: ${has}${aside}`);
  }
  const { positions, ...answer } = found;
  return () => ({ state, period, ...answer, publications: cite(positions) });
}

/** The answer as CSV: one line per insurer, with its ranking and publication. */
/** The ranking as CSV, with its file name (checked as a CsvAnswer where its operation is declared). */
const insurersCsvAnswer = (body: InsurersResponse) => ({
  text: insurersCsv(body),
  fileName: csvFileName('insurers', body.state, body.period),
});

export const insurers = pricedOperation(insurersRoute, prepareInsurers, { csv: insurersCsvAnswer, text: insurersText });
