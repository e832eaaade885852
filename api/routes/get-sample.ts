// GET /v1/premium/sample (free): the latest 13 monthly statewide all-lines rows, precomputed by the ingest.
import { sampleParams } from '../../domain/contract.ts';
import { freeJson, freeStateBody, parseQuery, route } from '../http.ts';

export const getSample = route((_request, url) => freeJson(freeStateBody('sample', parseQuery(url, sampleParams).state)));
