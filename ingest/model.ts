// The model a state's shards are rendered from: its vintaged series (ingest/vintaged-series.ts), the
// roll-ups and category sums made from them (ingest/rollups.ts), and its insurer lists (ingest/insurer-lists.ts).
import type { Dataset } from './model-types.ts';
import { type Series, baseSeries, chooseCountUnits, seriesKey } from './vintaged-series.ts';
import { categorySeries, rollUp } from './rollups.ts';
import { type InsurerPeriod, insurerRows } from './insurer-lists.ts';

export interface Model {
  series: Series[];
  /** By state, sorted by period. */
  insurers: Map<string, InsurerPeriod[]>;
}

export function buildModel(dataset: Dataset): Model {
  const all = baseSeries(dataset, chooseCountUnits(dataset.figures, dataset.bases));
  const pubById = new Map(dataset.publications.map((p) => [p.id, p]));
  rollUp(all, dataset, pubById, 'quarter', 'month');
  rollUp(all, dataset, pubById, 'half_year', 'month');
  rollUp(all, dataset, pubById, 'year', 'month');
  rollUp(all, dataset, pubById, 'year', 'half_year');
  categorySeries(dataset, all, pubById);
  const series = [...all.values()].sort((a, b) => (seriesKey(a) < seriesKey(b) ? -1 : 1));
  return { series, insurers: insurerRows(dataset) };
}
