// GET /v1/premium/sample (free): the latest 13 monthly statewide all-lines rows, precomputed by the ingest as
// JSON and as CSV.
import { sampleParams } from '../../domain/contract.ts';
import { csvFileName } from '../../domain/csv-answer.ts';
import { freeRoute, freeStateBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const sample = freeOperation(
  '/v1/premium/sample',
  sampleParams,
  ({ state }) => freeStateBody('sample', state),
  ({ state }) => ({ text: freeStateBody('sample', state, 'csv'), fileName: csvFileName('premium-sample', state) }),
);
export const getSample = freeRoute(sample);
