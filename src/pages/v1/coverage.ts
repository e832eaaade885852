import type { APIRoute } from 'astro';
import { getCoverage } from '../../../api/routes/get-coverage.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getCoverage(request);
