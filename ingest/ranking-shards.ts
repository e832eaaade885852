// Published rankings (ingest/sources/ranking.ts) as the private shard /v1/insurers reads: each ranking
// ready to serve, its lines as printed, citing its publication by position in the index's list.
import { rankingInfo, type InsurersResponse } from '../domain/contract.ts';
import type { RankingsShard } from '../domain/shard-types.ts';
import type { PublishedRanking, RankingLine } from './sources/ranking.ts';

/** How a line's premium was printed, only where it is not exact (docs/design.md §9). */
const printedAs = (line: RankingLine) =>
  line.qualifier ? { as_printed: line.printed, qualifier: line.qualifier } : {};

/** The shard of `state`'s rankings (all of the same state), or null when it has none. */
export function rankingsShard(
  state: string,
  rankings: readonly PublishedRanking[],
  position: ReadonlyMap<string, number>,
): RankingsShard | null {
  if (!rankings.length) return null;
  return {
    state,
    rankings: rankings.map((r) => {
      const ranking: InsurersResponse['ranking'] = {
        entity: r.entity,
        basis: r.basis,
        ranks_listed: r.ranked.length,
        ...(r.ranksInPublication === null ? {} : { ranks_in_publication: r.ranksInPublication }),
      };
      const at = position.get(r.pub.id)!;
      return {
        period: r.period,
        ranking: rankingInfo.parse(ranking),
        insurers: r.ranked.map((line) => ({
          rank: line.rank!,
          name: line.name,
          premium: line.premium,
          policy_count: null,
          market_share_pct: line.marketSharePct,
          ...printedAs(line),
          ...(line.note === null ? {} : { note: line.note }),
        })),
        unranked: r.unranked.map((line) => ({
          name: line.name,
          premium: line.premium,
          market_share_pct: line.marketSharePct,
          ...printedAs(line),
          note: line.note!,
        })),
        report_date: r.pub.reportDate,
        data_as_of: r.pub.dataAsOf,
        source: r.pub.source,
        publications: [at],
      };
    }),
  };
}
