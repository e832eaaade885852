// HTTP behaviour shared by every route: methods, CORS, parameter checking and the error body.
import type { z } from 'zod';
import type { ErrorBody } from '../domain/contract.ts';
import { echo } from '../domain/echo.ts';
import { firstSentence } from '../domain/first-sentence.ts';
import { etagOf, httpDate, newestCitedDate, notModified, notModifiedHeaders } from './conditional.ts';
import { toJson } from './json.ts';
import type { CsvAnswer, FreeOperation } from './operations.ts';
import { ShardError, freeBody, listedSha256 } from './store.ts';

export type Handler = (request: Request) => Response | Promise<Response>;

const JSON_TYPE = 'application/json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
export const FREE_CACHE = 'public, max-age=3600';
/** Priced answers are one buyer's: never stored by a browser or a shared cache (DECISIONS.md §6). */
export const PRICED_CACHE = 'private, no-store';

/** CORS on every response, 402 included, so browser agents can read the payment headers. */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE',
};

export type Body = string | Uint8Array<ArrayBuffer>;

/** A 200 answer's body and headers, before they are a Response (a priced one is kept so: api/priced.ts). */
export interface AnswerBytes {
  body: Body;
  headers: Record<string, string>;
}
const bodies = new WeakMap<Response, Body>();

/** A Response that remembers its body, so the Node server can write it without reading a stream back. */
function respond(body: Body | null, init: ResponseInit): Response {
  const response = new Response(body, init);
  if (body !== null) bodies.set(response, body);
  return response;
}

/** The body of a response: as it was given, for responses made here; else read from the stream. */
export async function bodyOf(response: Response): Promise<Body | undefined> {
  const known = bodies.get(response);
  if (known !== undefined) return known;
  return response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
}

export class HttpError extends Error {
  readonly status: 400 | 404;
  constructor(status: 400 | 404, message: string) {
    super(message);
    this.status = status;
  }
}

const CODES = { 400: 'invalid_request', 404: 'not_found', 500: 'internal', 503: 'internal' } as const;

/** The spec's error body for a status: what an HTTP error answers, and an MCP tool error's text. */
export const errorBodyOf = (status: 400 | 404 | 405 | 500 | 503, message: string): ErrorBody => ({ error: { code: CODES[status === 405 ? 400 : status], message } });

export function errorResponse(status: 400 | 404 | 405 | 500 | 503, message: string): Response {
  const text = JSON.stringify(errorBodyOf(status, message));
  const headers: Record<string, string> = { ...CORS_HEADERS, 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(text)), 'Cache-Control': 'no-store' };
  if (status === 405) headers.Allow = ALLOWED_METHODS;
  return respond(text, { status, headers });
}

/** Each kept JSON body's newest cited report_date, found once. */
const citedDates = new WeakMap<Uint8Array, string | null>();

/** The newest report_date a JSON body cites, or null. */
function newestCited(json: Body): string | null {
  if (typeof json === 'string') return newestCitedDate(json);
  if (!citedDates.has(json)) citedDates.set(json, newestCitedDate(Buffer.from(json).toString('utf8')));
  return citedDates.get(json)!;
}

/**
 * Last-Modified of an answer whose JSON is `json`: the newest report_date it cites, else the build's, which is
 * the newest its publications feed cites (DECISIONS §14).
 */
const lastModifiedOf = (json: Body | null) =>
  httpDate((json !== null && newestCited(json)) || newestCited(requiredFreeBody('publications/all.json')) || '1970-01-01');

/** A body's ETag: for a file read from the shards, the SHA-256 its manifest lists (checked when read), else hashed here. */
function etag(body: Body, key: Uint8Array | undefined): string {
  const listed = key || typeof body === 'string' ? undefined : listedSha256(body);
  return listed ? `"${listed}"` : etagOf(body, key);
}

/**
 * A 200 answer's bytes and headers, with its validators: the ETag of `body` (keyed by `key` when given), and the
 * Last-Modified of `json`, the answer as JSON (its CSV form cites what the JSON cites); null for a file that cites the whole build.
 */
function okBytes(body: Body, type: string, headers: Record<string, string>, json: Body | null = body, key?: Uint8Array): AnswerBytes {
  return {
    body,
    headers: {
      ...CORS_HEADERS,
      'Content-Type': type,
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers,
      ETag: etag(body, key),
      'Last-Modified': lastModifiedOf(json),
    },
  };
}

/** A 200 answer of its bytes and headers (route() leaves the body out for HEAD). */
export const respondOk = ({ body, headers }: AnswerBytes): Response => respond(body, { status: 200, headers });
const ok = (body: Body, type: string, headers: Record<string, string>, json?: Body | null) => respondOk(okBytes(body, type, headers, json));

/** The 200 headers (lower-case names) each 304 answers for, so the Node server can give the 304 the coding the 200 would have had. */
const representations = new WeakMap<Response, Record<string, string>>();
export const representationOf = (response: Response) => representations.get(response);

/** Whether the request holds the answer with these headers already (see api/conditional.ts). */
export const holdsAnswer = (request: Request, headers: Headers) =>
  notModified(request.headers.get('if-none-match'), request.headers.get('if-modified-since'), headers.get('etag') ?? undefined, headers.get('last-modified') ?? undefined);

/** The 304 Not Modified of a 200 with these headers: no body, its validators, caching and CORS headers. */
export function notModifiedResponse(headers: Headers): Response {
  const full = Object.fromEntries(headers);
  const response = new Response(null, { status: 304, headers: notModifiedHeaders(full) });
  representations.set(response, full);
  return response;
}

const FREE_HEADERS = { 'Cache-Control': FREE_CACHE, 'CDN-Cache-Control': FREE_CACHE };
/** A CSV answer is a file to a browser or a spreadsheet: it comes with a name. */
const attachment = (fileName: string) => ({ 'Content-Disposition': `attachment; filename="${fileName}"` });

/** A free route's answer: precomputed bytes, cacheable by browsers and (own header) by the CDN. `json`: a CSV answer's JSON twin. */
export const freeJson = (bytes: Uint8Array<ArrayBuffer>) => ok(bytes, JSON_TYPE, FREE_HEADERS);
export const freeCsv = ({ text, fileName }: CsvAnswer, json: Body) => ok(text, CSV_TYPE, { ...FREE_HEADERS, ...attachment(fileName) }, json);

/**
 * The key of a priced answer's ETag: ETAG_KEY, when the deployment sets one (the same on every instance). A free
 * 304 shows the ETag, and a plain hash of a small answer would let a guess of its figures be checked offline;
 * unset, the ETag is the body's SHA-256.
 */
const etagKey = () => (process.env.ETAG_KEY ? Buffer.from(process.env.ETAG_KEY) : undefined);

/** A priced route's answer, serialised, as bytes: kept once computed (api/priced.ts), the same bytes are then the Node server's to compress once. */
export const pricedJson = (body: unknown) => okBytes(Buffer.from(toJson(body)), JSON_TYPE, { 'Cache-Control': PRICED_CACHE }, undefined, etagKey());
export const pricedCsv = ({ text, fileName }: CsvAnswer, body: unknown) =>
  okBytes(Buffer.from(text), CSV_TYPE, { 'Cache-Control': PRICED_CACHE, ...attachment(fileName) }, toJson(body), etagKey());
/** A priced file (a bulk download): it cites the whole build, so its Last-Modified is the build's; its ETag is its SHA-256, which the free data package publishes. */
export const pricedFile = (bytes: Uint8Array<ArrayBuffer>, { mediaType, fileName }: { mediaType: string; fileName: string }) =>
  okBytes(bytes, mediaType, { 'Cache-Control': PRICED_CACHE, ...attachment(fileName) }, null);

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': ALLOWED_METHODS,
      // PAYMENT-SIGNATURE carries an x402 payment; some x402 clients also send Access-Control-Expose-Headers.
      'Access-Control-Allow-Headers': 'Content-Type, PAYMENT-SIGNATURE, Access-Control-Expose-Headers',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/**
 * Wraps a route: answers OPTIONS and unsupported methods, turns HttpError into the spec's error
 * body, and any other failure into a 500 that leaks nothing (no stack, no path).
 */
export function route(handle: (request: Request, url: URL) => Response | Promise<Response>): Handler {
  const answer = async (request: Request): Promise<Response> => {
    const refused = otherMethodAnswer(request.method);
    if (refused) return refused;
    try {
      return await handle(request, new URL(request.url));
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e.status, e.message);
      // A damaged or missing shard is the deployment's fault, said in one line; anything else is a bug.
      console.error(e instanceof ShardError ? `shards: ${e.message}` : e);
      return internalError();
    }
  };
  return async (request) => {
    const response = await answer(request);
    // A 200 the client holds already (its ETag named in If-None-Match, or not modified since): 304, no body. Never
    // a paid answer: a priced route checks before payment (api/priced.ts), and what was paid for is delivered.
    if (response.status === 200 && !response.headers.has('payment-response') && holdsAnswer(request, response.headers))
      return notModifiedResponse(response.headers);
    // HEAD gets what GET would, headers only: errors included, wherever the Response goes (Vercel too).
    return request.method === 'HEAD' && response.body !== null ? respond(null, { status: response.status, headers: response.headers }) : response;
  };
}

export const methodNotAllowed = (method: string) => errorResponse(405, `method ${echo(method)} is not allowed: use GET (or HEAD)`);

/** The answer to any method but GET and HEAD (OPTIONS: the CORS preflight; others: the 405), or null for those two. */
export function otherMethodAnswer(method: string): Response | null {
  if (method === 'GET' || method === 'HEAD') return null;
  return method === 'OPTIONS' ? preflight() : methodNotAllowed(method);
}

/** The 500 answer: says nothing of what failed (the log has it). */
export const internalError = () => errorResponse(500, 'internal error: the answer could not be computed; please retry later');

export const unknownState = (state: string) => new HttpError(404, `unknown state '${state}': see /v1/coverage for the states served`);

/** A free route's precomputed body at `free/<path>`; the build must have it. */
export function requiredFreeBody(path: string): Uint8Array<ArrayBuffer> {
  const body = freeBody(path);
  if (!body) throw new ShardError(`free/${path} is not in the build: run the ingest`);
  return body;
}

/** A state's precomputed free body (`free/<folder>/<state>.<ext>`); 404 for a state the build does not have. */
export function freeStateBody(folder: string, state: string, ext: 'json' | 'csv' = 'json'): Uint8Array<ArrayBuffer> {
  const body = freeBody(`${folder}/${state}.${ext}`);
  if (body) return body;
  requiredFreeBody('coverage.json'); // no build at all is a 500, not "unknown state"
  throw unknownState(state);
}

/** A free route over HTTP: its parameters from the query string (a route without any ignores it), its precomputed bytes. */
export const freeRoute = (operation: FreeOperation): Handler =>
  route((_request, url) => {
    const params = operation.params ? parseQuery(url, operation.params) : {};
    return operation.csv && params.format === 'csv' ? freeCsv(operation.csv(params), operation.body(params)) : freeJson(operation.body(params));
  });

/**
 * Parses the query string with a route's parameter schema. Unknown and repeated parameters are
 * refused by name; schema failures name the parameter and what was expected.
 */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S): z.infer<S> {
  const allowed = Object.keys(schema.shape);
  const values: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (!allowed.includes(key)) throw unknownParameter(key, allowed);
    if (key in values) throw new HttpError(400, `parameter '${key}' is given more than once: give it once`);
    values[key] = value;
  }
  return parseValues(values, schema);
}

export const unknownParameter = (name: string, allowed: readonly string[]) =>
  new HttpError(400, `unknown parameter ${echo(name)}: ${allowed.length ? `expected only ${allowed.map((k) => `'${k}'`).join(', ')}` : 'this route takes no parameters'}`);

/** Checks parameter values (as a query string gives them: text) with a route's schema; errors name the parameter and what was expected. */
export function parseValues<S extends z.ZodObject>(values: Record<string, string>, schema: S): z.infer<S> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue.path[0] ?? '');
  // Cross-parameter rules write their whole message ("give exactly one of ..."), even about a parameter
  // not sent; single-value checks say what was expected.
  if (issue.code === 'custom' && issue.params?.wholeMessage) throw new HttpError(400, issue.message);
  if (!(name in values)) throw new HttpError(400, `missing required parameter '${name}': ${describe(schema, name)}`);
  throw new HttpError(400, `invalid '${name}' ${echo(values[name])}: expected ${issue.message}`);
}

/** What a parameter expects: the first sentence of its description, whole. */
function describe(schema: z.ZodObject, name: string): string {
  const meta = (schema.shape[name] as z.ZodType).meta?.() as { description?: string } | undefined;
  if (!meta?.description) return 'see /openapi.json';
  const first = firstSentence(meta.description, { colon: true }).replace(/[.:]$/, '');
  // "expected Two-letter state code" reads as a sentence once its first word is lower-cased (not an acronym such as ISO).
  return `expected ${/^[A-Z][a-z]/.test(first) ? first[0].toLowerCase() + first.slice(1) : first}`;
}
