// The ingest's in-memory model of the data folder.
import { METRICS, type Metric, PRINTED_METRICS, unitOf } from '../domain/metrics.ts';
import type { Period } from '../domain/periods.ts';
import type { DatasetName, DatasetRecord } from './sources/datasets.ts';
import type { Publication } from './sources/header.ts';

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

export type PrintedMetric = (typeof PRINTED_METRICS)[number];
export const isPrintedMetric = (m: Metric): m is PrintedMetric => (PRINTED_METRICS as readonly string[]).includes(m);
export const COUNT_UNITS = ['policies', 'transactions', 'items'] as const; // preference order
export type CountUnit = (typeof COUNT_UNITS)[number];
/** Shares of a whole, 0-100: the percentages that are not changes. */
export const PCT_METRICS: readonly Metric[] = METRICS.filter((m) => unitOf(m) === 'percent' && !m.endsWith('_yoy_pct'));
/** Changes in percent: -100 (all gone) or more. */
export const CHANGE_METRICS: readonly Metric[] = METRICS.filter(
  (m) => unitOf(m) === 'percent' && m.endsWith('_yoy_pct'),
);
export const COUNT_METRICS: readonly Metric[] = METRICS.filter((m) => unitOf(m) === 'count');

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
  /** False for rounded or qualified figures: never in a series field (docs/design.md §16), served only in `printed`. */
  exact: boolean;
  /** The qualifier as written (`rounded`, `about`, ...), or null for an exact figure. */
  qualifier: string | null;
  /** The words as printed (`$1.24B`, `+12.6%`), or null where the file gives none (exact levels may omit them). */
  printed: string | null;
  /** Where the value is printed in `pub.file`, for problems found after parsing. */
  fileLine: number;
  valueColumn: number;
}

/** What makes two figures the same figure: state, line, county, insurer, period and metric. */
export const figureKey = (f: Figure) =>
  [f.state, f.line, f.county ?? '', f.insurer ?? '', f.period.key, f.metric].join('|');

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
