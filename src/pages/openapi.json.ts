import type { APIRoute } from 'astro';
import { openApiDocument } from '../../api/openapi.ts';

export const prerender = true;
export const GET: APIRoute = () =>
  new Response(JSON.stringify(openApiDocument(), null, 2) + '\n', {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
