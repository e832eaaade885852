// Every route's HTTP behaviour: methods, CORS preflight, HEAD, the 304 of an answer the client holds, and
// failures turned into the error body (api/errors.ts).
import { ALLOWED_METHODS, errorAnswer, failureOf, methodNotAllowed } from './errors.ts';
import type { FreeOperation } from './operation.ts';
import { parseQuery } from './params.ts';
import { CORS_HEADERS, freeCsv, freeJson, holdsAnswer, notModifiedAnswer } from './responses.ts';
import { type WireAnswer, wireAnswer } from './wire-answer.ts';

export type Handler = (request: Request) => Promise<WireAnswer>;

const preflight = () =>
  wireAnswer(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    // PAYMENT-SIGNATURE carries an x402 payment; some x402 clients also send Access-Control-Expose-Headers.
    'Access-Control-Allow-Headers': 'Content-Type, PAYMENT-SIGNATURE, Access-Control-Expose-Headers',
    'Access-Control-Max-Age': '86400',
  });

/**
 * Wraps a route: answers OPTIONS and unsupported methods, turns a QueryError into the error body, and any
 * other failure into a 500 that leaks nothing (no stack, no path).
 */
export function route(handle: (request: Request, url: URL) => WireAnswer | Promise<WireAnswer>): Handler {
  const answer = async (request: Request): Promise<WireAnswer> => {
    const refused = otherMethodAnswer(request.method);
    if (refused) return refused;
    try {
      return await handle(request, new URL(request.url));
    } catch (e) {
      const { status, message } = failureOf(e);
      return errorAnswer(status, message);
    }
  };
  return async (request) => {
    const given = await answer(request);
    const { status, headers, parts } = given;
    // A 200 the client holds already (its ETag named in If-None-Match, or not modified since): 304, no body. Never
    // a paid answer: a priced route checks before payment (api/priced.ts), and what was paid for is delivered.
    if (status === 200 && !('payment-response' in headers) && holdsAnswer(request, headers))
      return notModifiedAnswer(headers);
    // HEAD gets what GET would, headers only (its Content-Length too): errors included, wherever it goes (Vercel too).
    return request.method === 'HEAD' && parts.length ? { status, headers, parts: [] } : given;
  };
}

/** The answer to any method but GET and HEAD (OPTIONS: the CORS preflight; others: the 405), or null for those two. */
export function otherMethodAnswer(method: string): WireAnswer | null {
  if (method === 'GET' || method === 'HEAD') return null;
  return method === 'OPTIONS' ? preflight() : methodNotAllowed(method);
}

/**
 * A free route over HTTP: its parameters from the query string (a route without any ignores it), its precomputed bytes.
 */
export const freeRoute = (operation: FreeOperation): Handler =>
  route((_request, url) => {
    const params = operation.params ? parseQuery(url, operation.params) : {};
    return operation.csv && params.format === 'csv'
      ? freeCsv(operation.csv(params), operation.body(params))
      : freeJson(operation.body(params));
  });
