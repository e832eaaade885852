// list_publications (free): the publications behind the figures and their report dates, a state's or every state's (since: the new ones). REST twin: GET /v1/publications.
import { publications } from '../../routes/list-publications.ts';
import { toolOf } from '../tool.ts';

export const listPublications = toolOf(publications);
