// Every route of the API, declared once: its path, operation id (also its MCP tool's name), price, parameters,
// answer and errors. The handlers, the MCP tools, /openapi.json, llms.txt and the x402 discovery are made from
// these (api/operation-list.ts binds each to what answers it).
import type { z } from 'zod';
import { bulkCsvResponse, bulkParams, bulkParquetResponse, dataPackageResponse } from './contract-bulk.ts';
import { BULK_COLUMNS } from './contract-shared.ts';
import {
  eligibilityParams,
  eligibilityResponse,
  enforcementParams,
  enforcementResponse,
  rateActivityParams,
  rateActivityResponse,
  ratesParams,
  ratesResponse,
  ratesSampleResponse,
  solvencyParams,
  solvencyResponse,
  solvencySampleResponse,
  syndicatesParams,
  syndicatesResponse,
  syndicatesSampleResponse,
} from './contract-datasets.ts';
import {
  compareParams,
  insurersParams,
  linesParams,
  premiumParams,
  publicationsParams,
  sampleParams,
  summaryParams,
} from './contract-params.ts';
import {
  compareResponse,
  coverageResponse,
  insurersResponse,
  linesResponse,
  premiumResponse,
  publicationsResponse,
  sampleResponse,
  summaryResponse,
} from './contract.ts';

/** A route; `P` its parameters' schema (null: it takes none and ignores any query string). */
export interface RouteContract<P extends z.ZodObject | null = z.ZodObject | null> {
  path: string;
  /** Also the MCP tool name where the route has one. */
  operationId: string;
  summary: string;
  description: string;
  /** USD per query under x402; null for a free route. */
  priceUsd: string | null;
  params: P;
  response: z.ZodType;
  /** Error statuses the route can answer, besides 405 for other methods. */
  errors: readonly (400 | 402 | 404 | 500 | 503)[];
  /**
   * The parameters whose declared examples make the route's example query when it requires none (llms.txt,
   * the README and the home page link it): all of them when absent; fewer where no record matches them all.
   */
  exampleParams?: readonly string[];
  /**
   * A download over HTTP (the bulk files and their descriptor), not an MCP tool: a whole table belongs in a
   * notebook, not in a model's context. Its media type and the file name its Content-Disposition gives.
   */
  download?: { mediaType: string; fileName: string };
  /**
   * A priced route's answer shape for discovery (the x402 Bazaar extension of its 402 challenge). It
   * carries no figures: the challenge is free, and no priced figure may be given away.
   */
  example?: unknown;
}

/** A route as declared, its parameters' schema kept in its type (what answers it takes those parameters). */
const routeContract = <P extends z.ZodObject | null>(contract: RouteContract<P>) => contract;

const FL_SOURCE = 'Florida Surplus Lines Service Office';
const NO_FIGURES = { publications: [], report_date: null, data_as_of: null, source: FL_SOURCE };
const NO_DATASET_RECORDS = {
  publications: [],
  report_date: null,
  data_as_of: null,
  source: 'see the route description',
  note: 'an example with no record',
};

export const premiumRoute = routeContract({
  path: '/v1/premium',
  operationId: 'get_premium',
  summary: 'Premium and policy-count series for a state',
  description:
    'Statewide or county series by line or category, month/quarter/year, with as-of pinning. By default each ' +
    'period shows its latest report; report_date=D shows each period as published on or before D.',
  priceUsd: '0.10',
  params: premiumParams,
  response: premiumResponse,
  errors: [400, 402, 404, 500, 503],
  example: { state: 'FL', line: 'all', county: null, granularity: 'month', data: [], printed_keys: {}, ...NO_FIGURES },
});

export const summaryRoute = routeContract({
  path: '/v1/premium/summary',
  operationId: 'get_summary',
  summary: "A year's statewide totals and year-over-year change",
  description:
    'Statewide all-lines totals for a calendar year with their basis, and a like-for-like prior year. Latest ' +
    'vintage of every figure.',
  priceUsd: '0.10',
  params: summaryParams,
  response: summaryResponse,
  errors: [400, 402, 404, 500, 503],
  example: {
    state: 'TX',
    year: 2024,
    ...{
      premium: null,
      policy_count: null,
      new_business_premium: null,
      renewal_premium: null,
      new_business_policy_pct: null,
      renewal_policy_pct: null,
    },
    months_available: 0,
    basis: null,
    prior_year: { year: 2023, premium: null, policy_count: null, months_available: 0 },
    yoy_premium_pct: null,
    yoy_policy_count_pct: null,
    yoy_basis: null,
    ...NO_FIGURES,
    source: 'Surplus Lines Stamping Office of Texas (SLTX)',
  },
});

export const compareRoute = routeContract({
  path: '/v1/compare',
  operationId: 'compare_states',
  summary: 'Cross-state comparison',
  description: 'The /v1/premium series of 1 to 15 states for one line or category, keyed by state.',
  priceUsd: '0.50',
  params: compareParams,
  response: compareResponse,
  errors: [400, 402, 404, 500, 503],
  example: {
    line: 'all',
    granularity: 'month',
    series: { FL: [], TX: [] },
    printed_keys: {},
    report_date: null,
    data_as_of: null,
    source: { FL: FL_SOURCE, TX: 'Surplus Lines Stamping Office of Texas' },
    publications: [],
  },
});

export const insurersRoute = routeContract({
  path: '/v1/insurers',
  operationId: 'get_top_insurers',
  summary: 'Insurers ranked by premium',
  description:
    "An insurer ranking as a publication printed it, for a state or US (AM Best's national rankings) and a " +
    'month, half-year or year: ranks, names, premiums and shares as printed, rounded premiums marked, unranked ' +
    'insurers apart.',
  priceUsd: '0.10',
  params: insurersParams,
  response: insurersResponse,
  errors: [400, 402, 404, 500, 503],
  example: {
    state: 'TX',
    period: '2021',
    ranking: { entity: 'company', basis: 'see the answer', ranks_listed: 0 },
    insurers: [],
    unranked: [],
    ...NO_FIGURES,
    source: null,
  },
});

export const solvencyRoute = routeContract({
  path: '/v1/solvency',
  operationId: 'get_solvency',
  summary: "A carrier's receiverships and enforcement actions",
  description:
    'The per-carrier dossier, matched by normalized name (the sources publish no NAIC number). No match is a 200 ' +
    'with empty lists and a note saying there is no record in the covered states (not a judgment about the ' +
    'carrier), and is not charged.',
  priceUsd: '0.10',
  params: solvencyParams,
  response: solvencyResponse,
  errors: [400, 402, 500, 503],
  example: {
    insurer: 'Maidstone Insurance Company',
    normalized_name: 'maidstone insurance',
    receiverships: [],
    enforcement_actions: [],
    ...NO_DATASET_RECORDS,
  },
});

export const enforcementRoute = routeContract({
  path: '/v1/enforcement',
  operationId: 'list_enforcement_actions',
  summary: 'Enforcement actions of state regulators',
  description:
    'The action ledger, filterable by action_type, state, year and insurer (normalized name, as part of it). ' +
    'Nothing matching: 200, empty, not charged.',
  priceUsd: '0.10',
  params: enforcementParams,
  response: enforcementResponse,
  errors: [400, 402, 500, 503],
  // A short example (llms.txt stays compact): the filters that show what the route is for.
  exampleParams: ['action_type', 'state'],
  example: { data: [], ...NO_DATASET_RECORDS },
});

export const ratesRoute = routeContract({
  path: '/v1/rates',
  operationId: 'list_rate_filings',
  summary: 'Admitted-market rate filings',
  description:
    'Filing-level browse and lookup by state, company, type of insurance, coverage category, bucketing date ' +
    '(from/to) and status. Admitted market only: a leading indicator. Nothing matching: 200, empty, not charged.',
  priceUsd: '0.10',
  params: ratesParams,
  response: ratesResponse,
  errors: [400, 402, 500, 503],
  // A short example (llms.txt stays compact): the filters that show what the route is for.
  exampleParams: ['state', 'toi'],
  example: { data: [], ...NO_DATASET_RECORDS },
});

export const rateActivityRoute = routeContract({
  path: '/v1/rates/activity',
  operationId: 'get_rate_activity',
  summary: 'Cross-state rate-activity index',
  description:
    'Filings by state and month or quarter of the point they entered the public record (received, else closed, ' +
    'else publication date): filing_count, avg_rate_change_pct, share_increasing, share_decreasing. Filings with ' +
    'no overall percentage count only in filing_count.',
  priceUsd: '0.10',
  params: rateActivityParams,
  response: rateActivityResponse,
  errors: [400, 402, 500, 503],
  exampleParams: ['states', 'granularity'],
  example: { granularity: 'quarter', data: [], ...NO_DATASET_RECORDS },
});

export const syndicatesRoute = routeContract({
  path: '/v1/syndicates',
  operationId: 'get_syndicate',
  summary: "A Lloyd's syndicate's forecasts and eligibility",
  description:
    'By syndicate number (dossier) or managing agent (browse); both filters combine, and neither lists every ' +
    "syndicate. Each syndicate's years of account with capacity (£000) and forecast range (% on capacity), and " +
    'its eligibility list entries.',
  priceUsd: '0.10',
  params: syndicatesParams,
  response: syndicatesResponse,
  errors: [400, 402, 500, 503],
  // A short example (llms.txt stays compact): the filters that show what the route is for.
  exampleParams: ['syndicate'],
  example: { data: [], ...NO_DATASET_RECORDS },
});

export const eligibilityRoute = routeContract({
  path: '/v1/eligibility',
  operationId: 'get_eligibility',
  summary: 'Surplus lines eligibility list entries',
  description:
    'By syndicate number (joined to /v1/syndicates) or by insurer name; both filters combine, and neither lists ' +
    'every entry.',
  priceUsd: '0.10',
  params: eligibilityParams,
  response: eligibilityResponse,
  errors: [400, 402, 500, 503],
  // No entry transcribed so far carries a syndicate number: the example asks by name only.
  exampleParams: ['insurer'],
  example: { data: [], ...NO_DATASET_RECORDS },
});

export const bulkCsvRoute = routeContract({
  path: '/v1/bulk/premium.csv',
  operationId: 'get_bulk_premium_csv',
  summary: 'Every figure, every vintage, as CSV',
  description:
    'Every figure of every publication in one file: each state, line, county, period type, period and vintage, ' +
    "one row per figure in the CSV answers' long columns plus county and latest (true where the API answers that " +
    'very figure today). Described, free, by /v1/bulk/datapackage.json.',
  priceUsd: '5.00',
  params: bulkParams,
  response: bulkCsvResponse,
  errors: [400, 402, 500, 503],
  download: { mediaType: 'text/csv; charset=utf-8', fileName: 'premium.csv' },
  // The header line alone: the file's shape, no figure.
  example: `${BULK_COLUMNS.join(',')}\r\n`,
});

export const bulkParquetRoute = routeContract({
  path: '/v1/bulk/premium.parquet',
  operationId: 'get_bulk_premium_parquet',
  summary: 'Every figure, every vintage, as Parquet',
  description:
    'The same table as /v1/bulk/premium.csv, row for row, with typed columns: value a double, report_date a ' +
    'date, latest a boolean.',
  priceUsd: '5.00',
  params: bulkParams,
  response: bulkParquetResponse,
  errors: [400, 402, 500, 503],
  download: { mediaType: 'application/vnd.apache.parquet', fileName: 'premium.parquet' },
  example: `(binary) Apache Parquet, columns ${BULK_COLUMNS.join(', ')}`,
});

export const sampleRoute = routeContract({
  path: '/v1/premium/sample',
  operationId: 'get_premium_sample',
  summary: 'Free sample: the latest 13 months',
  description:
    'The latest 13 monthly statewide all-lines rows, latest vintage. A state that publishes no monthly figures ' +
    'answers data: [] with a note naming the period types it publishes.',
  priceUsd: null,
  params: sampleParams,
  response: sampleResponse,
  errors: [400, 404, 500],
});

export const linesRoute = routeContract({
  path: '/v1/lines',
  operationId: 'list_lines',
  summary: "A state's coverage lines",
  description: "The state's line taxonomy as its office publishes it, with stable ids and cross-state categories.",
  priceUsd: null,
  params: linesParams,
  response: linesResponse,
  errors: [400, 404, 500],
});

export const publicationsRoute = routeContract({
  path: '/v1/publications',
  operationId: 'list_publications',
  summary: 'The publications behind the figures, by state or as a feed',
  description:
    'Every publication this service transcribed, with its state, report date, what it covers and how many ' +
    'figures came from it: the vintage dates to pin with report_date, and the documents to cite. With state, ' +
    "that state's, oldest first; without, every state's, newest first (report_date descending, then state, url, " +
    'title); since=YYYY-MM-DD keeps those published on or after that date, in either form.',
  priceUsd: null,
  params: publicationsParams,
  response: publicationsResponse,
  errors: [400, 404, 500],
  // The feed of what is new: the state's example would list one state's whole history.
  exampleParams: ['since'],
});

export const solvencySampleRoute = routeContract({
  path: '/v1/solvency/sample',
  operationId: 'get_solvency_sample',
  summary: 'Free sample: receiverships and enforcement actions',
  description:
    'Counts, the years enforcement actions cover, and the latest liquidations and fines. Companies are matched ' +
    'by normalized name; a name that is absent means no record in the covered states, not a judgment about the ' +
    'carrier. Takes no parameters and ignores any query string.',
  priceUsd: null,
  params: null,
  response: solvencySampleResponse,
  errors: [500],
});

export const ratesSampleRoute = routeContract({
  path: '/v1/rates/sample',
  operationId: 'get_rates_sample',
  summary: 'Free sample: admitted-market rate filings',
  description:
    'Filings per state with their received-date range, and the largest recent increases. Admitted-market filings ' +
    'only (surplus lines carriers are rate-exempt): a leading indicator. Takes no parameters and ignores any ' +
    'query string.',
  priceUsd: null,
  params: null,
  response: ratesSampleResponse,
  errors: [500],
});

export const syndicatesSampleRoute = routeContract({
  path: '/v1/syndicates/sample',
  operationId: 'get_syndicates_sample',
  summary: "Free sample: Lloyd's syndicate forecasts",
  description:
    'Counts, the forecast years, the edition, and three syndicates with their years of account. Results are ' +
    'published forecast ranges, % on capacity, on a year-of-account basis: not audited, not calendar-year, not ' +
    'USD. Takes no parameters and ignores any query string.',
  priceUsd: null,
  params: null,
  response: syndicatesSampleResponse,
  errors: [500],
});

export const coverageRoute = routeContract({
  path: '/v1/coverage',
  operationId: 'get_coverage',
  summary: 'Which states, period types and date ranges exist',
  description: 'Takes no parameters and ignores any query string.',
  priceUsd: null,
  params: null,
  response: coverageResponse,
  errors: [500],
});

export const datapackageRoute = routeContract({
  path: '/v1/bulk/datapackage.json',
  operationId: 'get_bulk_datapackage',
  summary: 'Data package of the bulk files',
  description:
    'The columns of /v1/bulk/premium.csv and .parquet with their types, units and meaning, every publication ' +
    "they cite, the data's version (data_as_of), and each file's size and SHA-256. Takes no parameters and " +
    'ignores any query string.',
  priceUsd: null,
  params: null,
  response: dataPackageResponse,
  errors: [500],
  download: { mediaType: 'application/json', fileName: 'datapackage.json' },
});

/** Every route, in the order /openapi.json lists them. */
export const ROUTE_CONTRACTS: readonly RouteContract[] = [
  premiumRoute,
  summaryRoute,
  compareRoute,
  insurersRoute,
  solvencyRoute,
  enforcementRoute,
  ratesRoute,
  rateActivityRoute,
  syndicatesRoute,
  eligibilityRoute,
  bulkCsvRoute,
  bulkParquetRoute,
  sampleRoute,
  linesRoute,
  publicationsRoute,
  solvencySampleRoute,
  ratesSampleRoute,
  syndicatesSampleRoute,
  coverageRoute,
  datapackageRoute,
];

/** The routes an MCP tool serves: every route but the downloads (RouteContract.download). */
export const TOOL_ROUTES: readonly RouteContract[] = ROUTE_CONTRACTS.filter((r) => !r.download);
