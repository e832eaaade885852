// The MCP server over HTTP against the built Node server (server.ts), with real parts only: the MCP
// SDK's own Client, the MCP Inspector CLI and the MCP conformance suite as clients; for payments the
// gate on, a local chain (anvil, chain id 8453, an EIP-3009 token at the Base USDC address), a loopback
// facilitator from @x402/core + @x402/evm, and the official x402 client signing. Balances are read on
// chain before and after every paid or refused call.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { type LocalChain, createPayment, serveFacilitator, startLocalChain } from '../support/chain.ts';
import { callHandler } from '../support/handlers.ts';
import { expectTextHolds } from '../support/mcp-text.ts';
import { pricedFigures, pricedFiguresIn } from '../support/priced-figures.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { parseResponse, rawChunkedRequestBytes, rawExchange, rawRequestBytes } from '../support/raw-http.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

const run = promisify(execFile);
const OUT = join(ROOT, '.tmp', 'test-dist-mcp');
const INSPECTOR = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);
const CONFORMANCE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** One call per tool, each with figures on the real data, and the REST query that answers the same. */
const CALLS = [
  { tool: 'get_coverage', args: {}, path: '/v1/coverage', wrap: 'coverage' },
  { tool: 'list_lines', args: { state: 'FL' }, path: '/v1/lines?state=FL', wrap: 'lines' },
  { tool: 'list_publications', args: { state: 'TX' }, path: '/v1/publications?state=TX' },
  { tool: 'get_premium_sample', args: { state: 'TX' }, path: '/v1/premium/sample?state=TX' },
  { tool: 'get_premium', args: { state: 'TX', granularity: 'year' }, path: '/v1/premium?state=TX&granularity=year' },
  { tool: 'get_summary', args: { state: 'TX', year: 2025 }, path: '/v1/premium/summary?state=TX&year=2025' },
  {
    tool: 'compare_states',
    args: { states: ['FL', 'TX'], granularity: 'half_year' },
    path: '/v1/compare?states=FL,TX&granularity=half_year',
  },
  { tool: 'get_solvency_sample', args: {}, path: '/v1/solvency/sample' },
  { tool: 'get_rates_sample', args: {}, path: '/v1/rates/sample' },
  { tool: 'get_syndicates_sample', args: {}, path: '/v1/syndicates/sample' },
  {
    tool: 'get_solvency',
    args: { insurer: 'Maidstone Insurance Company' },
    path: '/v1/solvency?insurer=Maidstone%20Insurance%20Company',
  },
  { tool: 'get_top_insurers', args: { state: 'US', period: '2022' }, path: '/v1/insurers?state=US&period=2022' },
  { tool: 'list_enforcement_actions', args: { action_type: 'fine' }, path: '/v1/enforcement?action_type=fine' },
  { tool: 'list_rate_filings', args: { state: 'TX' }, path: '/v1/rates?state=TX' },
  { tool: 'get_rate_activity', args: {}, path: '/v1/rates/activity' },
  { tool: 'get_syndicate', args: { syndicate: '2791' }, path: '/v1/syndicates?syndicate=2791' },
  { tool: 'get_eligibility', args: {}, path: '/v1/eligibility' },
] as const;
const contractOf = (tool: string) => ROUTE_CONTRACTS.find((r) => r.operationId === tool)!;
const atomic = (tool: string) => BigInt(Math.round(Number(contractOf(tool).priceUsd) * 1e6));

let chain: LocalChain;
let facilitator: { url: string; stop(): Promise<void> };
let gated: { base: string; stop: () => void };
let open: { base: string; stop: () => void };
let priced: Set<string>;
let restoreShards = () => {};

beforeAll(async () => {
  const shards = buildInto(REAL_DATA);
  priced = pricedFigures(shards);
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
  chain = await startLocalChain();
  facilitator = await serveFacilitator(chain.facilitator);
  const entry = join(OUT, 'server', 'entry.mjs');
  gated = await startServer(entry, {
    SHARDS_DIR: shards,
    X402_PAY_TO: chain.payee,
    X402_FACILITATOR_URL: facilitator.url,
  });
  open = await startServer(entry, { SHARDS_DIR: shards, X402_PAY_TO: '' });
  restoreShards = serveShards(shards); // the REST answers, gate off, computed in this process
});
afterAll(async () => {
  gated?.stop();
  open?.stop();
  await facilitator?.stop();
  await chain?.stop();
  restoreShards();
});

/** What a test asks of a client, whichever SDK and revision it speaks. */
interface ToolClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }): Promise<unknown>;
  close(): Promise<void>;
}

/** The clients every era is tried with: the SDK 1.x client (2025-11-25), and the v2 client in each negotiation. */
const CLIENTS = [
  { kind: 'the SDK 1.x client', version: '2025-11-25' },
  { kind: "the v2 client, 'auto' negotiation", version: '2026-07-28' },
  { kind: "the v2 client, 'legacy' negotiation", version: '2025-11-25' },
] as const;
type ClientKind = (typeof CLIENTS)[number]['kind'];

async function connect(base: string, kind: ClientKind = CLIENTS[0].kind): Promise<ToolClient> {
  const url = new URL(`${base}/mcp`);
  if (kind === 'the SDK 1.x client') {
    const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  }
  const mode = kind === "the v2 client, 'auto' negotiation" ? 'auto' : 'legacy';
  const client = new ModernClient({ name: 'mcp-http-test', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new ModernTransport(url));
  // Automatic negotiation must settle on the newest revision this server speaks; 'legacy' keeps to 2025.
  expect(client.getNegotiatedProtocolVersion()).toBe(CLIENTS.find((c) => c.kind === kind)!.version);
  return client;
}

/** The REST route's answer for `path`, gate off, as text. */
async function restAnswer(path: string): Promise<string> {
  const res = await callHandler(`http://x${path}`);
  expect(res.status).toBe(200);
  return res.text();
}

const textOf = (result: CallToolResult) => (result.content[0] as { type: 'text'; text: string }).text;
const balances = async () => ({
  payee: await chain.balanceOf(chain.payee),
  payer: await chain.balanceOf(chain.payer.address),
});

describe.each(CLIENTS)('$kind against the built server (MCP $version)', ({ kind }) => {
  it('lists one tool per route, named by its operationId; the calls below cover every tool', async () => {
    const client = await connect(open.base, kind);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_ROUTES.map((r) => r.operationId).sort());
    expect(CALLS.map((c) => c.tool).sort()).toEqual(tools.map((t) => t.name).sort());
    await client.close();
  });

  for (const call of CALLS)
    it(`${call.tool} (gate off) answers what ${call.path} answers as structuredContent, and a text that holds its figures`, async () => {
      const client = await connect(open.base, kind);
      await client.listTools(); // the client then checks each answer against the tool's output schema
      const result = (await client.callTool({ name: call.tool, arguments: call.args })) as CallToolResult;
      const rest = JSON.parse(await restAnswer(call.path));
      const expected = 'wrap' in call ? { [call.wrap]: rest } : rest;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(expected);
      expectTextHolds(textOf(result), expected);
      await client.close();
    });

  it("get_top_insurers for a period without a ranking answers the route's 404 naming the periods that have one", async () => {
    const client = await connect(open.base, kind);
    const result = (await client.callTool({
      name: 'get_top_insurers',
      arguments: { state: 'TX', period: '2020' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const rest = await callHandler('http://x/v1/insurers?state=TX&period=2020');
    expect(rest.status).toBe(404);
    const body = await rest.json();
    expect(JSON.parse(textOf(result))).toEqual(body);
    expect(body.error.message).toContain('periods with a ranking: 2021');
    await client.close();
  });

  it("a bad argument is a tool error naming it, with the route's own message", async () => {
    const client = await connect(open.base, kind);
    const bad = (await client.callTool({
      name: 'get_premium',
      arguments: { state: 'TX', granularity: 'week' },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    const rest = await callHandler('http://x/v1/premium?state=TX&granularity=week');
    expect(rest.status).toBe(400);
    expect(JSON.parse(textOf(bad))).toEqual(await rest.json());
    const unknown = (await client.callTool({
      name: 'get_summary',
      arguments: { state: 'ZZ', year: '2024' },
    })) as CallToolResult;
    expect(JSON.parse(textOf(unknown))).toEqual(
      await (await callHandler('http://x/v1/premium/summary?state=ZZ&year=2024')).json(),
    );
    await client.close();
  });

  it('GET /mcp answers 405 at once (a stateless server holds no stream open)', async () => {
    const res = await fetch(`${open.base}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });
});

describe('the fast path on the built server (api/mcp/fast.ts): the same bytes as the SDK path', () => {
  // A POST /mcp with a Content-Length may be answered from kept bytes (server/mcp-front.ts answerPost); the same
  // request with a chunked body always takes the full handling, the SDK's. Both are read off the socket
  // and must be the same bytes, status line, headers in order and framing included, but the Date.
  const HEADERS: [string, string][] = [
    ['Accept', 'application/json, text/event-stream'],
    ['Content-Type', 'application/json'],
  ];
  const withoutDate = (raw: Buffer) => raw.toString('latin1').replace(/\r\nDate: [^\r]*/, '');
  const message = (id: unknown, method: string, params?: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
  const call = (id: unknown, tool: string, args: unknown) => message(id, 'tools/call', { name: tool, arguments: args });

  async function expectSameBytes(
    body: string,
    headers: [string, string][] = HEADERS,
    host = `127.0.0.1:${new URL(open.base).port}`,
  ) {
    const port = Number(new URL(open.base).port);
    const fast = [];
    for (let i = 0; i < 3; i++)
      fast.push(await rawExchange(port, rawRequestBytes('POST', '/mcp', host, headers, body)));
    const full = await rawExchange(port, rawChunkedRequestBytes('POST', '/mcp', host, headers, body));
    for (const answer of fast) expect(withoutDate(answer)).toBe(withoutDate(full));
    return parseResponse(full);
  }

  it('tools/list, with ids of every kind', async () => {
    for (const id of [1, 0, 2 ** 53 - 1, 'a', '', 'quotes " and \\ and ünïcødé 🚀 \u2028']) {
      const { statusLine, body } = await expectSameBytes(message(id, 'tools/list'));
      expect(statusLine).toBe('HTTP/1.1 200 OK');
      expect(JSON.parse(body.toString('utf8')).id).toBe(id);
    }
  });

  for (const c of CALLS)
    it(`${c.tool} (gate off), with a number id and a string id`, async () => {
      for (const id of [7, 'call "7"']) {
        const { body } = await expectSameBytes(call(id, c.tool, c.args));
        const answer = JSON.parse(body.toString('utf8'));
        expect(answer.id).toBe(id);
        expect(answer.result.structuredContent).toEqual(
          'wrap' in c ? { [c.wrap]: JSON.parse(await restAnswer(c.path)) } : JSON.parse(await restAnswer(c.path)),
        );
      }
    });

  it('what the fast path leaves to the SDK is the same too: errors, malformed and unknown requests, other headers, a rebound Host', async () => {
    const { statusLine } = await expectSameBytes('{"jsonrpc":"2.0","id":1,"method":"tools/list"');
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    await expectSameBytes(call(1, 'get_premium', { state: 'TX', granularity: 'week' }));
    await expectSameBytes(call(1, 'get_weather', {}));
    await expectSameBytes(message(1, 'ping'));
    await expectSameBytes(`[${message(1, 'tools/list')}]`);
    await expectSameBytes(message(1, 'tools/list'), [...HEADERS, ['Mcp-Protocol-Version', '1999-01-01']]);
    await expectSameBytes(message(1, 'tools/list'), [HEADERS[1]]);
    const rebound = await expectSameBytes(message(1, 'tools/list'), HEADERS, 'evil.example');
    expect(rebound.statusLine).toBe('HTTP/1.1 403 Forbidden');
  });
});

describe.each([CLIENTS[0], CLIENTS[1]])(
  'x402 over MCP on the local chain (gate on), $kind (MCP $version)',
  ({ kind }) => {
    let client: ToolClient;
    beforeAll(async () => {
      client = await connect(gated.base, kind);
      await client.listTools();
    });
    afterAll(() => client?.close());

    const callPriced = (tool: string, args: Record<string, unknown>, payment?: unknown) =>
      client.callTool({
        name: tool,
        arguments: args,
        ...(payment === undefined ? {} : { _meta: { 'x402/payment': payment } }),
      }) as Promise<CallToolResult>;

    /** An unpaid call: the x402 terms as a tool error, no figure, nothing moved on chain. */
    async function terms(tool: string, args: Record<string, unknown>): Promise<PaymentRequired> {
      const before = await balances();
      const result = await callPriced(tool, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
      expect(pricedFiguresIn(textOf(result), priced)).toEqual([]);
      expect(await balances()).toEqual(before);
      return result.structuredContent as unknown as PaymentRequired;
    }

    for (const call of CALLS.filter((c) => contractOf(c.tool).priceUsd))
      it(`${call.tool}: unpaid, the terms; paid, the REST answer settled for exactly ${contractOf(call.tool).priceUsd} USD`, async () => {
        const required = await terms(call.tool, call.args);
        expect(required.x402Version).toBe(2);
        expect(required.resource?.url).toBe(`mcp://tool/${call.tool}`);
        expect(required.accepts[0]).toMatchObject({
          scheme: 'exact',
          network: 'eip155:8453',
          amount: String(atomic(call.tool)),
          payTo: chain.payee,
          asset: chain.usdc,
        });

        const before = await balances();
        const paid = await callPriced(call.tool, call.args, await createPayment(chain, required));
        expect(paid.isError).toBeFalsy();
        expect(paid.structuredContent).toEqual(JSON.parse(await restAnswer(call.path)));
        expectTextHolds(textOf(paid), paid.structuredContent);
        const receipt = paid._meta?.['x402/payment-response'] as {
          success: boolean;
          transaction: string;
          payer: string;
        };
        expect(receipt).toMatchObject({ success: true, network: 'eip155:8453', payer: chain.payer.address });
        expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
        expect(await balances()).toEqual({
          payee: before.payee + atomic(call.tool),
          payer: before.payer - atomic(call.tool),
        });
      });

    it('free tools stay free with the gate on', async () => {
      for (const call of CALLS.filter((c) => !contractOf(c.tool).priceUsd))
        expect((await callPriced(call.tool, call.args)).isError).toBeFalsy();
    });

    it('refuses a replay of a settled payment: terms again, no data, balances unchanged', async () => {
      const payment = await createPayment(chain, await terms('get_premium', { state: 'TX' }));
      expect((await callPriced('get_premium', { state: 'TX' }, payment)).isError).toBeFalsy();
      const before = await balances();
      const replay = await callPriced('get_premium', { state: 'TX' }, payment);
      expect(replay.isError).toBe(true);
      expect((replay.structuredContent as unknown as PaymentRequired).accepts.map((a) => a.scheme)).toEqual([
        'exact',
        'batch-settlement',
      ]);
      expect(pricedFiguresIn(textOf(replay), priced)).toEqual([]);
      expect(await balances()).toEqual(before);
    });

    it('refuses a 0.10 payment at the 0.50 tool, and a payment signed for less than it says', async () => {
      const dime = await createPayment(chain, await terms('get_premium', { state: 'TX' }));
      const compare = await terms('compare_states', { states: 'FL,TX' });
      const cheap = await createPayment(chain, compare, { amount: '1' }, { accepted: 'offered' });
      for (const payment of [dime, cheap] as PaymentPayload[]) {
        const before = await balances();
        const refused = await callPriced('compare_states', { states: 'FL,TX' }, payment);
        expect(refused.isError).toBe(true);
        expect(pricedFiguresIn(textOf(refused), priced)).toEqual([]);
        expect(await balances()).toEqual(before);
      }
    });

    it('a bad call carrying a valid payment is refused before payment: the payment stays unspent and pays later', async () => {
      const payment = await createPayment(chain, await terms('get_premium', { state: 'TX' }));
      const before = await balances();
      const bad = await callPriced('get_premium', { state: 'ZZ' }, payment);
      expect(JSON.parse(textOf(bad)).error.code).toBe('not_found');
      expect(await balances()).toEqual(before);
      expect((await callPriced('get_premium', { state: 'TX' }, payment)).isError).toBeFalsy();
      expect((await balances()).payee).toBe(before.payee + atomic('get_premium'));
    });

    it('an answer with no figure is given and not charged: no receipt, balances unchanged', async () => {
      const args = { state: 'TX', from: '1990-01', to: '1990-12' };
      const payment = await createPayment(chain, await terms('get_premium', args));
      const before = await balances();
      const empty = await callPriced('get_premium', args, payment);
      expect(empty.isError).toBeFalsy();
      expect(empty.structuredContent).toMatchObject({ data: [], publications: [] });
      expect(empty._meta?.['x402/payment-response']).toBeUndefined();
      expect(await balances()).toEqual(before);
    });
  },
);

// The Inspector in each era it negotiates: 'legacy' (a 2025 revision) and 'modern' (2026-07-28).
describe.each([
  { era: 'legacy', version: '2025-11-25' },
  { era: 'modern', version: '2026-07-28' },
])('the MCP Inspector CLI against the built server, --protocol-era $era', ({ era, version }) => {
  /** The CLI's JSON on stdout (and what it reports on stderr); a tool answering isError makes it exit non-zero (after printing the result). */
  const inspector = async (base: string, ...args: string[]) => {
    const { stdout, stderr, code } = await run(
      process.execPath,
      [INSPECTOR, '--cli', `${base}/mcp`, '--transport', 'http', '--protocol-era', era, ...args],
      { timeout: 60_000 },
    ).then(
      ({ stdout, stderr }) => ({ stdout, stderr, code: 0 }),
      (e: { stdout: string; stderr: string; code: number }) => e,
    );
    return { ...JSON.parse(stdout), exitCode: code, stderr };
  };

  it(`negotiates ${version}`, async () => {
    const { protocolVersion, serverInfo, exitCode } = await inspector(open.base, '--method', 'initialize');
    expect([protocolVersion, serverInfo.name, exitCode]).toEqual([version, 'surplus-lines-market-data', 0]);
  });

  it('lists every tool, with no schema portability error or warning (--strict)', async () => {
    const { tools, exitCode, stderr } = await inspector(open.base, '--method', 'tools/list', '--strict');
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(TOOL_ROUTES.map((r) => r.operationId).sort());
    expect(exitCode, stderr).toBe(0);
    // With findings, --strict lists each ("Error: tool …", "Warning: tool …") and ends with "N errors, M warnings across K tools.";
    // with none it prints nothing. The tools' schemas have none (issue 21: no `type` arrays, no untyped schema).
    const summary = /(\d+) errors?, (\d+) warnings?/.exec(stderr);
    const [errors, warnings] = summary ? [Number(summary[1]), Number(summary[2])] : [0, 0];
    expect({ errors, warnings }, stderr.slice(0, 2000)).toEqual({ errors: 0, warnings: 0 });
    expect(stderr).not.toMatch(/^(Error|Warning): tool/m);
  });

  for (const call of CALLS)
    it(`calls ${call.tool}`, async () => {
      const toolArgs = Object.entries(call.args).flatMap(([k, v]) => [
        '--tool-arg',
        `${k}=${Array.isArray(v) ? v.join(',') : v}`,
      ]);
      const result = await inspector(open.base, '--method', 'tools/call', '--tool-name', call.tool, ...toolArgs);
      expect(result.exitCode).toBe(0);
      const rest = JSON.parse(await restAnswer(call.path));
      expect(result.structuredContent).toEqual('wrap' in call ? { [call.wrap]: rest } : rest);
    });

  it("calls get_top_insurers for a period without a ranking: the route's 404 as a tool error", async () => {
    const result = await inspector(
      open.base,
      '--method',
      'tools/call',
      '--tool-name',
      'get_top_insurers',
      '--tool-arg',
      'state=FL',
      '--tool-arg',
      'period=2024-01',
    );
    expect([result.isError, result.exitCode]).toEqual([true, expect.any(Number)]);
    expect(result.exitCode).not.toBe(0);
    expect(JSON.parse(result.content[0].text)).toEqual(
      await (await callHandler('http://x/v1/insurers?state=FL&period=2024-01')).json(),
    );
  });

  it('gets the payment terms, and no figure, from a priced tool on the gated server', async () => {
    const { exitCode, ...result } = await inspector(
      gated.base,
      '--method',
      'tools/call',
      '--tool-name',
      'get_premium',
      '--tool-arg',
      'state=TX',
    );
    expect([result.isError, exitCode === 0]).toEqual([true, false]);
    const amount = String(atomic('get_premium'));
    expect(result.structuredContent).toMatchObject({
      x402Version: 2,
      accepts: [
        { scheme: 'exact', amount },
        { scheme: 'batch-settlement', amount },
      ],
    });
    expect(pricedFiguresIn(JSON.stringify(result), priced)).toEqual([]);
  });
});

/**
 * Checks of the conformance suite that cannot apply to this server, each with why: a diagnostic tool of the suite's
 * own test server that a data server does not have (the suite says "Not testable"), or a capability this server does
 * not declare (prompts, resources: their methods answer -32601, as the revision asks of a capability not declared).
 */
const NOT_APPLICABLE: Record<string, { why: string; says: RegExp }> = {
  'sep-2575-server-rejects-undeclared-capability': {
    why: "no tool needs a client capability (the suite's test_missing_capability)",
    says: /^Not testable/,
  },
  'sep-2575-missing-capability-http-400': { why: 'the same', says: /^Not testable/ },
  'sep-2575-http-server-no-independent-requests-on-stream': {
    why: "no answer is streamed (the suite's test_streaming_elicitation)",
    says: /^Not testable/,
  },
  'sep-2575-server-no-log-without-loglevel': {
    why: "no tool logs to the client (the suite's test_logging_tool)",
    says: /^Not testable/,
  },
  'sep-2549-prompts-list-caching-hints': { why: 'no prompts', says: /-32601/ },
  'sep-2549-resources-list-caching-hints': { why: 'no resources', says: /-32601/ },
  'sep-2549-resources-templates-list-caching-hints': { why: 'no resources', says: /-32601/ },
};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** One scenario of the conformance suite at one revision, against the built server: the checks it made. */
async function conformance(scenario: string, version: string): Promise<Check[]> {
  const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    await run(
      process.execPath,
      [
        CONFORMANCE,
        'server',
        '--url',
        `${open.base}/mcp`,
        '--scenario',
        scenario,
        '--spec-version',
        version,
        '-o',
        out,
      ],
      { timeout: 60_000 },
    ).catch(() => {});
    const [dir] = readdirSync(out);
    expect(dir, `no result for ${scenario} at ${version}`).toBeDefined();
    return JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Check[];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// The suite's server scenarios that a stateless, tools-only server can meet, at every revision the suite covers
// that has any (none of them applies to 2025-03-26 alone: its session lifecycle is skipped for a stateless server).
const SCENARIOS: [string, string][] = [
  ...['2025-06-18', '2025-11-25'].flatMap((v) =>
    ['server-initialize', 'ping', 'tools-list'].map((s): [string, string] => [v, s]),
  ),
  ['2025-11-25', 'dns-rebinding-protection'],
  ...['server-stateless', 'tools-list', 'caching', 'http-header-validation', 'dns-rebinding-protection'].map(
    (s): [string, string] => ['2026-07-28', s],
  ),
];

describe('the MCP conformance suite, server scenarios', () => {
  it.each(SCENARIOS)(
    '%s %s: every check passes, but those that cannot apply to this server',
    async (version, scenario) => {
      const checks = await conformance(scenario, version);
      expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0);
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      for (const c of failed) {
        expect(NOT_APPLICABLE[c.id], `${c.id}: ${c.errorMessage}`).toBeDefined();
        expect(c.errorMessage, `${c.id} is inapplicable only because ${NOT_APPLICABLE[c.id].why}`).toMatch(
          NOT_APPLICABLE[c.id].says,
        );
      }
    },
  );
});
