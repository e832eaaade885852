// GET /v1/publications (free): the publications behind the figures and their report dates (the vintages
// report_date pins): a state's, or every state's newest first, as precomputed by the ingest; `since` cuts
// either to what was published on or after a date.
import { publicationsParams } from '../../domain/contract.ts';
import { freeRoute } from '../http.ts';
import { freeOperation } from '../operations.ts';
import { publicationsBody } from '../queries/publications.ts';

export const publications = freeOperation('/v1/publications', publicationsParams, publicationsBody);
export const listPublications = freeRoute(publications);
