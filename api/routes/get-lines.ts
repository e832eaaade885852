// GET /v1/lines?state=XX (free): a state's coverage-line taxonomy, ordered by source_code.
import { linesParams } from '../../domain/contract.ts';
import { freeRoute, freeStateBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const lines = freeOperation('/v1/lines', linesParams, ({ state }) => freeStateBody('lines', state));
export const getLines = freeRoute(lines);
