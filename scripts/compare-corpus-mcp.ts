// The MCP part of scripts/compare-servers.ts's corpus: POST /mcp in the 2025 revisions (no initialize needed: the
// server is stateless) and in 2026-07-28 (its envelope in `_meta`, the headers repeating the body), tools/list, a
// call of every tool, asked again (a kept answer) and with a chunked body (always the SDK's path), and the requests
// the tests send to its refusals (tests/mcp/http.test.ts, tests/mcp/fast-path.test.ts).
import { exampleQuery } from '../api/llms.ts';
import { TOOL_ROUTES } from '../domain/route-contracts.ts';
import { MCP_2026, envelopeOf, headersOf } from '../tests/support/mcp-2026.ts';
import { rawChunkedRequestBytes, rawRequestBytes } from '../tests/support/raw-http.ts';
import { type HeaderList, ask } from './compare-corpus.ts';
import type { Case } from './compare-wire.ts';

const BASE: HeaderList = [
  ['Accept', 'application/json, text/event-stream'],
  ['Content-Type', 'application/json'],
];
const VERSION_HEADER = 'MCP-Protocol-Version';
const V2025: HeaderList = [...BASE, [VERSION_HEADER, '2025-11-25']];

type Json = Record<string, unknown>;
const rpc = (id: unknown, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

interface PostOptions {
  /** Another Host than the server's own. */
  host?: string;
  /** The body sent chunked: never answered from kept bytes, always by the SDK. */
  chunked?: boolean;
}

/** A POST /mcp, its body sent with a Content-Length (or chunked), Host the server's own unless given. */
const post = (name: string, body: string, headers = V2025, more: PostOptions = {}): Case => ({
  name: `MCP ${name}`,
  requests: (t) => {
    const bytes = more.chunked ? rawChunkedRequestBytes : rawRequestBytes;
    return [bytes('POST', '/mcp', more.host ?? t.host, headers, body)];
  },
});

/** A 2026-07-28 request's body and headers. */
interface Sent {
  body: string;
  headers: HeaderList;
}

/** What a 2026 request changes from its form: its `_meta`, headers replaced (or, null, left out), names lower-cased. */
interface Change {
  meta?: Json;
  headers?: Record<string, string | null>;
  lowerCase?: boolean;
}

/** A 2026-07-28 request: the envelope in `_meta`, and the headers its body implies, with any changed. */
function modern(method: string, params: Json = {}, change: Change = {}): Sent {
  const implied: Record<string, string | null> = { ...headersOf(method, params), ...change.headers };
  const given = Object.entries(implied).filter((e): e is [string, string] => e[1] !== null);
  const headers = [...BASE, ...given].map(([k, v]): [string, string] => [change.lowerCase ? k.toLowerCase() : k, v]);
  return { body: rpc(1, method, { ...params, _meta: change.meta ?? envelopeOf('compare-servers') }), headers };
}

/** Every tool with its route's example as arguments, and further calls with figures on the real data. */
function toolCalls(): { tool: string; args: Json }[] {
  // A tool answers JSON (and its text): `format` is the HTTP route's alone.
  const argsOf = (query: string) => Object.fromEntries([...new URLSearchParams(query)].filter(([k]) => k !== 'format'));
  const examples = TOOL_ROUTES.map((r) => ({ tool: r.operationId, args: argsOf(exampleQuery(r)) }));
  return [
    ...examples,
    { tool: 'list_publications', args: { state: 'TX' } },
    { tool: 'get_premium', args: { state: 'TX', granularity: 'year' } },
    { tool: 'get_premium', args: { state: 'FL', granularity: 'quarter', from: '2024-01', to: '2024-12' } },
    { tool: 'get_summary', args: { state: 'TX', year: 2025 } },
    { tool: 'compare_states', args: { states: ['FL', 'TX'], granularity: 'half_year' } },
    { tool: 'get_top_insurers', args: { state: 'US', period: '2022' } },
    { tool: 'list_enforcement_actions', args: { action_type: 'fine' } },
    { tool: 'list_rate_filings', args: { state: 'TX' } },
    { tool: 'get_rate_activity', args: {} },
    { tool: 'get_eligibility', args: {} },
  ];
}

/** Requests in a 2025 revision: lists in every version, calls (again, and chunked), and what is refused. */
function legacyCases(): Case[] {
  const list = rpc(1, 'tools/list');
  const versions = [null, '2025-03-26', '2025-06-18', '2025-11-25'].map((v) =>
    post(`tools/list [version ${v ?? 'none'}]`, list, v ? [...BASE, ['MCP-Protocol-Version', v]] : BASE),
  );
  const ids = [0, 2 ** 53 - 1, 'a', '', 'quotes " and \\ and ünïcødé 🚀'].map((id) =>
    post(`tools/list [id ${JSON.stringify(id)}]`, rpc(id, 'tools/list')),
  );
  const calls = toolCalls().flatMap(({ tool, args }) => {
    const body = rpc(7, 'tools/call', { name: tool, arguments: args });
    const what = `tools/call ${tool} ${JSON.stringify(args)}`;
    return [post(what, body), post(`${what} (again)`, body), post(`${what} (chunked)`, body, V2025, { chunked: true })];
  });
  const call = (tool: string, args: Json, id: unknown = 1) => rpc(id, 'tools/call', { name: tool, arguments: args });
  const json: HeaderList = [['Content-Type', 'application/json']];
  const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'compare', version: '1' } };
  const refused: Case[] = [
    post('tools/call get_coverage [id "call 7"]', call('get_coverage', {}, 'call 7')),
    post('tools/call get_premium, a bad argument', call('get_premium', { state: 'TX', granularity: 'week' })),
    post('tools/call get_summary, an unknown state', call('get_summary', { state: 'ZZ', year: '2024' })),
    post('tools/call get_premium, an unknown argument', call('get_premium', { state: 'TX', foo: 1 })),
    post('tools/call an unknown tool', call('get_weather', {})),
    post('a malformed body', '{"jsonrpc":"2.0","id":1,"method":"tools/list"'),
    post('a malformed body (chunked)', '{"jsonrpc":"2.0","id":1,"method":"tools/list"', V2025, { chunked: true }),
    post('an empty body', ''),
    post('a batch', `[${list}]`),
    post('initialize', rpc(1, 'initialize', init)),
    post('notifications/initialized', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })),
    post('ping', rpc(1, 'ping')),
    post('an unknown method', rpc(1, 'resources/list')),
    post('tools/list, version 1999-01-01', list, [...BASE, ['Mcp-Protocol-Version', '1999-01-01']]),
    post('tools/list, no Accept', list, json),
    post('tools/list, Accept JSON only', list, [['Accept', 'application/json'], ...json]),
    post('tools/list, Content-Type text/plain', list, [BASE[0], ['Content-Type', 'text/plain']]),
    post('tools/list, a rebound Host (evil.example)', list, V2025, { host: 'evil.example' }),
    post('tools/list, Host localhost', list, V2025, { host: 'localhost' }),
    post('tools/list, Host [::1]:1', list, V2025, { host: '[::1]:1' }),
    post('tools/list, Origin evil', list, [...V2025, ['Origin', 'https://evil.example']]),
    post('tools/list, Origin loopback', list, [...V2025, ['Origin', 'http://127.0.0.1']]),
    post('tools/list [br]', list, [...V2025, ['Accept-Encoding', 'br']]),
    post('tools/list [gzip]', list, [...V2025, ['Accept-Encoding', 'gzip']]),
    post('tools/list [br] (again)', list, [...V2025, ['Accept-Encoding', 'br']]),
    post('tools/list, a body over 4 KiB', `{"jsonrpc":"2.0","id":1,"method":"tools/list"${' '.repeat(5000)}}`),
    ask('GET /mcp [event stream]', 'GET', '/mcp', [['Accept', 'text/event-stream']]),
    ask('GET /mcp', 'GET', '/mcp'),
    ask('HEAD /mcp', 'HEAD', '/mcp'),
  ];
  return [...versions, ...ids, ...calls, ...refused];
}

/** Requests in 2026-07-28: discovery, the list, every call (and again), and what only the SDK answers. */
function modernCases(): Case[] {
  const m = (name: string, sent: Sent, chunked = false) => post(`2026 ${name}`, sent.body, sent.headers, { chunked });
  const calls = toolCalls().flatMap(({ tool, args }) => {
    const sent = modern('tools/call', { name: tool, arguments: args });
    const what = `tools/call ${tool} ${JSON.stringify(args)}`;
    return [m(what, sent), m(`${what} (again)`, sent)];
  });
  const envelope = envelopeOf('compare-servers');
  const version = 'io.modelcontextprotocol/protocolVersion';
  const coverage = { name: 'get_coverage', arguments: {} };
  const lower: Change = { lowerCase: true };
  const base64 = `=?base64?${Buffer.from('get_coverage').toString('base64')}?=`;
  return [
    m('server/discover', modern('server/discover')),
    m('tools/list', modern('tools/list')),
    m('tools/list (again)', modern('tools/list')),
    m('tools/list (chunked)', modern('tools/list'), true),
    ...calls,
    m('Mcp-Method naming another method', modern('tools/list', {}, { headers: { 'Mcp-Method': 'tools/call' } })),
    m('no Mcp-Method', modern('tools/list', {}, { headers: { 'Mcp-Method': null } })),
    m('Mcp-Name naming another tool', modern('tools/call', coverage, { headers: { 'Mcp-Name': 'list_lines' } })),
    m('Mcp-Name base64', modern('tools/call', coverage, { headers: { 'Mcp-Name': base64 } })),
    m('a version unlike the envelope', modern('tools/list', {}, { headers: { [VERSION_HEADER]: '2025-11-25' } })),
    m(
      'an envelope for a version not spoken',
      modern(
        'tools/list',
        {},
        {
          meta: { ...envelope, [version]: '2027-01-01' },
          headers: { [VERSION_HEADER]: '2027-01-01' },
        },
      ),
    ),
    m('an envelope without capabilities', modern('tools/list', {}, { meta: { [version]: MCP_2026 } })),
    m('a progress token', modern('tools/call', coverage, { meta: { ...envelope, progressToken: 1 } })),
    m(
      'a payment beside the envelope',
      modern(
        'tools/call',
        { name: 'get_premium', arguments: { state: 'FL' } },
        {
          meta: { ...envelope, 'x402/payment': { x402Version: 2 } },
        },
      ),
    ),
    m('a removed method (ping)', modern('ping')),
    m('an unknown tool', modern('tools/call', { name: 'get_weather', arguments: {} })),
    m('a malformed argument', modern('tools/call', { name: 'get_premium_sample', arguments: { state: 'Florida' } })),
    m('headers in lower case', modern('tools/call', { name: 'list_lines', arguments: { state: 'FL' } }, lower)),
  ];
}

export const mcpCases = (): Case[] => [...legacyCases(), ...modernCases()];
