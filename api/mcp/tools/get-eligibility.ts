// get_eligibility (0.10 USD). REST twin: GET /v1/eligibility.
import { eligibility } from '../../routes/get-eligibility.ts';
import { toolOf } from '../tool.ts';

export const getEligibility = toolOf(eligibility);
