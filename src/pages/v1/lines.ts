import type { APIRoute } from 'astro';
import { getLines } from '../../../api/routes/get-lines.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getLines(request);
