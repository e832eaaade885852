// GET /v1/rates/sample (free): the precomputed sample summary of the dataset (SPEC.md, "Free sample
// summary"). Takes no parameters and ignores any query string, like /v1/coverage.
import { freeRoute, requiredFreeBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const ratesSample = freeOperation('/v1/rates/sample', null, () => requiredFreeBody('rates-sample.json'));
export const getRatesSample = freeRoute(ratesSample);
