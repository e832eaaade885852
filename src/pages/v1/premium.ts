import type { APIRoute } from 'astro';
import { getPremium } from '../../../api/routes/get-premium.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => getPremium(request);
