// The shapes of the private shards: written by the ingest (ingest/shards.ts), read by the API. Some
// fields are there for people reading a shard, not for the API (a series shard's state, line, county,
// granularity, count_unit and columns; the index's list of shard files).

/** `[as_of, report_date, data_as_of, premium, policy_count, new_business_premium, renewal_premium,
 * new_business_policy_pct, renewal_policy_pct, published]`: from `as_of` on, the row reads these values. */
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
];

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
  states: Record<string, StateIndex>;
}

export interface InsurersShard {
  state: string;
  /** Sorted by period; insurers sorted by name, premium null where the source's figure is not exact. */
  periods: {
    period: string;
    reportDate: string;
    dataAsOf: string;
    insurers: { name: string; premium: number | null; policy_count: number | null }[];
  }[];
}
