// get_coverage (free): which states, period types and date ranges exist, as {"coverage": [...]}. REST twin: GET /v1/coverage.
import { coverage } from '../../routes/get-coverage.ts';
import { toolOf } from '../tool.ts';

export const getCoverage = toolOf(coverage);
