// What an MCP 2026-07-28 request carries beyond a 2025 one, from the revision's specification (basic/index and
// basic/transports/streamable-http): its envelope in `params._meta`, and headers that repeat its body. Shared by
// the MCP tests and bench/api.ts.

export const MCP_2026 = '2026-07-28';

/** The envelope: the request's protocol version, the client's capabilities (none) and its identity. */
export const envelopeOf = (client: string) => ({
  'io.modelcontextprotocol/protocolVersion': MCP_2026,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: client, version: '1.0.0' },
});

/** The headers the body implies: the version, the method and, for a tool call (a string `params.name`), the tool. */
export const headersOf = (method: string, params?: Record<string, unknown>): Record<string, string> => ({
  'MCP-Protocol-Version': MCP_2026,
  'Mcp-Method': method,
  ...(typeof params?.name === 'string' ? { 'Mcp-Name': params.name } : {}),
});
