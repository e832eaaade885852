// get_premium_sample (free): the latest 13 monthly statewide rows. REST twin: GET /v1/premium/sample.
import { sample } from '../../routes/get-sample.ts';
import { toolOf } from '../tool.ts';

export const getPremiumSample = toolOf(sample);
