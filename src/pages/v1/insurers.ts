import type { APIRoute } from 'astro';
import { getInsurers } from '../../../api/routes/get-insurers.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getInsurers(request);
