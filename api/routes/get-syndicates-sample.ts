// GET /v1/syndicates/sample (free): the precomputed sample summary of the dataset (SPEC.md, "Free sample
// summary"). Takes no parameters and ignores any query string, like /v1/coverage.
import { freeRoute, requiredFreeBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const syndicatesSample = freeOperation('/v1/syndicates/sample', null, () => requiredFreeBody('syndicates-sample.json'));
export const getSyndicatesSample = freeRoute(syndicatesSample);
