// One state's free routes' exact response bodies, each checked against its contract schema: its item of
// /v1/coverage, its lines and its publications (its free sample: ingest/sample-shard.ts). Rendered from the
// state's model alone (ingest/state-shards.ts).
import {
  PERIOD_TYPE_NAMES,
  type CoverageItem,
  type LineItem,
  type PublicationsResponse,
  coverageItem,
  linesResponse,
  publicationsResponse,
} from '../domain/contract.ts';
import type { Dataset, State } from './model-types.ts';
import { latestPublication } from '../domain/vintages.ts';
import { isRankable } from '../domain/insurers.ts';
import { byDateThenUrl } from '../domain/publications.ts';
import type { Model } from './model.ts';
import { type Citations, json } from './shards.ts';
import { sample } from './sample-shard.ts';

const byCode = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** A state's item of /v1/coverage, from its model and its published rankings' periods. */
function coverage(state: State, model: Model, rankingPeriods: readonly string[]): CoverageItem {
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
  return coverageItem.parse({
    state: state.code,
    name: state.name,
    stamping_office: state.office,
    stamping_office_name_basis: state.nameBasis,
    period_types: periodTypes,
    capabilities: {
      has_county_data: model.series.some((s) => s.state === state.code && s.county !== null),
      has_insurer_data: insurerPeriods.length > 0,
      has_new_renewal_split: statewide.some((s) =>
        s.rows.some((r) =>
          r.snapshots.some((x) => x.values.new_business_policy_pct !== null || x.values.renewal_policy_pct !== null),
        ),
      ),
    },
    insurer_periods: insurerPeriods,
  });
}

function lines(dataset: Dataset, state: string): LineItem[] {
  return linesResponse.parse(
    [...(dataset.lines.get(state)?.values() ?? [])]
      .sort((a, b) => byCode.compare(a.sourceCode, b.sourceCode))
      .map((l) => ({ id: l.id, source_code: l.sourceCode, name: l.name, category: l.category, note: l.note })),
  );
}

/** The publications with figures for a state, with what each covers: /v1/publications. */
function publications(dataset: Dataset, code: string, { refs, position }: Citations): PublicationsResponse {
  const byPub = new Map<string, Dataset['figures']>();
  for (const f of dataset.figures) if (f.state === code) byPub.set(f.pub.id, [...(byPub.get(f.pub.id) ?? []), f]);
  const listed = [...byPub.values()]
    .map((figures) => ({ figures, ref: refs[position.get(figures[0].pub.id)!] }))
    .sort((a, b) => byDateThenUrl(a.ref, b.ref))
    .map(({ figures, ref }) => {
      const periods: PublicationsResponse['publications'][number]['periods'] = {};
      for (const type of PERIOD_TYPE_NAMES) {
        const keys = figures
          .filter((f) => f.period.type === type)
          .map((f) => f.period.key)
          .sort();
        if (keys.length) periods[type] = { from: keys[0], to: keys.at(-1)! };
      }
      return {
        state: code,
        ...ref,
        data_as_of: figures[0].pub.dataAsOf,
        secondary: figures[0].pub.secondary,
        periods,
        figure_count: figures.length,
      };
    });
  return publicationsResponse.parse({
    state: code,
    source: dataset.states.get(code)!.source,
    report_dates: [...new Set(listed.map((p) => p.report_date))].sort(),
    publications: listed,
  });
}

/**
 * Writes the state's free bodies (its lines, publications and sample; its coverage item is written with every state's),
 * and returns what the rest of its rendering reads.
 */
export function renderFreeBodies(
  dataset: Dataset,
  model: Model,
  state: State,
  citations: Citations,
  rankings: readonly { period: string }[],
  emit: (path: string, text: string) => void,
) {
  const code = state.code;
  const item = coverage(
    state,
    model,
    rankings.map((r) => r.period),
  );
  const lineItems = lines(dataset, code);
  emit(`free/lines/${code}.json`, json(lineItems));
  const listing = publications(dataset, code, citations);
  emit(`free/publications/${code}.json`, json(listing));
  const free = sample(dataset, model, code, item.period_types, citations);
  emit(`free/sample/${code}.json`, json(free.body));
  emit(`free/sample/${code}.csv`, free.csv);
  return { item, lineItems, listing };
}
