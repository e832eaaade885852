// The further datasets' shards: the free sample summaries (docs/design.md §18-20),
// computed from the records at build time and checked against the contract (the exact bytes
// /v1/solvency/sample, /v1/rates/sample and /v1/syndicates/sample answer), and one private shard per
// dataset with every record in its answer shape, its normalized name and its publication.
import {
  type EligibilityItem,
  type FilingItem,
  type FilingRecord,
  type FineItem,
  type LiquidationItem,
  type SyndicateItem,
  ratesSampleResponse,
  solvencySampleResponse,
  syndicatesSampleResponse,
} from '../domain/contract-datasets.ts';
import { normalizeName } from '../domain/names.ts';
import { byDateThenUrl } from '../domain/publications.ts';
import { latestPublication } from '../domain/vintages.ts';
import type { DatasetShard, PublicationRef } from '../domain/shard-types.ts';
import type { Dataset } from './model-types.ts';
import type { Publication } from './sources/header.ts';
import type { DatasetRecord } from './sources/datasets.ts';

const SHOWN = 5;
const EXAMPLES = 3;

/** A publication as answers cite it (docs/design.md §10). */
export const refOf = (p: Publication): PublicationRef => ({
  publisher: p.publisher,
  title: p.title,
  url: p.url,
  report_date: p.reportDate,
  report_date_basis: p.reportDateEstimated ? 'estimated' : 'printed',
});

/** What every sample says of where its records come from: the latest publication, and all of them cited. */
function provenance(records: DatasetRecord[]) {
  const pubs = [...new Map(records.map((r) => [r.pub.id, r.pub])).values()];
  const latest = pubs.length ? latestPublication(pubs) : null;
  return {
    report_date: latest?.reportDate ?? null,
    data_as_of: latest?.dataAsOf ?? null,
    publications: pubs.map(refOf).sort(byDateThenUrl),
  };
}

const v = (r: DatasetRecord) => r.values as Record<string, string | number | string[] | null>;
const str = (x: string | number | string[] | null | undefined) => (x === null || x === undefined ? null : String(x));
const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));
/** Dates compare as text; a bare year sorts as its first day. */
const sortable = (d: string | null) => (d === null ? '' : d.length === 4 ? `${d}-01-01` : d);

function liquidationOf(r: DatasetRecord): LiquidationItem {
  const x = v(r);
  return {
    state: str(x.state)!,
    company_name: str(x.company_name)!,
    naic_code: str(x.naic_code),
    status: str(x.status)!,
    coverage_type: str(x.coverage_type),
    case_number: str(x.case_number),
    guaranty_associations: (x.guaranty_associations as string[] | null) ?? null,
    domicile: str(x.domicile),
    rehabilitation_date: str(x.rehabilitation_date),
    liquidation_date: str(x.liquidation_date),
    policy_cancellation_date: str(x.policy_cancellation_date),
    claims_deadline: str(x.claims_deadline),
    discharge_date: str(x.discharge_date),
    detail_url: str(x.detail_url) ?? r.pub.url,
  };
}

function fineOf(r: DatasetRecord): FineItem {
  const x = v(r);
  return {
    state: str(x.state)!,
    company_name: str(x.company_name)!,
    naic_code: str(x.naic_code),
    action_type: str(x.action_type)!,
    line_of_insurance: str(x.line_of_insurance),
    fine_amount: num(x.fine_amount),
    reason: str(x.reason),
    license_type: str(x.license_type),
    case_number: str(x.case_number),
    period: str(x.period)!,
  };
}

function filingOf(r: DatasetRecord): FilingItem {
  const x = v(r);
  return {
    state: str(x.state)!,
    serff_tracking: str(x.serff_tracking),
    company_name: str(x.company_name)!,
    naic_code: str(x.naic_code),
    toi_code: str(x.toi_code),
    toi_name: str(x.toi_name)!,
    coverage_category: str(x.coverage_category)!,
    product_name: str(x.product_name),
    rate_change_pct: num(x.rate_change_pct),
    received_date: str(x.received_date),
    closed_date: str(x.closed_date),
    effective_date_new: str(x.effective_date_new),
    effective_date_renewal: str(x.effective_date_renewal),
    status: str(x.status)!,
    disposition: str(x.disposition),
  };
}

/**
 * docs/design.md §19, rule 2: a filing is bucketed by its received date, else its closed date, else its publication's
 * date.
 */
const bucketDate = (r: DatasetRecord): string => str(v(r).received_date) ?? str(v(r).closed_date) ?? r.pub.reportDate;

/** One record per receivership: the same estate printed by two publications is the later one's. */
function latestPerKey(records: DatasetRecord[], key: (r: DatasetRecord) => string): DatasetRecord[] {
  const out = new Map<string, DatasetRecord>();
  for (const r of records) {
    const prior = out.get(key(r));
    if (!prior || r.pub.reportDate > prior.pub.reportDate) out.set(key(r), r);
  }
  return [...out.values()];
}

function receivershipsOf(records: DatasetRecord[]): DatasetRecord[] {
  return latestPerKey(records, (r) => `${String(v(r).state)}|${normalizeName(String(v(r).company_name))}`);
}

function solvencySample(records: Dataset['records']) {
  const receiverships = receivershipsOf(records.receiverships);
  const actions = records.enforcement;
  const years = actions.map((r) => Number(v(r).period));
  const states = (rs: DatasetRecord[]) =>
    [...new Set(rs.map((r) => String(v(r).state)))].sort().join(', ') || 'none yet';
  return solvencySampleResponse.parse({
    sample: true,
    receivership_count: receiverships.length,
    active_receiverships: receiverships.filter((r) => v(r).status !== 'closed' && v(r).discharge_date === null).length,
    enforcement_years: years.length ? { from: Math.min(...years), to: Math.max(...years) } : null,
    recent_liquidations: receiverships
      .filter((r) => v(r).status === 'liquidation')
      .sort(
        (a, b) =>
          sortable(str(v(b).liquidation_date)).localeCompare(sortable(str(v(a).liquidation_date))) ||
          String(v(a).company_name).localeCompare(String(v(b).company_name)),
      )
      .slice(0, SHOWN)
      .map(liquidationOf),
    recent_fines: actions
      .filter((r) => v(r).action_type === 'fine')
      .sort(
        (a, b) =>
          Number(v(b).period) - Number(v(a).period) ||
          (num(v(b).fine_amount) ?? 0) - (num(v(a).fine_amount) ?? 0) ||
          String(v(a).company_name).localeCompare(String(v(b).company_name)),
      )
      .slice(0, SHOWN)
      .map(fineOf),
    source:
      "State receivers' and insurance regulators' published lists and notices, and press reports of them (see " +
      'publications)',
    coverage_note:
      `Receiverships from the receivers of ${states(receiverships)}; enforcement actions from the regulators ` +
      `of ${states(actions)}. Records transcribed from the publications listed, not a complete national register.`,
    note:
      'A sample: counts and the latest five of each. Companies are matched by normalized name (the sources publish ' +
      'no NAIC number): a name that is absent means no record in the covered states, not a judgment about the ' +
      'carrier. Examinations and investigations carry no penalty (fine_amount null); filter action_type=fine for ' +
      'monetary penalties. The per-carrier dossier is GET /v1/solvency?insurer=<name> and the action ledger GET ' +
      '/v1/enforcement (0.10 USD each).',
    ...provenance([...receiverships, ...actions]),
  });
}

function ratesSample(records: Dataset['records']) {
  const filings = records.rateFilings;
  const byState = new Map<string, DatasetRecord[]>();
  for (const r of filings) byState.set(String(v(r).state), [...(byState.get(String(v(r).state)) ?? []), r]);
  const latestBucket = filings.map(bucketDate).sort().at(-1) ?? '';
  const recentFrom = latestBucket ? `${Number(latestBucket.slice(0, 4)) - 2}${latestBucket.slice(4)}` : '';
  return ratesSampleResponse.parse({
    sample: true,
    states: [...byState.keys()].sort().map((state) => {
      const received = byState
        .get(state)!
        .flatMap((r) => (v(r).received_date ? [String(v(r).received_date)] : []))
        .sort();
      return {
        state,
        filing_count: byState.get(state)!.length,
        received_date_range: received.length ? { from: received[0], to: received.at(-1)! } : null,
      };
    }),
    recent_large_increases: filings
      .filter((r) => (num(v(r).rate_change_pct) ?? 0) > 0 && bucketDate(r) >= recentFrom)
      .sort(
        (a, b) => num(v(b).rate_change_pct)! - num(v(a).rate_change_pct)! || bucketDate(b).localeCompare(bucketDate(a)),
      )
      .slice(0, SHOWN)
      .map(filingOf),
    source:
      "State insurance departments' rate filing notices and filing records, and press reports of them (see " +
      'publications)',
    coverage_note:
      'Admitted-market rate filings only: surplus lines carriers are rate-exempt, so they never appear. A ' +
      'leading indicator of pricing pressure that pushes risks toward the surplus lines market, not a measure of ' +
      'it.',
    note:
      'A sample: filings per state and the largest increases of the latest two years of filings. Filings are ' +
      'bucketed by received date, else closed date, else the publication date. A filing with no overall percentage ' +
      'counts in filing_count but not in averages or shares. Filing-level lookup is GET /v1/rates and the ' +
      'cross-state activity index GET /v1/rates/activity (0.10 USD each).',
    ...provenance(filings),
  });
}

/** A syndicate's years, each from the latest publication that printed it. */
function syndicatesOf(records: DatasetRecord[]): { item: SyndicateItem; records: DatasetRecord[] }[] {
  const rows = latestPerKey(records, (r) => `${String(v(r).syndicate_no)}|${String(v(r).year_of_account)}`);
  const bySyndicate = new Map<string, DatasetRecord[]>();
  for (const r of rows)
    bySyndicate.set(String(v(r).syndicate_no), [...(bySyndicate.get(String(v(r).syndicate_no)) ?? []), r]);
  return [...bySyndicate.entries()]
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([no, rs]) => {
      const latest = [...rs].sort((a, b) => b.pub.reportDate.localeCompare(a.pub.reportDate));
      const first = (field: string) => str(latest.map((r) => v(r)[field]).find((x) => x !== null) ?? null);
      return {
        records: rs,
        item: {
          syndicate_no: no,
          syndicate_name: first('syndicate_name'),
          managing_agent: first('managing_agent'),
          pseudonym: first('pseudonym'),
          status: first('status'),
          years: rs
            .map((r) => ({
              year_of_account: Number(v(r).year_of_account),
              capacity_gbp_000: num(v(r).capacity_gbp_000),
              estimated_result_pct:
                v(r).worst_pct === null ? null : { worst: num(v(r).worst_pct)!, best: num(v(r).best_pct)! },
            }))
            .sort((a, b) => a.year_of_account - b.year_of_account),
        },
      };
    });
}

function syndicatesSample(records: Dataset['records']) {
  const syndicates = syndicatesOf(records.syndicates);
  const forecastYears = syndicates.flatMap((s) =>
    s.item.years.filter((y) => y.estimated_result_pct).map((y) => y.year_of_account),
  );
  const latest = [...records.syndicates].sort((a, b) => b.pub.reportDate.localeCompare(a.pub.reportDate))[0];
  return syndicatesSampleResponse.parse({
    sample: true,
    syndicate_count: syndicates.length,
    with_forecast_count: syndicates.filter((s) => s.item.years.some((y) => y.estimated_result_pct)).length,
    forecast_years: forecastYears.length ? { from: Math.min(...forecastYears), to: Math.max(...forecastYears) } : null,
    edition: latest?.header.edition ?? null,
    examples: [...syndicates]
      .sort(
        (a, b) =>
          b.item.years.filter((y) => y.estimated_result_pct).length -
            a.item.years.filter((y) => y.estimated_result_pct).length ||
          Number(a.item.syndicate_no) - Number(b.item.syndicate_no),
      )
      .slice(0, EXAMPLES)
      .map((s) => s.item),
    source:
      "Lloyd's syndicate forecasts as published and re-posted by Lloyd's advisers, and Lloyd's lists of " +
      'syndicates and managing agents (see publications)',
    coverage_note:
      "Syndicates whose forecasts a listed publication printed; Lloyd's publishes forecasts for syndicates with " +
      'third-party capacity only.',
    note:
      'A sample: counts and three syndicates. Estimated results are published forecast ranges (worst and best ' +
      'case, % on capacity), not audited results; on a year-of-account basis (3-year accounting), not calendar ' +
      'year; capacity is not premium written, and results are % on capacity, not USD. Null capacity and result for ' +
      'a year of account: no forecast published yet (for example the current year). Syndicate numbers join to ' +
      '/v1/eligibility. The dossier is GET /v1/syndicates?syndicate=<number> (0.10 USD).',
    ...provenance(syndicates.flatMap((s) => s.records)),
  });
}

const json = (value: unknown) => JSON.stringify(value) + '\n';

function eligibilityOf(r: DatasetRecord): EligibilityItem {
  const x = v(r);
  return {
    state: str(x.state),
    list: r.header.list,
    company_name: str(x.company_name)!,
    syndicate_no: str(x.syndicate_no),
    alien_id: str(x.alien_id),
    naic_code: str(x.naic_code),
    domicile: str(x.domicile),
    eligible_since: str(x.eligible_since),
    status: str(x.status),
  };
}

/**
 * A private dataset shard: the publications its entries cite, and each entry in its answer shape with its
 * normalized name and the position of its latest publication (and of all of them, `withAll`, where an
 * entry is built from several records: a syndicate's years).
 */
function privateShard<E, T>(
  entries: E[],
  recordsOf: (e: E) => DatasetRecord[],
  item: (e: E) => T,
  name: (e: E) => string | null,
  withAll = false,
): DatasetShard<T> {
  const pubs = [...new Map(entries.flatMap(recordsOf).map((r) => [r.pub.id, r.pub])).values()].sort((a, b) =>
    a.id < b.id ? -1 : 1,
  );
  const position = new Map(pubs.map((p, i) => [p.id, i]));
  return {
    publications: pubs.map(refOf),
    records: entries.map((e) => {
      const rs = recordsOf(e);
      const latest = rs.reduce((a, b) => (b.pub.reportDate > a.pub.reportDate ? b : a));
      return {
        item: item(e),
        name: name(e),
        publication: position.get(latest.pub.id)!,
        ...(withAll ? { publications: rs.map((r) => position.get(r.pub.id)!) } : {}),
        report_date: latest.pub.reportDate,
        data_as_of: latest.pub.dataAsOf,
      };
    }),
  };
}

/** The shard of one kind of record: each record its own entry. */
const recordShard = <T>(records: DatasetRecord[], item: (r: DatasetRecord) => T) =>
  privateShard(records, (r) => [r], item, companyName);

const companyName = (r: DatasetRecord) => normalizeName(String(v(r).company_name));

/** The further datasets' shard files, by path: the three free samples and the private shards. */
export function datasetFiles(records: Dataset['records']): [string, string][] {
  const syndicates = syndicatesOf(records.syndicates);
  const syndicateShard = privateShard(
    syndicates,
    (s) => s.records,
    (s) => s.item,
    (s) => s.item.managing_agent && normalizeName(s.item.managing_agent),
    true,
  );
  return [
    ['free/solvency-sample.json', json(solvencySample(records))],
    ['free/rates-sample.json', json(ratesSample(records))],
    ['free/syndicates-sample.json', json(syndicatesSample(records))],
    ['private/datasets/receiverships.json', json(recordShard(receivershipsOf(records.receiverships), liquidationOf))],
    ['private/datasets/enforcement.json', json(recordShard(records.enforcement, fineOf))],
    [
      'private/datasets/rate-filings.json',
      json(
        recordShard(records.rateFilings, (r) => ({
          ...filingOf(r),
          record_kind: String(v(r).record_kind) as FilingRecord['record_kind'],
          bucket_date: bucketDate(r),
        })),
      ),
    ],
    ['private/datasets/syndicates.json', json(syndicateShard)],
    ['private/datasets/eligibility.json', json(recordShard(records.eligibility, eligibilityOf))],
  ];
}
