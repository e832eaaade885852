// GET /v1/insurers (0.10 USD): the published insurer list of a state for a month or year, ranked by premium.
import { insurersParams } from '../../domain/contract.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareInsurers } from '../queries/insurers.ts';

export const insurers = pricedOperation('/v1/insurers', insurersParams, prepareInsurers);
export const getInsurers = pricedRoute(insurers);
