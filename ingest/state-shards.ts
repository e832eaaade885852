// The files of one state, rendered from its own model (ingest/model.ts) as the build reaches it: its free
// routes' bodies (ingest/free-shards.ts), its series shards, each also added to the bulk files, its insurer
// lists and its published rankings. What the files that cover every state need of it goes back to the build.
import { SERIES_FIELDS } from '../domain/contract.ts';
import type { Dataset } from './model-types.ts';
import type { InsurersShard, SeriesShard, SnapshotTuple } from '../domain/shard-types.ts';
import type { Model } from './model.ts';
import type { Series } from './vintaged-series.ts';
import { rankingsShard } from './ranking-shards.ts';
import { type BulkFiles, compareBulkPlaces } from './bulk.ts';
import type { PublishedRanking } from './sources/ranking.ts';
import { renderFreeBodies } from './free-shards.ts';
import { type Citations, type StateShards, json, lineDir, slug } from './shards.ts';

const SERVED: readonly string[] = ['month', 'quarter', 'half_year', 'year'];

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
            x.asOf,
            x.reportDate,
            x.dataAsOf,
            ...SERIES_FIELDS.map((f) => x.values[f]),
            x.published,
            Object.fromEntries(
              Object.entries(x.sources).map(([figure, ids]) => [
                figure,
                ids.map((id) => position.get(id)!).sort((a, b) => a - b),
              ]),
            ),
            Object.keys(x.printed).length ? x.printed : null,
          ] as unknown as SnapshotTuple,
      ),
    })),
  };
}

/**
 * The files of state `code`, each handed to `emit` as it is rendered: its lines, publications and sample,
 * its series (also added to the bulk files), its insurer lists and its published rankings. `dataset` and `model` need
 * hold only the state's figures and series; `rankings` are the state's.
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
  const { item, lineItems, listing } = renderFreeBodies(dataset, model, state, { refs, position }, rankings, emit);

  const series = model.series.filter((s) => s.state === code && SERVED.includes(s.periodType) && s.rows.length);
  const echo = (lineKey: string) =>
    lineKey === 'all'
      ? 'all'
      : lineKey.startsWith('category:')
        ? lineKey.slice(9)
        : lineItems.find((l) => `line:${l.id}` === lineKey)!.source_code;
  const shardPaths: string[] = [];
  // In the bulk files' order, so each shard is added to them as it is written, and not held.
  const placed = series
    .map((s) => ({
      s,
      line: s.lineKey.startsWith('category:') ? s.lineKey : echo(s.lineKey),
      county: s.county,
      granularity: s.periodType,
    }))
    .sort(compareBulkPlaces);
  for (const { s, line } of placed) {
    const county = s.county ? `counties/${slug(s.county)}/` : '';
    const path = `series/${code}/${lineDir(s.lineKey)}/${county}${s.periodType}.json`;
    const shard = seriesShard(s, echo(s.lineKey), position);
    emit(`private/${path}`, json(shard));
    bulk.add({ shard, line }, refs);
    shardPaths.push(path);
  }
  const insurers = model.insurers.get(code);
  if (insurers) {
    const periods = insurers.map(({ pubs, ...p }) => ({
      ...p,
      publications: pubs.map((id) => position.get(id)!).sort((a, b) => a - b),
    }));
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
      counties: [...new Set(series.flatMap((s) => (s.county ? [s.county] : [])))]
        .sort()
        .map((name) => ({ name, dir: slug(name) })),
      shards: shardPaths.sort(),
    },
  };
}
