// GET /v1/premium (0.10 USD): a state's premium and policy-count series, by line, county, range,
// granularity and as-of date.
import { premiumParams } from '../contract.ts';
import { parseQuery, pricedJson, route } from '../http.ts';
import { premiumQuery } from '../queries/premium.ts';

export const getPremium = route((request, url) => pricedJson(premiumQuery(parseQuery(url, premiumParams)), request.method));
