// The raw front's whitelist (server/simple-request.ts): what it takes it must read exactly as Node's own
// HTTP parser does (checked against a real node:http server), and everything odd it must leave to Node.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HEAD_BYTES, simpleRequestAt } from '../../server/simple-request.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const at0 = (text: string) => simpleRequestAt(bytes(text), 0);
const GET = 'GET /v1/coverage HTTP/1.1\r\nHost: example.com\r\n\r\n';
const post = (body: string, extra = '') =>
  `POST /mcp HTTP/1.1\r\nHost: h\r\n${extra}Content-Length: ${Buffer.byteLength(body, 'latin1')}\r\n\r\n${body}`;

describe('simpleRequestAt takes the plainest requests', () => {
  it('reads a GET: method, target as sent, headers by lower-case name, where it ends', () => {
    const text =
      'GET /v1/premium?state=FL&x=%20 HTTP/1.1\r\nHOST: a.example:80\r\nAccept:  text/plain \t\r\nX-Empty:\r\n\r\n';
    const request = at0(text)!;
    expect(request.method).toBe('GET');
    expect(request.target).toBe('/v1/premium?state=FL&x=%20');
    expect([...request.headers]).toEqual([
      ['host', 'a.example:80'],
      ['accept', 'text/plain'],
      ['x-empty', ''],
    ]);
    expect(request.body).toBeNull();
    expect(request.end).toBe(text.length);
  });

  it('reads a POST with its whole body, and finds the next pipelined request after it', () => {
    const first = post('{"a":1}');
    const data = bytes(first + GET);
    const request = simpleRequestAt(data, 0)!;
    expect(request.body!.toString()).toBe('{"a":1}');
    expect(request.end).toBe(first.length);
    const next = simpleRequestAt(data, request.end)!;
    expect(next.target).toBe('/v1/coverage');
    expect(next.end).toBe(data.length);
  });

  it('a head seen before (its reading remembered) reads the same, with its own body, offset and end each time', () => {
    const head = (body: string) => `POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Length: ${body.length}\r\n\r\n`;
    const bodies = ['{"id":1}', '{"id":2}', '{"id":3}'];
    // The same head at several offsets of one buffer, then again in buffers of their own.
    const data = bytes(bodies.map((b) => head(b) + b).join(''));
    let at = 0;
    for (const body of bodies) {
      const request = simpleRequestAt(data, at)!;
      expect(request.body!.toString('latin1')).toBe(body);
      expect(request.end).toBe(at + head(body).length + body.length);
      at = request.end;
    }
    for (const body of bodies) expect(at0(head(body) + body)?.body?.toString('latin1')).toBe(body);
    // A body not yet whole under a head seen whole before is still not taken.
    expect(at0(head('{"id":1}') + '{"id"')).toBeNull();
    // Past the 256 heads remembered, every head is read afresh and alike.
    for (let i = 0; i < 300; i++)
      expect(at0(`GET /v1/lines?n=${i} HTTP/1.1\r\nHost: h\r\n\r\n`)?.target).toBe(`/v1/lines?n=${i}`);
    expect(at0(GET)?.headers.get('host')).toBe('example.com');
  });

  it('takes Connection: keep-alive, in any case, and no other Connection', () => {
    expect(at0(GET.replace('\r\n\r\n', '\r\nConnection: Keep-Alive\r\n\r\n'))?.headers.get('connection')).toBe(
      'Keep-Alive',
    );
    for (const value of ['close', 'upgrade', 'keep-alive, upgrade', 'keep-alive, close', 'te'])
      expect(at0(GET.replace('\r\n\r\n', `\r\nConnection: ${value}\r\n\r\n`)), value).toBeNull();
  });
});

describe('simpleRequestAt leaves everything else to Node', () => {
  const refused: [string, string][] = [
    ['an unfinished head', 'GET /v1/coverage HTTP/1.1\r\nHost: h\r\n'],
    ['an unfinished body', post('{"a":1}').slice(0, -1)],
    ['HTTP/1.0', GET.replace('HTTP/1.1', 'HTTP/1.0')],
    ['HTTP/2 in the request line', GET.replace('HTTP/1.1', 'HTTP/2.0')],
    ['a lower-case method', GET.replace('GET', 'get')],
    ['PUT', GET.replace('GET', 'PUT')],
    ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['an absolute-form target', GET.replace('/v1/coverage', 'http://h/v1/coverage')],
    ['two spaces in the request line', GET.replace('GET ', 'GET  ')],
    ['a space in the target', GET.replace('/v1/coverage', '/v1/cov erage')],
    ['a raw non-ASCII byte in the target', GET.replace('/v1/coverage', '/v1/\xe9')],
    ['lines ended by LF alone', GET.replaceAll('\r\n', '\n')],
    ['a header line ended by LF alone', 'GET / HTTP/1.1\r\nHost: h\nX: y\r\n\r\n'],
    ['a folded header (obs-fold)', 'GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n'],
    ['a space before the colon', 'GET / HTTP/1.1\r\nHost : h\r\n\r\n'],
    ['a header without a colon', 'GET / HTTP/1.1\r\nHost: h\r\nX\r\n\r\n'],
    ['an empty header name', 'GET / HTTP/1.1\r\nHost: h\r\n: y\r\n\r\n'],
    ['a header name with a separator', 'GET / HTTP/1.1\r\nHost: h\r\nX(y): z\r\n\r\n'],
    ['a control character in a value', 'GET / HTTP/1.1\r\nHost: h\r\nX: a\x00b\r\n\r\n'],
    ['a bare CR in a value', 'GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n'],
    ['a non-ASCII byte in a value', 'GET / HTTP/1.1\r\nHost: h\r\nX: caf\xe9\r\n\r\n'],
    ['no Host', 'GET / HTTP/1.1\r\nAccept: */*\r\n\r\n'],
    ['two Hosts', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'],
    ['any header twice', 'GET / HTTP/1.1\r\nHost: a\r\nX-A: 1\r\nx-a: 1\r\n\r\n'],
    ['Transfer-Encoding', post('').replace('Content-Length: 0', 'Transfer-Encoding: chunked') + '0\r\n\r\n'],
    ['Transfer-Encoding beside Content-Length', post('abc', 'Transfer-Encoding: chunked\r\n')],
    ['Expect', post('abc', 'Expect: 100-continue\r\n')],
    ['Upgrade', GET.replace('\r\n\r\n', '\r\nUpgrade: websocket\r\n\r\n')],
    ['Content-Length on a GET', GET.replace('\r\n\r\n', '\r\nContent-Length: 0\r\n\r\n')],
    ['a POST without Content-Length', 'POST /mcp HTTP/1.1\r\nHost: h\r\n\r\n'],
    ['a signed Content-Length', post('abc').replace('Content-Length: 3', 'Content-Length: +3')],
    ['a list as Content-Length', post('abc').replace('Content-Length: 3', 'Content-Length: 3, 3')],
    ['a huge Content-Length', post('abc').replace('Content-Length: 3', 'Content-Length: 99999999')],
    [
      'more than 64 headers',
      `GET / HTTP/1.1\r\nHost: h\r\n${Array.from({ length: 64 }, (_, i) => `X-${i}: 1\r\n`).join('')}\r\n`,
    ],
    ['a head over the limit', `GET / HTTP/1.1\r\nHost: h\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`],
  ];
  for (const [what, text] of refused) it(what, () => expect(at0(text)).toBeNull());
});

/** Requests as Node's HTTP server reads them: method, target, headers (lower-case names, values), body. */
interface NodeRead {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}

describe("simpleRequestAt reads what it takes exactly as Node's parser does", () => {
  let server: Server;
  let port: number;
  /** What the server read on the current case's connection. */
  let reads: NodeRead[] = [];
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          headers.push([req.rawHeaders[i].toLowerCase(), req.rawHeaders[i + 1]]);
        reads.push({ method: req.method!, url: req.url!, headers, body: Buffer.concat(chunks).toString('latin1') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  /** What Node read of `data` and of a plain request after it on the same connection, once the connection closed. */
  function nodeReads(data: Buffer): Promise<NodeRead[]> {
    reads = [];
    return new Promise((resolve, reject) => {
      const after = bytes('GET /after HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n');
      const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.concat([data, after])));
      socket.resume();
      socket.on('error', reject);
      socket.on('close', () => resolve(reads));
    });
  }

  const token = fc.constantFrom(
    'Host',
    'host',
    'Accept',
    'Content-Type',
    'X-Note',
    'Connection',
    'Origin',
    'Mcp-Protocol-Version',
    'Content-Length',
  );
  const value = fc.oneof(
    fc.constantFrom('h', 'example.com:8080', 'keep-alive', 'application/json', '', ' spaced ', '\tt\t', 'a  b', '3'),
    fc.string({ unit: fc.constantFrom(...'ab :;,\t"\\/=-'.split('')), maxLength: 12 }),
  );
  const request = fc.record({
    method: fc.constantFrom('GET', 'HEAD', 'POST'),
    target: fc.constantFrom(
      '/v1/coverage',
      '/mcp',
      '/v1/premium?state=FL&year=2024',
      '/a%20b?c=d#e',
      "/~!$&'()*+,;=:@",
    ),
    headers: fc.array(fc.tuple(token, value), { maxLength: 6 }),
    body: fc.string({ unit: fc.constantFrom(...'{}":ab \r\n\u00e9'.split('')), maxLength: 20 }),
  });

  it('for every request it takes (fast-check)', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ method, target, headers, body }) => {
        const lines = [`${method} ${target} HTTP/1.1`, 'Host: h', ...headers.map(([n, v]) => `${n}: ${v}`)];
        if (method === 'POST') lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
        const data = bytes(`${lines.join('\r\n')}\r\n\r\n${method === 'POST' ? body : ''}`);
        const read = simpleRequestAt(data, 0);
        if (!read) return;
        taken++;
        const node = await nodeReads(data.subarray(0, read.end));
        expect(node.length, 'Node refused what the front took').toBe(2);
        const [first, after] = node;
        expect(first.method).toBe(read.method);
        expect(first.url).toBe(read.target);
        expect(first.headers).toEqual([...read.headers]);
        expect(first.body).toBe(read.body?.toString('latin1') ?? '');
        expect(after.url).toBe('/after'); // the request ended where the front said it did
      }),
      { numRuns: 300 },
    );
    expect(taken).toBeGreaterThan(30); // the generator reaches the whitelist often enough to mean something
  });
});
