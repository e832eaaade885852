// Every path under /v1, on demand: this is what puts the API in the server build and in Vercel's routes
// to the function. src/fetch.ts hands these requests to the same dispatcher before Astro's router sees
// them; this endpoint answers only a request that reaches the router anyway.
import type { APIRoute } from 'astro';
import { dispatch } from '../../../api/dispatch.ts';
import { responseOf } from '../../../api/wire-answer.ts';

export const prerender = false;
export const ALL: APIRoute = async ({ request }) => responseOf(await dispatch(request));
