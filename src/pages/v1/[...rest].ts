import type { APIRoute } from 'astro';
import { getUnknown } from '../../../api/routes/get-unknown.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getUnknown(request);
