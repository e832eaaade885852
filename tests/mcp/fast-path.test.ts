// The MCP fast path (api/mcp/fast.ts) against the SDK path, in process: every request is answered twice
// as the Node server answers it (postAnswer: the first time by the SDK, which the fast path then keeps; the
// second from the kept bytes) and once by handleMcp (the SDK alone), and the three answers must be the same bytes:
// status, every header in order, body. The requests cover every tool (with figures on the fixture data),
// JSON-RPC ids of every kind, several spellings of the arguments and of the headers; and the requests the
// fast path must leave to the SDK (malformed, unknown, erroring, paying, batched, priced with the gate on)
// are shown to be answered by the SDK alone, nothing kept. The built server's own bytes are compared in
// tests/mcp/http.test.ts.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { handleMcp, mcpFastPath } from '../../api/mcp/handle-mcp.ts';
import type { McpFastPath } from '../../api/mcp/fast.ts';
import { installGate } from '../../api/payment/configured.ts';
import type { Gate } from '../../api/payment/gate.ts';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { viaFastPath } from '../support/mcp-fast.ts';
import { FIXTURE_CALLS } from '../support/mcp-calls.ts';
import { MCP_2026, envelopeOf, headersOf } from '../support/mcp-2026.ts';
import { FIXTURE_DATA, useShardsOf } from '../support/shards.ts';

const MCP_URL = 'http://127.0.0.1/mcp';
const HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
type Headers = Record<string, string>;

/** One call per tool, each answered 200 with figures on the fixture data: the first of each tool's fixture calls. */
const CALLS = FIXTURE_CALLS.filter((call, i, all) => all.findIndex((c) => c.tool === call.tool) === i);
const PRICED = new Set(ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => r.operationId));

/** JSON-RPC ids the SDK accepts: integers it takes (safe ones), strings of every kind. */
const IDS: (string | number)[] = [
  1,
  0,
  -7,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  '',
  'a',
  '1',
  'with "quotes", a \\ backslash and a / slash',
  'ünïcødé, 中文, 🚀',
  'line\nbreak\ttab\u2028\u2029 and \u0000 nul',
  '\ud800 lone surrogate',
  '{"result":1}',
  'x'.repeat(300),
];

const request = (body: string | Uint8Array<ArrayBuffer>, headers: Headers = HEADERS) =>
  new Request(MCP_URL, { method: 'POST', headers, body });
const message = (id: unknown, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const call = (id: unknown, tool: string, args?: unknown) =>
  message(id, 'tools/call', { name: tool, ...(args === undefined ? {} : { arguments: args }) });

interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}
async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, headers: [...response.headers], body: Buffer.from(await response.arrayBuffer()) };
}

let fast: McpFastPath;

/** The SDK's answer (no fast path), and the fast path's first and second answers, for the same request. */
async function threeWays(
  body: string | Uint8Array<ArrayBuffer>,
  headers: Headers = HEADERS,
): Promise<{ sdk: Answer; first: Answer; second: Answer }> {
  const sdk = await answerOf(await handleMcp(request(body, headers)));
  const first = await answerOf(await viaFastPath(fast, request(body, headers)));
  const second = await answerOf(await viaFastPath(fast, request(body, headers)));
  return { sdk, first, second };
}

/** Shown as text where a comparison fails. */
const shown = (a: Answer) => ({ status: a.status, headers: a.headers, body: a.body.toString('utf8').slice(0, 400) });

function expectSame(a: Answer, b: Answer) {
  expect(shown(b)).toEqual(shown(a));
  expect(b.body.equals(a.body), 'the same bytes').toBe(true);
}

/** The request is answered from kept bytes the second time, and all three answers are the same bytes. */
async function expectFast(body: string | Uint8Array<ArrayBuffer>, headers: Headers = HEADERS): Promise<Answer> {
  const { sdk, first, second } = await (async () => {
    const before = fast.stats.hits;
    const answers = await threeWays(body, headers);
    expect(fast.stats.hits, 'the second answer came from kept bytes').toBeGreaterThan(before);
    return answers;
  })();
  expectSame(sdk, first);
  expectSame(sdk, second);
  return sdk;
}

/** The request is the SDK's alone: nothing kept for it, no answer from kept bytes, the same bytes as without a fast path. */
async function expectSdk(body: string | Uint8Array<ArrayBuffer>, headers: Headers = HEADERS): Promise<Answer> {
  const before = { ...fast.stats, count: fast.count };
  const { sdk, first, second } = await threeWays(body, headers);
  expect(fast.stats.hits, 'no answer from kept bytes').toBe(before.hits);
  expect(fast.count, 'nothing kept').toBe(before.count);
  expectSame(sdk, first);
  expectSame(sdk, second);
  return sdk;
}

useShardsOf(FIXTURE_DATA);
beforeAll(() => installGate(null));
afterAll(() => installGate(undefined));

describe("answers from kept bytes are the SDK's, byte for byte", () => {
  beforeAll(() => {
    fast = mcpFastPath();
  });

  it('covers every tool with a call that has figures', () => {
    expect(CALLS.map((c) => c.tool).sort()).toEqual(TOOL_ROUTES.map((r) => r.operationId).sort());
  });

  it('tools/list, with every kind of id, without params and with empty params', async () => {
    for (const id of IDS) {
      const sdk = await expectFast(message(id, 'tools/list'));
      expect(sdk.status).toBe(200);
      expect(JSON.parse(sdk.body.toString('utf8')).id).toBe(id);
      await expectFast(message(id, 'tools/list', {}));
    }
    // One answer kept for each spelling of params, whatever the id.
    expect(fast.count).toBe(2);
  });

  it.each(CALLS)('$tool $args: a success, with every kind of id', async ({ tool, args }) => {
    for (const id of IDS) {
      const sdk = await expectFast(call(id, tool, args));
      const answer = JSON.parse(sdk.body.toString('utf8'));
      expect(answer.id).toBe(id);
      expect(answer.result.isError, sdk.body.toString('utf8').slice(0, 300)).toBeUndefined();
    }
  });

  it('a number id is echoed as JSON writes it: -0 as 0, an exponent as its integer', async () => {
    for (const id of ['-0', '1e3', '1E3', '100.0', '9007199254740991']) {
      const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_premium_sample","arguments":{"state":"IL"}}}`;
      const sdk = await expectFast(body);
      expect(sdk.body.toString('utf8')).toMatch(new RegExp(`"id":${JSON.stringify(JSON.parse(id))}}$`));
    }
  });

  it('argument spellings: key order, numbers or text, lists or text, escapes and white space each answered as the SDK does', async () => {
    const bodies = [
      call(5, 'get_summary', { state: 'IL', year: 2023 }),
      call(5, 'get_summary', { year: '2023', state: 'IL' }),
      call(5, 'get_summary', { year: 2023, state: 'il' }),
      call(5, 'compare_states', { states: ['FL', 'IL'], granularity: 'year' }),
      call(5, 'compare_states', { granularity: 'year', states: 'FL,IL' }),
      call(5, 'get_premium', { state: 'FL', county: null, granularity: 'quarter' }),
      call(5, 'get_premium_sample', {}),
      call(5, 'get_premium_sample'),
      call(5, 'get_coverage', { ignored: 'a route without parameters ignores a query string' }),
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_premium_sample","arguments":{"state":"\\u0049\\u004c"}}}',
      ' \n{ "params" : { "arguments" : { "state" : "IL" } , "name" : "get_premium_sample" } , "method" : "tools/call" , "id" : 5 , "jsonrpc" : "2.0" }\r\n ',
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_summary","arguments":{"state":"IL","year":2023.0}}}',
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_premium_sample","arguments":{"state":"FL","state":"IL"}}}',
    ];
    for (const body of bodies) await expectFast(body);
    for (const body of bodies)
      await expectFast(body.replace('"id":5', '"id":"five"').replace('"id" : 5', '"id" : "five"'));
  });

  it('header spellings the SDK accepts: Accept in either order or with parameters, JSON with a charset, each protocol version', async () => {
    const body = call('h', 'get_premium_sample', { state: 'IL' });
    const variants: Headers[] = [
      { ...HEADERS, Accept: 'text/event-stream, application/json' },
      { ...HEADERS, Accept: 'application/json;q=0.9, text/event-stream;q=0.5, */*' },
      { ...HEADERS, 'Content-Type': 'application/json; charset=utf-8' },
      { ...HEADERS, 'Content-Type': 'Application/JSON;charset=UTF-8' },
      { ...HEADERS, 'Mcp-Session-Id': 'ignored-by-a-stateless-server' },
      ...['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'].map((v) => ({
        ...HEADERS,
        'Mcp-Protocol-Version': v,
      })),
    ];
    for (const headers of variants) {
      const sdk = await expectFast(body, headers);
      expect(sdk.status).toBe(200);
    }
  });

  it('bodies decoded as the SDK decodes them: a byte-order mark dropped, bytes that are not UTF-8 replaced', async () => {
    await expectFast(`\ufeff${call(1, 'get_premium_sample', { state: 'IL' })}`);
    await expectFast(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('","method":"tools/list"}'),
      ]),
    );
  });

  it("many concurrent first calls: every answer the SDK's, one answer kept", async () => {
    const before = fast.count;
    const body = (id: number) => call(id, 'list_publications', { state: 'FL' });
    const sdk = await Promise.all(
      Array.from({ length: 12 }, async (_, id) => answerOf(await handleMcp(request(body(id))))),
    );
    const got = await Promise.all(
      Array.from({ length: 12 }, async (_, id) => answerOf(await viaFastPath(fast, request(body(id))))),
    );
    got.forEach((g, i) => expectSame(sdk[i], g));
    expect(fast.count).toBe(before + 1);
    expectSame(sdk[3], await answerOf(await viaFastPath(fast, request(body(3)))));
  });
});

describe('what the fast path leaves to the SDK', () => {
  // Successes kept first, so that a request the fast path took wrongly would be answered from them.
  beforeAll(async () => {
    fast = mcpFastPath();
    for (const body of [
      message(1, 'tools/list'),
      message(1, 'tools/list', {}),
      call(1, 'get_premium_sample', { state: 'IL' }),
      call(1, 'get_premium', { state: 'FL' }),
      call(1, 'get_summary', { state: 'IL', year: 2023 }),
    ])
      await expectFast(body);
  });

  const UNTOUCHED: { what: string; body: string | Uint8Array<ArrayBuffer>; headers?: Headers }[] = [
    { what: 'malformed JSON', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"' },
    { what: 'an empty body', body: '' },
    { what: 'a batch', body: `[${message(1, 'tools/list')}]` },
    { what: 'a batch of two', body: `[${message(1, 'tools/list')},${call(2, 'get_premium_sample', { state: 'IL' })}]` },
    { what: 'a notification', body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) },
    {
      what: 'initialize',
      body: message(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      }),
    },
    { what: 'ping', body: message(1, 'ping') },
    { what: 'an unknown method', body: message(1, 'resources/list') },
    { what: 'JSON-RPC 1.0', body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'tools/list' }) },
    { what: 'no jsonrpc', body: JSON.stringify({ id: 1, method: 'tools/list' }) },
    { what: 'a null id', body: message(null, 'tools/list') },
    { what: 'a fractional id', body: message(1.5, 'tools/list') },
    { what: 'an id past 2^53', body: '{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/list"}' },
    { what: 'an object id', body: message({ n: 1 }, 'tools/list') },
    { what: 'an extra member', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', extra: true }) },
    { what: 'tools/list with a cursor', body: message(1, 'tools/list', { cursor: 'x' }) },
    { what: 'tools/list with _meta', body: message(1, 'tools/list', { _meta: { progressToken: 1 } }) },
    { what: 'params that are a list', body: message(1, 'tools/list', []) },
    { what: 'null params', body: message(1, 'tools/call', null) },
    { what: 'tools/call without params', body: message(1, 'tools/call') },
    { what: 'an unknown tool', body: call(1, 'get_weather', { state: 'FL' }) },
    { what: 'a tool name that is not a string', body: message(1, 'tools/call', { name: 7 }) },
    { what: 'arguments that are a list', body: call(1, 'get_premium_sample', ['IL']) },
    { what: 'arguments that are a string', body: call(1, 'get_premium_sample', 'IL') },
    { what: 'an unknown argument', body: call(1, 'get_premium', { state: 'FL', bogus: '1' }) },
    { what: 'a malformed argument', body: call(1, 'get_premium_sample', { state: 'Florida' }) },
    { what: 'an unknown state (404)', body: call(1, 'list_lines', { state: 'ZZ' }) },
    { what: 'a missing required argument', body: call(1, 'get_summary', { state: 'IL' }) },
    { what: 'format (not a tool parameter)', body: call(1, 'get_premium', { state: 'FL', format: 'csv' }) },
    {
      what: 'an argument that overflows to Infinity',
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_summary","arguments":{"state":"IL","year":1e400}}}',
    },
    {
      what: 'a payment in _meta',
      body: message(1, 'tools/call', {
        name: 'get_premium',
        arguments: { state: 'FL' },
        _meta: { 'x402/payment': { x402Version: 2 } },
      }),
    },
    {
      what: 'a progress token in _meta (free tool)',
      body: message(1, 'tools/call', {
        name: 'get_premium_sample',
        arguments: { state: 'IL' },
        _meta: { progressToken: 1 },
      }),
    },
    {
      what: 'a task',
      body: message(1, 'tools/call', { name: 'get_premium_sample', arguments: { state: 'IL' }, task: { ttl: 1000 } }),
    },
    {
      what: 'Content-Type text/plain',
      body: message(1, 'tools/list'),
      headers: { ...HEADERS, 'Content-Type': 'text/plain' },
    },
    {
      what: 'Content-Type JSON with another parameter',
      body: message(1, 'tools/list'),
      headers: { ...HEADERS, 'Content-Type': 'application/json; profile=x' },
    },
    { what: 'Content-Type missing', body: message(1, 'tools/list'), headers: { Accept: HEADERS.Accept } },
    {
      what: 'Accept without the event stream',
      body: message(1, 'tools/list'),
      headers: { ...HEADERS, Accept: 'application/json' },
    },
    { what: 'Accept missing', body: message(1, 'tools/list'), headers: { 'Content-Type': 'application/json' } },
    {
      what: 'an unsupported protocol version',
      body: message(1, 'tools/list'),
      headers: { ...HEADERS, 'Mcp-Protocol-Version': '2023-01-01' },
    },
    {
      what: 'an empty protocol version',
      body: message(1, 'tools/list'),
      headers: { ...HEADERS, 'Mcp-Protocol-Version': '' },
    },
    { what: 'a body over 64 KiB', body: message(1, 'tools/list', { pad: 'x'.repeat(64 * 1024) }) },
  ];

  it.each(UNTOUCHED)("$what: the SDK's answer, nothing kept", async ({ body, headers }) => {
    await expectSdk(body, headers);
  });

  it('an erroring call is never kept, however often it comes, and a success with the same tool still is', async () => {
    for (let i = 0; i < 3; i++) await expectSdk(call(i, 'get_premium', { state: 'ZZ' }));
    const before = fast.count;
    await expectFast(call(9, 'get_premium', { state: 'FL', granularity: 'year' }));
    expect(fast.count).toBe(before + 1);
  });

  it('a kept success does not answer a call whose arguments JSON would write the same (1e400 parses as Infinity, written null)', async () => {
    await expectFast(call(1, 'get_premium', { state: 'FL', from: null }));
    await expectSdk(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_premium","arguments":{"state":"FL","from":1e400}}}',
    );
    await expectSdk(
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_premium","arguments":{"state":"FL","from":-1e400}}}',
    );
  });
});

describe('verdicts remembered by shape (the body with its id cut out, and the headers the checks read)', () => {
  beforeAll(() => {
    fast = mcpFastPath();
  });
  const list = (members: string) => `{${members}}`;
  /** The id JSON.parse takes from a body: the one the answer must carry. */
  const idOf = (answer: Answer) => JSON.parse(answer.body.toString('utf8')).id;

  it("one shape with many ids, the id anywhere among the members and spaced around its colon: each answer the SDK's, with its own id", async () => {
    for (const id of [1, 2, 'two', 7, '', -3]) {
      const value = JSON.stringify(id);
      for (const body of [
        list(`"jsonrpc":"2.0","id":${value},"method":"tools/list"`),
        list(`"id":${value},"jsonrpc":"2.0","method":"tools/list"`),
        list(`"jsonrpc":"2.0","method":"tools/list" , "id" :\t${value} `),
      ])
        expect(idOf(await expectFast(body))).toBe(id);
    }
  });

  it('"id" twice at the top (JSON.parse takes the last): answered with the last, whichever came first', async () => {
    for (const [a, b] of [
      [1, 2],
      [2, 1],
      [3, 3],
      [1, 4],
    ]) {
      const answer = await expectFast(list(`"jsonrpc":"2.0","id":${a},"method":"tools/list","id":${b}`));
      expect(idOf(answer)).toBe(b);
    }
  });

  it('"id" also spelled with an escape ("\\u0069d"): after a shape is seen with both ids equal, another plain id does not take the answer', async () => {
    // Were the verdict kept for the shape seen first, the second request would be answered with id 2.
    for (const [plain, escaped] of [
      [1, 1],
      [2, 1],
      [1, 5],
      [5, 5],
      [6, 5],
    ]) {
      expect(
        idOf(await expectFast(list(`"jsonrpc":"2.0","id":${plain},"method":"tools/list","\\u0069d":${escaped}`))),
      ).toBe(escaped);
      expect(
        idOf(await expectFast(list(`"\\u0069d":${escaped},"jsonrpc":"2.0","id":${plain},"method":"tools/list"`))),
      ).toBe(plain);
    }
  });

  it("a shape seen with an id the fast path takes, then with ids it does not take or JSON does not read: the SDK's answers, nothing kept for them", async () => {
    const body = (id: string) =>
      list(
        `"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_premium_sample","arguments":{"state":"IL"}}`,
      );
    await expectFast(body('1'));
    for (const id of [
      '1.5',
      '-1.25e-1',
      '9007199254740993',
      'true',
      'null',
      '{"n":1}',
      '[1]',
      '01',
      '1-',
      '--1',
      '1e',
      '"\\x"',
      '"a\tb"',
    ])
      await expectSdk(body(id));
    await expectFast(body('"back to a string"'));
  });

  it('the same body under other headers is judged again: a 2025 body with the Accept or Content-Type the SDK refuses, a 2026 one with a header that contradicts it', async () => {
    const body = list(`"jsonrpc":"2.0","id":1,"method":"tools/list"`);
    await expectFast(body);
    await expectSdk(body, { 'Content-Type': 'application/json', Accept: 'application/json' });
    await expectSdk(body, { ...HEADERS, 'Content-Type': 'text/plain' });
    const modern = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_premium_sample', arguments: { state: 'IL' }, _meta: envelopeOf('shape-test') },
    });
    const headers = { ...HEADERS, ...headersOf('tools/call', { name: 'get_premium_sample' }) };
    await expectFast(modern, headers);
    await expectSdk(modern, { ...headers, 'Mcp-Name': 'get_premium' });
    await expectSdk(modern, { ...headers, 'Mcp-Method': 'tools/list' });
  });

  it('random bodies of one family, one after another (ids of every kind and spelling, "id" escaped or twice, members in any order and spacing): every answer the SDK\'s', async () => {
    const idText = fc.oneof(
      fc.integer().map(String),
      fc.constantFrom('1', '2', '"a"', '1e0', '1.0', '-0', '01', '1.5', '"\\u0031"', 'true', 'null', '[]', '{}'),
      fc.string().map((text) => JSON.stringify(text)),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(
        idText,
        idText,
        fc.constantFrom('"id"', '"\\u0069d"', '"i\\u0064"'),
        fc.boolean(),
        fc.constantFrom('', ' ', '\n\t'),
        fc.nat(2),
        async (id, other, spelling, twice, space, at) => {
          const members = ['"jsonrpc":"2.0"', '"method":"tools/list"'];
          members.splice(at, 0, `"id"${space}:${space}${id}`);
          if (twice) members.push(`${spelling}:${other}`);
          const { sdk, first, second } = await threeWays(`{${members.join(`,${space}`)}}`);
          expectSame(sdk, first);
          expectSame(sdk, second);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a body longer than the shapes remembered (4 KiB) is checked whole every time, and answered alike', async () => {
    for (const id of [1, 2])
      expect(idOf(await expectFast(list(`"jsonrpc":"2.0","id":${id},"method":"tools/list"${' '.repeat(5000)}`)))).toBe(
        id,
      );
  });
});

describe('MCP 2026-07-28 requests (the envelope in _meta, the headers repeating the body)', () => {
  const ENVELOPE = envelopeOf('fast-path-test');
  /** A 2026 request's body, and the headers its body implies. */
  const modern = (
    id: unknown,
    method: string,
    params: Record<string, unknown> = {},
    meta: Record<string, unknown> = ENVELOPE,
  ) => ({
    body: message(id, method, { ...params, _meta: meta }),
    headers: { ...HEADERS, ...headersOf(method, params) } as Headers,
  });

  beforeAll(() => {
    fast = mcpFastPath();
  });

  it("tools/list and every tool, with every kind of id: kept, and the same bytes as the SDK's", async () => {
    for (const id of IDS) {
      const { body, headers } = modern(id, 'tools/list');
      const sdk = await expectFast(body, headers);
      const answer = JSON.parse(sdk.body.toString('utf8'));
      expect([answer.id, answer.result.resultType]).toEqual([id, 'complete']);
    }
    for (const { tool, args } of CALLS) {
      const { body, headers } = modern(7, 'tools/call', { name: tool, arguments: args });
      const answer = JSON.parse((await expectFast(body, headers)).body.toString('utf8'));
      expect(answer.result.resultType).toBe('complete');
    }
  });

  it('a 2026 answer never answers a 2025 request, nor the reverse: each era keeps its own', async () => {
    const args = { name: 'get_premium_sample', arguments: { state: 'FL' } };
    const old = JSON.parse((await expectFast(message(3, 'tools/call', args))).body.toString('utf8'));
    const { body, headers } = modern(3, 'tools/call', args);
    const now = JSON.parse((await expectFast(body, headers)).body.toString('utf8'));
    expect([old.result.resultType, now.result.resultType]).toEqual([undefined, 'complete']);
    expect(now.result.structuredContent).toEqual(old.result.structuredContent);
  });

  it("headers in another case or order, Accept of JSON alone or none: kept, the SDK's bytes", async () => {
    const { body, headers } = modern(4, 'tools/call', { name: 'list_lines', arguments: { state: 'FL' } });
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    await expectFast(body, lower);
    await expectFast(body, { ...headers, Accept: 'application/json' });
    const { Accept: _accept, ...noAccept } = headers;
    await expectFast(body, noAccept);
  });

  const SDK_ONLY: { what: string; sent: () => { body: string; headers: Headers } }[] = [
    {
      what: 'Mcp-Method naming another method',
      sent: () => ({
        ...modern(1, 'tools/list'),
        headers: { ...modern(1, 'tools/list').headers, 'Mcp-Method': 'tools/call' },
      }),
    },
    {
      what: 'no Mcp-Method',
      sent: () => {
        const { 'Mcp-Method': _m, ...headers } = modern(1, 'tools/list').headers;
        return { body: modern(1, 'tools/list').body, headers };
      },
    },
    {
      what: 'Mcp-Name naming another tool',
      sent: () => {
        const m = modern(1, 'tools/call', { name: 'get_coverage', arguments: {} });
        return { body: m.body, headers: { ...m.headers, 'Mcp-Name': 'list_lines' } };
      },
    },
    {
      what: 'Mcp-Name base64-encoded (=?base64?...?=)',
      sent: () => {
        const m = modern(1, 'tools/call', { name: 'get_coverage', arguments: {} });
        return {
          body: m.body,
          headers: { ...m.headers, 'Mcp-Name': `=?base64?${Buffer.from('get_coverage').toString('base64')}?=` },
        };
      },
    },
    {
      what: "MCP-Protocol-Version other than the envelope's",
      sent: () => {
        const m = modern(1, 'tools/list');
        return { body: m.body, headers: { ...m.headers, 'MCP-Protocol-Version': '2025-11-25' } };
      },
    },
    {
      what: 'an envelope for a version not spoken',
      sent: () => {
        const m = modern(1, 'tools/list', {}, { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' });
        return { body: m.body, headers: { ...m.headers, 'MCP-Protocol-Version': '2027-01-01' } };
      },
    },
    {
      what: "an envelope without the client's capabilities",
      sent: () => modern(1, 'tools/list', {}, { 'io.modelcontextprotocol/protocolVersion': MCP_2026 }),
    },
    {
      what: 'a progress token beside the envelope',
      sent: () => modern(1, 'tools/call', { name: 'get_coverage', arguments: {} }, { ...ENVELOPE, progressToken: 1 }),
    },
    {
      what: 'a payment beside the envelope',
      sent: () =>
        modern(
          1,
          'tools/call',
          { name: 'get_premium', arguments: { state: 'FL' } },
          { ...ENVELOPE, 'x402/payment': { x402Version: 2 } },
        ),
    },
    { what: 'server/discover', sent: () => modern(1, 'server/discover') },
    { what: 'a removed method (ping)', sent: () => modern(1, 'ping') },
    { what: 'an unknown tool', sent: () => modern(1, 'tools/call', { name: 'get_weather', arguments: {} }) },
    {
      what: 'a malformed argument',
      sent: () => modern(1, 'tools/call', { name: 'get_premium_sample', arguments: { state: 'Florida' } }),
    },
  ];

  it.each(SDK_ONLY)("$what: the SDK's answer, nothing kept", async ({ sent }) => {
    const { body, headers } = sent();
    await expectSdk(body, headers);
  });
});

describe('the payment gate', () => {
  /** A gate that is on: every priced call is "unavailable" (a tool error), without any payment stack. */
  const GATE = {
    chargeCall: async () => ({ kind: 'unavailable', message: 'the facilitator is unreachable (test gate)' }),
  } as unknown as Gate;
  beforeAll(() => {
    fast = mcpFastPath();
  });
  afterEach(() => installGate(null));

  it("gate off, a priced call is kept; gate on, the same call is the SDK's (the gate's answer), free calls and tools/list still kept", async () => {
    const priced = call(1, 'get_summary', { state: 'IL', year: '2023' });
    const free = call(1, 'get_premium_sample', { state: 'IL' });
    const list = message(1, 'tools/list');
    for (const body of [priced, free, list]) await expectFast(body);
    installGate(GATE);
    const gated = await expectSdk(priced);
    expect(JSON.parse(gated.body.toString('utf8')).result).toMatchObject({ isError: true });
    expect(gated.body.toString('utf8')).toContain('test gate');
    await expectFast(free);
    await expectFast(list);
    installGate(null);
    await expectFast(priced);
  });

  it.each(CALLS.filter((c) => PRICED.has(c.tool)))(
    'gate on: $tool is never answered from kept bytes, nor kept',
    async ({ tool, args }) => {
      installGate(GATE);
      await expectSdk(call(2, tool, args));
    },
  );
});

describe('bounded', () => {
  it("the kept answers never weigh more than the limit: the oldest go first, answers stay the SDK's", async () => {
    const free = CALLS.filter((c) => !PRICED.has(c.tool));
    const all = mcpFastPath();
    for (const { tool, args } of free) await viaFastPath(all, request(call(1, tool, args)));
    expect(all.count).toBe(free.length);
    const limit = Math.floor(all.size / 2);
    fast = mcpFastPath(limit);
    for (const { tool, args } of free) {
      const { sdk, first, second } = await threeWays(call(1, tool, args));
      expectSame(sdk, first);
      expectSame(sdk, second);
      expect(fast.size).toBeLessThanOrEqual(limit);
    }
    expect(fast.count).toBeGreaterThan(0);
    expect(fast.count).toBeLessThan(free.length);
    // The newest is still kept, the oldest is not.
    const hits = fast.stats.hits;
    await viaFastPath(fast, request(call(2, free.at(-1)!.tool, free.at(-1)!.args)));
    expect(fast.stats.hits).toBe(hits + 1);
    await viaFastPath(fast, request(call(2, free[0].tool, free[0].args)));
    expect(fast.stats.hits).toBe(hits + 1);
  });
});
