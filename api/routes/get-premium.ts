// GET /v1/premium (0.10 USD): a state's premium and policy-count series, by line, county, range,
// granularity and as-of date.
import { premiumParams } from '../../domain/contract.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { preparePremium, premiumCsv } from '../queries/premium.ts';

export const premium = pricedOperation('/v1/premium', premiumParams, preparePremium, premiumCsv);
export const getPremium = pricedRoute(premium);
