// list_publications (free): the publications behind a state's figures and their report dates. REST twin: GET /v1/publications.
import { publications } from '../../routes/list-publications.ts';
import { toolOf } from '../tool.ts';

export const listPublications = toolOf(publications);
