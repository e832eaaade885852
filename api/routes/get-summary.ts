// GET /v1/premium/summary (0.10 USD): a year's statewide totals, their basis and the year-over-year change.
import { summaryParams } from '../contract.ts';
import { parseQuery, pricedJson, route } from '../http.ts';
import { summaryQuery } from '../queries/summary.ts';

export const getSummary = route((request, url) => pricedJson(summaryQuery(parseQuery(url, summaryParams)), request.method));
