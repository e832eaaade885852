// MCP 2026-07-28 on the wire, in process (handleMcp, no socket): the stateless revision's own rules, read from its
// specification (modelcontextprotocol/modelcontextprotocol, docs/specification/2026-07-28: basic/index,
// basic/versioning, basic/transports/streamable-http, server/tools, schema.ts), not from this server's code:
// `server/discover`, `resultType` on every result, the list's cache hints, the envelope in `_meta` and the headers
// that must repeat the body, each refusal's JSON-RPC code and HTTP status, no session, tools in one fixed order.
// Beside it, the same requests in a 2025 revision must keep their 2025 answers. The REST route's answer is
// computed in the same test for the figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS_LIST_MAX_BYTES, handleMcp } from '../../api/mcp/handle-mcp.ts';
import { installGate } from '../../api/payment/configured.ts';
import { TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { callHandler } from '../support/handlers.ts';
import { MCP_2026, envelopeOf, headersOf } from '../support/mcp-2026.ts';
import { FIXTURE_DATA, useShardsOf } from '../support/shards.ts';

const MCP_URL = 'http://127.0.0.1/mcp';
const VERSION = MCP_2026;
const ENVELOPE = envelopeOf('modern-test');

type Json = Record<string, any>;
interface Sent {
  method: string;
  params?: Json;
  id?: unknown;
  /** Headers to send instead of (or, as undefined, without) the ones the body implies. */
  headers?: Record<string, string | undefined>;
}

/** A 2026-07-28 request: the envelope in `_meta`, and the headers the transport requires, derived from the body. */
async function modern({
  method,
  params = {},
  id = 1,
  headers = {},
}: Sent): Promise<{ status: number; headers: Headers; body: Json; bytes: number }> {
  const implied: Record<string, string | undefined> = {
    Accept: 'application/json, text/event-stream',
    'Content-Type': 'application/json',
    ...headersOf(method, params),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(implied).filter((e): e is [string, string] => e[1] !== undefined));
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: { ...ENVELOPE, ...params._meta } },
  });
  const response = await handleMcp(new Request(MCP_URL, { method: 'POST', headers: sent, body }));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

/** The same request in a 2025 revision (no envelope; the version in its header). */
async function legacy(method: string, params?: Json, version = '2025-11-25'): Promise<Json> {
  const response = await handleMcp(
    new Request(MCP_URL, {
      method: 'POST',
      headers: {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        'MCP-Protocol-Version': version,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
    }),
  );
  expect(response.status).toBe(200);
  return response.json();
}

const DAY_MS = 24 * 60 * 60 * 1000;

useShardsOf(FIXTURE_DATA);
beforeAll(() => installGate(null));
afterAll(() => installGate(undefined));

describe('MCP 2026-07-28: discovery, lists and calls', () => {
  it('server/discover names the revision, the tools capability and the server, with cache hints', async () => {
    const { status, headers, body } = await modern({ method: 'server/discover' });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('mcp-session-id')).toBeNull();
    expect(body.id).toBe(1);
    const result = body.result;
    expect(result.supportedVersions).toContain(VERSION);
    expect(result.capabilities.tools).toBeDefined();
    expect(result.capabilities.logging).toBeUndefined();
    expect(result.resultType).toBe('complete');
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'surplus-lines-market-data' });
    // The tools change only with a new deployment: a client may keep what it read for a day, and share it.
    expect([result.ttlMs, result.cacheScope]).toEqual([DAY_MS, 'public']);
  });

  it('tools/list: every tool of the contract, in one order on every list and in every era, with resultType and the cache hints', async () => {
    const first = await modern({ method: 'tools/list' });
    expect(first.status).toBe(200);
    const { tools, resultType, ttlMs, cacheScope, nextCursor } = first.body.result;
    expect(tools.map((t: Json) => t.name).sort()).toEqual(TOOL_ROUTES.map((r) => r.operationId).sort());
    expect([resultType, ttlMs, cacheScope, nextCursor]).toEqual(['complete', DAY_MS, 'public', undefined]);
    // What every 2026 session loads before its first call, held to the same budget as the 2025 list (issue 21).
    expect(first.bytes).toBeLessThanOrEqual(TOOLS_LIST_MAX_BYTES);
    const again = await modern({ method: 'tools/list', id: 'second' });
    expect(again.body.result.tools).toEqual(tools);
    // The tools are the 2025 revisions' tools, word for word; only the 2026 fields are added.
    const old = (await legacy('tools/list')).result;
    expect(tools).toEqual(old.tools);
    expect([old.resultType, old.ttlMs, old.cacheScope, old._meta]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("tools/call answers the REST twin's JSON as structuredContent, with resultType and no cache hints", async () => {
    const { status, body } = await modern({
      method: 'tools/call',
      params: { name: 'get_premium_sample', arguments: { state: 'IL' } },
    });
    expect(status).toBe(200);
    const rest = await callHandler('http://localhost/v1/premium/sample?state=IL');
    expect(body.result.structuredContent).toEqual(await rest.json());
    expect(body.result.resultType).toBe('complete');
    expect(body.result.isError).toBeUndefined();
    expect([body.result.ttlMs, body.result.cacheScope]).toEqual([undefined, undefined]);
    expect(
      (await legacy('tools/call', { name: 'get_premium_sample', arguments: { state: 'IL' } })).result.structuredContent,
    ).toEqual(body.result.structuredContent);
  });

  it("a tool's own error is a result with isError, as in 2025 (the route's message), not a JSON-RPC error", async () => {
    const { status, body } = await modern({
      method: 'tools/call',
      params: { name: 'get_premium', arguments: { state: 'Florida' } },
    });
    expect(status).toBe(200);
    expect(body.result.isError).toBe(true);
    expect(JSON.parse(body.result.content[0].text).error.message).toMatch(/state/);
  });

  it('an unknown tool is -32602 naming the tools', async () => {
    const { body } = await modern({ method: 'tools/call', params: { name: 'get_weather', arguments: {} } });
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toContain('get_premium');
  });
});

describe('MCP 2026-07-28: each refusal with its code and status', () => {
  const refused = async (sent: Sent, status: number, code: number) => {
    const answer = await modern(sent);
    expect([answer.status, answer.body.error?.code], JSON.stringify(answer.body)).toEqual([status, code]);
    expect(answer.body.result).toBeUndefined();
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    return answer.body.error;
  };

  it('a version this server does not speak: 400, -32022, saying which it does', async () => {
    const error = await refused(
      {
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
        headers: { 'MCP-Protocol-Version': '2027-01-01' },
      },
      400,
      -32022,
    );
    expect(error.data.supported).toContain(VERSION);
    expect(error.data.requested).toBe('2027-01-01');
  });

  it("MCP-Protocol-Version other than the envelope's, or missing: 400, -32020", async () => {
    await refused({ method: 'tools/list', headers: { 'MCP-Protocol-Version': '2025-11-25' } }, 400, -32020);
    await refused({ method: 'tools/list', headers: { 'MCP-Protocol-Version': undefined } }, 400, -32020);
  });

  it('Mcp-Method other than the method, or missing: 400, -32020', async () => {
    await refused({ method: 'tools/list', headers: { 'Mcp-Method': 'tools/call' } }, 400, -32020);
    await refused({ method: 'tools/list', headers: { 'Mcp-Method': 'Tools/List' } }, 400, -32020);
    await refused({ method: 'tools/list', headers: { 'Mcp-Method': undefined } }, 400, -32020);
  });

  it('Mcp-Name other than the tool called, or missing: 400, -32020 (nothing computed, nothing charged)', async () => {
    const params = { name: 'get_premium_sample', arguments: { state: 'IL' } };
    await refused({ method: 'tools/call', params, headers: { 'Mcp-Name': 'get_premium' } }, 400, -32020);
    await refused({ method: 'tools/call', params, headers: { 'Mcp-Name': undefined } }, 400, -32020);
  });

  it("an envelope without the client's capabilities: 400, -32602", async () => {
    const answer = await handleMcp(
      new Request(MCP_URL, {
        method: 'POST',
        headers: {
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
          'MCP-Protocol-Version': VERSION,
          'Mcp-Method': 'tools/list',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } },
        }),
      }),
    );
    expect([answer.status, (await answer.json()).error.code]).toEqual([400, -32602]);
  });

  it('a method this server does not implement: 404, -32601 (and so are the methods 2026-07-28 removed)', async () => {
    for (const method of ['resources/list', 'prompts/list', 'ping', 'logging/setLevel'])
      await refused({ method }, 404, -32601);
  });

  it('GET and DELETE: 405, no stream opened', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await handleMcp(new Request(MCP_URL, { method, headers: { 'MCP-Protocol-Version': VERSION } }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('a batch holding a 2026-07-28 request: 400, -32600 (the revision has no batches); a body over 64 KiB: 413, unread', async () => {
    const headers = {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': VERSION,
      'Mcp-Method': 'tools/list',
    };
    const one = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } };
    const batch = await handleMcp(new Request(MCP_URL, { method: 'POST', headers, body: JSON.stringify([one]) }));
    expect([batch.status, (await batch.json()).error.code]).toEqual([400, -32600]);
    const big = await handleMcp(
      new Request(MCP_URL, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...one, params: { ...one.params, pad: 'x'.repeat(65 * 1024) } }),
      }),
    );
    expect(big.status).toBe(413);
    expect((await big.json()).result).toBeUndefined();
  });

  it('CORS lets a browser client send the headers the revision requires', async () => {
    const response = await handleMcp(new Request(MCP_URL, { method: 'OPTIONS' }));
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['mcp-protocol-version', 'mcp-method', 'mcp-name', 'content-type']));
  });
});

describe('the 2025 revisions on the same endpoint', () => {
  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])(
    '%s: initialize answers that version, and a list carries no 2026 field',
    async (version) => {
      const response = await handleMcp(
        new Request(MCP_URL, {
          method: 'POST',
          headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
          }),
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const { result } = await response.json();
      expect(result.protocolVersion).toBe(version);
      expect(result.resultType).toBeUndefined();
      const list = (await legacy('tools/list', undefined, version)).result;
      expect(list.tools.map((t: Json) => t.name)).toEqual(
        (await modern({ method: 'tools/list' })).body.result.tools.map((t: Json) => t.name),
      );
      expect([list.resultType, list.ttlMs, list.cacheScope]).toEqual([undefined, undefined, undefined]);
    },
  );
});
