// The local server (`npm run serve`, `npm start`): the built Astro app (pages, prerendered files,
// static assets) with every /v1 request answered by the API's own dispatcher. Astro's per-request
// pipeline cost the API 60-80% of its throughput (npm run bench:api), and its answers to odd paths are
// not the API's error body; on Vercel the same dispatcher runs behind src/fetch.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dispatch, isApiPath } from './api/dispatch.ts';
import { bodyOf, errorResponse, internalError, methodNotAllowed } from './api/http.ts';
import { paymentSettings } from './api/payment/settings.ts';
import { checkShards, shardsDir } from './api/store.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Stops the server before it listens, saying why. */
function refuseToStart(what: string, problems: string[]): never {
  console.error(`${what}:`);
  for (const p of problems.slice(0, 50)) console.error(`  ${p}`);
  if (problems.length > 50) console.error(`  ... and ${problems.length - 50} more`);
  process.exit(1);
}

// A misconfigured payment gate stops the server here, naming the variable, rather than failing paid requests later.
let payment: ReturnType<typeof paymentSettings>;
try {
  payment = paymentSettings();
} catch (e) {
  refuseToStart('Payment gate', [(e as Error).message]);
}
// So does a build whose shards are missing or damaged: serving it would answer some queries wrongly.
const shardProblems = checkShards();
if (shardProblems.length) refuseToStart(`Shards in ${shardsDir()} do not match their manifest (run the ingest)`, shardProblems);

process.env.ASTRO_NODE_AUTOSTART = 'disabled'; // we listen ourselves; the entry only exports its handler
const entry = resolve(process.env.ASTRO_ENTRY ?? 'dist/server/entry.mjs');
const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);
/** Longest Host accepted: a DNS name is at most 253 characters, plus a port. */
const MAX_HOST = 262;
/** How long a shutdown waits for requests in flight (a paid one may wait on the facilitator). */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 30_000);
/** Methods a Web Request can carry; others (TRACE, CONNECT, TRACK, ...) are refused before anything reads the request. */
const REQUEST_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** A Host header naming a host and optional port the URL parser accepts, and nothing else (no path, user or query). */
function validHost(value: string): boolean {
  if (value.length > MAX_HOST || !/^[A-Za-z0-9.\-:[\]]+$/.test(value)) return false;
  try {
    new URL(`http://${value}/`);
    return true;
  } catch {
    return false;
  }
}

/** The request's URL, or the reason it has none: a Host or target that no URL can be made of. */
function urlOf(req: IncomingMessage): URL | string {
  const named = req.headers.host;
  if (named === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return 'missing Host header: HTTP/1.1 requires one';
  if (named !== undefined && !validHost(named)) return 'malformed Host header: expected a host name or address, optionally with a port';
  const target = req.url ?? '/';
  try {
    // Origin form (/path?query) on the Host it names; absolute form (http://host/path) as it is.
    const url = target.startsWith('/') ? new URL(`http://${named ?? `localhost:${port}`}${target}`) : new URL(target);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // below
  }
  return 'malformed request target: expected a path such as /v1/coverage';
}

function write(res: ServerResponse, response: Response, body: Awaited<ReturnType<typeof bodyOf>>): void {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

const send = async (res: ServerResponse, response: Response) => write(res, response, await bodyOf(response));

/** A plain-text answer for paths outside the API. */
function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(`${text}\n`);
}

function toRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(url, { method: req.method, headers });
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = urlOf(req);
  const api = isApiPath(typeof url === 'string' ? (req.url ?? '').split('?')[0] : url.pathname);
  if (typeof url === 'string') return api ? send(res, errorResponse(400, url)) : plain(res, 400, `Bad request: ${url}`);
  if (!REQUEST_METHODS.has(method))
    return api ? send(res, methodNotAllowed(method)) : plain(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
  if (!api) return astro(req, res);
  await send(res, await dispatch(toRequest(req, url)));
}

// Requests being answered, so a shutdown can wait for them and no longer.
let inFlight = 0;
let stopping = false;
let whenIdle = () => {};

// Node would refuse a missing Host itself, with an empty 400: the check in urlOf answers it in the API's body.
const server = createServer({ requireHostHeader: false }, (req, res) => {
  inFlight++;
  res.once('close', () => {
    if (--inFlight === 0) whenIdle();
  });
  if (stopping) res.setHeader('Connection', 'close');
  answer(req, res).catch((e: unknown) => {
    console.error(e);
    if (res.headersSent) res.destroy();
    else void send(res, internalError());
  });
});

// Requests the HTTP parser itself refuses (a method it does not know, such as TRACK; bad syntax; headers
// too large) get the API's error body too, instead of Node's bare 400.
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request headers too large: the request line and headers must fit in 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request timeout: the request was not received in time'],
};
server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
  if (!socket.writable || err.code === 'ECONNRESET') return socket.destroy();
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'malformed HTTP request: expected GET, HEAD or OPTIONS with a path such as /v1/coverage'];
  const body = JSON.stringify({ error: { code: 'invalid_request', message } });
  socket.end(
    `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : status === 408 ? 'Request Timeout' : 'Request Header Fields Too Large'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
});

server.listen(port, host, () => {
  console.log(`Serving on http://${host}:${port}`);
  const facilitator = payment?.facilitator.kind === 'cdp' ? 'Coinbase CDP' : payment?.facilitator.url;
  console.log(
    payment
      ? `Payment gate on: priced routes paid to ${payment.payTo} in ${payment.asset.address} on ${payment.network}, facilitator ${facilitator}`
      : 'Payment gate off (X402_PAY_TO unset): priced routes are free',
  );
});

/**
 * Stop accepting, close idle keep-alive sockets at once, let requests in flight finish (up to the
 * grace period), then close every socket left, half-sent requests included, and exit.
 */
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping; ${inFlight} request(s) in flight`);
  const exit = () => {
    server.closeAllConnections();
    process.exit(0);
  };
  server.close();
  server.closeIdleConnections();
  if (inFlight === 0) return exit();
  whenIdle = exit;
  setTimeout(() => {
    console.error(`shutdown: ${inFlight} request(s) still in flight after ${SHUTDOWN_GRACE_MS} ms; closing them`);
    exit();
  }, SHUTDOWN_GRACE_MS).unref();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutdown(signal));
