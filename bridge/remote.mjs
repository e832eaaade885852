// @ts-check
// The remote MCP server (the service's /mcp), through the v2 SDK's own client over streamable HTTP: connected on
// first use and again after a failure, so a bridge started while the service is unreachable serves once it is back.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/**
 * @typedef {import('@modelcontextprotocol/client').Tool} Tool
 * @typedef {import('@modelcontextprotocol/client').CallToolResult} CallToolResult
 */

/**
 * @param {URL} url
 * @param {string} version the bridge's version, told to the server
 */
export function remoteServer(url, version) {
  /** @type {Promise<Client> | undefined} */
  let connected;
  const connect = () =>
    (connected ??= (async () => {
      const client = new Client({ name: 'surplus-lines-mcp', version });
      await client.connect(new StreamableHTTPClientTransport(url));
      return client;
    })().catch((e) => {
      connected = undefined;
      throw e;
    }));

  return {
    url,
    /** Every tool the remote lists, in its order. @returns {Promise<Tool[]>} */
    async tools() {
      const client = await connect();
      /** @type {Tool[]} */
      const tools = [];
      let cursor;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      return tools;
    },
    /**
     * @param {string} name
     * @param {Record<string, unknown>} args
     * @param {Record<string, unknown>} [meta] the call's `_meta` (a payment)
     * @returns {Promise<CallToolResult>}
     */
    async call(name, args, meta) {
      const client = await connect();
      return /** @type {Promise<CallToolResult>} */ (
        client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })
      );
    },
  };
}

/** @typedef {ReturnType<typeof remoteServer>} RemoteServer */
