// get_rates_sample (free): the dataset's sample summary. REST twin: GET /v1/rates/sample.
import { ratesSample } from '../../routes/get-rates-sample.ts';
import { toolOf } from '../tool.ts';

export const getRatesSample = toolOf(ratesSample);
