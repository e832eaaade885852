// GET /v1/compare (0.50 USD): the same series for 1 to 15 states, keyed by state.
import { compareParams } from '../contract.ts';
import { parseQuery, pricedJson, route } from '../http.ts';
import { compareQuery } from '../queries/compare.ts';

export const compareStates = route((request, url) => pricedJson(compareQuery(parseQuery(url, compareParams)), request.method));
