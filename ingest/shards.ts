// Renders the model into shard files: the free routes' exact response bodies, the bulk files, and one private shard
// per state × line/category × granularity with every vintage. A state's files need only its own model
// (renderState), so a build renders and writes one state at a time; the files that cover every state
// are rendered last from what each state's rendering returned (renderShared).
// One state's files are rendered by ingest/state-shards.ts; this module holds what every state's rendering
// shares (the folders' names, the index's list of publications) and renders the files that cover every state.
import {
  coverageResponse,
  publicationsResponse,
  type CoverageItem,
  type PublicationsResponse,
} from '../domain/contract.ts';
import type { Dataset } from './model-types.ts';
import type { Publication } from './sources/header.ts';
import { NATIONAL } from '../domain/insurers.ts';
import type { IndexShard, PublicationRef } from '../domain/shard-types.ts';
import { datasetFiles, refOf } from './dataset-shards.ts';
import { rankingsShard } from './ranking-shards.ts';
import type { BulkFiles } from './bulk.ts';
import type { PublishedRanking } from './sources/ranking.ts';

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
/** The folder of a line key: `all`, `line-12`, `category-commercial-property`. */
export const lineDir = (lineKey: string) =>
  lineKey.includes(':') ? `${lineKey.split(':')[0]}-${slug(lineKey.split(':')[1])}` : lineKey;

export const json = (value: unknown) => JSON.stringify(value) + '\n';

/**
 * Every publication of the build, in id order (index.json's list), and where each id is in it: what snapshots and
 * insurer lists point into.
 */
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

/**
 * What the files that cover every state need of one state: its coverage item, its entry in index.json and its
 * publications (the feed).
 */
export interface StateShards {
  coverage: CoverageItem;
  index: IndexShard['states'][string];
  publications: PublicationsResponse['publications'];
}

/** Newest first, then by state, url and title: the feed's order, which a stable sort completes for equal keys. */
const newestFirst = (
  a: PublicationsResponse['publications'][number],
  b: PublicationsResponse['publications'][number],
) =>
  (b.report_date > a.report_date ? 1 : b.report_date < a.report_date ? -1 : 0) ||
  (a.state < b.state ? -1 : a.state > b.state ? 1 : 0) ||
  (a.url < b.url ? -1 : a.url > b.url ? 1 : 0) ||
  (a.title < b.title ? -1 : a.title > b.title ? 1 : 0);

/** /v1/publications without state: every state's publications, newest first. */
function publicationsFeed(states: StateShards[]): PublicationsResponse {
  const listed = states.flatMap((s) => s.publications).sort(newestFirst);
  return {
    state: null,
    source: null,
    report_dates: [...new Set(listed.map((p) => p.report_date))].sort(),
    publications: listed,
  };
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
