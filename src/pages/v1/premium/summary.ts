import type { APIRoute } from 'astro';
import { getSummary } from '../../../../api/routes/get-summary.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getSummary(request);
