// GET /v1/publications?state=XX (free): the publications behind a state's figures and their report
// dates (the vintages report_date pins), precomputed by the ingest.
import { publicationsParams } from '../../domain/contract.ts';
import { freeRoute, freeStateBody } from '../http.ts';
import { freeOperation } from '../operations.ts';

export const publications = freeOperation('/v1/publications', publicationsParams, ({ state }) => freeStateBody('publications', state));
export const listPublications = freeRoute(publications);
