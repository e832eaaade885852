import type { APIRoute } from 'astro';
import { compareStates } from '../../../api/routes/compare-states.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => compareStates(request);
