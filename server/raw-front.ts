// The raw front of the Node server, the fastest way to a kept answer: every connection's bytes are read here
// first, and a request whose answer is already bytes (a prepared free answer, a kept priced one, a kept MCP answer) is
// answered straight off the socket with the very bytes Node's HTTP server would write for it, Date and keep-alive
// headers included. Node's parser and response objects cost the free routes a third of their throughput against a raw
// node:net server (docs/benchmarks.md); this is that raw server, for the requests it can take.
//
// Everything else is handed to Node's HTTP server (`handOver`), bytes unread included, and the connection
// stays there for good: a request not in the plainest form (server/simple-request.ts), split across reads,
// without a ready answer; a connection whose client does not read its answers (Node's backpressure takes
// over); a server shutting down (Node writes `Connection: close`). Timeouts are Node's: a connection that
// sends nothing gets the request timeout answer after `headersTimeout`, one idle after an answer is closed
// after `keepAliveTimeout`.
import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { WireAnswer } from '../api/wire-answer.ts';
import { type SimpleRequest, simpleRequestAt } from './simple-request.ts';

/** The ready answer to a request, or null when Node's server must answer it. Must not start anything. */
export type ReadyAnswerOf = (request: SimpleRequest) => WireAnswer | null;

export interface RawFrontOptions {
  answerOf: ReadyAnswerOf;
  /** What Node's server does when the connection times out before its first request (its request-timeout answer). */
  onRequestTimeout(socket: Socket): void;
  /** True once the server is shutting down. */
  stopping(): boolean;
}

/**
 * Puts the raw front before `server`'s own connection handling. Returns the sockets the front holds (all
 * idle between reads: it answers synchronously), for a shutdown to close.
 */
export function installRawFront(server: Server, options: RawFrontOptions): Set<Socket> {
  const [nodeConnection] = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  const held = new Set<Socket>();

  server.on('connection', (socket: Socket) => {
    held.add(socket);
    let answered = false;
    const onData = (data: Buffer) => {
      let at = 0;
      while (at < data.length && !socket.writableNeedDrain && !options.stopping()) {
        const request = simpleRequestAt(data, at);
        const answer = request && options.answerOf(request);
        if (!answer) break;
        writeAnswer(socket, server, answer, request.method === 'HEAD');
        at = request.end;
        answered = true;
      }
      if (at < data.length) return handOver(at === 0 ? data : data.subarray(at));
      if (answered) socket.setTimeout(server.keepAliveTimeout);
    };
    const onTimeout = () => (answered ? socket.destroy() : options.onRequestTimeout(socket));
    const onEnd = () => socket.end();
    const onError = () => socket.destroy();
    const onClose = () => held.delete(socket);
    function handOver(unread: Buffer): void {
      held.delete(socket);
      socket
        .off('data', onData)
        .off('timeout', onTimeout)
        .off('end', onEnd)
        .off('error', onError)
        .off('close', onClose);
      socket.setTimeout(0);
      // Paused before the bytes go back, so none is emitted while no one listens; Node's server reads them first.
      socket.pause();
      socket.unshift(unread);
      nodeConnection.call(server, socket);
      socket.resume();
    }
    socket.on('data', onData).on('timeout', onTimeout).on('end', onEnd).on('error', onError).on('close', onClose);
    socket.setTimeout(server.headersTimeout);
  });
  return held;
}

/** The status line and headers of each answer (by its headers object), as Node writes them, up to its own headers. */
const heads = new WeakMap<Record<string, string>, Buffer>();
let dateSecond = -1;
let trailer = Buffer.alloc(0);

/**
 * Writes the answer as Node's ServerResponse would on a kept-alive HTTP/1.1 connection: user headers, then Date,
 * Connection, Keep-Alive.
 */
function writeAnswer(socket: Socket, server: Server, { status, headers, parts }: WireAnswer, head: boolean): void {
  let start = heads.get(headers);
  if (!start) {
    let text = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
    for (const name in headers) text += `${name}: ${headers[name]}\r\n`;
    heads.set(headers, (start = Buffer.from(text, 'latin1')));
  }
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    trailer = Buffer.from(
      `Date: ${new Date(now).toUTCString()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=` +
        `${Math.floor(server.keepAliveTimeout / 1000)}\r\n\r\n`,
    );
  }
  socket.cork();
  socket.write(start);
  // A 304 has no body, and says no length (RFC 9110 8.6), as Node's own answer does not.
  if (!('content-length' in headers) && status !== 304) {
    let length = 0;
    for (const part of parts) length += part.length;
    socket.write(`content-length: ${length}\r\n`);
  }
  socket.write(trailer);
  if (!head) for (const part of parts) if (part.length) socket.write(part);
  socket.uncork();
}
