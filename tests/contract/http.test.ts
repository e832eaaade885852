// The same contract suite over HTTP, against the built Node server serving the fixture shards; and
// the prerendered /openapi.json that server serves, checked against what the schemas generate now.
import { createServer, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../domain/contract.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { llmsText } from '../../api/llms.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { buildCoverage } from '../../src/llms-coverage.ts';
import { ROOT, astroBuild, rawRequest, startServer } from '../support/server.ts';
import { FIXTURE_DATA, buildInto, serveShards } from '../support/shards.ts';
import { freeTargets } from '../../api/prepared.ts';
import { AnswerCache } from '../../api/answer-cache.ts';
import { exampleQuery } from '../../api/llms.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { callHandler } from '../support/handlers.ts';
import { contractSuite } from './suite.ts';
import { conditionalSuite } from './conditional-suite.ts';
import { parseResponse, rawExchange, rawRequestBytes, responseEnd } from '../support/raw-http.ts';
import { API_PATH_SPELLINGS } from '../support/path-spellings.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-node');
const ENTRY = join(OUT, 'server', 'entry.mjs');
let server: { base: string; stop: () => void };
let shards: string;

beforeAll(async () => {
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node' });
  shards = buildInto(FIXTURE_DATA);
  server = await startServer(ENTRY, { SHARDS_DIR: shards });
});
afterAll(() => server?.stop());

// Identity bytes, as the handlers give them (fetch would otherwise ask for, and undo, br or gzip: compression has its own tests below).
const IDENTITY = { 'Accept-Encoding': 'identity' };
contractSuite((path, init) =>
  fetch(`${server.base}${path}`, {
    ...init,
    headers: { ...IDENTITY, ...(init?.headers as Record<string, string> | undefined) },
  }),
);
conditionalSuite((path, init) =>
  fetch(`${server.base}${path}`, {
    ...init,
    headers: { ...IDENTITY, ...(init?.headers as Record<string, string> | undefined) },
  }),
);

describe('GET /openapi.json over HTTP', () => {
  it('serves JSON equal to the document the contract generates (a stale build fails here)', async () => {
    const res = await fetch(`${server.base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(openApiDocument());
  });
});

describe('GET /llms.txt over HTTP', () => {
  it("serves text/plain equal to what the contract and the build's coverage generate for the site (a stale build fails here)", async () => {
    const res = await fetch(`${server.base}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    // The build read the coverage where this process finds it (the same SHARDS_DIR, or shards/), and its links are on
    // SITE_URL as the build had it, else paths on this server (never astro.config.mjs's default site).
    const text = await res.text();
    expect(text).toBe(
      llmsText({ site: process.env.SITE_URL || null, coverage: await buildCoverage(), terms: paymentTerms() }),
    );
    if (!process.env.SITE_URL) {
      expect(text).not.toContain('http://127.0.0.1:4321');
      const coverage = /\]\((\/v1\/coverage)\)/.exec(text)?.[1];
      expect(coverage).toBe('/v1/coverage');
      expect((await fetch(new URL(coverage!, server.base))).status).toBe(200); // followed on the server that served it
    }
  });
});

/** Bytes written to a fresh connection as they are, and everything the server sends back until it closes. */
function send(head: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(server.base).port), '127.0.0.1', () => socket.end(head));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** A raw HTTP/1.1 request, for what fetch will not send (TRACE, a forged Host). */
const raw = (method: string, path: string, headers?: Record<string, string>) =>
  rawRequest(server.base, method, path, headers);

describe('the Node server (server.ts) around the handlers', () => {
  it('answers TRACE on an API route with the 405 of every other method', async () => {
    const res = await raw('TRACE', '/v1/premium?state=FL');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(res.body).error.code).toBe('invalid_request');
  });

  it('answers /openapi.json, JSON for machines, as the API answers methods: the JSON 405 with Allow for any but GET and HEAD, OPTIONS its preflight', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE']) {
      const res = await raw(method, '/openapi.json');
      expect(res.status, method).toBe(405);
      expect(res.headers['content-type'], method).toMatch(/^application\/json/);
      expect(res.headers.allow, method).toBe('GET, HEAD, OPTIONS');
      expect(JSON.parse(res.body).error.message, method).toContain(`method '${method}' is not allowed`);
    }
    const preflight = await raw('OPTIONS', '/openapi.json');
    expect([preflight.status, preflight.headers['access-control-allow-methods'], preflight.body]).toEqual([
      204,
      'GET, HEAD, OPTIONS',
      '',
    ]);
    const get = await raw('GET', '/openapi.json');
    expect([get.status, JSON.parse(get.body).openapi]).toEqual([200, '3.1.0']);
  });

  it('answers from the path and query it was sent, whatever well-formed Host header names', async () => {
    const plain = await raw('GET', '/v1/premium?state=FL');
    for (const host of ['other.example', 'other.example:8080', 'OTHER.example.', '10.0.0.1:1', '[::1]:65535']) {
      const named = await raw('GET', '/v1/premium?state=FL', { Host: host });
      expect(named.status, host).toBe(200);
      expect(named.body, host).toBe(plain.body);
    }
  });

  // Each once hung the request forever (issue 9): the URL could not be built and nothing answered.
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
  it.each(MALFORMED_HOSTS)(
    'a malformed Host %s: 400 in the error body under /v1, a plain 400 elsewhere, never silence',
    async (host) => {
      const api = await raw('GET', '/v1/coverage', { Host: host });
      expect(api.status).toBe(400);
      const { error } = errorBody.strict().parse(JSON.parse(api.body));
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('Host');
      const page = await raw('GET', '/', { Host: host });
      expect(page.status).toBe(400);
    },
  );

  it('an HTTP/1.1 request without Host: the JSON 400 under /v1; HTTP/1.0 needs none', async () => {
    const missing = await send('GET /v1/coverage HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(missing).toMatch(/^HTTP\/1\.1 400 /);
    expect(
      errorBody.strict().parse(JSON.parse(missing.slice(missing.indexOf('\r\n\r\n') + 4))).error.message,
    ).toContain('Host');
    expect(await send('GET /v1/coverage HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers CONNECT, which Node hands no request handler, with the JSON 405', async () => {
    const res = await send('CONNECT /v1/premium?state=FL HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(res).toMatch(/^HTTP\/1\.1 405 /);
    expect(res).toMatch(/\r\nAllow: GET, HEAD, OPTIONS\r\n/);
    expect(errorBody.strict().parse(JSON.parse(res.slice(res.indexOf('\r\n\r\n') + 4))).error.code).toBe(
      'invalid_request',
    );
  });

  it('ignores an Expect other than 100-continue and answers the request (Node alone gave a bare 417)', async () => {
    const plain = await raw('GET', '/v1/premium?state=FL');
    for (const expectation of ['x', 'text/html']) {
      const res = await raw('GET', '/v1/premium?state=FL', { Expect: expectation });
      expect(res.status, expectation).toBe(200);
      expect(res.body).toBe(plain.body);
    }
  });

  it('a malformed request on HEAD gets headers only, and a request answered is never answered twice', async () => {
    const head = await send('HEAD /v1/premium?state=F\xe9 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    // The request line is answered; the broken framing after it ends the connection, with nothing more written.
    const twice = await send('GET /%zz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: text/html\r\n\r\n');
    expect(twice.match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(1);
  });

  it('an absolute-form target under /v1 with a malformed Host: the JSON 400', async () => {
    const res = await raw('GET', `${server.base}/v1/coverage`, { Host: 'localhost:99999' });
    expect(res.status).toBe(400);
    expect(errorBody.strict().parse(JSON.parse(res.body)).error.message).toContain('Host');
  });

  it('answers TRACE off the API with 405, not a 500 and a stack trace; TRACK, which HTTP parsing refuses, with the JSON 400', async () => {
    const trace = await raw('TRACE', '/');
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('GET, HEAD');
    const track = await raw('TRACK', '/');
    expect(track.status).toBe(400);
    expect(errorBody.strict().parse(JSON.parse(track.body)).error.code).toBe('invalid_request');
  });

  it.each(API_PATH_SPELLINGS)('answers %s with the JSON error body for every method', async (path) => {
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'TRACE', 'TRACK', 'PROPFIND']) {
      const res = await raw(method, path);
      // TRACK is no method of Node's HTTP parser: it refuses the request (400) before any route is chosen.
      expect(method === 'TRACK' ? [400] : [404, 405], `${method} ${path}`).toContain(res.status);
      expect(res.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
      if (method === 'HEAD') continue;
      const { error } = errorBody.strict().parse(JSON.parse(res.body));
      expect(error.code).toBe(res.status === 404 ? 'not_found' : 'invalid_request');
    }
  });

  it('answers a malformed request on a kept-alive connection with the JSON error, as on a fresh one', async () => {
    const badTarget = Buffer.concat([
      Buffer.from('GET /v1/cov'),
      Buffer.from([0xff]),
      Buffer.from('erage HTTP/1.1\r\nHost: x\r\n\r\n'),
    ]);
    const bigHeaders = Buffer.from(`GET /v1/coverage HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    // The target is what is too long: 414 URI Too Long (RFC 9110 15.5.15), not 431.
    const longTarget = Buffer.from(`GET /v1/premium?state=FL&x=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    // The first request answered by the raw front (a prepared answer), or by Node's server (a spelling nothing prepared).
    for (const first of [
      'GET /v1/coverage HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /v1/lines?state=fl HTTP/1.1\r\nHost: x\r\n\r\n',
    ]) {
      for (const [bad, status] of [
        [badTarget, 400],
        [bigHeaders, 431],
        [longTarget, 414],
      ] as const) {
        const text = await inTurn([Buffer.from(first), bad]);
        const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
        expect(statuses, first).toEqual([200, status]);
        const last = text.slice(text.lastIndexOf('HTTP/1.1 '));
        expect(last).toMatch(/\r\nContent-Type: application\/json/);
        expect(errorBody.strict().parse(JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4))).error.code).toBe(
          'invalid_request',
        );
      }
    }
  });

  it('answers a malformed request off the API (a bad Host on /) with the JSON 400 too', async () => {
    const res = await raw('GET', '/', { Host: 'bad host' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(errorBody.strict().parse(JSON.parse(res.body)).error.message).toContain('Host');
  });

  it('answers OPTIONS * (the server as a whole) with 204 and what it allows', async () => {
    const res = await raw('OPTIONS', '*');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS, POST');
    expect(res.body).toBe('');
  });

  it('names the route a near miss was meant for', async () => {
    const res = await raw('GET', '/v1/premium/?state=FL');
    expect(JSON.parse(res.body).error.message).toContain("did you mean '/v1/premium'");
  });

  it('answers an unknown /v1 path with the JSON 404 error body, pointing to /openapi.json', async () => {
    const res = await fetch(`${server.base}/v1/premiums?state=FL`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { error } = await res.json();
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('/v1/premiums');
    expect(error.message).toContain('/openapi.json');
  });
});

/**
 * On one connection: each request written once the answer to the one before it is whole; resolves with all
 * that came back once the server closed the connection.
 */
function inTurn(requests: Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(server.base).port), '127.0.0.1', () => socket.write(requests[0]));
    let all = Buffer.alloc(0);
    let pending = Buffer.alloc(0);
    let next = 1;
    socket.on('data', (chunk: Buffer) => {
      all = Buffer.concat([all, chunk]);
      pending = Buffer.concat([pending, chunk]);
      for (let end = responseEnd(pending); end > 0; end = responseEnd(pending)) {
        pending = pending.subarray(end);
        if (next < requests.length) socket.write(requests[next++]);
      }
    });
    socket.on('close', () => resolve(all.toString('latin1')));
    socket.on('error', reject);
  });
}

/** Resolves once `ready()` holds, checking every 10 ms. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10));
}

describe('shutdown on SIGTERM', () => {
  it('stops accepting, closes idle sockets at once, finishes the request in flight, then closes the rest and exits 0', async () => {
    // A facilitator that holds every call until released: the paid route's request stays in flight.
    const held: ServerResponse[] = [];
    let released = false;
    const facilitator = createServer((_req, res) => (released ? res.writeHead(500).end() : held.push(res)));
    await new Promise<void>((r) => facilitator.listen(0, '127.0.0.1', r));
    const gated = await startServer(ENTRY, {
      SHARDS_DIR: shards,
      X402_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
      X402_FACILITATOR_URL: `http://127.0.0.1:${(facilitator.address() as AddressInfo).port}`,
    });
    const port = Number(new URL(gated.base).port);
    const events: string[] = [];
    try {
      // An idle keep-alive socket: one request answered in full, then nothing.
      const idle = connect(port, '127.0.0.1');
      let received = '';
      idle.on('data', (chunk: Buffer) => (received += chunk.toString()));
      idle.on('close', () => events.push('idle closed'));
      idle.write('GET /v1/lines?state=FL HTTP/1.1\r\nHost: x\r\n\r\n');
      await until(() => /\r\n\r\n\[.*\]\n$/s.test(received));
      // A request whose headers never end.
      const half = connect(port, '127.0.0.1');
      half.on('close', () => events.push('half-sent closed'));
      half.write('GET /v1/coverage HTTP/1.1\r\nHost: x\r\n');
      // A request in flight: the gate waits on the facilitator.
      const inFlight = rawRequest(gated.base, 'GET', '/v1/premium?state=FL').then(
        (res) => (events.push('in-flight answered'), res),
      );
      await until(() => held.length > 0);

      const exited = new Promise<number | null>((r) => gated.child.once('exit', (code) => r(code)));
      gated.child.kill('SIGTERM');
      await until(() => events.includes('idle closed'));
      expect(events).toEqual(['idle closed']); // at once, while the request in flight is still waiting
      await expect(rawRequest(gated.base, 'GET', '/v1/coverage')).rejects.toThrow(/ECONNREFUSED/);

      released = true;
      held.splice(0).forEach((res) => res.writeHead(500).end());
      const answer = await inFlight;
      expect(answer.status).toBe(503); // finished, with the answer an unavailable facilitator gets
      expect(JSON.parse(answer.body).error.code).toBe('internal');
      // The half-sent request does not hold the process: it exits once the last answer is out (a liveness bound, not a speed claim).
      const code = await Promise.race([
        exited,
        new Promise<string>((r) => setTimeout(() => r('still running 3 s after its last answer'), 3000)),
      ]);
      expect(code).toBe(0);
      await until(() => events.includes('half-sent closed'));
    } finally {
      gated.stop();
      facilitator.close();
    }
  });
});

describe("the Node server's prepared answers (api/prepared.ts)", () => {
  // The server's own headers: the connection's, and Vary, which says its answers over 1 KB are also given compressed.
  const volatile = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'vary']);
  const headersOf = (h: Headers) => Object.fromEntries([...h].filter(([k]) => !volatile.has(k)));
  /** The server's answer to each request equals the in-process handler's: status, headers and bytes. Returns the statuses. */
  async function sameAsHandler(requests: [method: string, target: string][]): Promise<number[]> {
    const restore = serveShards(shards);
    try {
      const statuses = [];
      for (const [method, target] of requests) {
        const viaHttp = await fetch(`${server.base}${target}`, { method, headers: IDENTITY });
        const inProcess = await callHandler(`http://localhost${target}`, { method });
        expect(viaHttp.status, `${method} ${target}`).toBe(inProcess.status);
        expect(headersOf(viaHttp.headers), `${method} ${target}`).toEqual(headersOf(inProcess.headers));
        expect(
          Buffer.from(await viaHttp.arrayBuffer()).equals(Buffer.from(await inProcess.arrayBuffer())),
          `${method} ${target}`,
        ).toBe(true);
        statuses.push(viaHttp.status);
      }
      return statuses;
    } finally {
      restore();
    }
  }

  it('answer each canonical free query, GET and HEAD, exactly as the handler does: status, headers and bytes', async () => {
    const targets = freeTargets();
    expect(targets.length).toBeGreaterThan(5);
    await sameAsHandler(targets.flatMap((t) => [['GET', t] as [string, string], ['HEAD', t] as [string, string]]));
  });

  it("are written by the raw front (server/raw-front.ts) byte for byte as Node's HTTP server writes them, but the Date", async () => {
    const port = Number(new URL(server.base).port);
    const priced = ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => `${r.path}?${exampleQuery(r)}`);
    const withoutDate = (raw: Buffer) => raw.toString('latin1').replace(/\r\nDate: [^\r]*/, '');
    let compared = 0;
    let notModified = 0;
    for (const target of [...freeTargets(), ...priced]) {
      const variants = [
        ['GET', []],
        ['HEAD', []],
        ['GET', [['Connection', 'keep-alive']]],
        ['GET', [['Accept-Encoding', 'br']]],
        ['HEAD', [['Accept-Encoding', 'gzip, deflate']]],
        // 304s (docs/design.md §14): a tag that matches any answer, a date after every answer's, and a coded answer's
        ['GET', [['If-None-Match', '*']]],
        ['HEAD', [['If-Modified-Since', 'Fri, 01 Jan 2100 00:00:00 GMT']]],
        [
          'GET',
          [
            ['Accept-Encoding', 'br'],
            ['If-None-Match', '*'],
          ],
        ],
      ];
      for (const [method, headers] of variants as [string, [string, string][]][]) {
        const request = rawRequestBytes(method, target, 'api.example', headers);
        const head = method === 'HEAD';
        await rawExchange(port, request, { head }); // a priced answer is kept once computed
        const front = await rawExchange(port, request, { head });
        const node = await rawExchange(port, request, { head, split: 5 });
        expect(withoutDate(front), `${method} ${target}`).toBe(withoutDate(node));
        if (front.toString('latin1').startsWith('HTTP/1.1 200')) compared++;
        if (front.toString('latin1').startsWith('HTTP/1.1 304')) notModified++;
      }
    }
    expect(compared).toBeGreaterThan(30); // answers with figures, not only errors
    expect(notModified).toBeGreaterThan(30);
  });

  it('with the gate off, answer a priced query asked again (kept after the first answer) exactly as the handler does, and its other spellings and errors too', async () => {
    const targets = ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => `${r.path}?${exampleQuery(r)}`);
    // Each asked twice by GET and by HEAD, HEAD first for half of them (a HEAD answer kept must not be a GET's, nor the reverse).
    const requests: [string, string][] = targets.flatMap((t, i) => {
      const [a, b] = i % 2 ? ['GET', 'HEAD'] : ['HEAD', 'GET'];
      return [
        [a, t],
        [b, t],
        [a, t],
        [b, t],
      ] as [string, string][];
    });
    const variants = [
      '/v1/premium?state=fl',
      '/v1/premium?granularity=month&state=FL',
      '/v1/premium?state=FL&state=FL',
      '/v1/premium?state=ZZ',
      '/v1/premium?state=F1',
    ];
    for (const v of variants) requests.push(['GET', v], ['GET', v]);
    const statuses = await sameAsHandler(requests);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(targets.length * 2); // most examples answer on the fixtures
    expect(new Set(statuses)).toEqual(new Set([200, 400, 404]));
  });
});

describe('compressed answers (server/compression.ts)', () => {
  const port = () => Number(new URL(server.base).port);
  const header = (headers: [string, string][], name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1];
  const decode = (coding: string | undefined, body: Buffer) =>
    coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
  const MCP_HEADERS: [string, string][] = [
    ['Accept', 'application/json, text/event-stream'],
    ['Content-Type', 'application/json'],
  ];
  // MCP takes only a loopback Host on a loopback server (DNS rebinding protection).
  const exchange = (method: string, target: string, headers: [string, string][] = [], body?: string) =>
    rawExchange(port(), rawRequestBytes(method, target, `127.0.0.1:${port()}`, headers, body), {
      head: method === 'HEAD',
    }).then(parseResponse);

  // Free answers (prepared), a priced one (computed, then kept), an MCP answer (the SDK's, then kept), each asked twice.
  const requests: [string, string, string?][] = [
    ['GET', '/v1/coverage'],
    ['GET', '/v1/premium/sample?state=FL'],
    ['GET', '/v1/premium?state=FL'],
    ['GET', '/v1/premium?state=fl&format=csv'],
    ['POST', '/mcp', JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })],
  ];
  const offers: [string, string | undefined][] = [
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['deflate', undefined],
  ];

  it('decompress to the identity bytes, in the coding the request prefers, and say Vary in every coding', async () => {
    for (const [method, target, body] of requests) {
      const extra = body ? MCP_HEADERS : [];
      const identity = await exchange(method, target, extra, body);
      expect(identity.statusLine, target).toBe('HTTP/1.1 200 OK');
      expect(identity.body.length, target).toBeGreaterThan(1024);
      expect(header(identity.headers, 'content-encoding')).toBeUndefined();
      expect(header(identity.headers, 'vary')).toBe('Accept-Encoding');
      for (const [accept, coding] of offers)
        for (let time = 0; time < 2; time++) {
          const answer = await exchange(method, target, [...extra, ['Accept-Encoding', accept]], body);
          const what = `${target} with Accept-Encoding: ${accept} (time ${time + 1})`;
          expect(header(answer.headers, 'content-encoding'), what).toBe(coding);
          expect(header(answer.headers, 'vary'), what).toBe('Accept-Encoding');
          expect(Number(header(answer.headers, 'content-length')), what).toBe(answer.body.length);
          expect(decode(coding, answer.body).equals(identity.body), what).toBe(true);
          // The ETag names the coding (a strong tag per representation); an MCP answer, to a POST, has none.
          const etag = header(identity.headers, 'etag');
          expect(header(answer.headers, 'etag'), what).toBe(
            method === 'POST' ? undefined : coding ? `${etag!.slice(0, -1)}-${coding}"` : etag,
          );
          if (coding) expect(answer.body.length, what).toBeLessThan(identity.body.length);
        }
    }
  });

  it('HEAD says what GET would send in the same coding, with no body', async () => {
    for (const target of ['/v1/coverage', '/v1/premium/sample?state=FL']) {
      const get = await exchange('GET', target, [['Accept-Encoding', 'br']]);
      const head = await exchange('HEAD', target, [['Accept-Encoding', 'br']]);
      const withoutDate = (headers: [string, string][]) => headers.filter(([k]) => k !== 'Date');
      expect(withoutDate(head.headers)).toEqual(withoutDate(get.headers));
      expect(header(head.headers, 'content-encoding')).toBe('br');
      expect(header(head.headers, 'content-length')).toBe(String(get.body.length));
      expect(head.body.length).toBe(0);
    }
  });

  it('gives one strong ETag one byte string: every spelling of a free query, in each coding, the same bytes', async () => {
    // The canonical spelling is prepared at start; the others go through the handler. A strong ETag names exact bytes
    // (RFC 9110 8.8.1), so both must send the same compressed form under the same tag.
    const spellings = [
      ['/v1/premium/sample?state=FL', '/v1/premium/sample?state=fl', '/v1/premium/sample?state=%46L'],
      ['/v1/coverage', '/v1/coverage?state=FL'],
    ];
    for (const targets of spellings)
      for (const coding of ['br', 'gzip']) {
        const answers = await Promise.all(targets.map((t) => exchange('GET', t, [['Accept-Encoding', coding]])));
        for (const [i, answer] of answers.entries()) {
          const what = `${targets[i]} in ${coding}`;
          expect(header(answer.headers, 'content-encoding'), what).toBe(coding);
          expect(header(answer.headers, 'etag'), what).toBe(header(answers[0].headers, 'etag'));
          expect(answer.body.equals(answers[0].body), what).toBe(true);
        }
      }
  });

  it('leaves a short answer as it is, without Vary', async () => {
    const small = await exchange('GET', '/v1/nope', [['Accept-Encoding', 'br, gzip']]);
    expect(small.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(small.body.length).toBeLessThanOrEqual(1024);
    expect(header(small.headers, 'content-encoding')).toBeUndefined();
    expect(header(small.headers, 'vary')).toBeUndefined();
  });
});

describe('AnswerCache (api/answer-cache.ts)', () => {
  const answer = (size: number) => ({ status: 200, headers: {}, body: Buffer.alloc(size, 1) });
  it('keeps answers within its size, evicting the oldest first, and never one larger than the whole cache', () => {
    const cache = new AnswerCache(10_000);
    for (let i = 0; i < 10; i++) cache.set(`GET /v1/premium?i=${i}`, answer(2_000));
    expect(cache.size).toBeLessThanOrEqual(10_000);
    expect(cache.get('GET /v1/premium?i=0')).toBeUndefined();
    expect(cache.get('GET /v1/premium?i=9')?.body.length).toBe(2_000);
    const kept = [...Array(10).keys()].filter((i) => cache.get(`GET /v1/premium?i=${i}`));
    expect(kept).toEqual(kept.map((_, k) => 10 - kept.length + k)); // the newest ones, without a gap
    cache.set('GET /huge', answer(20_000));
    expect(cache.get('GET /huge')).toBeUndefined();
    expect(cache.get('GET /v1/premium?i=9')).toBeDefined();
  });
});
