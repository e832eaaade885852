// Renders the model into shard files: the free routes' exact response bodies, the bulk files, and one private shard
// per state × line/category × granularity with every vintage. A state's files need only its own model
// (renderState), so a build renders and writes one state at a time; the files that cover every state
// are rendered last from what each state's rendering returned (renderShared).
import { coverageItem, coverageResponse, linesResponse, PERIOD_TYPE_NAMES, publicationsResponse, sampleResponse, SERIES_FIELDS, type CoverageItem, type LineItem, type PublicationsResponse, type SampleResponse, type SeriesRow } from '../domain/contract.ts';
import type { Dataset, State } from './model-types.ts';
import type { Publication } from './sources/header.ts';
import { latestPublication } from '../domain/vintages.ts';
import { printedKeysOf } from '../domain/metrics.ts';
import { seriesCsv } from '../domain/csv-answer.ts';
import { NATIONAL, isRankable } from '../domain/insurers.ts';
import { byDateThenUrl, citedPublications } from '../domain/publications.ts';
import type { IndexShard, InsurersShard, PublicationRef, SeriesShard, SnapshotTuple } from '../domain/shard-types.ts';
import type { Model } from './model.ts';
import { type Series, snapshotPubs } from './vintaged-series.ts';
import { datasetFiles, refOf } from './dataset-shards.ts';
import { rankingsShard } from './ranking-shards.ts';
import { type BulkFiles, compareBulkPlaces } from './bulk.ts';
import type { PublishedRanking } from './sources/ranking.ts';

const SAMPLE_MONTHS = 13;
const SERVED: readonly string[] = ['month', 'quarter', 'half_year', 'year'];
const byCode = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
/** The folder of a line key: `all`, `line-12`, `category-commercial-property`. */
export const lineDir = (lineKey: string) => (lineKey.includes(':') ? `${lineKey.split(':')[0]}-${slug(lineKey.split(':')[1])}` : lineKey);

const json = (value: unknown) => JSON.stringify(value) + '\n';

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

/** Every publication of the build, in id order (index.json's list), and where each id is in it: what snapshots and insurer lists point into. */
export interface Citations {
  refs: PublicationRef[];
  position: Map<string, number>;
}

export function publicationRefs(publications: readonly Publication[]): Citations {
  const pubs = [...publications].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    refs: pubs.map(refOf),
    position: new Map(pubs.map((p, i) => [p.id, i])),
  };
}

function lines(dataset: Dataset, state: string): LineItem[] {
  return [...(dataset.lines.get(state)?.values() ?? [])]
    .sort((a, b) => byCode.compare(a.sourceCode, b.sourceCode))
    .map((l) => ({ id: l.id, source_code: l.sourceCode, name: l.name, category: l.category, note: l.note }));
}

/** The free sample, as JSON and as CSV (each figure with the publication that printed it). */
function sample(dataset: Dataset, model: Model, code: string, periodTypes: CoverageItem['period_types'], { refs, position }: Citations): { body: SampleResponse; csv: string } {
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
function publications(dataset: Dataset, code: string, refs: PublicationRef[], position: Map<string, number>): PublicationsResponse {
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

function seriesShard(s: Series, lineEcho: string, position: Map<string, number>): SeriesShard {
  return {
    state: s.state,
    line: lineEcho,
    county: s.county,
    granularity: s.periodType,
    count_unit: s.countUnit,
    columns: ['as_of', 'report_date', 'data_as_of', ...SERIES_FIELDS, 'published', 'sources', 'printed'],
    rows: s.rows.map((r) => ({
      period: r.period,
      snapshots: r.snapshots.map(
        (x) =>
          [
            x.asOf, x.reportDate, x.dataAsOf, ...SERIES_FIELDS.map((f) => x.values[f]), x.published,
            Object.fromEntries(Object.entries(x.sources).map(([figure, ids]) => [figure, ids.map((id) => position.get(id)!).sort((a, b) => a - b)])),
            Object.keys(x.printed).length ? x.printed : null,
          ] as unknown as SnapshotTuple,
      ),
    })),
  };
}

/** What the files that cover every state need of one state: its coverage item, its entry in index.json and its publications (the feed). */
export interface StateShards {
  coverage: CoverageItem;
  index: IndexShard['states'][string];
  publications: PublicationsResponse['publications'];
}

/**
 * The files of state `code`, each handed to `emit` as it is rendered: its lines, publications and sample,
 * its series (also added to the bulk files), its insurer lists and its published rankings. `dataset` and `model` need hold only the state's
 * figures and series; `rankings` are the state's.
 */
export function renderState(
  dataset: Dataset,
  model: Model,
  code: string,
  { refs, position }: Citations,
  rankings: readonly PublishedRanking[],
  emit: (path: string, text: string) => void,
  bulk: BulkFiles,
): StateShards {
  const state = dataset.states.get(code)!;
  const item = coverageItem.parse(coverage(state, model, rankings.map((r) => r.period)));
  const lineItems = linesResponse.parse(lines(dataset, code));
  emit(`free/lines/${code}.json`, json(lineItems));
  const listing = publicationsResponse.parse(publications(dataset, code, refs, position));
  emit(`free/publications/${code}.json`, json(listing));
  const free = sample(dataset, model, code, item.period_types, { refs, position });
  emit(`free/sample/${code}.json`, json(sampleResponse.parse(free.body)));
  emit(`free/sample/${code}.csv`, free.csv);

  const series = model.series.filter((s) => s.state === code && SERVED.includes(s.periodType) && s.rows.length);
  const echo = (lineKey: string) =>
    lineKey === 'all' ? 'all' : lineKey.startsWith('category:') ? lineKey.slice(9) : lineItems.find((l) => `line:${l.id}` === lineKey)!.source_code;
  const shardPaths: string[] = [];
  // In the bulk files' order, so each shard is added to them as it is written, and not held.
  const placed = series
    .map((s) => ({ s, line: s.lineKey.startsWith('category:') ? s.lineKey : echo(s.lineKey), county: s.county, granularity: s.periodType }))
    .sort(compareBulkPlaces);
  for (const { s, line } of placed) {
    const path = `series/${code}/${lineDir(s.lineKey)}/${s.county ? `counties/${slug(s.county)}/` : ''}${s.periodType}.json`;
    const shard = seriesShard(s, echo(s.lineKey), position);
    emit(`private/${path}`, json(shard));
    bulk.add({ shard, line }, refs);
    shardPaths.push(path);
  }
  const insurers = model.insurers.get(code);
  if (insurers) {
    const periods = insurers.map(({ pubs, ...p }) => ({ ...p, publications: pubs.map((id) => position.get(id)!).sort((a, b) => a - b) }));
    emit(`private/insurers/${code}.json`, json({ state: code, periods } satisfies InsurersShard));
  }
  const published = rankingsShard(code, rankings, position);
  if (published) emit(`private/rankings/${code}.json`, json(published));
  return {
    coverage: item,
    publications: listing.publications,
    index: {
      source: state.source,
      lines: lineItems.map(({ note: _note, ...l }) => ({ ...l, dir: lineDir(`line:${l.id}`) })),
      categories: [...new Set(lineItems.flatMap((l) => (l.category ? [l.category] : [])))]
        .sort()
        .map((name) => ({ name, dir: lineDir(`category:${name}`) })),
      counties: [...new Set(series.flatMap((s) => (s.county ? [s.county] : [])))].sort().map((name) => ({ name, dir: slug(name) })),
      shards: shardPaths.sort(),
    },
  };
}

/** Newest first, then by state, url and title: the feed's order, which a stable sort completes for equal keys. */
const newestFirst = (a: PublicationsResponse['publications'][number], b: PublicationsResponse['publications'][number]) =>
  (b.report_date > a.report_date ? 1 : b.report_date < a.report_date ? -1 : 0) ||
  (a.state < b.state ? -1 : a.state > b.state ? 1 : 0) ||
  (a.url < b.url ? -1 : a.url > b.url ? 1 : 0) ||
  (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);

/** /v1/publications without state: every state's publications, newest first. */
function publicationsFeed(states: StateShards[]): PublicationsResponse {
  const listed = states.flatMap((s) => s.publications).sort(newestFirst);
  return { state: null, source: null, report_dates: [...new Set(listed.map((p) => p.report_date))].sort(), publications: listed };
}

/**
 * The files that cover every state, from each state's rendering (in state code order), the further datasets'
 * files, and the national rankings' shard (`national`: the rankings of US) when there are any.
 */
export function renderShared(
  states: StateShards[],
  { refs, position }: Citations,
  records: Dataset['records'],
  national: readonly PublishedRanking[],
  bulk: BulkFiles,
): [string, string][] {
  const index: IndexShard['states'] = {};
  for (const s of states) index[s.coverage.state] = s.index;
  const nationalShard = rankingsShard(NATIONAL, national, position);
  return [
    ...(nationalShard ? [[`private/rankings/${NATIONAL}.json`, json(nationalShard)] as [string, string]] : []),
    ['free/coverage.json', json(coverageResponse.parse(states.map((s) => s.coverage)))],
    // Beside the states' listings (FL.json, ...): a state code is two capitals, so `all` is no state's.
    ['free/publications/all.json', json(publicationsResponse.parse(publicationsFeed(states)))],
    ['private/index.json', json({ publications: refs, states: index } satisfies IndexShard)],
    ...datasetFiles(records),
    bulk.finish(refs),
  ];
}
