// GET /v1/premium/summary (0.10 USD): a year's statewide totals, their basis and the year-over-year change.
import { summaryParams } from '../../domain/contract.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareSummary } from '../queries/summary.ts';

export const summary = pricedOperation('/v1/premium/summary', summaryParams, prepareSummary);
export const getSummary = pricedRoute(summary);
