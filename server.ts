// The local server (`npm run serve`, `npm start`): the built Astro app (pages, prerendered files, static
// assets) with every /v1 request answered by the API's own dispatcher, and /mcp by the MCP server. Astro's
// per-request pipeline cost the API 60-80% of its throughput (npm run bench:api), and its answers to odd paths
// are not the API's error body; on Vercel the same dispatcher runs behind src/fetch.ts. This file composes the
// parts in server/: start-up checks, kept answers (and the raw front that writes them), the MCP front, the full
// handling, client errors, and the shutdown that waits for requests in flight.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { answerClientErrors, clientErrorHandler, requestTimedOut } from './server/client-errors.ts';
import { type NodeHandler, codingOf, router } from './server/router.ts';
import { InFlight } from './server/in-flight.ts';
import { KeptAnswers } from './server/kept-answers.ts';
import { McpFront } from './server/mcp-front.ts';
import { installRawFront } from './server/raw-front.ts';
import { answering } from './server/send.ts';
import { paymentLine, startUp } from './server/start-up.ts';

const started = await startUp();
const { payment } = started;
/** With the gate off, priced answers are kept as computed too: no payment guards them. */
const kept = await KeptAnswers.prepare(!payment);

process.env.ASTRO_NODE_AUTOSTART = 'disabled'; // we listen ourselves; the entry only exports its handler
const entry = resolve(process.env.ASTRO_ENTRY ?? 'dist/server/entry.mjs');
const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);
/** How long a shutdown waits for requests in flight (a paid one may wait on the facilitator). */
const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS ?? 30_000);

const mcp = new McpFront(host);
const answer = router({ port, astro, mcp, kept });
const inFlight = new InFlight();
let stopping = false;

function handle(req: IncomingMessage, res: ServerResponse): void {
  inFlight.track(req, res);
  if (stopping) res.setHeader('Connection', 'close');
  if (kept.writeKept(req, res)) return;
  answering(res, mcp.takes(req) ? mcp.answerPost(req, res, codingOf(req), () => answer(req, res)) : answer(req, res));
}

// Node would refuse a missing Host itself, with an empty 400: the full handling answers it in the API's body.
const server = createServer({ requireHostHeader: false }, handle);
// An Expect other than 100-continue would get Node's bare 417: the expectation is ignored (RFC 9110 10.1.1 allows it)
// and the request answered.
server.on('checkExpectation', handle);
const onClientError = clientErrorHandler(inFlight);
answerClientErrors(server, onClientError);

// The raw front writes the answers that are already bytes: kept answers, and kept MCP answers the fast path gives at
// once.
const rawSockets = installRawFront(server, {
  answerOf: kept.readyAnswers((request, requestHost, coding) => mcp.rawAnswerOf(request, requestHost, coding)),
  onRequestTimeout: requestTimedOut(onClientError),
  stopping: () => stopping,
});

server.listen(port, host, () => {
  console.log(`Serving on http://${host}:${port}`);
  console.log(paymentLine(payment));
});

/**
 * Stop accepting, close idle keep-alive sockets at once, let requests in flight finish (up to the
 * grace period), then close every socket left, half-sent requests included, and exit.
 */
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping; ${inFlight.count} request(s) in flight`);
  let exiting: Promise<void> | undefined;
  const exit = () =>
    (exiting ??= (async () => {
      server.closeAllConnections();
      await started.stop();
      process.exit(0);
    })());
  server.close();
  server.closeIdleConnections();
  for (const socket of rawSockets) socket.destroy(); // idle: the raw front answers at once
  if (inFlight.count === 0) return void exit();
  inFlight.whenIdle(() => void exit());
  setTimeout(() => {
    console.error(`shutdown: ${inFlight.count} request(s) still in flight after ${SHUTDOWN_GRACE_MS} ms; closing them`);
    void exit();
  }, SHUTDOWN_GRACE_MS).unref();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => shutdown(signal));
