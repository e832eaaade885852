// The raw front (server/raw-front.ts) on a real node:http server: what it answers is byte for byte what
// the server's own handler writes for the same answer; what it leaves, the server answers, in order, on the
// same connection.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WireAnswer } from '../../api/wire-answer.ts';
import { installRawFront } from '../../server/raw-front.ts';
import { responseEnd } from '../support/raw-http.ts';

const BIG = Buffer.alloc(256 * 1024, 'x');
/** The answers the front has ready, by target: one with its length among its headers, one without. */
const READY: Record<string, WireAnswer> = {
  '/ready': {
    status: 200,
    headers: { 'content-type': 'text/plain', 'content-length': '5' },
    parts: [Buffer.from('ready')],
  },
  '/parts': {
    status: 201,
    headers: { 'x-kind': 'parts' },
    parts: [Buffer.from('a'), Buffer.from(''), Buffer.from('bc')],
  },
  '/big': { status: 200, headers: { 'content-length': String(BIG.length) }, parts: [BIG] },
};

let server: Server;
let port: number;
let stopping = false;
const log: string[] = [];
const timedOut: Socket[] = [];
let held: Set<Socket>;

beforeEach(async () => {
  log.length = 0;
  timedOut.length = 0;
  stopping = false;
  // The handler writes what the front would for its ready targets (as server/send.ts's writeWire does), and a plain answer for the rest.
  server = createServer((req, res) => {
    log.push(`node ${req.method} ${req.url}`);
    const ready = READY[req.url!];
    if (ready) {
      const length = ready.parts.reduce((n, p) => n + p.length, 0);
      res.writeHead(
        ready.status,
        'content-length' in ready.headers ? ready.headers : { ...ready.headers, 'content-length': String(length) },
      );
      return void res.end(Buffer.concat(ready.parts));
    }
    res.setHeader('content-type', 'text/plain');
    res.end(`node answered ${req.url}`);
  });
  held = installRawFront(server, {
    answerOf: (request) => {
      const ready = READY[request.target];
      if (ready) log.push(`front ${request.method} ${request.target}`);
      return ready ?? null;
    },
    onRequestTimeout: (socket) => {
      timedOut.push(socket);
      socket.destroy();
    },
    stopping: () => stopping,
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterEach(async () => {
  for (const socket of held) socket.destroy();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** Writes each chunk in turn (a pause between them), and resolves with the `count` responses that come back (and whether the server closed). */
function converse(
  chunks: string[],
  count: number,
  heads: boolean[] = [],
): Promise<{ responses: string[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const responses: string[] = [];
    let closed = false;
    const finish = () => {
      socket.destroy();
      resolve({ responses, closed });
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      for (
        let end = responseEnd(data, heads[responses.length]);
        end > 0;
        end = responseEnd(data, heads[responses.length])
      ) {
        responses.push(data.subarray(0, end).toString('latin1'));
        data = data.subarray(end);
        if (responses.length === count) setTimeout(finish, 50); // anything more, or a close, would show by then
      }
    });
    socket.on('end', () => {
      closed = true;
      if (responses.length >= count) finish();
      else reject(new Error(`closed after ${responses.length} of ${count} responses`));
    });
    socket.on('error', reject);
    void (async () => {
      for (const chunk of chunks) {
        socket.write(Buffer.from(chunk, 'latin1'));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
  });
}

const get = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: h\r\n${extra}\r\n`;
const withoutDate = (response: string) => response.replace(/\r\nDate: [^\r]*/, '');

describe('the raw front', () => {
  it("answers a ready request with the bytes Node's server writes for the same answer, but the Date", async () => {
    for (const target of Object.keys(READY)) {
      for (const method of ['GET', 'HEAD']) {
        const request = `${method} ${target} HTTP/1.1\r\nHost: h\r\n\r\n`;
        log.length = 0;
        const front = await converse([request], 1, [method === 'HEAD']);
        // Split in two writes, the request reaches Node's server (the front takes only whole requests).
        const node = await converse([request.slice(0, 10), request.slice(10)], 1, [method === 'HEAD']);
        expect(log).toEqual([`front ${method} ${target}`, `node ${method} ${target}`]);
        expect(withoutDate(front.responses[0])).toBe(withoutDate(node.responses[0]));
        expect(front.responses[0]).toMatch(
          /\r\nDate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT\r\n/,
        );
      }
    }
  });

  it('answers pipelined requests in order, handing the connection to Node at the first it cannot answer', async () => {
    const { responses } = await converse([get('/ready') + get('/other') + get('/ready') + get('/parts')], 4);
    expect(responses.map((r) => r.split('\r\n')[0] + ' ' + r.slice(r.indexOf('\r\n\r\n') + 4))).toEqual([
      'HTTP/1.1 200 OK ready',
      'HTTP/1.1 200 OK node answered /other',
      'HTTP/1.1 200 OK ready',
      'HTTP/1.1 201 Created abc',
    ]);
    expect(log).toEqual(['front GET /ready', 'node GET /other', 'node GET /ready', 'node GET /parts']);
  });

  it('answers whole requests at once and leaves the rest of the read, half a request, to Node', async () => {
    const second = get('/parts');
    const { responses } = await converse([get('/ready') + second.slice(0, 7), second.slice(7)], 2);
    expect(responses.length).toBe(2);
    expect(log).toEqual(['front GET /ready', 'node GET /parts']);
  });

  it('leaves Connection: close to Node, which closes after answering; takes Connection: keep-alive, which changes nothing', async () => {
    const close = await converse([get('/ready', 'Connection: close\r\n')], 1);
    expect(close.closed).toBe(true);
    expect(close.responses[0]).toMatch(/\r\nConnection: close\r\n/);
    const keep = await converse([get('/ready', 'Connection: keep-alive\r\n')], 1);
    expect(keep.closed).toBe(false);
    expect(withoutDate(keep.responses[0])).toBe(withoutDate((await converse([get('/ready')], 1)).responses[0]));
    expect(log).toEqual(['node GET /ready', 'front GET /ready', 'front GET /ready']);
  });

  it('leaves every request to Node once the server is stopping', async () => {
    stopping = true;
    await converse([get('/ready')], 1);
    expect(log).toEqual(['node GET /ready']);
  });

  it('hands a client that does not read its answers to Node, whose backpressure holds what is buffered', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.pause(); // never reads: the server's writes back up
    for (let i = 0; i < 200; i++) socket.write(get('/big'));
    await new Promise((r) => setTimeout(r, 300));
    const front = log.filter((l) => l.startsWith('front')).length;
    expect(front).toBeGreaterThan(0);
    expect(front).toBeLessThan(200); // not 200 answers of 256 KB queued in memory
    expect(log.some((l) => l.startsWith('node'))).toBe(true);
    socket.destroy();
  });

  it('closes a connection idle after an answer once keepAliveTimeout passes; one that sends nothing gets the request-timeout answer', async () => {
    server.keepAliveTimeout = 200;
    server.headersTimeout = 300;
    const answered = await converse([get('/ready')], 1);
    expect(answered.closed).toBe(false);
    const idle = connect(port, '127.0.0.1');
    const idleClosed = new Promise((r) => idle.on('close', r));
    idle.write(get('/ready'));
    const silent = connect(port, '127.0.0.1');
    const silentClosed = new Promise((r) => silent.on('close', r));
    idle.resume();
    silent.resume();
    await Promise.all([idleClosed, silentClosed]); // a hung connection fails by the test's timeout
    expect(timedOut.length).toBe(1);
  });
});
