// The shapes of the private shards: written by the ingest (ingest/state-shards.ts and the modules beside it), read by
// the API. Some fields are there for people reading a shard, not for the API (a series shard's state, line, county,
// granularity, count_unit and columns; the index's list of shard files).

import type { InsurersResponse, PrintedFigures } from './contract.ts';

/** `[as_of, report_date, data_as_of, premium, policy_count, new_business_premium, renewal_premium,
 * new_business_policy_pct, renewal_policy_pct, published, sources, printed]`: from `as_of` on, the
 * row reads these values. `sources` gives, for each figure shown (a non-null series field, or
 * `printed.<key>`), the positions in the index shard's publications of those that printed it (a sum:
 * those of all its parts). */
export type SnapshotTuple = [
  string,
  string,
  string,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  number | null,
  boolean,
  Record<string, number[]>,
  PrintedFigures | null,
];

/** A publication as answers cite it (docs/design.md §10). */
export interface PublicationRef {
  publisher: string;
  title: string;
  url: string;
  report_date: string;
  report_date_basis: 'printed' | 'estimated';
}

export interface SeriesShard {
  state: string;
  line: string;
  county: string | null;
  granularity: string;
  count_unit: string | null;
  columns: string[];
  /** Sorted by period; each row's snapshots sorted by as_of. */
  rows: { period: string; snapshots: SnapshotTuple[] }[];
}

export interface StateIndex {
  source: string;
  lines: { id: number; source_code: string; name: string; category: string | null; dir: string }[];
  categories: { name: string; dir: string }[];
  counties: { name: string; dir: string }[];
  shards: string[];
}

export interface IndexShard {
  /** Every publication of the build, in id order: snapshots and insurer lists refer to them by position. */
  publications: PublicationRef[];
  states: Record<string, StateIndex>;
}

export interface InsurersShard {
  state: string;
  /** Sorted by period; insurers sorted by name, premium null where the source's figure is not exact. */
  periods: {
    period: string;
    reportDate: string;
    dataAsOf: string;
    /** Positions in the index shard's publications. */
    publications: number[];
    insurers: { name: string; premium: number | null; policy_count: number | null }[];
  }[];
}

/**
 * A state's (or US's) published rankings (private/rankings/<STATE>.json): each ready to serve but for its citations.
 */
export interface RankingsShard {
  state: string;
  /** Sorted by period. */
  rankings: (Pick<
    InsurersResponse,
    'period' | 'ranking' | 'insurers' | 'unranked' | 'report_date' | 'data_as_of' | 'source'
  > & {
    /** Positions in the index shard's publications. */
    publications: number[];
  })[];
}

/** A further dataset's private shard (private/datasets/<name>.json), written by ingest/dataset-shards.ts. */
export interface DatasetShard<T> {
  publications: PublicationRef[];
  records: {
    /** The record in its answer shape. */
    item: T;
    /** The normalized company (or managing agent) name it is matched by; null where it has none. */
    name: string | null;
    /** Position of its publication in `publications`. */
    publication: number;
    /** A syndicate: every publication its years come from. */
    publications?: number[];
    report_date: string;
    data_as_of: string;
  }[];
}
