// GET /v1/bulk/datapackage.json (free): the bulk files described as a Frictionless Data Package, written by
// the ingest beside them (ingest/datapackage.ts). Takes no parameters and ignores any query string.
import { freeRoute, requiredFreeBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const bulkDatapackage = freeOperation('/v1/bulk/datapackage.json', null, () => requiredFreeBody('bulk/datapackage.json'));
export const getBulkDatapackage = freeRoute(bulkDatapackage);
