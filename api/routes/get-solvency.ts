// GET /v1/solvency (0.10 USD): a carrier's receiverships and enforcement actions, by normalized name.
import { solvencyParams } from '../../domain/contract-datasets.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareSolvency } from '../queries/datasets.ts';

export const solvency = pricedOperation('/v1/solvency', solvencyParams, prepareSolvency);
export const getSolvency = pricedRoute(solvency);
