// GET /v1/premium/summary (0.10 USD): a year's statewide totals, their basis and the year-over-year change.
import { summaryParams } from '../../domain/contract.ts';
import { pricedRoute } from '../priced.ts';
import { prepareSummary } from '../queries/summary.ts';

export const getSummary = pricedRoute('/v1/premium/summary', summaryParams, prepareSummary);
