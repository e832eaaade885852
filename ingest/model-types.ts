// The ingest's in-memory model of the data folder.
import type { Period } from '../domain/periods.ts';
import type { DatasetName, DatasetRecord } from './sources/datasets.ts';

export type NameBasis = 'confirmed' | 'seen_in_press' | 'unconfirmed';

export interface State {
  code: string;
  name: string;
  office: string;
  nameBasis: NameBasis;
  /** The `source` string of API responses: the office, which every figure of the state comes from. */
  source: string;
}

export interface Line {
  id: number;
  state: string;
  sourceCode: string;
  name: string;
  category: string | null;
  /** lines/<STATE>.csv's note: provenance of the line, and interpretations of figures mapped to it. */
  note: string | null;
}

export interface Publication {
  /** Path below publications/, without `.csv`: e.g. `sltx/2023-12-enews`. */
  id: string;
  file: string;
  publisher: string;
  source: string;
  title: string;
  url: string;
  reportDate: string;
  reportDateEstimated: boolean;
  /** A press article reprinting an office's figures (publications/press/): outranked by primary sources (DECISIONS §1). */
  secondary: boolean;
  dataAsOf: string;
}

/** Figures that can fill a SPEC series field (when exact) or an insurer ranking. */
export const LEVEL_METRICS = [
  'premium',
  'policies',
  'items',
  'transactions',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
  'insurer_premium',
  'insurer_policies',
] as const;
/**
 * Figures a publication prints that have no SPEC field (DECISIONS §9): published growth rates, shares
 * of premium and of items, averages and counts of other kinds. Served in a row's `printed` object
 * only, never summed and never used to derive another figure.
 */
export const PRINTED_METRICS = [
  'premium_yoy_pct',
  'policies_yoy_pct',
  'items_yoy_pct',
  'transactions_yoy_pct',
  'new_business_premium_pct',
  'renewal_premium_pct',
  'non_policy_premium_pct',
  'new_business_item_pct',
  'renewal_item_pct',
  'non_policy_item_pct',
  'avg_premium_per_item',
  'avg_premium_per_policy',
  'avg_premium_per_transaction',
  'endorsement_items',
  'cancellation_items',
] as const;
export const METRICS = [...LEVEL_METRICS, ...PRINTED_METRICS] as const;
export type Metric = (typeof METRICS)[number];
export type PrintedMetric = (typeof PRINTED_METRICS)[number];
export const isPrintedMetric = (m: Metric): m is PrintedMetric => (PRINTED_METRICS as readonly string[]).includes(m);
export const COUNT_UNITS = ['policies', 'transactions', 'items'] as const; // preference order
export type CountUnit = (typeof COUNT_UNITS)[number];
/** Shares of a whole, 0-100. */
export const PCT_METRICS: readonly Metric[] = [
  'new_business_policy_pct', 'renewal_policy_pct', 'new_business_premium_pct', 'renewal_premium_pct', 'non_policy_premium_pct',
  'new_business_item_pct', 'renewal_item_pct', 'non_policy_item_pct',
];
/** Changes in percent: -100 (all gone) or more. */
export const CHANGE_METRICS: readonly Metric[] = ['premium_yoy_pct', 'policies_yoy_pct', 'items_yoy_pct', 'transactions_yoy_pct'];
export const COUNT_METRICS: readonly Metric[] = ['policies', 'items', 'transactions', 'insurer_policies', 'endorsement_items', 'cancellation_items'];

/** What each metric measures and in which unit: served with every printed entry. */
export const METRIC_INFO: Record<Metric, { unit: 'USD' | 'count' | 'percent'; measures: string }> = {
  premium: { unit: 'USD', measures: 'premium' },
  policies: { unit: 'count', measures: 'policies' },
  items: { unit: 'count', measures: 'premium-bearing items (policies plus endorsements, audits and other premium-bearing transactions)' },
  transactions: { unit: 'count', measures: 'transactions' },
  new_business_premium: { unit: 'USD', measures: 'new-business premium' },
  renewal_premium: { unit: 'USD', measures: 'renewal premium' },
  new_business_policy_pct: { unit: 'percent', measures: 'new-business share of policies' },
  renewal_policy_pct: { unit: 'percent', measures: 'renewal share of policies' },
  insurer_premium: { unit: 'USD', measures: "one insurer's premium" },
  insurer_policies: { unit: 'count', measures: "one insurer's policies" },
  premium_yoy_pct: { unit: 'percent', measures: 'change in premium from the same period a year earlier' },
  policies_yoy_pct: { unit: 'percent', measures: 'change in policies from the same period a year earlier' },
  items_yoy_pct: { unit: 'percent', measures: 'change in premium-bearing items from the same period a year earlier' },
  transactions_yoy_pct: { unit: 'percent', measures: 'change in transactions from the same period a year earlier' },
  new_business_premium_pct: { unit: 'percent', measures: 'new-business share of premium' },
  renewal_premium_pct: { unit: 'percent', measures: 'renewal share of premium' },
  non_policy_premium_pct: { unit: 'percent', measures: 'share of premium from items other than policies (endorsements, audits, ...)' },
  new_business_item_pct: { unit: 'percent', measures: 'new-business share of items' },
  renewal_item_pct: { unit: 'percent', measures: 'renewal share of items' },
  non_policy_item_pct: { unit: 'percent', measures: 'share of items other than policies (endorsements, audits, cancellations, ...)' },
  avg_premium_per_item: { unit: 'USD', measures: 'average premium per item' },
  avg_premium_per_policy: { unit: 'USD', measures: 'average premium per policy' },
  avg_premium_per_transaction: { unit: 'USD', measures: 'average premium per transaction' },
  endorsement_items: { unit: 'count', measures: 'premium-endorsement items' },
  cancellation_items: { unit: 'count', measures: 'cancellation items' },
};

export interface Figure {
  pub: Publication;
  state: string;
  period: Period;
  /** `all` or a line's source_code. */
  line: string;
  county: string | null;
  insurer: string | null;
  metric: Metric;
  value: number;
  /** False for rounded or qualified figures: never in a SPEC field, served only in `printed`. */
  exact: boolean;
  /** The qualifier as written (`rounded`, `about`, ...), or null for an exact figure. */
  qualifier: string | null;
  /** The words as printed (`$1.24B`, `+12.6%`), or null where the file gives none (exact levels may omit them). */
  printed: string | null;
  /** Where the value is printed in `pub.file`, for problems found after parsing. */
  fileLine: number;
  valueColumn: number;
}

/** The data folder: all of it (ingest/load.ts), or one state's part as a build models it (ingest/build.ts). */
export interface Dataset {
  states: Map<string, State>;
  categories: string[];
  /** By state, then source_code. */
  lines: Map<string, Map<string, Line>>;
  /** The basis of the figures of each `state|period_type` (bases.csv): never mixed within one. */
  bases: Map<string, string>;
  publications: Publication[];
  figures: Figure[];
  /** The further datasets' records (datasets/), each with its publication. */
  records: Record<DatasetName, DatasetRecord[]>;
}
