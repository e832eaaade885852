// GET /v1/compare (0.50 USD): the same series for 1 to 15 states, keyed by state.
import { compareParams } from '../../domain/contract.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { compareCsv, prepareCompare } from '../queries/compare.ts';

export const compare = pricedOperation('/v1/compare', compareParams, prepareCompare, compareCsv);
export const compareStates = pricedRoute(compare);
