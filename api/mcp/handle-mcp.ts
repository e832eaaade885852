// POST /mcp: the MCP server (streamable HTTP, stateless, JSON answers), a Web Request in and its answer out: as
// bytes for the Node server (mcpAnswer, server/mcp-front.ts), as a Response for Vercel (handleMcp, src/fetch.ts,
// src/pages/mcp.ts) (docs/design.md §8).
// Two eras on the one endpoint, on the v2 SDK (@modelcontextprotocol/server):
// - MCP 2026-07-28 (a request whose `_meta` carries its protocol version): the SDK's own handler, which checks
//   the envelope and the Mcp-Method / Mcp-Name / MCP-Protocol-Version headers against the body, answers
//   `server/discover`, and stamps every result (`resultType`, the server's identity, the list's cache hints);
// - the 2025 revisions (initialize, then requests naming their version in MCP-Protocol-Version; 2025-03-26 naming
//   none): the SDK's streamable HTTP transport, stateless, answering JSON (the SDK's own fallback answers an event
//   stream, which every 2025 client reads but costs a client that posts and parses JSON).
// Each request gets its own server, as the SDK requires without sessions; the tools are made once.
// GET (and any other method) answers 405: a stateless server has no stream to open.
// The Node server drives a fast path (api/mcp/fast.ts) through postAnswer: tools/list and tool calls that can
// only be answered one way are answered from the SDK's own answer kept from before, their id put in.
import {
  Server,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { echo } from '../../domain/echo.ts';
import { MCP_PATH } from '../paths.ts';
import { configuredGate } from '../payment/configured.ts';
import { type HeaderOf, McpFastPath } from './fast.ts';
import { type WireAnswer, responseOf, wireAnswer } from '../wire-answer.ts';
import { LIST_CACHE_HINT } from './list-cache.ts';
import { namesLoopback } from './loopback.ts';
import { OPERATIONS } from '../operation-list.ts';
import { toolOf } from './tool.ts';

/** A tools/call request, a payment included, is a few kilobytes: more is refused (413) unread. */
export const MAX_BODY_BYTES = 64 * 1024;

const INSTRUCTIONS =
  'U.S. surplus lines market figures (premium, policy counts, growth) as state stamping offices ' +
  'published them, each answer citing its publications. ' +
  'Start with get_coverage (which states and periods exist), then list_lines or get_premium_sample. ' +
  ('Priced tools cost what their REST twin costs; with the payment gate on, an unpaid call returns ' +
    "the x402 PaymentRequired terms as a tool error, and the payment goes in the call's " +
    '_meta["x402/payment"] (x402 MCP transport, version 2).');

/** The tool of every operation whose route has one (TOOL_ROUTES: all but the downloads), made once. */
const TOOLS = OPERATIONS.filter((operation) => TOOL_ROUTES.includes(operation.contract)).map(toolOf);

/**
 * The tools in one fixed order, the same on every list (MCP 2026-07-28 asks it; clients and prompt caches key on it).
 */
const DEFINITIONS = TOOLS.map((t) => t.definition);

/**
 * The most the tools/list answer may weigh, as sent (the JSON-RPC response body): every agent session
 * loads it before its first call, and pays for it in tokens. `npm run size:mcp` prints it;
 * tests/mcp/in-process.test.ts holds it.
 */
export const TOOLS_LIST_MAX_BYTES = 24_000;
const BY_NAME = new Map(TOOLS.map((t) => [t.definition.name, t]));

/**
 * A server for one request. The low-level Server: the tools' JSON Schemas go out as they are made (api/mcp/tool.ts),
 * and a call's arguments are checked by the route's own zod schema, with the route's messages. Its Ajv is built
 * only for elicitation, which this server never asks, so nothing is compiled per request.
 */
function mcpServer(): Server {
  const server = new Server(
    { name: 'surplus-lines-market-data', title: 'Surplus Lines Market Data', version: '1.0.0' },
    // The hints ride beside the result, so 2025 answers never carry them.
    {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      cacheHints: { 'tools/list': LIST_CACHE_HINT, 'server/discover': LIST_CACHE_HINT },
    },
  );
  server.setRequestHandler('tools/list', () => ({ tools: DEFINITIONS }));
  server.setRequestHandler('tools/call', (request) => {
    const tool = BY_NAME.get(request.params.name);
    if (!tool)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `unknown tool ${echo(request.params.name)}: the tools are ${[...BY_NAME.keys()].join(', ')} (tools/list)`,
      );
    return tool.call(request.params.arguments, request.params._meta);
  });
  return server;
}

/**
 * The 2026-07-28 leg: the SDK's handler with its 2025 fallback off (that leg is sdkAnswer's, answering JSON).
 * A 2025 request that reaches it anyway would be refused with -32022; sdkAnswer routes each by its era first.
 */
const modern = createMcpHandler(mcpServer, { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES });

/** CORS on every answer, so browser-based MCP clients can call the server. */
const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Mcp-Protocol-Version',
  'Cache-Control': 'no-store',
};

const preflight = () =>
  wireAnswer(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Method, Mcp-Name',
    'Access-Control-Max-Age': '86400',
  });

function methodNotAllowed(method: string): WireAnswer {
  const body = {
    jsonrpc: '2.0',
    error: {
      code: -32000,
      message:
        `method ${echo(method)} is not allowed on ${MCP_PATH}: this MCP server is stateless; send ` +
        `JSON-RPC messages with POST`,
    },
    id: null,
  };
  return wireAnswer(
    405,
    { ...CORS_HEADERS, 'Content-Type': 'application/json', Allow: 'POST, OPTIONS' },
    JSON.stringify(body),
  );
}

/**
 * DNS rebinding: a server listening on a loopback address answers only requests that name it so, in
 * Host and (when a browser sends one) Origin; a web page whose domain was rebound to 127.0.0.1 is refused.
 */
export function forbiddenAnswer(): WireAnswer {
  const body = {
    jsonrpc: '2.0',
    error: {
      code: -32000,
      message:
        'forbidden: this MCP server listens on a loopback address and answers only requests whose Host ' +
        '(and Origin, if any) name localhost, 127.0.0.1 or [::1]',
    },
    id: null,
  };
  return wireAnswer(403, { ...CORS_HEADERS, 'Content-Type': 'application/json' }, JSON.stringify(body));
}

export interface McpOptions {
  /**
   * The server listens on a loopback address (the Node server's default, 127.0.0.1): refuse other Host and Origin
   * names.
   */
  loopbackOnly?: boolean;
}

const PRICED = new Set(ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => r.operationId));

/**
 * The configured gate's promise last seen settled, and whether it was off: known at once until installGate replaces it.
 */
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

/**
 * A fast path for mcpAnswer (the Node server's, server/mcp-front.ts), keeping up to `maxBytes` of answers (64 MiB by
 * default).
 */
export const mcpFastPath = (maxBytes = 64 * 2 ** 20): McpFastPath =>
  new McpFastPath({
    sdk: sdkAnswer,
    tools: new Map([...BY_NAME.keys()].map((name) => [name, { priced: PRICED.has(name) }])),
    gateOff,
    maxBytes,
    // A paid call with the gate on: the tool called as the SDK's handler below calls it.
    call: (name, args, meta) => BY_NAME.get(name)!.call(args, meta),
  });

/** The MCP server's answer to a request, as bytes (what the Node server writes; see handleMcp for a Response). */
export async function mcpAnswer(request: Request, options: McpOptions = {}): Promise<WireAnswer> {
  if (options.loopbackOnly && !namesLoopback(request.headers.get('host'), request.headers.get('origin')))
    return forbiddenAnswer();
  if (request.method === 'OPTIONS') return preflight();
  if (request.method !== 'POST') return methodNotAllowed(request.method);
  return sdkAnswer(request);
}

/**
 * A POST whose body was read whole (at most MAX_BODY_BYTES) and whose Host and Origin passed the loopback rule:
 * from the fast path when it takes the request (at once when its answer is kept), else the SDK's. The one way the
 * fast path is driven (server/mcp-front.ts); `again` makes the request anew, its body the bytes read.
 */
export function postAnswer(
  fast: McpFastPath,
  body: Uint8Array,
  header: HeaderOf,
  again: () => Request,
): WireAnswer | Promise<WireAnswer> {
  return fast.answer(body, header, again) ?? sdkAnswer(again());
}

/** The MCP server's answer to a request, as a Web Response (Vercel's functions answer Responses). */
export const handleMcp = async (request: Request, options: McpOptions = {}): Promise<Response> =>
  responseOf(await mcpAnswer(request, options));

/** The SDK's answer to a POST (after the loopback rule), in the request's era, with CORS; the body read whole, once. */
async function sdkAnswer(request: Request): Promise<WireAnswer> {
  return (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES }))
    ? legacyAnswer(request)
    : answerOfSdk(await modern.fetch(request));
}

/** The SDK's Response read whole, with CORS: the one place a Response is read into a wire answer. */
async function answerOfSdk(response: Response): Promise<WireAnswer> {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
  return {
    status: response.status,
    headers: Object.fromEntries(headers),
    parts: response.body ? [Buffer.from(await response.arrayBuffer())] : [],
  };
}

/** A 2025-era request: a server and the streamable HTTP transport made for it (stateless, JSON answers). */
async function legacyAnswer(request: Request): Promise<WireAnswer> {
  const server = mcpServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    // The body is complete (JSON answers): read it before the server closes.
    return await answerOfSdk(await transport.handleRequest(request));
  } finally {
    await server.close();
  }
}
