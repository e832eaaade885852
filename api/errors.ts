// The one mapping from what went wrong to what the client is told, over HTTP (the error body with its status)
// and as an MCP tool error (the same body as JSON text): a QueryError says what to fix, a damaged or missing
// shard is the deployment's fault said in one line of the log, anything else is a bug; neither of those two
// leaks anything to the client.
import type { ErrorBody } from '../domain/contract.ts';
import { echo } from '../domain/echo.ts';
import { QueryError } from '../domain/errors.ts';
import { CORS_HEADERS, JSON_TYPE } from './responses.ts';
import { ShardError } from './store.ts';
import { type WireAnswer, wireAnswer } from './wire-answer.ts';

type ErrorStatus = 400 | 404 | 405 | 500 | 503;

const CODES = { 400: 'invalid_request', 404: 'not_found', 500: 'internal', 503: 'internal' } as const;
const STATUS = { invalid_request: 400, not_found: 404 } as const;
const INTERNAL = 'internal error: the answer could not be computed; please retry later';

/** The error body for a status: what an HTTP error answers, and an MCP tool error's text. */
export const errorBodyOf = (status: ErrorStatus, message: string): ErrorBody => ({
  error: { code: CODES[status === 405 ? 400 : status], message },
});

/**
 * What a failure answers: a QueryError its status and message; anything else a 500 that says nothing of it (the log has
 * it).
 */
export function failureOf(e: unknown): { status: 400 | 404 | 500; message: string } {
  if (e instanceof QueryError) return { status: STATUS[e.code], message: e.message };
  console.error(e instanceof ShardError ? `shards: ${e.message}` : e);
  return { status: 500, message: INTERNAL };
}

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** The error body's answer: `extra` headers beside its own (a 503's Retry-After). */
export function errorAnswer(status: ErrorStatus, message: string, extra: Record<string, string> = {}): WireAnswer {
  const text = JSON.stringify(errorBodyOf(status, message));
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'Content-Type': JSON_TYPE,
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
    ...extra,
  };
  if (status === 405) headers.Allow = ALLOWED_METHODS;
  return wireAnswer(status, headers, text);
}

export const methodNotAllowed = (method: string) =>
  errorAnswer(405, `method ${echo(method)} is not allowed: use GET (or HEAD)`);

/** The 500 answer: says nothing of what failed (the log has it). */
export const internalError = () => errorAnswer(500, INTERNAL);
