// The full handling of a request no kept answer serves: a malformed request gets the API's error body wherever
// it was sent, /v1 goes to the API's dispatcher, /mcp to the MCP server, everything else to the built Astro
// app (pages, prerendered files, static assets).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dispatch } from '../api/dispatch.ts';
import { errorAnswer, methodNotAllowed } from '../api/errors.ts';
import { otherMethodAnswer } from '../api/http.ts';
import { FEED_PATH, FEED_TYPE, MCP_PATH } from '../api/paths.ts';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';
import { negotiate } from './compression.ts';
import type { KeptAnswers } from './kept-answers.ts';
import type { McpFront } from './mcp-front.ts';
import { hostProblemOf, targetOf, toRequest } from './request-target.ts';
import { plain, send, writeWire } from './send.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Methods a Web Request can carry; others (TRACE, CONNECT, TRACK, ...) are refused before anything reads the request.
 */
const REQUEST_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * The OpenAPI document is JSON for machines, like the API: any method but GET and HEAD gets the API's answer
 * (OPTIONS its preflight, the others its JSON 405), where Astro would send the prerendered file or a plain 405.
 */
const OPENAPI_PATH = '/openapi.json';

const PRICED_PATHS = new Set(ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => r.path));

/** The coding the request accepts best (br, gzip), or none. */
export const codingOf = (req: IncomingMessage) => negotiate(req.headers['accept-encoding']);

export interface Parts {
  port: number;
  astro: NodeHandler;
  mcp: McpFront;
  kept: KeptAnswers;
}

export function router({
  port,
  astro,
  mcp,
  kept,
}: Parts): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const method = req.method ?? 'GET';
    const { url, api } = targetOf(req, port);
    // `OPTIONS *` asks about the server as a whole (RFC 9110 9.3.7): what every resource here allows.
    if (method === 'OPTIONS' && req.url === '*' && !hostProblemOf(req))
      return void res.writeHead(204, { Allow: 'GET, HEAD, OPTIONS, POST', 'Cache-Control': 'no-store' }).end();
    // A request malformed as HTTP gets the API's error body wherever it was sent.
    if (typeof url === 'string') return send(res, errorAnswer(400, url));
    const openApiAnswer = url.pathname === OPENAPI_PATH ? otherMethodAnswer(method) : null;
    if (openApiAnswer) return send(res, openApiAnswer);
    if (!REQUEST_METHODS.has(method))
      return api ? send(res, methodNotAllowed(method)) : plain(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
    if (url.pathname === MCP_PATH) return mcp.answer(res, toRequest(req, url, true), codingOf(req));
    if (!api) {
      // Astro sends prerendered files typed by their extension (.xml: application/xml); the feed is Atom (RFC 4287).
      if (url.pathname === FEED_PATH) res.setHeader('Content-Type', FEED_TYPE);
      return astro(req, res);
    }
    const answer = await dispatch(toRequest(req, url));
    // With the gate off, a priced 200 is kept for the next identical request.
    if (
      (method === 'GET' || method === 'HEAD') &&
      PRICED_PATHS.has(url.pathname) &&
      kept.keepsPriced &&
      answer.status === 200
    )
      return writeWire(res, kept.keep(method, req.url!, answer, codingOf(req)));
    send(res, answer, codingOf(req));
  };
}
