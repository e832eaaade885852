// How long an MCP 2026-07-28 client may keep `tools/list` and `server/discover` (their cache hints), said once for
// the server (./handle-mcp.ts) and /llms.txt (api/llms.ts), which must not load the SDK to say it.

/**
 * The tools change only with a new deployment, never while one runs, and the same list goes to every caller
 * (public). A day: a deployment reaches every cache within one, and no client need ask more than once a day.
 */
export const LIST_CACHE_HINT = { ttlMs: 24 * 60 * 60 * 1000, cacheScope: 'public' } as const;
