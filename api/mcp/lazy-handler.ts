// The way into the MCP server, light enough to import at start: handleMcp and mcpAnswer, which load the server
// itself (api/mcp/handle-mcp.ts: the MCP SDK, the tools and their schemas) on the first request for /mcp, so a
// cold start that serves REST only never pays for it. The Node server (server/mcp-front.ts) and Vercel's entry
// (src/fetch.ts, src/pages/mcp.ts) import this module, never handle-mcp.ts, so a process that serves no MCP request
// never loads the SDK. One way: this entry → the handler → the tools; the path is api/paths.ts's, the loopback rule
// ./loopback.ts's.
import type { WireAnswer } from '../wire-answer.ts';
import type { McpOptions } from './handle-mcp.ts';

export type { McpOptions };

let loaded: typeof import('./handle-mcp.ts') | undefined;
const load = async () => (loaded ??= await import('./handle-mcp.ts'));

/** Answers an MCP request as a Web Response (see api/mcp/handle-mcp.ts), loading the MCP server on the first one. */
export function handleMcp(request: Request, options?: McpOptions): Promise<Response> {
  if (loaded) return loaded.handleMcp(request, options);
  return load().then((server) => server.handleMcp(request, options));
}

/** The same answer as bytes, for the Node server to write as they are. */
export function mcpAnswer(request: Request, options?: McpOptions): Promise<WireAnswer> {
  if (loaded) return loaded.mcpAnswer(request, options);
  return load().then((server) => server.mcpAnswer(request, options));
}
