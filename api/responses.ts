// The API's answers as HTTP: a 200's bytes and headers (CORS, caching, its validators ETag and Last-Modified),
// and the 304 of an answer the client holds already, each a wire answer (./wire-answer.ts).
import { etagOf, httpDate, newestCitedDate, notModified, notModifiedHeaders } from './conditional.ts';
import { toJson } from './json.ts';
import { listedSha256, requiredFreeBody } from './store.ts';
import { type Body, type WireAnswer, wireAnswer } from './wire-answer.ts';

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

/** An answer as CSV (docs/design.md §11), with the file name its Content-Disposition gives. */
export interface CsvAnswer {
  text: string | Buffer;
  fileName: string;
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
 * A 200 answer, with its validators: the ETag of `body` (keyed by `key` when given), and the Last-Modified of `json`,
 * the answer as JSON (its CSV form cites what the JSON cites); null for a file that cites the whole build. route()
 * leaves the body out for HEAD.
 */
function ok(
  body: Body,
  type: string,
  headers: Record<string, string>,
  json: Body | null = body,
  key?: Uint8Array,
): WireAnswer {
  return wireAnswer(
    200,
    {
      ...CORS_HEADERS,
      'Content-Type': type,
      'Content-Length': String(Buffer.byteLength(body)),
      ...headers,
      ETag: etag(body, key),
      'Last-Modified': lastModifiedOf(json),
    },
    body,
  );
}

/** Whether the request holds the answer with these (lower-case) headers already (see api/conditional.ts). */
export const holdsAnswer = (request: Request, headers: Record<string, string>) =>
  notModified(
    request.headers.get('if-none-match'),
    request.headers.get('if-modified-since'),
    headers.etag,
    headers['last-modified'],
  );

/**
 * The 304 Not Modified of a 200 with these (lower-case) headers: no body, its validators, caching and CORS headers;
 * the 200's headers beside it, for the coding the Node server gives it.
 */
export const notModifiedAnswer = (headers: Record<string, string>): WireAnswer => ({
  ...wireAnswer(304, notModifiedHeaders(headers)),
  representation: headers,
});

const FREE_HEADERS = { 'Cache-Control': FREE_CACHE, 'CDN-Cache-Control': FREE_CACHE };
/** A CSV answer is a file to a browser or a spreadsheet: it comes with a name. */
const attachment = (fileName: string) => ({ 'Content-Disposition': `attachment; filename="${fileName}"` });

/**
 * A free route's answer: precomputed bytes, cacheable by browsers and (own header) by the CDN. `json`: a CSV answer's
 * JSON twin.
 */
export const freeJson = (bytes: Buffer) => ok(bytes, JSON_TYPE, FREE_HEADERS);
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
  ok(Buffer.from(toJson(body)), JSON_TYPE, { 'Cache-Control': PRICED_CACHE }, undefined, etagKey());
export const pricedCsv = ({ text, fileName }: CsvAnswer, body: unknown) =>
  ok(Buffer.from(text), CSV_TYPE, { 'Cache-Control': PRICED_CACHE, ...attachment(fileName) }, toJson(body), etagKey());
/**
 * A priced file (a bulk download): it cites the whole build, so its Last-Modified is the build's; its ETag is its
 * SHA-256, which the free data package publishes.
 */
export const pricedFile = (bytes: Buffer, { mediaType, fileName }: { mediaType: string; fileName: string }) =>
  ok(bytes, mediaType, { 'Cache-Control': PRICED_CACHE, ...attachment(fileName) }, null);
