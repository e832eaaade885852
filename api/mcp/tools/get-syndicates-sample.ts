// get_syndicates_sample (free): the dataset's sample summary. REST twin: GET /v1/syndicates/sample.
import { syndicatesSample } from '../../routes/get-syndicates-sample.ts';
import { toolOf } from '../tool.ts';

export const getSyndicatesSample = toolOf(syndicatesSample);
