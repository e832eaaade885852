// GET /v1/coverage (free): which states, period types and date ranges exist. Takes no parameters
// and ignores any query string (DECISIONS.md §4).
import { freeJson, requiredFreeBody, route } from '../http.ts';

export const getCoverage = route(() => freeJson(requiredFreeBody('coverage.json')));
