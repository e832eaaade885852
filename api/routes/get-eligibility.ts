// GET /v1/eligibility (0.10 USD): eligibility list entries by syndicate number or insurer name.
import { eligibilityParams } from '../../domain/contract-datasets.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareEligibility } from '../queries/datasets.ts';

export const eligibility = pricedOperation('/v1/eligibility', eligibilityParams, prepareEligibility);
export const getEligibility = pricedRoute(eligibility);
