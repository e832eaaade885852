// One state's free routes' exact response bodies: its item of /v1/coverage, its lines, its publications
// and its free sample, as JSON and CSV. Rendered from the state's model alone (ingest/state-shards.ts).
import { PERIOD_TYPE_NAMES, type CoverageItem, type LineItem, type PublicationsResponse } from '../domain/contract-discovery.ts';
import { type SampleResponse, type SeriesRow } from '../domain/contract.ts';
import type { Dataset, State } from './model-types.ts';
import { latestPublication } from '../domain/vintages.ts';
import { printedKeysOf } from '../domain/metrics.ts';
import { seriesCsv } from '../domain/csv-answer.ts';
import { isRankable } from '../domain/insurers.ts';
import { byDateThenUrl, citedPublications } from '../domain/publications.ts';
import type { Model } from './model.ts';
import { snapshotPubs } from './vintaged-series.ts';
import type { Citations } from './shards.ts';

const SAMPLE_MONTHS = 13;
const byCode = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** A state's item of /v1/coverage, from its model and its published rankings' periods. */
export function coverage(state: State, model: Model, rankingPeriods: readonly string[]): CoverageItem {
  const statewide = model.series.filter((s) => s.state === state.code && !s.county);
  const periodTypes: CoverageItem['period_types'] = {};
  for (const pt of PERIOD_TYPE_NAMES) {
    const series = statewide.filter((s) => s.periodType === pt && s.rows.length);
    if (!series.length) continue;
    const periods = series.flatMap((s) => s.rows.map((r) => r.period)).sort();
    const counted = series
      .filter((s) => s.rows.some((r) => r.snapshots.some((x) => x.values.policy_count !== null)))
      .sort((a, b) => Number(b.lineKey === 'all') - Number(a.lineKey === 'all'));
    const allLines = series.find((s) => s.lineKey === 'all');
    const basis = (allLines ?? series[0]).basis;
    if (!basis) throw new Error(`no basis for ${state.code} ${pt}: the ingest checks bases.csv before this`);
    periodTypes[pt] = {
      from: periods[0],
      to: periods.at(-1)!,
      // The rows /v1/premium answers for line=all at this granularity: every row's latest snapshot shows a
      // figure (the model keeps none that is empty). year_to_date: the spans of the exact year-to-date series.
      periods: allLines?.rows.length ?? 0,
      latest_report_date: latestPublication(series.flatMap((s) => s.rows.map((r) => r.snapshots.at(-1)!))).reportDate,
      count_unit: counted[0]?.countUnit ?? null,
      basis,
    };
  }
  const listed = (model.insurers.get(state.code) ?? []).filter(isRankable).map((p) => p.period);
  const insurerPeriods = [...new Set([...rankingPeriods, ...listed])].sort();
  return {
    state: state.code,
    name: state.name,
    stamping_office: state.office,
    stamping_office_name_basis: state.nameBasis,
    period_types: periodTypes,
    capabilities: {
      has_county_data: model.series.some((s) => s.state === state.code && s.county !== null),
      has_insurer_data: insurerPeriods.length > 0,
      has_new_renewal_split: statewide.some((s) =>
        s.rows.some((r) => r.snapshots.some((x) => x.values.new_business_policy_pct !== null || x.values.renewal_policy_pct !== null)),
      ),
    },
    insurer_periods: insurerPeriods,
  };
}

export function lines(dataset: Dataset, state: string): LineItem[] {
  return [...(dataset.lines.get(state)?.values() ?? [])]
    .sort((a, b) => byCode.compare(a.sourceCode, b.sourceCode))
    .map((l) => ({ id: l.id, source_code: l.sourceCode, name: l.name, category: l.category, note: l.note }));
}

/** The free sample, as JSON and as CSV (each figure with the publication that printed it). */
export function sample(dataset: Dataset, model: Model, code: string, periodTypes: CoverageItem['period_types'], { refs, position }: Citations): { body: SampleResponse; csv: string } {
  const cite = (ids: string[]) => citedPublications(refs, ids.map((id) => position.get(id)!));
  const state = dataset.states.get(code)!;
  const months = model.series.find((s) => s.state === code && s.lineKey === 'all' && !s.county && s.periodType === 'month');
  const rows = (months?.rows ?? []).slice(-SAMPLE_MONTHS).map((r) => ({ period: r.period, snap: r.snapshots.at(-1)! }));
  const latest = rows.length ? latestPublication(rows.map((r) => r.snap)) : null;
  const published = Object.keys(periodTypes).join(', ') || 'none';
  const paid =
    'Full history, quarter and year roll-ups, lines and categories, as-of pinning (report_date), annual summaries, cross-state comparison and insurer rankings are paid: /v1/premium, /v1/premium/summary, /v1/compare, /v1/insurers.';
  const data = rows.map(({ period, snap }): SeriesRow => ({ period, ...snap.values, printed: Object.keys(snap.printed).length ? snap.printed : null }));
  const csv = seriesCsv([
    {
      state: code,
      line: 'all',
      granularity: 'month',
      countUnit: months?.countUnit ?? null,
      rows: data.map((row, i) => ({
        row,
        sources: Object.fromEntries(Object.entries(rows[i].snap.sources).map(([figure, ids]) => [figure, ids.map((id) => refs[position.get(id)!])])),
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
      : `${state.name}'s sources publish no monthly statewide all-lines figures, and the sample is month-only. Period types published: ${published} (see /v1/coverage). ${paid}`,
  };
  return { body, csv };
}

/** The publications with figures for a state, with what each covers: /v1/publications. */
export function publications(dataset: Dataset, code: string, { refs, position }: Citations): PublicationsResponse {
  const byPub = new Map<string, Dataset['figures']>();
  for (const f of dataset.figures) if (f.state === code) byPub.set(f.pub.id, [...(byPub.get(f.pub.id) ?? []), f]);
  const listed = [...byPub.values()]
    .map((figures) => ({ figures, ref: refs[position.get(figures[0].pub.id)!] }))
    .sort((a, b) => byDateThenUrl(a.ref, b.ref))
    .map(({ figures, ref }) => {
      const periods: PublicationsResponse['publications'][number]['periods'] = {};
      for (const type of PERIOD_TYPE_NAMES) {
        const keys = figures.filter((f) => f.period.type === type).map((f) => f.period.key).sort();
        if (keys.length) periods[type] = { from: keys[0], to: keys.at(-1)! };
      }
      return { state: code, ...ref, data_as_of: figures[0].pub.dataAsOf, secondary: figures[0].pub.secondary, periods, figure_count: figures.length };
    });
  return {
    state: code,
    source: dataset.states.get(code)!.source,
    report_dates: [...new Set(listed.map((p) => p.report_date))].sort(),
    publications: listed,
  };
}
