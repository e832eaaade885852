// The further datasets' priced answers (docs/design.md §18-20, §7 and §10), read from their private shards
// (ingest/dataset-shards.ts). A query that matches no record is answered 200 with empty lists and
// cites no publication, so it is not charged.
import type {
  EligibilityItem,
  EligibilityParams,
  EligibilityResponse,
  EnforcementParams,
  EnforcementResponse,
  FilingRecord,
  FineItem,
  LiquidationItem,
  RateActivityParams,
  RateActivityResponse,
  RatesParams,
  RatesResponse,
  SolvencyParams,
  SolvencyResponse,
  SyndicateItem,
  SyndicatesParams,
  SyndicatesResponse,
} from '../../domain/contract-datasets.ts';
import { normalizeName } from '../../domain/names.ts';
import { type Granularity, rollupKey } from '../../domain/periods.ts';
import { byDateThenUrl } from '../../domain/publications.ts';
import type { DatasetShard, PublicationRef } from '../../domain/shard-types.ts';
import { ShardError, privateShard } from '../store.ts';
import {
  eligibilityRoute,
  enforcementRoute,
  rateActivityRoute,
  ratesRoute,
  ratesSampleRoute,
  solvencyRoute,
  solvencySampleRoute,
  syndicatesRoute,
  syndicatesSampleRoute,
} from '../../domain/route-contracts.ts';
import { requiredFreeBody } from '../store.ts';
import { freeOperation, pricedOperation } from '../operation.ts';
import { tableText } from '../text/index.ts';

type Row<T> = DatasetShard<T>['records'][number];

function shard<T>(name: string): DatasetShard<T> {
  const s = privateShard<DatasetShard<T>>(`datasets/${name}.json`);
  if (!s) throw new ShardError(`private/datasets/${name}.json is not in the build: run the ingest`);
  return s;
}

/** report_date, data_as_of and publications of the rows an answer shows, from the shards they come from. */
function provenance(parts: [DatasetShard<unknown>, Row<unknown>[]][]) {
  const cited = new Map<string, PublicationRef>();
  let latest: Row<unknown> | null = null;
  for (const [s, rows] of parts) {
    for (const r of rows) {
      for (const i of r.publications ?? [r.publication])
        cited.set(`${s.publications[i].url} ${s.publications[i].report_date}`, s.publications[i]);
      if (
        !latest ||
        r.report_date > latest.report_date ||
        (r.report_date === latest.report_date && r.data_as_of > latest.data_as_of)
      )
        latest = r;
    }
  }
  return {
    report_date: latest?.report_date ?? null,
    data_as_of: latest?.data_as_of ?? null,
    publications: [...cited.values()].sort(byDateThenUrl),
  };
}

/** A list answer: the rows' records, where they come from, and a note for rows found or for none. */
function listAnswer<T>(s: DatasetShard<T>, rows: Row<T>[], source: string, [found, none]: [string, string]) {
  return { data: rows.map((r) => r.item), source, note: rows.length ? found : none, ...provenance([[s, rows]]) };
}

/** A browse filter on names: the normalized name asked for (normalized once) appears in the record's. */
function nameFilter(wanted: string | undefined): (row: Row<unknown>) => boolean {
  if (!wanted) return () => true;
  const part = normalizeName(wanted);
  return (row) => (row.name ?? '').includes(part);
}

/** A syndicate filter: numbers compare as numbers (`0033` is `33`). */
function syndicateFilter(wanted: string | undefined): (item: { syndicate_no: string | null }) => boolean {
  if (!wanted) return () => true;
  const number = String(Number(wanted));
  return (item) => item.syndicate_no === number;
}

const NO_RECORD = (what: string) =>
  `No record for ${what} in the covered states: a name that is absent means no record there, not a judgment ` +
  `about the carrier. Nothing was charged.`;
const SOLVENCY_SOURCE =
  "State receivers' and insurance regulators' published lists and notices, and press reports of them (see " +
  'publications)';

function prepareSolvency({ insurer }: SolvencyParams): () => SolvencyResponse {
  return () => {
    const wanted = normalizeName(insurer);
    const rs = shard<LiquidationItem>('receiverships');
    const es = shard<FineItem>('enforcement');
    const receiverships = rs.records.filter((r) => r.name === wanted);
    const actions = es.records
      .filter((r) => r.name === wanted)
      .sort((a, b) => Number(b.item.period) - Number(a.item.period) || a.item.state.localeCompare(b.item.state));
    const found = receiverships.length + actions.length > 0;
    return {
      insurer,
      normalized_name: wanted,
      receiverships: receiverships.map((r) => r.item),
      enforcement_actions: actions.map((r) => r.item),
      source: SOLVENCY_SOURCE,
      note: found
        ? 'Matched by normalized name (the sources publish no NAIC number): records of other carriers with the ' +
          'same normalized name would appear here too. Examinations and investigations carry no penalty.'
        : NO_RECORD(`'${insurer}' (normalized: '${wanted}')`),
      ...provenance([
        [rs, receiverships],
        [es, actions],
      ]),
    };
  };
}

function prepareEnforcement(p: EnforcementParams): () => EnforcementResponse {
  return () => {
    const es = shard<FineItem>('enforcement');
    const named = nameFilter(p.insurer);
    const rows = es.records
      .filter(
        (r) =>
          (!p.action_type || r.item.action_type === p.action_type) &&
          (!p.state || r.item.state === p.state) &&
          (!p.year || Number(r.item.period) === p.year) &&
          named(r),
      )
      .sort(
        (a, b) =>
          Number(b.item.period) - Number(a.item.period) ||
          a.item.state.localeCompare(b.item.state) ||
          a.item.company_name.localeCompare(b.item.company_name),
      );
    return listAnswer(es, rows, SOLVENCY_SOURCE, [
      'Annual by calendar year. Examinations and investigations carry no penalty (fine_amount null); ' +
        'action_type=fine gives monetary penalties. Names match by normalized name, as part of it.',
      'No action matches these filters in the covered states. Nothing was charged.',
    ]);
  };
}

const RATES_SOURCE =
  "State insurance departments' rate filing notices and filing records, and press reports of them (see publications)";

function filingsMatching(
  p: Pick<RatesParams, 'state' | 'company' | 'toi' | 'coverage_category' | 'from' | 'to' | 'status'>,
): [DatasetShard<FilingRecord>, Row<FilingRecord>[]] {
  const fs = shard<FilingRecord>('rate-filings');
  const toi = p.toi?.toLowerCase();
  const named = nameFilter(p.company);
  const rows = fs.records.filter(
    (r) =>
      (!p.state || r.item.state === p.state) &&
      named(r) &&
      (!toi || r.item.toi_code?.toLowerCase() === toi || r.item.toi_name.toLowerCase().includes(toi)) &&
      (!p.coverage_category || r.item.coverage_category === p.coverage_category) &&
      (!p.from || r.item.bucket_date >= p.from) &&
      // A month bound includes its whole month.
      (!p.to || r.item.bucket_date.slice(0, p.to.length) <= p.to) &&
      (!p.status || r.item.status === p.status),
  );
  return [fs, rows];
}

function prepareRates(p: RatesParams): () => RatesResponse {
  return () => {
    const [fs, rows] = filingsMatching(p);
    rows.sort(
      (a, b) =>
        b.item.bucket_date.localeCompare(a.item.bucket_date) ||
        a.item.state.localeCompare(b.item.state) ||
        a.item.company_name.localeCompare(b.item.company_name),
    );
    return listAnswer(fs, rows, RATES_SOURCE, [
      'Admitted-market filings only (surplus lines carriers are rate-exempt): a leading indicator. bucket_date ' +
        'is the received date, else the closed date, else the publication date.',
      'No filing matches these filters. Nothing was charged.',
    ]);
  };
}

const bucketOf = (date: string, granularity: Granularity) =>
  granularity === 'month' ? date.slice(0, 7) : rollupKey(date.slice(0, 7), granularity);

function prepareRateActivity(p: RateActivityParams): () => RateActivityResponse {
  return () => {
    const [fs, all] = filingsMatching({});
    const rows = all.filter(
      (r) =>
        (!p.states || p.states.includes(r.item.state)) &&
        (!p.from || r.item.bucket_date.slice(0, 7) >= p.from) &&
        (!p.to || r.item.bucket_date.slice(0, 7) <= p.to),
    );
    const buckets = new Map<string, Row<FilingRecord>[]>();
    for (const r of rows) {
      const key = `${r.item.state}|${bucketOf(r.item.bucket_date, p.granularity)}`;
      buckets.set(key, [...(buckets.get(key) ?? []), r]);
    }
    const data = [...buckets.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, bucket]) => {
        const [state, period] = key.split('|');
        // docs/design.md §19, rule 3: a filing with no overall percentage counts, but is left out of the average and
        // shares.
        const changes = bucket.flatMap((r) => (r.item.rate_change_pct === null ? [] : [r.item.rate_change_pct]));
        const share = (n: number) => (changes.length ? Math.round((n / changes.length) * 10_000) / 10_000 : null);
        return {
          state,
          period,
          filing_count: bucket.length,
          avg_rate_change_pct: changes.length
            ? Math.round((changes.reduce((s, c) => s + c, 0) / changes.length) * 100) / 100
            : null,
          share_increasing: share(changes.filter((c) => c > 0).length),
          share_decreasing: share(changes.filter((c) => c < 0).length),
        };
      });
    return {
      granularity: p.granularity,
      data,
      source: RATES_SOURCE,
      note: data.length
        ? 'Filings are bucketed by the point they entered the public record: received date, else closed date, else ' +
          'the publication date. Filings with no overall percentage count in filing_count only. Admitted market ' +
          'only: a leading indicator.'
        : 'No filing falls in these states and months. Nothing was charged.',
      ...provenance([[fs, rows]]),
    };
  };
}

function prepareSyndicates(p: SyndicatesParams): () => SyndicatesResponse {
  return () => {
    const ss = shard<SyndicateItem>('syndicates');
    const es = shard<EligibilityItem>('eligibility');
    const [numbered, named] = [syndicateFilter(p.syndicate), nameFilter(p.managing_agent)];
    const rows = ss.records.filter((r) => numbered(r.item) && named(r));
    const eligibility = es.records.filter((e) => rows.some((r) => e.item.syndicate_no === r.item.syndicate_no));
    return {
      data: rows.map((r) => ({
        ...r.item,
        eligibility: eligibility.filter((e) => e.item.syndicate_no === r.item.syndicate_no).map((e) => e.item),
      })),
      source:
        "Lloyd's syndicate forecasts as published and re-posted by Lloyd's advisers, and eligibility lists (see " +
        'publications)',
      note: rows.length
        ? 'Forecast ranges (worst and best case, % on capacity) on a year-of-account basis: not audited, not ' +
          'calendar-year, not USD; capacity is not premium written. Null capacity and result: no forecast ' +
          'published yet.'
        : 'No syndicate matches. Nothing was charged.',
      ...provenance([
        [ss, rows],
        [es, eligibility],
      ]),
    };
  };
}

function prepareEligibility(p: EligibilityParams): () => EligibilityResponse {
  return () => {
    const es = shard<EligibilityItem>('eligibility');
    const [numbered, named] = [syndicateFilter(p.syndicate), nameFilter(p.insurer)];
    const rows = es.records.filter((r) => numbered(r.item) && named(r));
    return listAnswer(
      es,
      rows,
      'Surplus lines eligibility lists of the states and the NAIC Quarterly Listing of Alien Insurers (see ' +
        'publications)',
      [
        'Joined to /v1/syndicates by syndicate number.',
        'No entry on the eligibility lists transcribed so far matches. Nothing was charged.',
      ],
    );
  };
}

export const solvency = pricedOperation(solvencyRoute, prepareSolvency);
export const enforcement = pricedOperation(enforcementRoute, prepareEnforcement, {
  text: tableText({ reach: 'year', narrowBy: 'state, action_type or insurer' }),
});
export const rates = pricedOperation(ratesRoute, prepareRates, {
  text: tableText({ reach: 'to', narrowBy: 'state, company or toi' }),
});
export const rateActivity = pricedOperation(rateActivityRoute, prepareRateActivity, {
  text: tableText({ reach: 'to_month', narrowBy: 'states' }),
});
export const syndicates = pricedOperation(syndicatesRoute, prepareSyndicates);
export const eligibility = pricedOperation(eligibilityRoute, prepareEligibility);

// The free samples of these datasets: summaries the ingest wrote.
export const solvencySample = freeOperation(solvencySampleRoute, () => requiredFreeBody('solvency-sample.json'));
export const ratesSample = freeOperation(ratesSampleRoute, () => requiredFreeBody('rates-sample.json'));
export const syndicatesSample = freeOperation(syndicatesSampleRoute, () => requiredFreeBody('syndicates-sample.json'));
