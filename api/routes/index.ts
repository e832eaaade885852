// Every API route's handler by path: what the dispatcher (api/dispatch.ts) answers each /v1 request
// with, on the Node server and on Vercel alike.
import type { Handler } from '../http.ts';
import { compareStates } from './compare-states.ts';
import { getCoverage } from './get-coverage.ts';
import { getInsurers } from './get-insurers.ts';
import { getLines } from './get-lines.ts';
import { getPremium } from './get-premium.ts';
import { getSample } from './get-sample.ts';
import { getSummary } from './get-summary.ts';
import { getUnknown } from './get-unknown.ts';
import { getEligibility } from './get-eligibility.ts';
import { getRateActivity } from './get-rate-activity.ts';
import { getSolvency } from './get-solvency.ts';
import { getSyndicate } from './get-syndicate.ts';
import { listEnforcementActions } from './list-enforcement-actions.ts';
import { listRateFilings } from './list-rate-filings.ts';
import { getRatesSample } from './get-rates-sample.ts';
import { getSolvencySample } from './get-solvency-sample.ts';
import { getSyndicatesSample } from './get-syndicates-sample.ts';
import { listPublications } from './list-publications.ts';
import { getBulkPremiumCsv, getBulkPremiumParquet } from './get-bulk-premium.ts';
import { getBulkDatapackage } from './get-bulk-datapackage.ts';

export const HANDLERS: Readonly<Record<string, Handler>> = {
  '/v1/coverage': getCoverage,
  '/v1/lines': getLines,
  '/v1/premium': getPremium,
  '/v1/premium/sample': getSample,
  '/v1/premium/summary': getSummary,
  '/v1/compare': compareStates,
  '/v1/insurers': getInsurers,
  '/v1/publications': listPublications,
  '/v1/solvency/sample': getSolvencySample,
  '/v1/rates/sample': getRatesSample,
  '/v1/syndicates/sample': getSyndicatesSample,
  '/v1/solvency': getSolvency,
  '/v1/enforcement': listEnforcementActions,
  '/v1/rates': listRateFilings,
  '/v1/rates/activity': getRateActivity,
  '/v1/syndicates': getSyndicate,
  '/v1/eligibility': getEligibility,
  '/v1/bulk/premium.csv': getBulkPremiumCsv,
  '/v1/bulk/premium.parquet': getBulkPremiumParquet,
  '/v1/bulk/datapackage.json': getBulkDatapackage,
};

/** Every other path under /v1. */
export const UNKNOWN_ROUTE: Handler = getUnknown(Object.keys(HANDLERS));
