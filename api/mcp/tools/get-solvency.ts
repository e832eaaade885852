// get_solvency (0.10 USD). REST twin: GET /v1/solvency.
import { solvency } from '../../routes/get-solvency.ts';
import { toolOf } from '../tool.ts';

export const getSolvency = toolOf(solvency);
