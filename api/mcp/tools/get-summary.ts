// get_summary (0.10 USD): a year's statewide totals and year-over-year change. REST twin: GET /v1/premium/summary.
import { summary } from '../../routes/get-summary.ts';
import { toolOf } from '../tool.ts';

export const getSummary = toolOf(summary);
