// The publications an answer cites (docs/design.md §10): the ingest lists them in the free sample, the API
// in every priced answer, both from positions in the index shard's list.
import type { PublicationRef } from './shard-types.ts';

/** The order answers list publications in: by report_date, then url. */
export const byDateThenUrl = (a: PublicationRef, b: PublicationRef) =>
  a.report_date < b.report_date ? -1 : a.report_date > b.report_date ? 1 : a.url < b.url ? -1 : a.url > b.url ? 1 : 0;

/** The publications at `positions` of `refs`, each once, by report_date then url. */
export function citedPublications(refs: readonly PublicationRef[], positions: Iterable<number>): PublicationRef[] {
  return [...new Set(positions)].map((i) => refs[i]).sort(byDateThenUrl);
}
