// Conditional requests (RFC 9110 13): every 200 answer carries a strong ETag, a hash of its body, and
// Last-Modified, the newest report_date it cites (else the build's newest); a request that names the current
// ETag in If-None-Match (or, without one, gives an If-Modified-Since not older than Last-Modified) gets 304
// Not Modified with no body. A 304 holds no figure, so it is never charged: a client re-checking whether an
// answer changed pays nothing (docs/design.md §14). A compressed answer's ETag names its coding (`"<hex>-br"`);
// any coding's tag matches, as all are the same figures.
import { createHmac } from 'node:crypto';
import { sha256 } from '../domain/manifest.ts';

/** Each kept body's ETag, computed once: free bodies and kept answers are the same bytes on every request. */
const etags = new WeakMap<Uint8Array, string>();

/**
 * The strong ETag of a body: its SHA-256 in hex, quoted; with `key`, its HMAC-SHA256 under that key (a priced answer's,
 * api/http.ts).
 */
export function etagOf(body: string | Uint8Array, key?: Uint8Array): string {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const tag = () => `"${key ? createHmac('sha256', key).update(bytes).digest('hex') : sha256(bytes)}"`;
  if (typeof body === 'string') return tag();
  let etag = etags.get(body);
  if (!etag) etags.set(body, (etag = tag()));
  return etag;
}

/** The ETag of an answer's encoded form: the coding named inside the quotes, so no two forms share a strong tag. */
export const codedEtag = (etag: string, coding: string) => `${etag.slice(0, -1)}-${coding}"`;

const CODING_SUFFIX = /-(?:br|gzip)"$/;

/** An entity tag without its coding: the answer's figures, whichever coding carried them. */
const uncoded = (tag: string) => tag.replace(CODING_SUFFIX, '"');

/** RFC 9110 13.1.2: weak comparison, an entity tag list or `*`; a tag of any coding of this answer matches. */
function matchesAny(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const wanted = uncoded(etag);
  for (const entry of ifNoneMatch.split(',')) {
    const tag = entry.trim();
    if (uncoded(tag.startsWith('W/') ? tag.slice(2) : tag) === wanted) return true;
  }
  return false;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** RFC 9110 5.6.7's three forms, each read as [day, month, year, hours, minutes, seconds] in GMT. */
const HTTP_DATES: [RegExp, (m: RegExpMatchArray) => string[]][] = [
  // IMF-fixdate
  [new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`), (m) => m.slice(1, 7)],
  [
    new RegExp(`^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`),
    (m) => [m[1], m[2], String(1900 + Number(m[3]) + (Number(m[3]) < 70 ? 100 : 0)), ...m.slice(4, 7)],
  ], // RFC 850
  [
    new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`),
    (m) => [m[2].trim(), m[1], m[6], ...m.slice(3, 6)],
  ], // asctime
];

/**
 * The time an HTTP-date names (ms since the epoch), or null for anything else: an invalid date is ignored (RFC 9110
 * 13.1.3).
 */
function parseHttpDate(text: string): number | null {
  for (const [pattern, fields] of HTTP_DATES) {
    const m = text.match(pattern);
    if (!m) continue;
    const [day, month, year, hours, minutes, seconds] = fields(m);
    const time = Date.UTC(
      Number(year),
      MONTHS.indexOf(month),
      Number(day),
      Number(hours),
      Number(minutes),
      Number(seconds),
    );
    // 31 Feb and 25:00 are not dates: the fields must read back as given.
    return new Date(time).getUTCDate() === Number(day) &&
      Number(hours) < 24 &&
      Number(minutes) < 60 &&
      Number(seconds) < 61
      ? time
      : null;
  }
  return null;
}

/**
 * Whether the client already holds this answer: If-None-Match when sent (If-Modified-Since is then ignored,
 * RFC 9110 13.1.3), else If-Modified-Since when it is an HTTP-date no older than Last-Modified.
 */
export function notModified(
  ifNoneMatch: string | null | undefined,
  ifModifiedSince: string | null | undefined,
  etag: string | undefined,
  lastModified: string | undefined,
): boolean {
  if (ifNoneMatch != null) return etag !== undefined && matchesAny(ifNoneMatch, etag);
  if (ifModifiedSince == null || lastModified === undefined) return false;
  const since = parseHttpDate(ifModifiedSince.trim());
  return since !== null && Date.parse(lastModified) <= since;
}

/**
 * Whether a request's conditional headers could name an answer: `*` or an entity tag of this API's form in
 * If-None-Match, else an HTTP-date.
 */
export function mayHoldAnswer(ifNoneMatch: string | null, ifModifiedSince: string | null): boolean {
  if (ifNoneMatch !== null) return ifNoneMatch.trim() === '*' || /"[0-9a-f]{64}(?:-(?:br|gzip))?"/.test(ifNoneMatch);
  return ifModifiedSince !== null && parseHttpDate(ifModifiedSince.trim()) !== null;
}

/**
 * The headers a 304 repeats of its 200 (RFC 9110 15.4.5): validators, caching, Vary, and CORS so a browser can read it.
 */
const KEPT_ON_304 = new Set([
  'etag',
  'last-modified',
  'cache-control',
  'cdn-cache-control',
  'vary',
  'access-control-allow-origin',
  'access-control-expose-headers',
]);
const notModifiedHeaderSets = new WeakMap<Record<string, string>, Record<string, string>>();

/** A 200's headers (lower-case names) as its 304 gives them; made once per headers object. */
export function notModifiedHeaders(headers: Record<string, string>): Record<string, string> {
  let out = notModifiedHeaderSets.get(headers);
  if (!out) {
    out = {};
    for (const name in headers) if (KEPT_ON_304.has(name)) out[name] = headers[name];
    notModifiedHeaderSets.set(headers, out);
  }
  return out;
}

/** An HTTP-date (IMF-fixdate) of a `YYYY-MM-DD` date, at midnight UTC. */
export const httpDate = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`).toUTCString();

const CITED_DATE = /"report_date":"(\d{4}-\d{2}-\d{2})"/g;

/** The newest `"report_date"` a JSON answer's text holds (its publications', its own), or null when it holds none. */
export function newestCitedDate(json: string): string | null {
  let newest: string | null = null;
  for (const [, date] of json.matchAll(CITED_DATE)) if (newest === null || date > newest) newest = date;
  return newest;
}
