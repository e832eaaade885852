// get_premium (0.10 USD): a state's premium and policy-count series. REST twin: GET /v1/premium.
import { premium } from '../../routes/get-premium.ts';
import { toolOf } from '../tool.ts';

export const getPremium = toolOf(premium);
