// list_rate_filings (0.10 USD). REST twin: GET /v1/rates.
import { rates } from '../../routes/list-rate-filings.ts';
import { toolOf } from '../tool.ts';

export const listRateFilings = toolOf(rates);
