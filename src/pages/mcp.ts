// The MCP server, on demand: this is what puts /mcp in the server build and in Vercel's routes to the
// function. server.ts and src/fetch.ts hand /mcp to the same handler before Astro's router sees it; this
// endpoint answers a request that reaches the router anyway (e.g. /mcp/). Through api/mcp/lazy-handler.ts, which
// loads the MCP server on first use.
import type { APIRoute } from 'astro';
import { handleMcp } from '../../api/mcp/lazy-handler.ts';

export const prerender = false;
export const ALL: APIRoute = ({ request }) => handleMcp(request);
