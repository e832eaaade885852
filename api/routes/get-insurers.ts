// GET /v1/insurers (0.10 USD): the published insurer list of a state for a month or year, ranked by premium.
import { insurersParams } from '../contract.ts';
import { parseQuery, pricedJson, route } from '../http.ts';
import { insurersQuery } from '../queries/insurers.ts';

export const getInsurers = route((request, url) => pricedJson(insurersQuery(parseQuery(url, insurersParams)), request.method));
