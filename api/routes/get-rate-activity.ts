// GET /v1/rates/activity (0.10 USD): the cross-state rate-activity index.
import { rateActivityParams } from '../../domain/contract-datasets.ts';
import { pricedOperation } from '../operations.ts';
import { pricedRoute } from '../priced.ts';
import { prepareRateActivity } from '../queries/datasets.ts';

export const rateActivity = pricedOperation('/v1/rates/activity', rateActivityParams, prepareRateActivity);
export const getRateActivity = pricedRoute(rateActivity);
