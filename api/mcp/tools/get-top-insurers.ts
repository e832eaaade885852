// get_top_insurers (0.10 USD): a state's published insurer ranking for a month or year. REST twin: GET /v1/insurers.
import { insurers } from '../../routes/get-insurers.ts';
import { toolOf } from '../tool.ts';

export const getTopInsurers = toolOf(insurers);
