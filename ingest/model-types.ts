// The ingest's in-memory model of the data folder.
import type { Period } from '../domain/periods.ts';

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
  dataAsOf: string;
}

export const METRICS = [
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
export type Metric = (typeof METRICS)[number];
export const COUNT_UNITS = ['policies', 'transactions', 'items'] as const; // preference order
export type CountUnit = (typeof COUNT_UNITS)[number];
export const PCT_METRICS: readonly Metric[] = ['new_business_policy_pct', 'renewal_policy_pct'];
export const COUNT_METRICS: readonly Metric[] = ['policies', 'items', 'transactions', 'insurer_policies'];

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
  /** False for rounded or qualified figures: kept in the file, never served. */
  exact: boolean;
  /** Where the value is printed in `pub.file`, for problems found after parsing. */
  fileLine: number;
  valueColumn: number;
}

export interface Dataset {
  states: Map<string, State>;
  categories: string[];
  /** By state, then source_code. */
  lines: Map<string, Map<string, Line>>;
  publications: Publication[];
  figures: Figure[];
}
