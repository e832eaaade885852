// get_solvency_sample (free): the dataset's sample summary. REST twin: GET /v1/solvency/sample.
import { solvencySample } from '../../routes/get-solvency-sample.ts';
import { toolOf } from '../tool.ts';

export const getSolvencySample = toolOf(solvencySample);
