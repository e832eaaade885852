// The edges of scripts/compare-servers.ts's corpus: every spelling of a path the API treats specially, refused
// parameters, other methods, the connection's forms (HTTP/1.0, Connection: close, keep-alive, pipelining, a request
// that arrives in two parts) and requests with odd heads, their shapes taken from the tests that send them raw
// (tests/contract/http.test.ts, tests/unit/simple-request.test.ts).
import { API_PATH_SPELLINGS } from '../tests/support/path-spellings.ts';
import { rawRequestBytes } from '../tests/support/raw-http.ts';
import { type HeaderList, ask } from './compare-corpus.ts';
import type { Case, Target } from './compare-wire.ts';

/** A request's bytes as written (latin1: a character a byte), `{host}` the server's own host. */
const withHost = (text: string, t: Target) => Buffer.from(text.replaceAll('{host}', t.host), 'latin1');

/** Bytes written as they are, the answer read whole. */
const sent = (name: string, text: string, more: Partial<Case> = {}): Case => ({
  name,
  requests: (t: Target) => [withHost(text, t)],
  ...more,
});
/** The same, read on until the server closes the connection, which is part of the answer compared. */
const closing = (name: string, text: string): Case => sent(name, text, { untilClose: true });

/** Paths the API answers as a JSON error (or a page) whatever the method: near misses, case, slashes, encodings. */
const SPELLINGS = [
  ...API_PATH_SPELLINGS,
  '/v1/PREMIUM?state=FL',
  '/v1/premium//?state=FL',
  '/v1//premium?state=FL',
  '/v1/%70remium?state=FL',
  '/v1/c%6Fverage',
  '/v1/coverage/',
  '/V1/COVERAGE',
  '/v1/unknown',
  '/v1/premiums?state=FL',
  '/v1/covrage',
  '/v1/premium/summary/?state=TX&year=2024',
  '/v1/bulk/premium.CSV',
  '/mcp/',
  '/MCP',
  '/openapi.json/',
  '/llms.txt/',
  '/snapshots/2026-01',
  '/nope',
  '/v1/premium?state=FL#fragment',
  '/%2e%2e/etc/passwd',
];

/** Queries refused before anything else: unknown, repeated, malformed, missing parameters, unknown states. */
const REFUSED = [
  '/v1/premium?state=F1',
  '/v1/premium?state=ZZ',
  '/v1/premium?state=FL&state=FL',
  '/v1/premium?state=FL&foo=1',
  '/v1/premium?state=FL&granularity=week',
  '/v1/premium?state=FL&from=2024-13',
  '/v1/premium?state=FL&from=2024-1',
  '/v1/premium?state=FL&report_date=2024-02-30',
  '/v1/premium',
  '/v1/premium?state=FL&county=x&granularity=month',
  '/v1/premium?state=TX&county=harris',
  '/v1/premium?state=FL&format=xml',
  '/v1/premium?state=FL&line=nope',
  '/v1/premium?state=F%E9',
  '/v1/premium?state=',
  '/v1/premium?state=FL&&',
  '/v1/premium?state=FL&from=2025-01&to=2024-01',
  '/v1/premium/summary?state=TX',
  '/v1/premium/summary?state=TX&year=24',
  '/v1/premium/summary?state=ZZ&year=2024',
  '/v1/compare?states=FL,ZZ',
  '/v1/compare?states=AZ,CA,FL,ID,IL,MN,MS,NC,NV,NY,OR,PA,TX,UT,WA,AK',
  '/v1/compare?states=FL&states=TX',
  '/v1/compare?states=',
  '/v1/insurers?state=TX&period=2021-13',
  '/v1/insurers?state=TX&period=2020',
  '/v1/insurers?state=TX',
  '/v1/solvency',
  '/v1/solvency?insurer=a',
  `/v1/solvency?insurer=${'x'.repeat(121)}`,
  '/v1/enforcement?action_type=parking',
  '/v1/enforcement?year=20x4',
  '/v1/rates?from=2024-99',
  '/v1/rates?status=maybe&status=no',
  '/v1/rates/activity?granularity=week',
  '/v1/syndicates?syndicate=abcde',
  '/v1/syndicates?syndicate=12345',
  '/v1/eligibility?syndicate=x',
  '/v1/bulk/premium.csv?x=1',
  '/v1/bulk/premium.parquet?format=csv',
  '/v1/premium/sample?state=ZZ',
  '/v1/premium/sample?format=xml',
  '/v1/lines',
  '/v1/lines?state=ZZ',
  '/v1/publications?since=2024-02-30',
  '/v1/publications?state=ZZ',
  '/v1/publications?since=2024-01-01&since=2024-02-01',
];

/** Methods other than GET and HEAD, on the API, the MCP endpoint and the pages: 405, a preflight, a refusal. */
function methodCases(): Case[] {
  const paths = ['/v1/premium?state=FL', '/v1/coverage', '/', '/openapi.json', '/llms.txt', '/snapshots/', '/mcp'];
  const preflight: HeaderList = [
    ['Origin', 'https://app.example'],
    ['Access-Control-Request-Method', 'GET'],
    ['Access-Control-Request-Headers', 'payment-signature, content-type'],
  ];
  const others = ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'PROPFIND'];
  return paths.flatMap((path) => [
    ...others.map((m) => ask(`${m} ${path}`, m, path, [], m === 'POST' ? '{}' : undefined)),
    ask(`OPTIONS ${path}`, 'OPTIONS', path),
    ask(`OPTIONS ${path} [CORS preflight]`, 'OPTIONS', path, preflight),
    ask(`GET ${path} [Origin]`, 'GET', path, [['Origin', 'https://app.example']]),
    sent(`TRACK ${path}`, `TRACK ${path} HTTP/1.1\r\nHost: {host}\r\n\r\n`),
    sent(`CONNECT ${path}`, `CONNECT ${path} HTTP/1.1\r\nHost: {host}\r\n\r\n`),
    sent(`get (lower case) ${path}`, `get ${path} HTTP/1.1\r\nHost: {host}\r\n\r\n`),
  ]);
}

/** The connection's forms, on answers made differently: prepared, priced (kept once made), by Node's path, a page. */
function connectionCases(): Case[] {
  const targets = [
    '/v1/coverage',
    '/v1/premium?state=FL',
    '/v1/lines?state=fl',
    '/',
    '/v1/premium/sample?state=TX&format=csv',
  ];
  return targets.flatMap((target): Case[] => {
    const line = (method: string, version = '1.1', extra = '') =>
      `${method} ${target} HTTP/${version}\r\nHost: {host}\r\n${extra}\r\n`;
    const one = (headers: HeaderList) => (t: Target) => [rawRequestBytes('GET', target, t.host, headers)];
    const twice = (first: string, then: string) => (t: Target) => [
      rawRequestBytes(first, target, t.host),
      rawRequestBytes(then, target, t.host),
    ];
    const kept10 = line('GET', '1.0', 'Connection: keep-alive\r\n');
    return [
      closing(`HTTP/1.0 GET ${target}`, `GET ${target} HTTP/1.0\r\n\r\n`),
      closing(`HTTP/1.0 GET ${target} [Host]`, line('GET', '1.0')),
      { name: `HTTP/1.0 GET ${target} [keep-alive] twice`, requests: (t) => [1, 2].map(() => withHost(kept10, t)) },
      closing(`GET ${target} [Connection: close]`, line('GET', '1.1', 'Connection: close\r\n')),
      closing(`HEAD ${target} [Connection: close]`, line('HEAD', '1.1', 'Connection: close\r\n')),
      { name: `GET ${target} [Connection: Keep-Alive]`, requests: one([['Connection', 'Keep-Alive']]) },
      { name: `GET ${target} twice on one connection`, requests: twice('GET', 'GET') },
      { name: `GET then HEAD ${target} on one connection`, requests: twice('GET', 'HEAD') },
      { name: `GET ${target} twice pipelined`, requests: twice('GET', 'GET'), pipelined: true },
      { name: `HEAD then GET ${target} pipelined`, requests: twice('HEAD', 'GET'), pipelined: true },
      { name: `GET ${target} in two parts`, requests: one([]), split: 5 },
      { name: `GET ${target} [br] in two parts`, requests: one([['Accept-Encoding', 'br']]), split: 9 },
    ];
  });
}

/** Hosts that once hung a request: each must be answered 400, on the API and off it. */
const MALFORMED_HOSTS = [
  'a:99999',
  '999.999.999.999',
  '1.2.3.256',
  'a:65536',
  '[::::]',
  'x?state=TX&a=',
  'x/v1/lines',
  'x#',
  'u@x',
  'a b',
  'é.example',
  'a'.repeat(300),
];

const CLOSE = 'Connection: close\r\n\r\n';
const GET = 'GET /v1/coverage HTTP/1.1\r\nHost: {host}\r\n\r\n';
/** GET /v1/coverage with one header line more (written as it is). */
const getWith = (line: string) => `GET /v1/coverage HTTP/1.1\r\nHost: {host}\r\n${line}\r\n\r\n`;
const mcpPost = (body: string, extra = '') =>
  `POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n${extra}` +
  `Content-Length: ${body.length}\r\n\r\n${body}`;

/** Heads a plain parser would take differently: each left to Node's HTTP server by the raw front. */
/** Requests too large for the parser: after a good one on the same connection too. */
const TOO_LARGE: [string, string][] = [
  ['a very long header', getWith(`X-Big: ${'a'.repeat(17 * 1024)}`)],
  ['a very long target', `GET /v1/premium?state=FL&x=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: {host}\r\n\r\n`],
];
const ODD_HEADS: [string, string][] = [
  ['no Host', 'GET /v1/coverage HTTP/1.1\r\nConnection: close\r\n\r\n'],
  ['no Host, off the API', 'GET / HTTP/1.1\r\nAccept: */*\r\n\r\n'],
  ['two Hosts', getWith('Host: b')],
  ['two Hosts, off the API', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'],
  ...TOO_LARGE,
  ['a folded header (obs-fold)', getWith('X: a\r\n b')],
  ['a folded header off the API', 'GET / HTTP/1.1\r\nHost: {host}\r\nX: a\r\n b\r\n\r\n'],
  ['HTTP/2 in the request line', GET.replace('HTTP/1.1', 'HTTP/2.0')],
  ['two spaces in the request line', GET.replace('GET ', 'GET  ')],
  ['a space in the target', GET.replace('/v1/coverage', '/v1/cov erage')],
  ['a raw non-ASCII byte in the target', GET.replace('/v1/coverage', '/v1/\xe9')],
  ['a 0xff byte in the target', GET.replace('/v1/coverage', '/v1/cov\xfferage')],
  ['HEAD with a raw non-ASCII byte in the query', 'HEAD /v1/premium?state=F\xe9 HTTP/1.1\r\nHost: {host}\r\n\r\n'],
  ['lines ended by LF alone', GET.replaceAll('\r\n', '\n')],
  ['a header line ended by LF alone', 'GET /v1/coverage HTTP/1.1\r\nHost: {host}\nX: y\r\n\r\n'],
  ['a space before the colon', 'GET /v1/coverage HTTP/1.1\r\nHost : {host}\r\n\r\n'],
  ['a header without a colon', getWith('X')],
  ['an empty header name', getWith(': y')],
  ['a header name with a separator', getWith('X(y): z')],
  ['a control character in a value', getWith('X: a\x00b')],
  ['a bare CR in a value', getWith('X: a\rb')],
  ['a non-ASCII byte in a value', getWith('X: caf\xe9')],
  ['any header twice', getWith('X-A: 1\r\nx-a: 1')],
  ['lower-case header names', 'GET /v1/coverage HTTP/1.1\r\nhost: {host}\r\naccept-encoding: br\r\n\r\n'],
  ['Upgrade', getWith('Upgrade: websocket\r\nConnection: Upgrade')],
  ['Content-Length on a GET', getWith('Content-Length: 0')],
  ['Transfer-Encoding, not chunked', 'GET /%zz HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: text/html\r\n\r\n'],
  ['Expect: x', 'GET /v1/premium?state=FL HTTP/1.1\r\nHost: {host}\r\nExpect: x\r\n\r\n'],
  ['Expect: 100-continue on a GET', getWith('Expect: 100-continue')],
  ['an absolute-form target', 'GET http://{host}/v1/coverage HTTP/1.1\r\nHost: {host}\r\n\r\n'],
  ['an absolute target, malformed Host', 'GET http://{host}/v1/coverage HTTP/1.1\r\nHost: localhost:99999\r\n\r\n'],
  ['another Host name', 'GET /v1/premium?state=FL HTTP/1.1\r\nHost: other.example:8080\r\n\r\n'],
  ['Host [::1]:65535', 'GET /v1/premium?state=FL HTTP/1.1\r\nHost: [::1]:65535\r\n\r\n'],
  ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: {host}\r\n\r\n'],
  ['a POST without Content-Length', 'POST /mcp HTTP/1.1\r\nHost: {host}\r\n\r\n'],
  ['a signed Content-Length', mcpPost('{}').replace('Content-Length: 2', 'Content-Length: +2')],
  ['a list as Content-Length', mcpPost('{}').replace('Content-Length: 2', 'Content-Length: 2, 2')],
  ['Transfer-Encoding beside Content-Length', mcpPost('{}', 'Transfer-Encoding: chunked\r\n')],
  ['more than 64 headers', getWith(Array.from({ length: 64 }, (_, i) => `X-${i}: 1`).join('\r\n'))],
];

/** The odd heads, malformed Hosts, and a malformed request after a good one on the same connection. */
function oddHeadCases(): Case[] {
  const hosts = MALFORMED_HOSTS.flatMap((h) =>
    ['/v1/coverage', '/'].map((path) =>
      closing(`GET ${path} [malformed Host ${h.slice(0, 20)}]`, `GET ${path} HTTP/1.1\r\nHost: ${h}\r\n${CLOSE}`),
    ),
  );
  // The good one answered by either front: a prepared answer (the raw front), a spelling only Node's path answers.
  const firsts = [GET, 'GET /v1/lines?state=fl HTTP/1.1\r\nHost: {host}\r\n\r\n'];
  const after = firsts.flatMap((first) =>
    TOO_LARGE.map(([what, bad]): Case => ({
      name: `${first.slice(0, first.indexOf(' HTTP'))}, then ${what}`,
      requests: (t) => [withHost(first, t), withHost(bad, t)],
      untilClose: true,
    })),
  );
  return [...ODD_HEADS.map(([what, text]) => sent(what, text)), ...hosts, ...after];
}

/** Spellings (by every method that routes apart), refused queries (GET and HEAD), methods, connections, odd heads. */
export function edgeCases(): Case[] {
  const methods = ['GET', 'HEAD', 'POST', 'TRACE'];
  const spellings = SPELLINGS.flatMap((path) => methods.map((m) => ask(`${m} ${path}`, m, path)));
  const refused = REFUSED.flatMap((path) => ['GET', 'HEAD'].map((m) => ask(`${m} ${path}`, m, path)));
  return [...spellings, ...refused, ...methodCases(), ...connectionCases(), ...oddHeadCases()];
}
