// Every operation of the API, once: the dispatcher makes each one's HTTP handler (api/dispatch.ts) and the MCP
// server each one's tool (api/mcp/handle-mcp.ts), in this order, the order of tools/list: discovery first, then
// the priced queries; the downloads have no tool.
import { bulkCsv, bulkParquet } from './queries/bulk.ts';
import { compare } from './queries/compare.ts';
import {
  eligibility,
  enforcement,
  rateActivity,
  rates,
  ratesSample,
  solvency,
  solvencySample,
  syndicates,
  syndicatesSample,
} from './queries/datasets.ts';
import { coverage, datapackage, lines, sample } from './queries/discovery.ts';
import { insurers } from './queries/insurers.ts';
import { premium } from './queries/premium.ts';
import { publications } from './queries/publications.ts';
import { summary } from './queries/summary.ts';
import type { Operation } from './operation.ts';

export const OPERATIONS: readonly Operation[] = [
  coverage,
  lines,
  publications,
  sample,
  solvencySample,
  ratesSample,
  syndicatesSample,
  premium,
  summary,
  compare,
  insurers,
  solvency,
  enforcement,
  rates,
  rateActivity,
  syndicates,
  eligibility,
  bulkCsv,
  bulkParquet,
  datapackage,
];
