import type { APIRoute } from 'astro';
import { getSample } from '../../../../api/routes/get-sample.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getSample(request);
