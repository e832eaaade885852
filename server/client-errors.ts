// Requests Node's HTTP parser refuses itself (a method it does not know, such as TRACK; bad syntax; headers too
// large; a request not received in time) and CONNECT get the API's error body, instead of Node's bare answer
// or none, written straight to the socket.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { InFlight } from './in-flight.ts';

/** An answer written straight to a socket, where Node gives no ServerResponse: the API's error body, then close. */
function socketAnswer(
  socket: Duplex,
  status: number,
  reason: string,
  message: string,
  head: boolean,
  extra = '',
): void {
  const body = JSON.stringify({ error: { code: 'invalid_request', message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
      (`Access-Control-Allow-Origin: *\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: ` +
        `close\r\n\r\n${head ? '' : body}`),
  );
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'request headers too large: the request line and headers must fit in 16 KB',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request timeout: the request was not received in time'],
};
const MALFORMED: [number, string, string] = [
  400,
  'Bad Request',
  'malformed HTTP request: expected GET, HEAD or OPTIONS with a path such as /v1/coverage',
];
/**
 * Longest request line (method, target, version) taken as a line: past it, what is too long is the target (RFC 9110
 * 15.5.15), not the headers.
 */
const MAX_REQUEST_LINE = 8192;
const URI_TOO_LONG: [number, string, string] = [
  414,
  'URI Too Long',
  `request target too long: the request line must fit in ${MAX_REQUEST_LINE / 1024} KB; send fewer ` +
    `or shorter parameters`,
];

/** Whether the bytes Node's parser refused as too large start with a request line longer than MAX_REQUEST_LINE. */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const end = packet.indexOf('\r\n');
  return (end < 0 ? packet.length : end) > MAX_REQUEST_LINE;
}

type ClientErrorHandler = (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => void;

/** Node's `clientError` handler: a connection answering a request is not answered twice, it ends after its answer. */
export function clientErrorHandler(inFlight: InFlight): ClientErrorHandler {
  return (err, socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
    // A request on this connection is being answered: what broke may be its own body, so it is not answered
    // twice; the connection ends after its answer. Otherwise (a fresh connection, or every request on it
    // answered) the malformed request gets its error answer.
    if (inFlight.busy(socket)) return inFlight.closeAfter(socket);
    const [status, reason, message] =
      err.code === 'HPE_HEADER_OVERFLOW' && requestLineTooLong(err.rawPacket)
        ? URI_TOO_LONG
        : (CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED);
    socketAnswer(socket, status, reason, message, err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ');
  };
}

/** The request timeout's answer, for the raw front to give a connection that sent nothing in time. */
export const requestTimedOut = (onClientError: ClientErrorHandler) => (socket: Socket) =>
  onClientError(Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);

/**
 * Installs the handlers on `server`; CONNECT would otherwise get no answer at all: it is one more method the API does
 * not allow.
 */
export function answerClientErrors(server: Server, onClientError: ClientErrorHandler): void {
  server.on('clientError', onClientError);
  server.on('connect', (_req, socket: Duplex) => {
    socketAnswer(
      socket,
      405,
      'Method Not Allowed',
      `method 'CONNECT' is not allowed: use GET (or HEAD)`,
      false,
      'Allow: GET, HEAD, OPTIONS\r\n',
    );
  });
}
