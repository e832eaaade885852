// The local server (`npm run serve`, `npm start`): the built Astro app (pages, prerendered files,
// static assets) with the API routes answered straight from their handlers. Astro's per-request
// pipeline cost the API 60-80% of its throughput (npm run bench:api), so /v1 requests skip it; on
// Vercel the same handlers run behind Astro's endpoints under src/pages/v1/.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bodyOf, internalError, methodNotAllowed } from './api/http.ts';
import { paymentSettings } from './api/payment/settings.ts';
import { HANDLERS } from './api/routes/index.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

// A misconfigured payment gate stops the server here, naming the variable, rather than failing paid requests later.
let payment: ReturnType<typeof paymentSettings>;
try {
  payment = paymentSettings();
} catch (e) {
  console.error(`Payment gate: ${(e as Error).message}`);
  process.exit(1);
}

process.env.ASTRO_NODE_AUTOSTART = 'disabled'; // we listen ourselves; the entry only exports its handler
const entry = resolve(process.env.ASTRO_ENTRY ?? 'dist/server/entry.mjs');
const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);
const HOST_HEADER = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/** The request's URL: its path and query on the Host it names (when that is a plain host[:port]). */
function urlOf(req: IncomingMessage): URL | null {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return null; // absolute-form and other targets: left to Astro
  const named = req.headers.host;
  return new URL(`http://${named && HOST_HEADER.test(named) ? named : `localhost:${port}`}${target}`);
}

function toRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(url, { method: req.method, headers });
}

async function write(res: ServerResponse, response: Response): Promise<void> {
  const body = await bodyOf(response);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

const server = createServer(async (req, res) => {
  const url = urlOf(req);
  const handle = url && Object.hasOwn(HANDLERS, url.pathname) ? HANDLERS[url.pathname] : undefined;
  if (!url || !handle) return astro(req, res);
  // Methods a Request cannot carry (TRACE, CONNECT, TRACK) get the routes' own 405.
  if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method ?? '')) return write(res, methodNotAllowed(req.method ?? ''));
  try {
    await write(res, await handle(toRequest(req, url)));
  } catch (e) {
    console.error(e);
    if (!res.headersSent) await write(res, internalError());
    else res.destroy();
  }
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
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
