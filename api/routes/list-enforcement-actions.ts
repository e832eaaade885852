// GET /v1/enforcement (0.10 USD): the enforcement action ledger, filtered.
import { enforcementParams } from '../../domain/contract-datasets.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareEnforcement } from '../queries/datasets.ts';

export const enforcement = pricedOperation('/v1/enforcement', enforcementParams, prepareEnforcement);
export const listEnforcementActions = pricedRoute(enforcement);
