// The MCP server in process: the MCP SDK's own Client and StreamableHTTPClientTransport, whose fetch
// hands each request to handleMcp, so the real client and server transports run with no socket. Every
// answer is compared with the REST route's answer to the same query, computed in the same test; the
// expected tool list comes from the contract (domain/contract.ts). Payments are signed by the official
// x402 client and "settled" by the mock facilitator (tests/support/verify-only-facilitator.ts), whose
// in-memory ledger is read before and after every paid or refused call.
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { x402Client } from '@x402/fetch';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { exampleInput } from '../../api/json-schemas.ts';
import { TOOLS_LIST_MAX_BYTES, handleMcp } from '../../api/mcp/handle-mcp.ts';
import { installGate } from '../../api/payment/configured.ts';
import { type Gate, createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { ROUTE_CONTRACTS, type RouteContract, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { errorBody } from '../../domain/contract.ts';
import { callHandler } from '../support/handlers.ts';
import { expectTextHolds } from '../support/mcp-text.ts';
import { FIXTURE_CALLS } from '../support/mcp-calls.ts';
import { FIXTURE_DATA, REAL_DATA, buildInto, serveShards, useShardsOf } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';

// ---- the client, in process ---------------------------------------------------------------------

const MCP_URL = 'http://127.0.0.1/mcp';
type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;
const inProcess: Fetch = (input, init) => handleMcp(new Request(input, init));

/** A connected SDK client; tools/list is read first, so callTool checks every structuredContent against the tool's output schema. */
async function connect(fetch: Fetch = inProcess): Promise<Client> {
  const client = new Client({ name: 'in-process-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch }));
  await client.listTools();
  return client;
}

type Args = Record<string, unknown>;

/** What a test asks of a client: the SDK 1.x Client (the 2025 revisions) and the v2 Client (2026-07-28) alike. */
interface ToolClient {
  callTool(params: { name: string; arguments?: Args; _meta?: Args }): Promise<unknown>;
  close(): Promise<void>;
}

/** The v2 SDK's client in automatic negotiation, which must settle on 2026-07-28 here; tools/list read first, as connect() does. */
async function connectModern(fetch: Fetch = inProcess): Promise<ToolClient> {
  const client = new ModernClient(
    { name: 'in-process-test', version: '2.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(new ModernTransport(new URL(MCP_URL), { fetch }));
  expect([client.getNegotiatedProtocolVersion(), client.getProtocolEra()]).toEqual(['2026-07-28', 'modern']);
  await client.listTools();
  return client;
}

const PAYMENT = 'x402/payment';
const RECEIPT = 'x402/payment-response';

const callTool = (client: ToolClient, name: string, args: Args, payment?: unknown) =>
  client.callTool({
    name,
    arguments: args,
    ...(payment === undefined ? {} : { _meta: { [PAYMENT]: payment } }),
  }) as Promise<CallToolResult>;

function textOf(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const [first] = result.content;
  expect(first.type).toBe('text');
  return (first as { text: string }).text;
}

// ---- the contract and the REST twin -------------------------------------------------------------

const contractOf = (tool: string): RouteContract => ROUTE_CONTRACTS.find((r) => r.operationId === tool)!;
const TOOL_NAMES = TOOL_ROUTES.map((r) => r.operationId);
const PRICED_TOOLS = TOOL_ROUTES.filter((r) => r.priceUsd).map((r) => r.operationId);
/** MCP wants an object: the two array answers are wrapped in one key each (docs/design.md §8). */
const WRAPPED: Record<string, string> = { list_lines: 'lines', get_coverage: 'coverage' };

/**
 * A tool's parameters: its route's, but `format` (JSON or CSV on /v1/premium, /v1/compare and
 * /v1/premium/sample, docs/design.md §11): a tool answers JSON and a text table, and takes no `format`.
 */
const toolParamsOf = (params: z.ZodObject | null) =>
  params ? Object.keys(params.shape).filter((name) => name !== 'format') : [];

/** A parameter is required when its schema refuses it absent (no default, not optional). */
const requiredOf = (params: z.ZodObject | null) =>
  toolParamsOf(params).filter((name) => !(params!.shape[name] as z.ZodType).safeParse(undefined).success);

/** The declared examples of a tool's parameters (zod `.meta({ example })`, as the JSON Schema of the parameters carries them), as text. */
function examplesOf(params: z.ZodObject | null): { required: Record<string, string>; all: Record<string, string> } {
  if (!params) return { required: {}, all: {} };
  const { properties } = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, { example?: unknown }>;
  };
  const all = Object.fromEntries(
    toolParamsOf(params).flatMap((name) =>
      properties[name].example === undefined ? [] : [[name, String(properties[name].example)]],
    ),
  );
  return { required: Object.fromEntries(requiredOf(params).map((name) => [name, all[name]])), all };
}

/** The price in USDC atomic units (6 decimals), worked out here from the contract's USD price. */
const atomicPrice = (tool: string) => {
  const [whole, fraction = ''] = contractOf(tool).priceUsd!.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
};

/** The REST route's answer to a query string, in process. */
async function rest(tool: string, query: string): Promise<{ status: number; body: unknown }> {
  const res = await callHandler(`http://api.test${contractOf(tool).path}${query ? `?${query}` : ''}`);
  return { status: res.status, body: await res.json() };
}
const queryOf = (args: Record<string, string>) => new URLSearchParams(args).toString();

/** What a tool must answer, given its route's answer: the same JSON (wrapped for an array), or the same error body as a tool error. */
function expectRestAnswer(tool: string, result: CallToolResult, expected: { status: number; body: unknown }) {
  if (expected.status === 200) {
    const body = WRAPPED[tool] ? { [WRAPPED[tool]]: expected.body } : expected.body;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toEqual(body);
    expectTextHolds(textOf(result), body);
  } else {
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const error = JSON.parse(textOf(result));
    expect(() => errorBody.parse(error)).not.toThrow();
    expect(error).toEqual(asToolError(expected.body));
  }
}

/** A route's error as its tool says it: an unknown parameter's message lists the tool's parameters, which leave out `format`. */
function asToolError(body: unknown): unknown {
  const { error } = errorBody.parse(body);
  if (!error.message.startsWith('unknown parameter ')) return body;
  return { error: { ...error, message: error.message.replace(/, 'format'(?=,|$)|'format', /g, '') } };
}

/** Calls `tool` and checks it against `query` on the REST route; returns the route's status. */
async function expectSameAsRest(
  client: Client,
  tool: string,
  args: Args,
  query: string,
): Promise<{ status: number; result: CallToolResult }> {
  const expected = await rest(tool, query);
  const result = await callTool(client, tool, args);
  expectRestAnswer(tool, result, expected);
  return { status: expected.status, result };
}

/** An answer with figures cites publications (docs/design.md §10); a free list has items. */
function hasFigures(structured: unknown): boolean {
  const s = structured as { publications?: unknown[]; lines?: unknown[]; coverage?: unknown[]; data?: unknown[] };
  return (s.publications ?? s.lines ?? s.coverage ?? s.data ?? []).length > 0;
}

/** Numbers that would give a priced answer away: large or fractional. */
function figuresOf(json: unknown, out: number[] = []): number[] {
  if (typeof json === 'number' && (json >= 10_000 || !Number.isInteger(json))) out.push(json);
  else if (Array.isArray(json)) json.forEach((v) => figuresOf(v, out));
  else if (json && typeof json === 'object') Object.values(json).forEach((v) => figuresOf(v, out));
  return out;
}

const validator = new AjvJsonSchemaValidator();
const validates = (schema: unknown, value: unknown) =>
  validator.getValidator(schema as Parameters<typeof validator.getValidator>[0])(value).valid;

// ---- calls with figures on each data set --------------------------------------------------------

/** Realistic calls on the real data (data/): 200 with figures, except where the data has none yet (the route's 404 then). */
const REAL_CALLS: { tool: string; args: Record<string, string> }[] = [
  { tool: 'get_coverage', args: {} },
  { tool: 'list_lines', args: { state: 'FL' } },
  { tool: 'list_publications', args: { state: 'TX' } },
  { tool: 'get_premium_sample', args: { state: 'TX' } },
  { tool: 'get_solvency_sample', args: {} },
  { tool: 'get_rates_sample', args: {} },
  { tool: 'get_syndicates_sample', args: {} },
  { tool: 'get_premium', args: { state: 'TX', granularity: 'year' } },
  { tool: 'get_summary', args: { state: 'TX', year: '2025' } },
  { tool: 'compare_states', args: { states: 'FL,TX', granularity: 'half_year' } },
  { tool: 'get_top_insurers', args: { state: 'TX', period: '2021' } },
  { tool: 'get_solvency', args: { insurer: 'Maidstone Insurance Company' } },
  { tool: 'list_enforcement_actions', args: { action_type: 'fine', state: 'OR' } },
  { tool: 'list_rate_filings', args: { state: 'FL' } },
  { tool: 'get_rate_activity', args: { states: 'FL,PA' } },
  { tool: 'get_syndicate', args: { syndicate: '2791' } },
];

// ---- the payment gate ---------------------------------------------------------------------------

const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
const PAYER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const BASE = 'eip155:8453';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/** The mock facilitator's own address, which its settlement error text carries. */
const FACILITATOR_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

const facilitator = verifyOnlyFacilitator(BASE);
const ledger = () => facilitator.received.get(PAYEE) ?? 0n;
const payer = new x402Client().register(BASE, new ExactEvmScheme(PAYER));
/** A payment signed by the official client for (a copy of) the terms a tool returned. */
const paymentFor = (terms: PaymentRequired): Promise<PaymentPayload> =>
  payer.createPaymentPayload(structuredClone(terms));

// -------------------------------------------------------------------------------------------------

useShardsOf(FIXTURE_DATA);
beforeAll(() => installGate(null)); // gate off, whatever the environment says, except where a block installs one
afterAll(() => installGate(undefined));

describe('tools/list', () => {
  let tools: Tool[];
  /** The bytes of the tools/list answer as the server sent it (its JSON-RPC response body), read off the wire. */
  const sent: number[] = [];
  beforeAll(async () => {
    const measuring: Fetch = async (input, init) => {
      const res = await inProcess(input, init);
      if (typeof init?.body !== 'string' || !init.body.includes('"tools/list"')) return res;
      const body = await res.arrayBuffer();
      sent.push(body.byteLength);
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const client = await connect(measuring);
    tools = (await client.listTools()).tools;
    await client.close();
  });
  const toolOf = (name: string) => tools.find((t) => t.name === name)!;

  it(`weighs at most ${TOOLS_LIST_MAX_BYTES} bytes as sent, every tool included (issue 21; npm run size:mcp)`, () => {
    expect(sent.length).toBeGreaterThan(0);
    for (const bytes of sent) {
      expect(bytes).toBeGreaterThan(JSON.stringify(tools).length);
      expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_MAX_BYTES);
    }
  });

  it('names one tool per route of the contract, by its operationId', () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it.each(TOOL_NAMES)('%s: read-only, idempotent, closed-world', (name) => {
    expect(toolOf(name).annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  });

  it.each(TOOL_NAMES)('%s: a short description naming the price, what a result holds and the REST twin', (name) => {
    const { description = '', title } = toolOf(name);
    const contract = contractOf(name);
    // It opens with the summary a title would repeat: there is none.
    expect(description.startsWith(`${contract.summary}. `)).toBe(true);
    expect(title).toBeUndefined();
    expect(description.length).toBeLessThan(450);
    expect(description.match(/[.!?](?=\s|$)/g)?.length ?? 0).toBeLessThanOrEqual(4);
    // docs/design.md §11: the text to read, the JSON in full (its schema in /openapi.json).
    expect(description).toContain('content: a compact text table to read; structuredContent: the full JSON of');
    expect(description).toContain('/openapi.json');
    if (contract.priceUsd) {
      expect(description).toContain(`${contract.priceUsd} USD`);
      expect(description).not.toMatch(/\bfree\b/i);
    } else expect(description).toMatch(/\bFree\b/);
    // The exact path: /v1/premium must not be read as /v1/premium/summary or the reverse.
    const escaped = contract.path.replaceAll('/', '\\/');
    expect(description).toMatch(new RegExp(`GET ${escaped}(?![\\w/])`));
  });

  it.each(TOOL_NAMES)(
    "%s: input schema = the route's parameters but format, required = those without a default",
    (name) => {
      const { inputSchema } = toolOf(name);
      const { params } = contractOf(name);
      expect(inputSchema.type).toBe('object');
      expect(Object.keys(inputSchema.properties ?? {}).sort()).toEqual(toolParamsOf(params).sort());
      expect(inputSchema.properties).not.toHaveProperty('format');
      expect([...(inputSchema.required ?? [])].sort()).toEqual(requiredOf(params).sort());
      // Each declared example is a call the schema admits.
      const { required, all } = examplesOf(params);
      expect(validates(inputSchema, required), JSON.stringify(required)).toBe(true);
      expect(validates(inputSchema, all), JSON.stringify(all)).toBe(true);
      if (params) expect(validates(inputSchema, { ...required, no_such_argument: 'x' })).toBe(false);
    },
  );

  it.each(TOOL_NAMES)('%s: every parameter described; each required one carries its declared example', (name) => {
    const { inputSchema } = toolOf(name);
    const { params } = contractOf(name);
    const properties = (inputSchema.properties ?? {}) as Record<string, { description?: string; examples?: unknown[] }>;
    for (const [param, property] of Object.entries(properties))
      expect(property.description?.length, param).toBeGreaterThan(10);
    const examples = Object.fromEntries(
      (inputSchema.required ?? []).map((param) => [param, properties[param].examples?.[0]]),
    );
    // The route's own example call (the one llms.txt and the x402 discovery give), which the schema admits.
    expect(examples).toEqual(params ? exampleInput(params) : {});
    expect(validates(inputSchema, examples), JSON.stringify(examples)).toBe(true);
  });

  it('compare_states takes states as one string or as a list of strings', () => {
    const { inputSchema } = toolOf('compare_states');
    for (const states of ['FL,TX', 'FL', ['FL', 'TX'], ['fl']])
      expect(validates(inputSchema, { states }), JSON.stringify(states)).toBe(true);
    for (const states of [5, [], [1, 2], { FL: true }])
      expect(validates(inputSchema, { states }), JSON.stringify(states)).toBe(false);
  });

  it.each(TOOL_NAMES)(
    '%s: an object output schema that admits the answer (wrapped for an array) and, when priced, the x402 terms',
    (name) => {
      const { outputSchema } = toolOf(name);
      const contract = contractOf(name);
      expect(outputSchema?.type).toBe('object');
      if (WRAPPED[name]) {
        expect(validates(outputSchema, { [WRAPPED[name]]: [] })).toBe(true);
        expect(validates(outputSchema, [])).toBe(false);
        expect(validates(outputSchema, {})).toBe(false);
      }
      if (contract.priceUsd) {
        expect(validates(outputSchema, contract.example)).toBe(true);
        expect(
          validates(outputSchema, {
            x402Version: 2,
            error: 'Payment required',
            resource: { url: `mcp://tool/${name}` },
            accepts: [{ scheme: 'exact' }],
          }),
        ).toBe(true);
      }
      expect(validates(outputSchema, { surely: 'not an answer' })).toBe(false);
      // Portable: no `type` arrays (strict clients map a schema onto a single-type dialect).
      expect(JSON.stringify(outputSchema)).not.toMatch(/"type":\[/);
    },
  );
});

describe('each tool answers what its REST route answers (fixture data)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it.each(TOOL_NAMES)("%s with its route's declared examples: the required ones, then all of them", async (name) => {
    const { required, all } = examplesOf(contractOf(name).params);
    for (const value of Object.values(required))
      expect(value, 'every required parameter declares an example').toBeDefined();
    const first = await expectSameAsRest(client, name, required, queryOf(required));
    // The required examples alone are a call that answers (the Bazaar example of a priced tool is this call).
    expect(first.status).toBe(200);
    await expectSameAsRest(client, name, all, queryOf(all));
  });

  it.each(TOOL_NAMES)(
    '%s: the example call its input schema shows (the examples of its required parameters) is answered',
    async (name) => {
      const { inputSchema } = (await client.listTools()).tools.find((t) => t.name === name)!;
      const properties = (inputSchema.properties ?? {}) as Record<string, { examples?: unknown[] }>;
      const args = Object.fromEntries(
        (inputSchema.required ?? []).map((param) => [param, properties[param].examples?.[0]]),
      );
      const result = await callTool(client, name, args);
      expect(result.isError, textOf(result)).toBeFalsy();
    },
  );

  it.each(FIXTURE_CALLS)('$tool $args: 200 with figures, the same JSON as the route', async ({ tool, args }) => {
    const { status, result } = await expectSameAsRest(client, tool, args, queryOf(args));
    expect(status).toBe(200);
    expect(hasFigures(result.structuredContent), 'the call has figures').toBe(true);
    const unwrapped = WRAPPED[tool]
      ? (result.structuredContent as Record<string, unknown>)[WRAPPED[tool]]
      : result.structuredContent;
    expect(() => contractOf(tool).response.parse(unwrapped)).not.toThrow();
  });

  it('covers every tool with a realistic call', () => {
    expect([...new Set(FIXTURE_CALLS.map((c) => c.tool))].sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('get_coverage ignores arguments, as its route ignores a query string', async () => {
    await expectSameAsRest(client, 'get_coverage', { anything: 'at all', n: 1 }, 'anything=at+all&n=1');
  });

  it('the client checks structuredContent against the output schema: an answer tampered in transit is rejected', async () => {
    // Proves the equality checks above ran with the SDK's own output validation on.
    const tampering: Fetch = async (input, init) => {
      const res = await handleMcp(new Request(input, init));
      if (res.status !== 200 || !res.headers.get('content-type')?.includes('application/json')) return res;
      const message = await res.json();
      const structured = message?.result?.structuredContent;
      if (structured) {
        if ('lines' in structured) structured.lines = 'not a list';
        else delete structured[Object.keys(structured)[0]];
      }
      const headers = new Headers(res.headers);
      headers.delete('content-length');
      return new Response(JSON.stringify(message), { status: res.status, headers });
    };
    const tampered = await connect(tampering);
    try {
      for (const { tool, args } of [FIXTURE_CALLS[1], FIXTURE_CALLS[4]]) {
        const error = await callTool(tampered, tool, args).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, tool).toBeInstanceOf(McpError);
        expect((error as McpError).message).toMatch(/output schema/i);
      }
    } finally {
      await tampered.close();
    }
  });
});

describe('each tool answers what its REST route answers (real data)', () => {
  let client: Client;
  let restore = () => {};
  beforeAll(async () => {
    restore = serveShards(buildInto(REAL_DATA));
    client = await connect();
  });
  afterAll(async () => {
    await client.close();
    restore();
  });

  it.each(TOOL_NAMES)("%s with its route's declared examples", async (name) => {
    const { required, all } = examplesOf(contractOf(name).params);
    await expectSameAsRest(client, name, required, queryOf(required));
    await expectSameAsRest(client, name, all, queryOf(all));
  });

  it.each(REAL_CALLS)('$tool $args', async ({ tool, args }) => {
    const { status, result } = await expectSameAsRest(client, tool, args, queryOf(args));
    expect(status).toBe(200);
    expect(hasFigures(result.structuredContent), 'the call has figures').toBe(true);
  });

  // Issue 21: what a model reads of a state's whole series is at most half the JSON, and has every exact figure.
  it.each<{ tool: string; args: Record<string, string> }>([
    { tool: 'get_premium', args: { state: 'TX' } },
    { tool: 'get_premium_sample', args: {} },
    { tool: 'get_premium_sample', args: { state: 'TX' } },
    { tool: 'compare_states', args: { states: 'TX,FL,CA' } },
  ])('$tool $args: the text is at most half the JSON and holds every exact figure', async ({ tool, args }) => {
    const { result } = await expectSameAsRest(client, tool, args, queryOf(args));
    const json = JSON.stringify(result.structuredContent);
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(json.length / 2);
    const body = result.structuredContent as {
      data?: Record<string, unknown>[];
      series?: Record<string, Record<string, unknown>[]>;
    };
    const rows = body.series ? Object.values(body.series).flat() : body.data!;
    const fields = [
      'premium',
      'policy_count',
      'new_business_premium',
      'renewal_premium',
      'new_business_policy_pct',
      'renewal_policy_pct',
    ];
    expect(rows.flatMap((r) => fields.filter((f) => r[f] !== null)).length).toBeGreaterThan(10);
    const lines = text.split('\n');
    for (const r of rows)
      for (const f of fields)
        if (r[f] !== null)
          expect(
            lines.some((l) => l.split('|').includes(String(r.period)) && l.split('|').includes(String(r[f]))),
            `${r.period} ${f} ${r[f]}`,
          ).toBe(true);
  });
});

describe('lenient arguments: what a query string would carry', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  const LENIENT: { tool: string; args: Args; query: string }[] = [
    { tool: 'compare_states', args: { states: 'FL,TX' }, query: 'states=FL,TX' },
    { tool: 'compare_states', args: { states: ['FL', 'TX'] }, query: 'states=FL,TX' },
    { tool: 'compare_states', args: { states: 'FL' }, query: 'states=FL' },
    { tool: 'compare_states', args: { states: ['fl'] }, query: 'states=fl' },
    {
      tool: 'compare_states',
      args: { states: ['FL', 'il', 'fl'], granularity: 'year' },
      query: 'states=FL,il,fl&granularity=year',
    },
    { tool: 'get_summary', args: { state: 'FL', year: 2024 }, query: 'state=FL&year=2024' },
    { tool: 'get_summary', args: { state: 'FL', year: '2024' }, query: 'state=FL&year=2024' },
    { tool: 'get_top_insurers', args: { state: 'fl', period: '2024-01' }, query: 'state=fl&period=2024-01' },
    {
      tool: 'get_premium',
      args: { state: 'FL', county: null, from: null, granularity: 'quarter' },
      query: 'state=FL&granularity=quarter',
    },
  ];

  it.each(LENIENT)('$tool $args answers as ?$query', async ({ tool, args, query }) => {
    const { status, result } = await expectSameAsRest(client, tool, args, query);
    expect(status).toBe(200);
    expect(hasFigures(result.structuredContent)).toBe(true);
  });

  it('a list and its comma-joined text are the same call', async () => {
    const [asList, asText] = await Promise.all([
      callTool(client, 'compare_states', { states: ['FL', 'TX'] }),
      callTool(client, 'compare_states', { states: 'FL,TX' }),
    ]);
    expect(asList.structuredContent).toEqual(asText.structuredContent);
    expect(Object.keys((asList.structuredContent as { series: object }).series)).toEqual(['FL', 'TX']);
  });
});

describe("bad arguments are tool errors with the route's own error body", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  const BAD: { what: string; tool: string; args: Args; query: string; status: 400 | 404 }[] = [
    {
      what: 'unknown argument',
      tool: 'get_premium',
      args: { state: 'FL', bogus: '1' },
      query: 'state=FL&bogus=1',
      status: 400,
    },
    {
      what: 'unknown argument (free tool)',
      tool: 'list_lines',
      args: { state: 'FL', verbose: true },
      query: 'state=FL&verbose=true',
      status: 400,
    },
    { what: 'malformed state', tool: 'get_premium', args: { state: 'F1' }, query: 'state=F1', status: 400 },
    {
      what: 'malformed state (free tool)',
      tool: 'list_publications',
      args: { state: 'Florida' },
      query: 'state=Florida',
      status: 400,
    },
    {
      what: 'malformed state in a list',
      tool: 'compare_states',
      args: { states: ['FL', '1X'] },
      query: 'states=FL,1X',
      status: 400,
    },
    { what: 'empty list of states', tool: 'compare_states', args: { states: [] }, query: 'states=', status: 400 },
    {
      what: 'malformed year (a number)',
      tool: 'get_summary',
      args: { state: 'FL', year: 24 },
      query: 'state=FL&year=24',
      status: 400,
    },
    {
      what: 'malformed granularity',
      tool: 'get_premium',
      args: { state: 'FL', granularity: 'week' },
      query: 'state=FL&granularity=week',
      status: 400,
    },
    { what: 'missing required year', tool: 'get_summary', args: { state: 'FL' }, query: 'state=FL', status: 400 },
    {
      what: 'missing required state',
      tool: 'get_top_insurers',
      args: { period: '2024-01' },
      query: 'period=2024-01',
      status: 400,
    },
    { what: 'missing required state, null', tool: 'list_lines', args: { state: null }, query: '', status: 400 },
    {
      what: 'from after to',
      tool: 'get_premium',
      args: { state: 'FL', from: '2024-03', to: '2024-01' },
      query: 'state=FL&from=2024-03&to=2024-01',
      status: 400,
    },
    {
      what: 'county with month',
      tool: 'get_premium',
      args: { state: 'FL', county: 'Miami-Dade', granularity: 'month' },
      query: 'state=FL&county=Miami-Dade&granularity=month',
      status: 400,
    },
    { what: 'unknown state', tool: 'get_premium', args: { state: 'ZZ' }, query: 'state=ZZ', status: 404 },
    { what: 'unknown state (free tool)', tool: 'list_lines', args: { state: 'ZZ' }, query: 'state=ZZ', status: 404 },
    {
      what: 'unknown state in a list',
      tool: 'compare_states',
      args: { states: ['FL', 'ZZ'] },
      query: 'states=FL,ZZ',
      status: 404,
    },
    {
      what: 'unknown line',
      tool: 'get_premium',
      args: { state: 'FL', line: 'no such line' },
      query: 'state=FL&line=no+such+line',
      status: 404,
    },
    {
      what: 'unknown county',
      tool: 'get_premium',
      args: { state: 'FL', county: 'Atlantis' },
      query: 'state=FL&county=Atlantis',
      status: 404,
    },
    {
      what: 'period without a ranking',
      tool: 'get_top_insurers',
      args: { state: 'FL', period: '1999' },
      query: 'state=FL&period=1999',
      status: 404,
    },
  ];

  it.each(BAD)("$what: $tool $args is the route's $status for ?$query", async ({ tool, args, query, status }) => {
    const expected = await rest(tool, query);
    expect(expected.status).toBe(status);
    expectRestAnswer(tool, await callTool(client, tool, args), expected);
  });

  const NOT_TEXT: { tool: string; args: Args; name: string }[] = [
    { tool: 'get_premium', args: { state: { code: 'FL' } }, name: 'state' },
    { tool: 'list_lines', args: { state: ['F', ['L']] }, name: 'state' },
    { tool: 'compare_states', args: { states: [['FL'], ['TX']] }, name: 'states' },
    { tool: 'compare_states', args: { states: ['FL', 2] }, name: 'states' },
    { tool: 'get_summary', args: { state: 'FL', year: { value: 2024 } }, name: 'year' },
  ];

  it.each(NOT_TEXT)(
    "$tool $args: an object or nested value is invalid_request naming '$name'",
    async ({ tool, args, name }) => {
      const result = await callTool(client, tool, args);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const body = errorBody.parse(JSON.parse(textOf(result)));
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toContain(`'${name}'`);
    },
  );

  it.each(TOOL_NAMES.filter((name) => contractOf(name).params))(
    '%s takes no format (a tool answers JSON and a text table): a call naming it is refused as an unknown parameter',
    async (name) => {
      const { required } = examplesOf(contractOf(name).params);
      for (const format of ['json', 'csv']) {
        const result = await callTool(client, name, { ...required, format });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        const body = errorBody.parse(JSON.parse(textOf(result)));
        expect(body.error.code).toBe('invalid_request');
        expect(body.error.message).toMatch(/^unknown parameter 'format': expected only /);
        expect(body.error.message.replace(/^unknown parameter 'format'/, '')).not.toContain('format');
      }
    },
  );

  it('an unknown tool: callTool rejects with an McpError (invalid params) naming it', async () => {
    const error = await client.callTool({ name: 'get_weather', arguments: { state: 'FL' } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('get_weather');
  });
});

// Every payment test in both eras: a 2025 client and a 2026-07-28 one carry the payment in the same `_meta` key.
describe.each([
  { era: '2025-11-25, the SDK 1.x client', open: () => connect() },
  { era: '2026-07-28, the v2 client in automatic negotiation', open: () => connectModern() },
])('with the payment gate on (x402 MCP transport), $era', ({ open }) => {
  let gate: Gate;
  let client: ToolClient;
  const quiet: { mockRestore(): void }[] = [];

  beforeAll(async () => {
    gate = createGate(
      paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!,
      facilitator,
      ROUTE_CONTRACTS,
    );
    installGate(gate);
    client = await open();
    // Refusals and facilitator failures are logged in one line each; keep the test output clean.
    quiet.push(
      vi.spyOn(console, 'warn').mockImplementation(() => {}),
      vi.spyOn(console, 'error').mockImplementation(() => {}),
    );
  });
  afterAll(async () => {
    quiet.forEach((s) => s.mockRestore());
    await client.close();
    installGate(null);
  });
  afterEach(() => {
    facilitator.mode = 'up';
  });

  /** The same call with the gate off: what a paid call must answer. */
  async function gateOff(tool: string, args: Args): Promise<CallToolResult> {
    installGate(null);
    try {
      return await callTool(client, tool, args);
    } finally {
      installGate(gate);
    }
  }

  /** An unpaid call's x402 terms (checked: a tool error whose text is exactly the structured terms). */
  async function termsOf(tool: string, args: Args): Promise<PaymentRequired> {
    const result = await callTool(client, tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
    return result.structuredContent as unknown as PaymentRequired;
  }

  /** A refusal: the terms again with a reason, no data, nothing received or settled. */
  async function expectRefused(
    result: CallToolResult,
    before: { ledger: bigint; settled: number },
  ): Promise<PaymentRequired> {
    expect(result.isError).toBe(true);
    const terms = result.structuredContent as unknown as PaymentRequired;
    expect(terms.x402Version).toBe(2);
    expect(terms.accepts).toHaveLength(1);
    expect(terms.error).toMatch(/^[a-z][a-z0-9_]*$|^No matching payment requirements$/);
    expect(
      Object.keys(terms).every((k) => ['x402Version', 'error', 'resource', 'accepts', 'extensions'].includes(k)),
      Object.keys(terms).join(),
    ).toBe(true);
    expect(textOf(result)).toBe(JSON.stringify(terms));
    expect(ledger()).toBe(before.ledger);
    expect(facilitator.settled).toBe(before.settled);
    return terms;
  }

  const snapshot = () => ({ ledger: ledger(), settled: facilitator.settled });
  const PRICED_CALLS = FIXTURE_CALLS.filter((c) => contractOf(c.tool).priceUsd);
  const PREMIUM = { state: 'FL', granularity: 'quarter' };

  it('the priced calls cover every priced tool', () => {
    expect([...new Set(PRICED_CALLS.map((c) => c.tool))].sort()).toEqual([...PRICED_TOOLS].sort());
  });

  it.each(PRICED_CALLS)('$tool $args unpaid: the x402 terms as a tool error, no figure', async ({ tool, args }) => {
    const before = snapshot();
    const answer = await gateOff(tool, args);
    const result = await callTool(client, tool, args);
    expect(result.isError).toBe(true);
    expect(result._meta?.[RECEIPT]).toBeUndefined();
    expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
    const terms = result.structuredContent as unknown as PaymentRequired & {
      extensions: { bazaar: { info: { input: Record<string, unknown> } } };
    };
    expect(terms.x402Version).toBe(2);
    expect(terms.accepts).toHaveLength(1);
    const [accept] = terms.accepts;
    expect(accept).toMatchObject({ scheme: 'exact', network: BASE, amount: atomicPrice(tool).toString() });
    expect(getAddress(accept.payTo)).toBe(PAYEE);
    expect(getAddress(accept.asset)).toBe(BASE_USDC);
    expect(terms.resource).toMatchObject({ url: `mcp://tool/${tool}`, mimeType: 'application/json' });
    // Bazaar discovery describes an MCP tool: its name, its input schema, and an example call that answers.
    const input = terms.extensions.bazaar.info.input as {
      type: string;
      toolName: string;
      inputSchema: { properties: object };
      example: Args;
    };
    expect(input).toMatchObject({ type: 'mcp', toolName: tool });
    expect(Object.keys(input.inputSchema.properties).sort()).toEqual(toolParamsOf(contractOf(tool).params).sort());
    expect(input.example).toEqual(examplesOf(contractOf(tool).params).required);
    // The free terms give no figure of the answer away.
    // What the answer holds: its figures, or, for a list of names (eligibility), the names it gives.
    const figures = figuresOf(answer.structuredContent);
    const names = ((answer.structuredContent as { data?: { company_name?: string }[] }).data ?? []).flatMap((d) =>
      d.company_name ? [d.company_name] : [],
    );
    expect(figures.length + names.length).toBeGreaterThan(0);
    for (const n of [...figures.map(String), ...names]) expect(textOf(result)).not.toContain(n);
    expect(snapshot()).toEqual(before);
  });

  it('free tools answer as with the gate off', async () => {
    for (const { tool, args } of FIXTURE_CALLS.filter((c) => !contractOf(c.tool).priceUsd)) {
      const result = await callTool(client, tool, args);
      expect(result.isError, tool).toBeFalsy();
      expect(result.structuredContent).toEqual((await gateOff(tool, args)).structuredContent);
    }
  });

  it.each(PRICED_CALLS)(
    '$tool $args paid: the gate-off answer, a receipt, exactly the price received once',
    async ({ tool, args }) => {
      const expected = await gateOff(tool, args);
      const payment = await paymentFor(await termsOf(tool, args));
      const before = snapshot();
      const paid = await callTool(client, tool, args, payment);
      expect(paid.isError, textOf(paid)).toBeFalsy();
      expect(paid.structuredContent).toEqual(expected.structuredContent);
      expect(textOf(paid)).toBe(textOf(expected));
      const receipt = paid._meta?.[RECEIPT] as SettleResponse;
      expect(receipt).toMatchObject({ success: true, network: BASE });
      expect(getAddress(receipt.payer!)).toBe(PAYER.address);
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/i);
      expect(ledger() - before.ledger).toBe(atomicPrice(tool));
      expect(facilitator.settled).toBe(before.settled + 1);
    },
  );

  it('a replay of a settled payment: the terms again, no data, nothing received', async () => {
    const payment = await paymentFor(await termsOf('get_premium', PREMIUM));
    expect((await callTool(client, 'get_premium', PREMIUM, payment)).isError).toBeFalsy();
    const before = snapshot();
    const terms = await expectRefused(await callTool(client, 'get_premium', PREMIUM, payment), before);
    expect(terms.error).toBe('invalid_exact_evm_nonce_already_used');
  });

  it('two concurrent calls carrying one fresh payment: one answer, one price', async () => {
    const expected = await gateOff('compare_states', { states: 'FL,IL' });
    const payment = await paymentFor(await termsOf('compare_states', { states: 'FL,IL' }));
    const before = snapshot();
    const results = await Promise.all(
      [0, 1].map(() => callTool(client, 'compare_states', { states: 'FL,IL' }, payment)),
    );
    const answered = results.filter((r) => !r.isError);
    expect(answered).toHaveLength(1);
    expect(answered[0].structuredContent).toEqual(expected.structuredContent);
    const refused = results.find((r) => r.isError)!;
    expect((refused.structuredContent as unknown as PaymentRequired).accepts[0].amount).toBe(
      atomicPrice('compare_states').toString(),
    );
    expect(refused.structuredContent).not.toHaveProperty('series');
    expect(ledger() - before.ledger).toBe(atomicPrice('compare_states'));
    expect(facilitator.settled).toBe(before.settled + 1);
  });

  it('a malformed payment (not a PaymentPayload object): the terms with error invalid_payment_payload, nothing verified', async () => {
    const good = await paymentFor(await termsOf('get_premium', PREMIUM));
    const { payload: _, ...withoutPayload } = good;
    const malformed: unknown[] = [
      'a string',
      Buffer.from(JSON.stringify(good)).toString('base64'), // the HTTP header's encoding is not the MCP transport's
      42,
      null,
      [good],
      withoutPayload,
      { ...good, payload: {} },
      { ...good, payload: { signature: '0x00', authorization: { from: 'nobody' } } },
      { x402Version: 2 },
    ];
    const verify = vi.spyOn(facilitator, 'verify');
    try {
      for (const payment of malformed) {
        const before = snapshot();
        const terms = await expectRefused(await callTool(client, 'get_premium', PREMIUM, payment), before);
        expect(terms.error, JSON.stringify(payment)).toBe('invalid_payment_payload');
      }
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
    // The well-formed payment was never spent: it still pays.
    expect((await callTool(client, 'get_premium', PREMIUM, good)).isError).toBeFalsy();
  });

  it('a 0.10 payment offered to compare_states (0.50): refused, nothing received', async () => {
    expect(atomicPrice('compare_states')).toBeGreaterThan(atomicPrice('get_premium'));
    const dime = await paymentFor(await termsOf('get_premium', PREMIUM));
    const before = snapshot();
    const terms = await expectRefused(await callTool(client, 'compare_states', { states: 'FL,IL' }, dime), before);
    expect(terms.accepts[0].amount).toBe(atomicPrice('compare_states').toString());
    expect(terms.resource?.url).toBe('mcp://tool/compare_states');
  });

  it('a payment signed for less than asked (terms edited to 1 atomic unit): refused, nothing received', async () => {
    const terms = await termsOf('get_premium', PREMIUM);
    const cheap = await paymentFor({ ...terms, accepts: [{ ...terms.accepts[0], amount: '1' }] });
    const before = snapshot();
    await expectRefused(await callTool(client, 'get_premium', PREMIUM, cheap), before);
  });

  it("bad arguments with a valid payment: the route's error; the payment neither verified nor settled, and still good", async () => {
    const payment = await paymentFor(await termsOf('get_premium', PREMIUM));
    const verify = vi.spyOn(facilitator, 'verify');
    try {
      for (const [args, query] of [
        [{ state: 'ZZ' }, 'state=ZZ'],
        [{ state: 'FL', granularity: 'week' }, 'state=FL&granularity=week'],
        [{ state: 'FL', bogus: 1 }, 'state=FL&bogus=1'],
      ] as const) {
        const before = snapshot();
        expectRestAnswer(
          'get_premium',
          await callTool(client, 'get_premium', args, payment),
          await rest('get_premium', query),
        );
        expect(snapshot()).toEqual(before);
      }
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
    const before = snapshot();
    expect((await callTool(client, 'get_premium', PREMIUM, payment)).isError).toBeFalsy();
    expect(ledger() - before.ledger).toBe(atomicPrice('get_premium'));
  });

  it('an answer with no figure is given and not charged: no receipt, nothing received', async () => {
    const args = { state: 'FL', from: '1990-01', to: '1990-12' };
    const expected = await gateOff('get_premium', args);
    expect(expected.structuredContent).toMatchObject({ data: [], publications: [] });
    const payment = await paymentFor(await termsOf('get_premium', args));
    const before = snapshot();
    const result = await callTool(client, 'get_premium', args, payment);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(expected.structuredContent);
    expect(result._meta?.[RECEIPT]).toBeUndefined();
    expect(snapshot()).toEqual(before);
  });

  it('facilitator unreachable: a tool error (internal) naming the facilitator, no data, nothing received', async () => {
    const payment = await paymentFor(await termsOf('get_premium', PREMIUM));
    const before = snapshot();
    facilitator.mode = 'down';
    const result = await callTool(client, 'get_premium', PREMIUM, payment);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result._meta?.[RECEIPT]).toBeUndefined();
    const body = errorBody.parse(JSON.parse(textOf(result)));
    expect(body.error.code).toBe('internal');
    expect(body.error.message).toMatch(/^payment could not be processed: /);
    expect(body.error.message).toMatch(/facilitator/);
    expect(snapshot()).toEqual(before);
    // Back up: the same payment pays.
    facilitator.mode = 'up';
    expect((await callTool(client, 'get_premium', PREMIUM, payment)).isError).toBeFalsy();
  });

  it('facilitator unreachable before the gate ever initialized: unpaid and paid calls are tool errors (internal); the gate recovers', async () => {
    const payment = await paymentFor(await termsOf('get_premium', PREMIUM));
    const down = verifyOnlyFacilitator(BASE);
    down.mode = 'down';
    installGate(
      createGate(
        paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!,
        down,
        ROUTE_CONTRACTS,
      ),
    );
    try {
      for (const result of [
        await callTool(client, 'get_premium', PREMIUM),
        await callTool(client, 'get_premium', PREMIUM, payment),
      ]) {
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        const body = errorBody.parse(JSON.parse(textOf(result)));
        expect(body.error.code).toBe('internal');
        expect(body.error.message).toMatch(/facilitator/);
      }
      down.mode = 'up';
      expect((await callTool(client, 'get_premium', PREMIUM)).structuredContent).toMatchObject({ x402Version: 2 });
      expect((await callTool(client, 'get_premium', PREMIUM, payment)).isError).toBeFalsy();
      expect(down.received.get(PAYEE)).toBe(atomicPrice('get_premium'));
    } finally {
      installGate(gate);
    }
  });

  it('facilitator unreachable while settling: a tool error that says the payment may still complete, no data', async () => {
    const payment = await paymentFor(await termsOf('get_premium', PREMIUM));
    const before = snapshot();
    facilitator.mode = 'down-at-settle';
    const result = await callTool(client, 'get_premium', PREMIUM, payment);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const body = errorBody.parse(JSON.parse(textOf(result)));
    expect(body.error.code).toBe('internal');
    expect(body.error.message).toMatch(/facilitator.*settling/);
    expect(snapshot()).toEqual(before);
  });

  it('settlement refused: the terms again with a failed receipt (reason code only), no data, nothing received', async () => {
    const payment = await paymentFor(await termsOf('get_premium', PREMIUM));
    const before = snapshot();
    facilitator.mode = 'refuse-settle';
    const result = await callTool(client, 'get_premium', PREMIUM, payment);
    const terms = await expectRefused(result, before);
    const receipt = result._meta?.[RECEIPT] as SettleResponse;
    expect(receipt.success).toBe(false);
    expect(receipt.errorReason).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(terms.error).toBe(receipt.errorReason);
    expect(receipt.network).toBe(BASE);
    expect(receipt).not.toHaveProperty('errorMessage');
    expect(getAddress(receipt.payer!)).toBe(PAYER.address);
    const everything = JSON.stringify(result);
    expect(everything.toLowerCase()).not.toContain(FACILITATOR_ADDRESS.toLowerCase());
    expect(everything).not.toMatch(/execution reverted|ECONNREFUSED|\/srv\/|\.sol:|facilitator\.ts/);
  });
});

describe('handleMcp over plain HTTP requests', () => {
  const ACCEPT = 'application/json, text/event-stream';
  const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const post = (body: string, headers: Record<string, string> = {}, options?: { loopbackOnly?: boolean }) =>
    handleMcp(
      new Request(MCP_URL, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
        body,
      }),
      options,
    );
  const allowed = (res: Response, header: string) =>
    (res.headers.get(header) ?? '').split(',').map((h) => h.trim().toLowerCase());

  async function expectJsonRpcError(res: Response, status: number, code?: number) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
    if (code !== undefined) expect(body.error.code).toBe(code);
    return body;
  }

  it('GET: 405 at once, Allow naming POST, a JSON-RPC error body', async () => {
    const res = await handleMcp(new Request(MCP_URL, { headers: { Accept: 'text/event-stream' } }));
    expect(allowed(res, 'allow')).toContain('post');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await expectJsonRpcError(res, 405);
    expect(body.id).toBeNull();
  });

  it.each(['DELETE', 'HEAD', 'PUT', 'PATCH'])('%s: 405', async (method) => {
    const res = await handleMcp(new Request(MCP_URL, { method }));
    expect(res.status).toBe(405);
    expect(allowed(res, 'allow')).toContain('post');
  });

  it('OPTIONS: a 204 preflight for any origin, allowing POST and the MCP headers', async () => {
    const res = await handleMcp(
      new Request(MCP_URL, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://agent.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
        },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(allowed(res, 'access-control-allow-methods')).toContain('post');
    expect(allowed(res, 'access-control-allow-headers')).toEqual(
      expect.arrayContaining(['content-type', 'accept', 'mcp-protocol-version']),
    );
  });

  it('a POST answer carries CORS for browser clients', async () => {
    const res = await post(PING);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('a body that is not JSON: 400, JSON-RPC parse error', async () => {
    await expectJsonRpcError(await post('{"jsonrpc": "2.0", "id": 1, "method": '), 400, -32700);
  });

  it('a Content-Type other than JSON: 415', async () => {
    await expectJsonRpcError(await post(PING, { 'Content-Type': 'text/plain' }), 415);
  });

  it.each(['application/json', 'text/event-stream', '*/*'])(
    'Accept %s (not both JSON and event stream, as the SDK requires): 406',
    async (accept) => {
      await expectJsonRpcError(await post(PING, { Accept: accept }), 406);
    },
  );

  it('a body over 64 KiB: 413; just under, answered', async () => {
    const padded = (size: number) => {
      const message = { jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: '' } } };
      message.params._meta.pad = 'x'.repeat(size - JSON.stringify(message).length);
      const text = JSON.stringify(message);
      expect(Buffer.byteLength(text)).toBe(size);
      return text;
    };
    await expectJsonRpcError(await post(padded(64 * 1024 + 1)), 413);
    expect((await post(padded(64 * 1024 - 16))).status).toBe(200);
  });

  it('a JSON-RPC batch of two requests: both answered', async () => {
    const res = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'list_lines', arguments: { state: 'FL' } } },
      ]),
    );
    expect(res.status).toBe(200);
    const answers = (await res.json()) as { id: string; result: Record<string, unknown> }[];
    expect(answers).toHaveLength(2);
    const byId = Object.fromEntries(answers.map((a) => [a.id, a.result]));
    expect((byId.a.tools as Tool[]).map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(byId.b.structuredContent).toEqual({ lines: (await rest('list_lines', 'state=FL')).body });
  });

  describe('loopbackOnly (DNS rebinding)', () => {
    const loopback = { loopbackOnly: true };
    it.each<Record<string, string>>([
      { Host: 'evil.example' },
      { Host: 'evil.example:4321' },
      { Host: '127.0.0.1.evil.example:4321' },
      { Host: 'localhost.evil.example' },
      { Host: '127.0.0.1:4321', Origin: 'http://evil.example' },
      { Host: 'localhost:4321', Origin: 'null' },
    ])('%o: 403', async (headers) => {
      await expectJsonRpcError(await post(PING, headers, loopback), 403);
    });

    it('no Host at all: 403', async () => {
      await expectJsonRpcError(await post(PING, {}, loopback), 403);
    });

    it('the refusal comes first: a GET or a preflight from a rebound page is 403 too', async () => {
      const rebound = { Host: 'evil.example', Origin: 'http://evil.example' };
      for (const method of ['GET', 'OPTIONS'])
        expect((await handleMcp(new Request(MCP_URL, { method, headers: rebound }), loopback)).status).toBe(403);
      const local = await handleMcp(
        new Request(MCP_URL, {
          method: 'OPTIONS',
          headers: { Host: '127.0.0.1:4321', Origin: 'http://localhost:6274' },
        }),
        loopback,
      );
      expect(local.status).toBe(204);
    });

    it.each<Record<string, string>>([
      { Host: 'localhost:4321' },
      { Host: '127.0.0.1:4321' },
      { Host: '[::1]:4321' },
      { Host: '127.0.0.1:4321', Origin: 'http://localhost:3000' },
    ])('%o: answered', async (headers) => {
      const res = await post(PING, headers, loopback);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('without loopbackOnly, any Host is answered (a deployment behind a proxy)', async () => {
      expect((await post(PING, { Host: 'mcp.example.com' })).status).toBe(200);
    });
  });
});
