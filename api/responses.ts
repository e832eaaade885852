// The API's answers as HTTP: a 200's bytes and headers (CORS, caching, its validators ETag and Last-Modified),
// the 304 of an answer the client holds already, and a Response that remembers its body for the Node server.
import { etagOf, httpDate, newestCitedDate, notModified, notModifiedHeaders } from './conditional.ts';
import { toJson } from './json.ts';
import { listedSha256, requiredFreeBody } from './store.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
export const FREE_CACHE = 'public, max-age=3600';
/** Priced answers are one buyer's: never stored by a browser or a shared cache (docs/design.md §6). */
export const PRICED_CACHE = 'private, no-store';

/** CORS on every response, 402 included, so browser agents can read the payment headers. */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE',
};

export type Body = string | Uint8Array<ArrayBuffer>;

/** An answer as CSV (docs/design.md §11), with the file name its Content-Disposition gives. */
export interface CsvAnswer {
  text: string | Uint8Array<ArrayBuffer>;
  fileName: string;
}

/** A 200 answer's body and headers, before they are a Response (a priced one is kept so: api/priced.ts). */
export interface AnswerBytes {
  body: Body;
  headers: Record<string, string>;
}
const bodies = new WeakMap<Response, Body>();

/** A Response that remembers its body, so the Node server can write it without reading a stream back. */
export function respond(body: Body | null, init: ResponseInit): Response {
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
 * the newest its publications feed cites (docs/design.md §14).
 */
const lastModifiedOf = (json: Body | null) =>
  httpDate(
    (json !== null && newestCited(json)) || newestCited(requiredFreeBody('publications/all.json')) || '1970-01-01',
  );

/**
 * A body's ETag: for a file read from the shards, the SHA-256 its manifest lists (checked when read), else hashed here.
 */
function etag(body: Body, key: Uint8Array | undefined): string {
  const listed = key || typeof body === 'string' ? undefined : listedSha256(body);
  return listed ? `"${listed}"` : etagOf(body, key);
}

/**
 * A 200 answer's bytes and headers, with its validators: the ETag of `body` (keyed by `key` when given), and the
 * Last-Modified of `json`, the answer as JSON (its CSV form cites what the JSON cites); null for a file that cites the
 * whole build.
 */
function okBytes(
  body: Body,
  type: string,
  headers: Record<string, string>,
  json: Body | null = body,
  key?: Uint8Array,
): AnswerBytes {
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
const ok = (body: Body, type: string, headers: Record<string, string>, json?: Body | null) =>
  respondOk(okBytes(body, type, headers, json));

/**
 * The 200 headers (lower-case names) each 304 answers for, so the Node server can give the 304 the coding the 200 would
 * have had.
 */
const representations = new WeakMap<Response, Record<string, string>>();
export const representationOf = (response: Response) => representations.get(response);

/** Whether the request holds the answer with these headers already (see api/conditional.ts). */
export const holdsAnswer = (request: Request, headers: Headers) =>
  notModified(
    request.headers.get('if-none-match'),
    request.headers.get('if-modified-since'),
    headers.get('etag') ?? undefined,
    headers.get('last-modified') ?? undefined,
  );

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

/**
 * A free route's answer: precomputed bytes, cacheable by browsers and (own header) by the CDN. `json`: a CSV answer's
 * JSON twin.
 */
export const freeJson = (bytes: Uint8Array<ArrayBuffer>) => ok(bytes, JSON_TYPE, FREE_HEADERS);
export const freeCsv = ({ text, fileName }: CsvAnswer, json: Body) =>
  ok(text, CSV_TYPE, { ...FREE_HEADERS, ...attachment(fileName) }, json);

/**
 * The key of a priced answer's ETag: ETAG_KEY, when the deployment sets one (the same on every instance). A free
 * 304 shows the ETag, and a plain hash of a small answer would let a guess of its figures be checked offline;
 * unset, the ETag is the body's SHA-256.
 */
const etagKey = () => (process.env.ETAG_KEY ? Buffer.from(process.env.ETAG_KEY) : undefined);

/**
 * A priced route's answer, serialised, as bytes: kept once computed (api/priced.ts), the same bytes are then the Node
 * server's to compress once.
 */
export const pricedJson = (body: unknown) =>
  okBytes(Buffer.from(toJson(body)), JSON_TYPE, { 'Cache-Control': PRICED_CACHE }, undefined, etagKey());
export const pricedCsv = ({ text, fileName }: CsvAnswer, body: unknown) =>
  okBytes(
    Buffer.from(text),
    CSV_TYPE,
    { 'Cache-Control': PRICED_CACHE, ...attachment(fileName) },
    toJson(body),
    etagKey(),
  );
/**
 * A priced file (a bulk download): it cites the whole build, so its Last-Modified is the build's; its ETag is its
 * SHA-256, which the free data package publishes.
 */
export const pricedFile = (
  bytes: Uint8Array<ArrayBuffer>,
  { mediaType, fileName }: { mediaType: string; fileName: string },
) => okBytes(bytes, mediaType, { 'Cache-Control': PRICED_CACHE, ...attachment(fileName) }, null);
