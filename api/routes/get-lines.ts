// GET /v1/lines?state=XX (free): a state's coverage-line taxonomy, ordered by source_code.
import { linesParams } from '../../domain/contract.ts';
import { freeJson, freeStateBody, parseQuery, route } from '../http.ts';

export const getLines = route((_request, url) => freeJson(freeStateBody('lines', parseQuery(url, linesParams).state)));
