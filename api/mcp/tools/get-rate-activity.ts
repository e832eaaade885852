// get_rate_activity (0.10 USD). REST twin: GET /v1/rates/activity.
import { rateActivity } from '../../routes/get-rate-activity.ts';
import { toolOf } from '../tool.ts';

export const getRateActivity = toolOf(rateActivity);
