// GET /v1/insurers (0.10 USD): an insurer ranking as published, for a state or US and a month, half-year or year.
import { insurersParams } from '../../domain/contract.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { insurersCsvAnswer, prepareInsurers } from '../queries/insurers.ts';

export const insurers = pricedOperation('/v1/insurers', insurersParams, prepareInsurers, insurersCsvAnswer);
export const getInsurers = pricedRoute(insurers);
