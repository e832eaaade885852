// The local server (`npm run serve`, `npm start`): the built Astro app (pages, prerendered files,
// static assets) with the API routes answered straight from their handlers. Astro's per-request
// pipeline cost the API 60-80% of its throughput (npm run bench:api), so /v1 requests skip it; on
// Vercel the same handlers run behind Astro's endpoints under src/pages/v1/.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bodyOf, errorResponse } from './api/http.ts';
import { HANDLERS } from './api/routes/index.ts';

type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

process.env.ASTRO_NODE_AUTOSTART = 'disabled'; // we listen ourselves; the entry only exports its handler
const entry = resolve(process.env.ASTRO_ENTRY ?? 'dist/server/entry.mjs');
const { handler: astro } = (await import(pathToFileURL(entry).href)) as { handler: NodeHandler };
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 4321);

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return new Request(`http://${req.headers.host ?? `${host}:${port}`}${req.url}`, { method: req.method, headers });
}

async function write(res: ServerResponse, response: Response): Promise<void> {
  const body = await bodyOf(response);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

const server = createServer(async (req, res) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const handle = HANDLERS[query < 0 ? url : url.slice(0, query)];
  if (!handle) return astro(req, res);
  let request: Request;
  try {
    request = toRequest(req);
  } catch {
    return write(res, errorResponse(400, `malformed request: '${url}' with Host '${req.headers.host}' is not a valid URL`));
  }
  try {
    await write(res, await handle(request));
  } catch (e) {
    console.error(e);
    if (!res.headersSent) await write(res, errorResponse(500, 'internal error: the answer could not be computed; please retry later'));
    else res.destroy();
  }
});
server.listen(port, host, () => console.log(`Serving on http://${host}:${port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
