// get_syndicate (0.10 USD). REST twin: GET /v1/syndicates.
import { syndicates } from '../../routes/get-syndicate.ts';
import { toolOf } from '../tool.ts';

export const getSyndicate = toolOf(syndicates);
