// GET /v1/coverage (free): which states, period types and date ranges exist. Takes no parameters
// and ignores any query string (DECISIONS.md §4).
import { freeJson, route } from '../http.ts';
import { freeBody } from '../store.ts';

export const getCoverage = route((request) => {
  const body = freeBody('coverage.json');
  if (!body) throw new Error('coverage shard missing: run the ingest');
  return freeJson(body, request.method);
});
