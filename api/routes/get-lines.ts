// GET /v1/lines?state=XX (free): a state's coverage-line taxonomy, ordered by source_code.
import { linesParams } from '../contract.ts';
import { HttpError, freeJson, parseQuery, route } from '../http.ts';
import { freeBody } from '../store.ts';

export const getLines = route((request, url) => {
  const { state } = parseQuery(url, linesParams);
  const body = freeBody(`lines/${state}.json`);
  if (!body) throw new HttpError(404, `unknown state '${state}': see /v1/coverage for the states served`);
  return freeJson(body, request.method);
});
