// A state's free sample (/v1/premium/sample): its latest 13 monthly statewide all-lines rows, latest vintage,
// as JSON and as CSV (each figure with the publication that printed it). Rendered from the state's model alone.
import type { CoverageItem } from '../domain/contract.ts';
import { type SampleResponse, type SeriesRow, sampleResponse } from '../domain/contract.ts';
import { seriesCsv } from '../domain/csv-answer.ts';
import { printedKeysOf } from '../domain/metrics.ts';
import { citedPublications } from '../domain/publications.ts';
import { latestPublication } from '../domain/vintages.ts';
import type { Dataset } from './model-types.ts';
import type { Model } from './model.ts';
import type { Citations } from './shards.ts';
import { snapshotPubs } from './vintaged-series.ts';

const SAMPLE_MONTHS = 13;

/**
 * The free sample, as JSON (checked against its contract schema) and as CSV (each figure with the publication that
 * printed it).
 */
export function sample(
  dataset: Dataset,
  model: Model,
  code: string,
  periodTypes: CoverageItem['period_types'],
  { refs, position }: Citations,
): { body: SampleResponse; csv: string } {
  const cite = (ids: string[]) =>
    citedPublications(
      refs,
      ids.map((id) => position.get(id)!),
    );
  const state = dataset.states.get(code)!;
  const months = model.series.find(
    (s) => s.state === code && s.lineKey === 'all' && !s.county && s.periodType === 'month',
  );
  const rows = (months?.rows ?? []).slice(-SAMPLE_MONTHS).map((r) => ({ period: r.period, snap: r.snapshots.at(-1)! }));
  const latest = rows.length ? latestPublication(rows.map((r) => r.snap)) : null;
  const published = Object.keys(periodTypes).join(', ') || 'none';
  const paid =
    'Full history, quarter and year roll-ups, lines and categories, as-of pinning (report_date), annual ' +
    'summaries, cross-state comparison and insurer rankings are paid: /v1/premium, /v1/premium/summary, ' +
    '/v1/compare, /v1/insurers.';
  const data = rows.map(({ period, snap }): SeriesRow => ({
    period,
    ...snap.values,
    printed: Object.keys(snap.printed).length ? snap.printed : null,
  }));
  const csv = seriesCsv([
    {
      state: code,
      line: 'all',
      granularity: 'month',
      countUnit: months?.countUnit ?? null,
      rows: data.map((row, i) => ({
        row,
        sources: Object.fromEntries(
          Object.entries(rows[i].snap.sources).map(([figure, ids]) => [
            figure,
            ids.map((id) => refs[position.get(id)!]),
          ]),
        ),
      })),
    },
  ]);
  const body: SampleResponse = {
    state: code,
    line: 'all',
    granularity: 'month',
    sample: true,
    data,
    printed_keys: printedKeysOf(data),
    publications: cite(rows.flatMap((r) => snapshotPubs(r.snap))),
    report_date: latest?.reportDate ?? null,
    data_as_of: latest?.dataAsOf ?? null,
    source: state.source,
    note: rows.length
      ? `Free sample: the latest ${rows.length} monthly statewide all-lines rows, latest vintage. ${paid}`
      : `${state.name}'s sources publish no monthly statewide all-lines figures, and the sample is month-only. ` +
        `Period types published: ${published} (see /v1/coverage). ${paid}`,
  };
  return { body: sampleResponse.parse(body), csv };
}
