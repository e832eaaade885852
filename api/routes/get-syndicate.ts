// GET /v1/syndicates (0.10 USD): a Lloyd's syndicate's forecasts and eligibility, or a managing agent's syndicates.
import { syndicatesParams } from '../../domain/contract-datasets.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareSyndicates } from '../queries/datasets.ts';

export const syndicates = pricedOperation('/v1/syndicates', syndicatesParams, prepareSyndicates);
export const getSyndicate = pricedRoute(syndicates);
