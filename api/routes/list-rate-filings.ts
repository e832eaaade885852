// GET /v1/rates (0.10 USD): admitted-market rate filings, filtered.
import { ratesParams } from '../../domain/contract-datasets.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareRates } from '../queries/datasets.ts';

export const rates = pricedOperation('/v1/rates', ratesParams, prepareRates);
export const listRateFilings = pricedRoute(rates);
