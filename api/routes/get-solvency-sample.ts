// GET /v1/solvency/sample (free): the precomputed sample summary of the dataset (SPEC.md, "Free sample
// summary"). Takes no parameters and ignores any query string, like /v1/coverage.
import { freeRoute, requiredFreeBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const solvencySample = freeOperation('/v1/solvency/sample', null, () => requiredFreeBody('solvency-sample.json'));
export const getSolvencySample = freeRoute(solvencySample);
