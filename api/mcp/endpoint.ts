// The way into the MCP server, light enough to import at start: handleMcp, which loads the server itself
// (api/mcp/handle-mcp.ts: the MCP SDK, the tools and their schemas) on the first request for /mcp (issue 22,
// cold start). The Node server (server.ts) and Vercel's entry (src/fetch.ts, src/pages/mcp.ts) import this
// module, never handle-mcp.ts, so a process that serves no MCP request never loads the SDK. One way: this
// entry → the handler → the tools; the path is api/paths.ts's, the loopback rule ./loopback.ts's.
import type { McpOptions } from './handle-mcp.ts';

export type { McpOptions };

let loaded: typeof import('./handle-mcp.ts') | undefined;

/** Answers an MCP request (see api/mcp/handle-mcp.ts), loading the MCP server on the first one. */
export function handleMcp(request: Request, options?: McpOptions): Promise<Response> {
  if (loaded) return loaded.handleMcp(request, options);
  return import('./handle-mcp.ts').then((server) => (loaded = server).handleMcp(request, options));
}
