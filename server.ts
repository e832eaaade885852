// The local server (`npm run serve`, `npm start`): the built Astro app (pages, prerendered files,
// static assets) with every /v1 request answered by the API's own dispatcher, and /mcp by the MCP server. Astro's per-request
// pipeline cost the API 60-80% of its throughput (npm run bench:api), and its answers to odd paths are
// not the API's error body; on Vercel the same dispatcher runs behind src/fetch.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dispatch } from './api/dispatch.ts';
import { bodyOf, representationOf } from './api/responses.ts';
import { errorResponse, internalError, methodNotAllowed } from './api/errors.ts';
import { otherMethodAnswer } from './api/http.ts';
import { codedEtag, notModified, notModifiedHeaders } from './api/conditional.ts';
import { MCP_PATH, isApiPath } from './api/paths.ts';
import { handleMcp } from './api/mcp/endpoint.ts';
import { isLoopbackName, namesLoopback } from './api/mcp/loopback.ts';
import { closePaymentStores, configuredGate, configuredSettings } from './api/payment/configured.ts';
import { checkShards, shardsDir } from './api/store.ts';
import { type PreparedAnswer, prepareFreeAnswers, preparedOf } from './api/prepared.ts';
import { AnswerCache } from './api/answer-cache.ts';
import { ROUTE_CONTRACTS } from './domain/route-contracts.ts';
import type { McpAnswer, McpFastPath } from './api/mcp/fast.ts';
import { FEED_PATH, FEED_TYPE } from './src/feed-type.ts';
import { type RawAnswer, installRawFront } from './server/raw-front.ts';
import { remembered } from './server/remembered.ts';
import type { SimpleRequest } from './server/simple-request.ts';
import { type CodedAnswer, type Coding, codedAnswer, compress, compressible, encodedBody, encodedHeaders, inCoding, negotiate, varying } from './server/compression.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Stops the server before it listens, saying why. */
function refuseToStart(what: string, problems: string[]): never {
  console.error(`${what}:`);
  for (const p of problems.slice(0, 50)) console.error(`  ${p}`);
  if (problems.length > 50) console.error(`  ... and ${problems.length - 50} more`);
  process.exit(1);
}

// A misconfigured payment gate stops the server here, naming the variable, rather than failing paid requests later.
let payment: Awaited<ReturnType<typeof configuredSettings>>;
try {
  payment = await configuredSettings();
} catch (e) {
  refuseToStart('Payment gate', [(e as Error).message]);
}
// With the gate on, the payment stack is loaded now (a long-lived server has no cold start to spare): a channel
// directory another server holds, or a damaged one, stops it here too. Prepaid channels' vouchers are then claimed
// on a schedule and once more at shutdown (DECISIONS §13, api/payment/claims.ts).
let claims: { stop(): Promise<void> } | null = null;
if (payment) {
  const settings = payment;
  try {
    const gate = (await configuredGate())!;
    const { claimGateChannels, claimSchedule } = await import('./api/payment/claims.ts');
    claims = claimSchedule(() => claimGateChannels(gate, settings), settings.channels.claimIntervalS);
  } catch (e) {
    refuseToStart('Payment gate', [(e as Error).message]);
  }
}
// So does a build whose shards are missing or damaged: serving it would answer some queries wrongly.
const shardProblems = checkShards();
if (shardProblems.length) refuseToStart(`Shards in ${shardsDir()} do not match their manifest (run the ingest)`, shardProblems);

/**
 * The canonical free queries' answers, prepared once from the checked shards (api/prepared.ts), and
 * compressed once (br and gzip, at full strength) where worth it (server/compression.ts).
 */
const PREPARED = codedFreeAnswers(await prepareFreeAnswers());
/** With the gate off, each priced answer once computed (GET and HEAD, 200 only), up to 64 MiB; each coding made on first use. */
const PRICED_ANSWERS = payment ? undefined : new AnswerCache<CodedAnswer>(64 * 2 ** 20);

/** Free answers in every coding; a HEAD answer's encoded forms are made of its GET twin's body (compressed once for both). */
function codedFreeAnswers(prepared: Map<string, PreparedAnswer>): Map<string, CodedAnswer> {
  const out = new Map<string, CodedAnswer>();
  for (const [key, answer] of prepared) {
    const coded = codedAnswer(answer, key.startsWith('HEAD ') ? prepared.get(`GET ${key.slice('HEAD '.length)}`)?.body : undefined);
    for (const coding of ['br', 'gzip'] as const) inCoding(coded, coding, 'max');
    out.set(key, coded);
  }
  return out;
}
const PRICED_PATHS = new Set(ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => r.path));

process.env.ASTRO_NODE_AUTOSTART = 'disabled'; // we listen ourselves; the entry only exports its handler
const entry = resolve(process.env.ASTRO_ENTRY ?? 'dist/server/entry.mjs');
const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);
/** Listening on a loopback address: MCP requests must name it so (DNS rebinding protection, see api/mcp/handle-mcp.ts). */
const mcpOptions = { loopbackOnly: isLoopbackName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host) };
/**
 * The MCP server's fast path (api/mcp/fast.ts), loaded with the MCP server on the first POST /mcp: tools/list
 * and each tool call the SDK once answered with success (a priced one only with the gate off) are answered
 * again from its bytes, the request's id put in, up to 64 MiB of them; the shards do not change while it runs.
 */
interface LoadedMcp {
  fast: McpFastPath;
  maxBody: number;
}
let mcpLoaded: LoadedMcp | undefined;
let mcpLoading: Promise<LoadedMcp> | undefined;
const loadMcp = () =>
  (mcpLoading ??= import('./api/mcp/handle-mcp.ts').then(
    (m) => (mcpLoaded = { fast: m.mcpFastPath(64 * 2 ** 20), maxBody: m.MAX_BODY_BYTES }),
  ));
/** The loopback rule's verdict on a Host, or a Host and Origin joined by a line feed (which no header value holds). */
const loopbackVerdict = remembered((key) => {
  const at = key.indexOf('\n');
  return at < 0 ? namesLoopback(key, null) : namesLoopback(key.slice(0, at), key.slice(at + 1));
});

/** Whether the MCP server takes a request naming this Host and Origin (always, unless it listens on loopback only). */
const mcpHostAllowed = (named: string | undefined, origin: string | undefined): boolean =>
  !mcpOptions.loopbackOnly || (named !== undefined && loopbackVerdict(origin === undefined ? named : `${named}\n${origin}`));
/** Longest Host accepted: a DNS name is at most 253 characters, plus a port. */
const MAX_HOST = 262;
/** How long a shutdown waits for requests in flight (a paid one may wait on the facilitator). */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 30_000);
/** Methods a Web Request can carry; others (TRACE, CONNECT, TRACK, ...) are refused before anything reads the request. */
const REQUEST_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

/** A Host header naming a host and optional port the URL parser accepts, and nothing else (no path, user or query). */
const validHost = remembered(
  (value) => value.length <= MAX_HOST && /^[A-Za-z0-9.\-:[\]]+$/.test(value) && URL.canParse(`http://${value}/`),
);

/** What is wrong with the request's Host header, if anything. */
function hostProblemOf(req: IncomingMessage): string | false {
  const named = req.headers.host;
  if (named === undefined) return req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && 'missing Host header: HTTP/1.1 requires one';
  return !validHost(named) && 'malformed Host header: expected a host name or address, optionally with a port';
}

/** The request's URL, or the reason it has none; and whether its path is under /v1 either way. */
function targetOf(req: IncomingMessage): { url: URL | string; api: boolean } {
  const target = req.url ?? '/';
  const named = req.headers.host;
  const hostProblem = hostProblemOf(req);
  let url: URL | null = null;
  try {
    // Origin form (/path?query) on the Host it names (a placeholder when that is bad, to learn the path);
    // absolute form (http://host/path) names its own host, which overrides Host's (RFC 9112 3.2.2).
    url = new URL(target.startsWith('/') ? `http://${hostProblem || named === undefined ? `localhost:${port}` : named}${target}` : target);
  } catch {
    // below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return { url: 'malformed request target: expected a path such as /v1/coverage', api: isApiPath(target.split('?')[0]) };
  // Host is checked in both forms: the site's own handler builds its URL from it.
  return { url: hostProblem || url, api: isApiPath(url.pathname) };
}

/**
 * Writes the prepared answer to exactly this request (method and target as sent), if there is one and
 * the Host is sound; synchronously, with no URL parsed: the fast path. False when the request needs the full handling.
 */
function answerPrepared(req: IncomingMessage, res: ServerResponse): boolean {
  const key = `${req.method} ${req.url}`;
  const prepared = PREPARED.get(key) ?? PRICED_ANSWERS?.get(key);
  if (!prepared || hostProblemOf(req)) return false;
  write(res, orNotModified(inCoding(prepared, codingOf(req), 'fast'), req.headers['if-none-match'], req.headers['if-modified-since']));
  return true;
}

/** A kept answer, or its 304 when the request's conditional headers say the client holds it already (api/conditional.ts). */
function orNotModified(answer: PreparedAnswer, ifNoneMatch: string | null | undefined, ifModifiedSince: string | null | undefined): PreparedAnswer {
  if (ifNoneMatch == null && ifModifiedSince == null) return answer;
  if (!notModified(ifNoneMatch, ifModifiedSince, answer.headers.etag, answer.headers['last-modified'])) return answer;
  return { status: 304, headers: notModifiedHeaders(answer.headers), body: NO_BODY };
}
const NO_BODY = Buffer.alloc(0);

/** The coding the request accepts best (br, gzip), or none. */
const codingOf = (req: IncomingMessage) => negotiate(req.headers['accept-encoding']);


function write(res: ServerResponse, answer: PreparedAnswer): void {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

/** A 304's headers as its 200 would have been given in `coding`: that coding's ETag, and Vary when the 200 varies. */
function notModifiedInCoding(response: Response, coding: Coding | null): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  const full = representationOf(response);
  if (!full || !compressible(full, Number(full['content-length']))) return headers;
  return varying(coding && headers.etag ? { ...headers, etag: codedEtag(headers.etag, coding) } : headers);
}

/** A handler's answer, compressed when `coding` is given and the answer is worth it (a HEAD answer then says Vary, as identity). */
async function send(res: ServerResponse, response: Response, coding: Coding | null = null): Promise<void> {
  if (response.status === 304) return void res.writeHead(304, notModifiedInCoding(response, coding)).end();
  const body = await bodyOf(response);
  let headers = Object.fromEntries(response.headers);
  if (compressible(headers, Number(headers['content-length'] ?? (body === undefined ? 0 : Buffer.byteLength(body))))) {
    if (coding && body !== undefined && body.length) {
      const encoded = encodedBody(body, coding, 'fast');
      res.writeHead(response.status, encodedHeaders(headers, coding, encoded.length));
      return void res.end(encoded);
    }
    headers = varying(headers);
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * An MCP answer, its length declared (a complete JSON body: no chunked framing); a kept one is written from
 * its parts (before the id, the id, after it) in one write, nothing copied.
 */
function writeMcp(res: ServerResponse, { status, headers, parts }: McpAnswer): void {
  let length = 0;
  for (const part of parts) length += part.length;
  res.writeHead(status, { ...headers, 'content-length': String(length) });
  if (parts.length === 1) return void res.end(parts[0]);
  res.cork();
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
  res.uncork();
}

/** An MCP answer in `coding` when worth it (compressed for this one request: its id is in it), else as it is, saying Vary when it could have been. */
function mcpInCoding(answer: McpAnswer, coding: Coding | null): McpAnswer {
  let length = 0;
  for (const part of answer.parts) length += part.length;
  if (!compressible(answer.headers, length)) return answer;
  if (!coding) return { ...answer, headers: varying(answer.headers) };
  const body = compress(answer.parts.length === 1 ? answer.parts[0] : Buffer.concat(answer.parts), coding, 'fast');
  return { status: answer.status, headers: encodedHeaders(answer.headers, coding, body.length), parts: [body] };
}

/** The MCP server's answer as writeMcp writes it (one without a body as send() does). */
async function sendMcp(res: ServerResponse, response: Response, coding: Coding | null): Promise<void> {
  if (!response.body) return send(res, response, coding);
  const answer = { status: response.status, headers: Object.fromEntries(response.headers), parts: [Buffer.from(await response.arrayBuffer())] };
  writeMcp(res, mcpInCoding(answer, coding));
}

/** Sends the answer, and keeps it for the next identical request when it is a priced 200 the gate did not guard. */
async function sendPriced(res: ServerResponse, response: Response, method: string, target: string, coding: Coding | null): Promise<void> {
  if (!PRICED_ANSWERS || response.status !== 200) return send(res, response, coding);
  const answer = codedAnswer(await preparedOf(response), method === 'HEAD' ? PRICED_ANSWERS.get(`GET ${target}`)?.body : undefined);
  PRICED_ANSWERS.set(`${method} ${target}`, answer);
  write(res, inCoding(answer, coding, 'fast'));
}

/** A plain-text answer for paths outside the API. */
function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(`${text}\n`);
}

/**
 * A Web Request of the Node request: with its body (read as the handler reads it) when `withBody`, or
 * with the body already read when given its bytes; else none.
 */
function toRequest(req: IncomingMessage, url: URL, withBody: boolean | Uint8Array<ArrayBuffer> = false): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  if (withBody instanceof Uint8Array) return new Request(url, { method: req.method, headers, body: withBody });
  const body = withBody && req.method !== 'GET' && req.method !== 'HEAD' ? (Readable.toWeb(req) as ReadableStream) : undefined;
  return new Request(url, { method: req.method, headers, ...(body ? { body, duplex: 'half' } : {}) });
}

/**
 * A POST to exactly /mcp with a sound Host and a declared length (no chunked body): read whole, it may be
 * answered from the MCP fast path. Any other request to /mcp takes the full handling.
 */
function mcpPost(req: IncomingMessage): boolean {
  return (
    req.method === 'POST' &&
    req.url === MCP_PATH &&
    req.headers.host !== undefined &&
    req.headers['content-length'] !== undefined &&
    req.headers['transfer-encoding'] === undefined &&
    !hostProblemOf(req)
  );
}

/** A request's body, read whole (its length is declared and bounded). */
function bodyBytes(req: IncomingMessage): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer<ArrayBuffer>[] = [];
    req.on('data', (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * POST /mcp (see mcpPost): from the fast path when it takes the request, else as answer() would; what the
 * fast path answers is byte for byte what the SDK answers (tests/mcp/fast-path.test.ts, tests/mcp/http.test.ts).
 */
async function answerMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const mcp = mcpLoaded ?? (await loadMcp());
  if (!(Number(req.headers['content-length']) <= mcp.maxBody)) return answer(req, res); // the SDK's 413, unread
  if (!mcpHostAllowed(req.headers.host, req.headers.origin)) return answer(req, res); // the 403
  const body = await bodyBytes(req).catch(() => null);
  if (!body) return void res.destroy(); // the client went away before its request was whole: no one to answer
  const again = () => toRequest(req, new URL(`http://${req.headers.host}${MCP_PATH}`), body);
  const fast = mcp.fast.answer(body, (name) => req.headers[name] as string | undefined, again);
  if (fast) return writeMcp(res, mcpInCoding(fast instanceof Promise ? await fast : fast, codingOf(req)));
  await sendMcp(res, await handleMcp(again(), mcpOptions), codingOf(req));
}

/**
 * The OpenAPI document is JSON for machines, like the API: any method but GET and HEAD gets the API's answer
 * (OPTIONS its preflight, the others its JSON 405), where Astro would send the prerendered file or a plain 405.
 */
const OPENAPI_PATH = '/openapi.json';

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const { url, api } = targetOf(req);
  // `OPTIONS *` asks about the server as a whole (RFC 9110 9.3.7): what every resource here allows.
  if (method === 'OPTIONS' && req.url === '*' && !hostProblemOf(req)) return void res.writeHead(204, { Allow: 'GET, HEAD, OPTIONS, POST', 'Cache-Control': 'no-store' }).end();
  // A request malformed as HTTP gets the API's error body wherever it was sent.
  if (typeof url === 'string') return send(res, errorResponse(400, url));
  const openApiAnswer = url.pathname === OPENAPI_PATH ? otherMethodAnswer(method) : null;
  if (openApiAnswer) return send(res, openApiAnswer);
  if (!REQUEST_METHODS.has(method))
    return api ? send(res, methodNotAllowed(method)) : plain(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
  if (url.pathname === MCP_PATH) return sendMcp(res, await handleMcp(toRequest(req, url, true), mcpOptions), codingOf(req));
  if (!api) {
    // Astro sends prerendered files typed by their extension (.xml: application/xml); the feed is Atom (RFC 4287).
    if (url.pathname === FEED_PATH) res.setHeader('Content-Type', FEED_TYPE);
    return astro(req, res);
  }
  const response = await dispatch(toRequest(req, url));
  if ((method === 'GET' || method === 'HEAD') && PRICED_PATHS.has(url.pathname)) return sendPriced(res, response, method, req.url!, codingOf(req));
  await send(res, response, codingOf(req));
}

// Requests being answered, so a shutdown can wait for them and no longer; and per socket, so an HTTP
// error on a connection never writes over an answer being given on it.
let inFlight = 0;
let stopping = false;
let whenIdle = () => {};
const answering = new WeakMap<Socket, number>();
const closeWhenAnswered = new WeakSet<Socket>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  inFlight++;
  answering.set(socket, (answering.get(socket) ?? 0) + 1);
  res.once('close', () => {
    const left = answering.get(socket)! - 1;
    answering.set(socket, left);
    if (left === 0 && closeWhenAnswered.has(socket)) socket.end();
    if (--inFlight === 0) whenIdle();
  });
  if (stopping) res.setHeader('Connection', 'close');
  if (answerPrepared(req, res)) return;
  (mcpPost(req) ? answerMcp(req, res) : answer(req, res)).catch((e: unknown) => {
    console.error(e);
    if (res.headersSent) res.destroy();
    else void send(res, internalError());
  });
}

/**
 * The answer the raw front (server/raw-front.ts) writes itself, when the request's answer is already bytes:
 * what answerPrepared writes, or a kept MCP answer the fast path gives at once (answerMcp's checks first).
 */
function rawAnswerOf(request: SimpleRequest): RawAnswer | null {
  const host = request.headers.get('host')!;
  if (!validHost(host)) return null;
  const coding = negotiate(request.headers.get('accept-encoding'));
  if (request.method !== 'POST') {
    const key = `${request.method} ${request.target}`;
    const kept = PREPARED.get(key) ?? PRICED_ANSWERS?.get(key);
    if (!kept) return null;
    const prepared = orNotModified(inCoding(kept, coding, 'fast'), request.headers.get('if-none-match'), request.headers.get('if-modified-since'));
    return { status: prepared.status, headers: prepared.headers, parts: [prepared.body] };
  }
  const mcp = mcpLoaded;
  if (request.target !== MCP_PATH || !mcp || !(request.body!.length <= mcp.maxBody)) return null;
  if (!mcpHostAllowed(host, request.headers.get('origin'))) return null;
  const kept = mcp.fast.keptAnswer(request.body!, (name) => request.headers.get(name));
  return kept && mcpInCoding(kept, coding);
}

// Node would refuse a missing Host itself, with an empty 400: the check in targetOf answers it in the API's body.
const server = createServer({ requireHostHeader: false }, handle);
// An Expect other than 100-continue would get Node's bare 417: the expectation is ignored (RFC 9110 10.1.1 allows it) and the request answered.
server.on('checkExpectation', handle);

/** An answer written straight to a socket, where Node gives no ServerResponse: the API's error body, then close. */
function socketAnswer(socket: Duplex, status: number, reason: string, message: string, head: boolean, extra = ''): void {
  const body = JSON.stringify({ error: { code: 'invalid_request', message } });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n` +
      `Access-Control-Allow-Origin: *\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

// Requests the HTTP parser itself refuses (a method it does not know, such as TRACK; bad syntax; headers
// too large) get the API's error body too, instead of Node's bare 400.
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request headers too large: the request line and headers must fit in 16 KB'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request timeout: the request was not received in time'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'malformed HTTP request: expected GET, HEAD or OPTIONS with a path such as /v1/coverage'];
/** Longest request line (method, target, version) taken as a line: past it, what is too long is the target (RFC 9110 15.5.15), not the headers. */
const MAX_REQUEST_LINE = 8192;
const URI_TOO_LONG: [number, string, string] = [414, 'URI Too Long', `request target too long: the request line must fit in ${MAX_REQUEST_LINE / 1024} KB; send fewer or shorter parameters`];
/** Whether the bytes Node's parser refused as too large start with a request line longer than MAX_REQUEST_LINE. */
function requestLineTooLong(packet: Buffer | undefined): boolean {
  if (!packet) return false;
  const end = packet.indexOf('\r\n');
  return (end < 0 ? packet.length : end) > MAX_REQUEST_LINE;
}
function onClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
  // A request on this connection is being answered: what broke may be its own body, so it is not answered
  // twice; the connection ends after its answer. Otherwise (a fresh connection, or every request on it
  // answered) the malformed request gets its error answer.
  if ((answering.get(socket) ?? 0) > 0) return void closeWhenAnswered.add(socket);
  const [status, reason, message] =
    err.code === 'HPE_HEADER_OVERFLOW' && requestLineTooLong(err.rawPacket) ? URI_TOO_LONG : (CLIENT_ERRORS[err.code ?? ''] ?? MALFORMED);
  socketAnswer(socket, status, reason, message, err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ');
}
server.on('clientError', onClientError);

const rawSockets = installRawFront(server, {
  answerOf: rawAnswerOf,
  onRequestTimeout: (socket) => onClientError(Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket),
  stopping: () => stopping,
});

// CONNECT would otherwise get no answer at all: it is one more method the API does not allow.
server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
  socketAnswer(socket, 405, 'Method Not Allowed', `method 'CONNECT' is not allowed: use GET (or HEAD)`, false, 'Allow: GET, HEAD, OPTIONS\r\n');
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
  let exiting: Promise<void> | undefined;
  const exit = () =>
    (exiting ??= (async () => {
      server.closeAllConnections();
      // Vouchers held are claimed before the process goes (a claim that fails is logged; they stay on disk or in Redis).
      await claims?.stop();
      closePaymentStores();
      process.exit(0);
    })());
  server.close();
  server.closeIdleConnections();
  for (const socket of rawSockets) socket.destroy(); // idle: the raw front answers at once
  if (inFlight === 0) return void exit();
  whenIdle = () => void exit();
  setTimeout(() => {
    console.error(`shutdown: ${inFlight} request(s) still in flight after ${SHUTDOWN_GRACE_MS} ms; closing them`);
    void exit();
  }, SHUTDOWN_GRACE_MS).unref();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutdown(signal));
