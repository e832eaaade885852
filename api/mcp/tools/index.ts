// Every MCP tool, in the order tools/list gives them: discovery first, then the priced queries.
import type { Tool } from '../tool.ts';
import { compareStates } from './compare-states.ts';
import { getCoverage } from './get-coverage.ts';
import { getPremiumSample } from './get-premium-sample.ts';
import { getPremium } from './get-premium.ts';
import { getSummary } from './get-summary.ts';
import { getTopInsurers } from './get-top-insurers.ts';
import { listLines } from './list-lines.ts';
import { listPublications } from './list-publications.ts';
import { getRatesSample } from './get-rates-sample.ts';
import { getSolvencySample } from './get-solvency-sample.ts';
import { getSyndicatesSample } from './get-syndicates-sample.ts';
import { getEligibility } from './get-eligibility.ts';
import { getRateActivity } from './get-rate-activity.ts';
import { getSolvency } from './get-solvency.ts';
import { getSyndicate } from './get-syndicate.ts';
import { listEnforcementActions } from './list-enforcement-actions.ts';
import { listRateFilings } from './list-rate-filings.ts';

export const TOOLS: readonly Tool[] = [
  getCoverage,
  listLines,
  listPublications,
  getPremiumSample,
  getSolvencySample,
  getRatesSample,
  getSyndicatesSample,
  getPremium,
  getSummary,
  compareStates,
  getTopInsurers,
  getSolvency,
  listEnforcementActions,
  listRateFilings,
  getRateActivity,
  getSyndicate,
  getEligibility,
];
