// POST /mcp: the MCP server (streamable HTTP, stateless, JSON answers), a Web Request in and a Response
// out, as the Node server (server.ts) and Vercel (src/fetch.ts, src/pages/mcp.ts) hand it. Each request
// gets its own server and transport, as the SDK requires without sessions; the tools are made once.
// GET (and any other method) answers 405: a stateless server has no stream to open, and a GET the
// transport accepted would hold an empty event stream open for every client.
// Given a fast path (api/mcp/fast.ts; the Node server passes its own), tools/list and tool calls that can
// only be answered one way are answered from the SDK's own answer kept from before, their id put in.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ROUTE_CONTRACTS } from '../../domain/contract.ts';
import { echo } from '../../domain/echo.ts';
import { configuredGate } from '../payment/configured.ts';
import { McpFastPath } from './fast.ts';
import { TOOLS } from './tools/index.ts';

// The path and the loopback rule live in ./endpoint.ts, the light module the entries import (cold start, issue 22).
import { MCP_PATH, isLoopbackName } from './endpoint.ts';

export { MCP_PATH, isLoopbackName };

/** A tools/call request, a payment included, is a few kilobytes: more is refused (413) unread. */
export const MAX_BODY_BYTES = 64 * 1024;

const INSTRUCTIONS =
  'U.S. surplus lines market figures (premium, policy counts, growth) as state stamping offices published them, each answer citing its publications. ' +
  'Start with get_coverage (which states and periods exist), then list_lines or get_premium_sample. ' +
  'Priced tools cost what their REST twin costs; with the payment gate on, an unpaid call returns the x402 PaymentRequired terms as a tool error, and the payment goes in the call\'s _meta["x402/payment"] (x402 MCP transport, version 2).';

const DEFINITIONS = TOOLS.map((t) => t.definition);

/**
 * The most the tools/list answer may weigh, as sent (the JSON-RPC response body): every agent session
 * loads it before its first call (issue 21). `npm run size:mcp` prints it; tests/mcp/in-process.test.ts holds it.
 */
export const TOOLS_LIST_MAX_BYTES = 24_000;
const BY_NAME = new Map(TOOLS.map((t) => [t.definition.name, t]));

// One validator for every request's server: by default each Server builds its own Ajv instance, which
// was a third of a tool call's cost (npm run bench:api). This server validates no client-side schema
// (no elicitation), so it holds nothing per request.
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

function mcpServer(): Server {
  const server = new Server(
    { name: 'surplus-lines-market-data', title: 'Surplus Lines Market Data', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: SCHEMA_VALIDATOR },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: DEFINITIONS }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = BY_NAME.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${echo(request.params.name)}: the tools are ${[...BY_NAME.keys()].join(', ')} (tools/list)`);
    return tool.call(request.params.arguments, request.params._meta);
  });
  return server;
}

/** CORS on every answer, so browser-based MCP clients can call the server. */
const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version',
  'Cache-Control': 'no-store',
};

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': 'POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
      'Access-Control-Max-Age': '86400',
    },
  });
}

function methodNotAllowed(method: string): Response {
  const body = { jsonrpc: '2.0', error: { code: -32000, message: `method ${echo(method)} is not allowed on ${MCP_PATH}: this MCP server is stateless; send JSON-RPC messages with POST` }, id: null };
  return new Response(JSON.stringify(body), { status: 405, headers: { ...CORS_HEADERS, 'Content-Type': 'application/json', Allow: 'POST, OPTIONS' } });
}

function loopbackUrl(text: string): boolean {
  try {
    return isLoopbackName(new URL(text).hostname);
  } catch {
    return false;
  }
}

/** True when Host (and Origin, if any) name a loopback address: what a server listening on one answers. */
export function namesLoopback(host: string | null | undefined, origin: string | null | undefined): boolean {
  return host !== null && host !== undefined && loopbackUrl(`http://${host}/`) && (origin === null || origin === undefined || loopbackUrl(origin));
}

/**
 * DNS rebinding: a server listening on a loopback address answers only requests that name it so, in
 * Host and (when a browser sends one) Origin; a web page whose domain was rebound to 127.0.0.1 is refused.
 */
function rebound(request: Request): Response | null {
  if (namesLoopback(request.headers.get('host'), request.headers.get('origin'))) return null;
  const body = { jsonrpc: '2.0', error: { code: -32000, message: 'forbidden: this MCP server listens on a loopback address and answers only requests whose Host (and Origin, if any) name localhost, 127.0.0.1 or [::1]' }, id: null };
  return new Response(JSON.stringify(body), { status: 403, headers: { ...CORS_HEADERS, 'Content-Type': 'application/json' } });
}

export interface McpOptions {
  /** The server listens on a loopback address (the Node server's default, 127.0.0.1): refuse other Host and Origin names. */
  loopbackOnly?: boolean;
  /**
   * Answers kept from the SDK, for the requests that can only be answered one way (see api/mcp/fast.ts):
   * given by a server whose shards do not change while it runs (server.ts); without it, the SDK answers every request.
   */
  fast?: McpFastPath;
}

const PRICED = new Set(ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => r.operationId));

/** The configured gate's promise last seen settled, and whether it was off: known at once until installGate replaces it. */
let gateSeen: ReturnType<typeof configuredGate> | undefined;
let gateWasOff = false;

/** Whether the payment gate is off: at once when the configured gate is the one last seen, else once it is known. */
function gateOff(): boolean | Promise<boolean> {
  const gate = configuredGate();
  if (gate === gateSeen) return gateWasOff;
  return gate.then((g) => {
    gateSeen = gate;
    gateWasOff = g === null;
    return gateWasOff;
  });
}

/** A fast path for handleMcp (and server.ts), keeping up to `maxBytes` of answers (64 MiB by default). */
export const mcpFastPath = (maxBytes = 64 * 2 ** 20): McpFastPath =>
  new McpFastPath({
    sdk: sdkAnswer,
    tools: new Map([...BY_NAME.keys()].map((name) => [name, { priced: PRICED.has(name) }])),
    gateOff,
    maxBytes,
  });

export async function handleMcp(request: Request, options: McpOptions = {}): Promise<Response> {
  const refused = options.loopbackOnly ? rebound(request) : null;
  if (refused) return refused;
  if (request.method === 'OPTIONS') return preflight();
  if (request.method !== 'POST') return methodNotAllowed(request.method);
  // A body declared too large is left to the SDK (413, unread); any other is read here, up to just past the limit.
  if (!options.fast || !request.body || Number(request.headers.get('content-length')) > MAX_BODY_BYTES) return sdkAnswer(request);
  const { bytes, whole } = await readUpTo(request.body, MAX_BODY_BYTES);
  // The request as it came, its body the bytes read (past the limit, the SDK still refuses it: 413).
  const again = () => new Request(request.url, { method: 'POST', headers: request.headers, body: bytes });
  const fast = whole ? options.fast.answer(bytes, (name) => request.headers.get(name), again) : null;
  if (!fast) return sdkAnswer(again());
  const { status, headers, parts } = await fast;
  return new Response(Buffer.concat(parts), { status, headers });
}

/** A body's bytes, read until its end or until more than `limit` have come (then `whole` is false). */
async function readUpTo(body: ReadableStream<Uint8Array>, limit: number): Promise<{ bytes: Uint8Array<ArrayBuffer>; whole: boolean }> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, received), whole: true };
      chunks.push(value);
      received += value.byteLength;
      if (received > limit) return { bytes: Buffer.concat(chunks, received), whole: false };
    }
  } finally {
    reader.releaseLock();
  }
}

/** The SDK's answer to a POST (after the loopback rule): a server and a transport made for it, its answer with CORS. */
async function sdkAnswer(request: Request): Promise<Response> {
  const server = mcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: MAX_BODY_BYTES });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
    // The body is complete (JSON answers): read it before the server closes.
    const body = response.body ? await response.arrayBuffer() : null;
    return new Response(body, { status: response.status, headers });
  } finally {
    await server.close();
  }
}
