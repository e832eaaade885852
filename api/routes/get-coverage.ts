// GET /v1/coverage (free): which states, period types and date ranges exist. Takes no parameters
// and ignores any query string (DECISIONS.md §4).
import { freeRoute, requiredFreeBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const coverage = freeOperation('/v1/coverage', null, () => requiredFreeBody('coverage.json'));
export const getCoverage = freeRoute(coverage);
