// Conditional requests (RFC 9110 13): every 200 answer carries a strong ETag, the SHA-256 of its body, and
// Last-Modified, the newest report_date it cites (else the build's newest); a request that names the current
// ETag in If-None-Match (or, without one, gives an If-Modified-Since not older than Last-Modified) gets 304
// Not Modified with no body. A 304 holds no figure, so it is never charged: a client re-checking whether an
// answer changed pays nothing (DECISIONS §14). A compressed answer's ETag names its coding (`"<hex>-br"`);
// any coding's tag matches, as all are the same figures.
import { sha256 } from '../domain/manifest.ts';

/** Each kept body's ETag, computed once: free bodies and kept answers are the same bytes on every request. */
const etags = new WeakMap<Uint8Array, string>();

/** The strong ETag of a body: its SHA-256 in hex, quoted. */
export function etagOf(body: string | Uint8Array): string {
  if (typeof body === 'string') return `"${sha256(Buffer.from(body))}"`;
  let etag = etags.get(body);
  if (!etag) etags.set(body, (etag = `"${sha256(body)}"`));
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

/**
 * Whether the client already holds this answer: If-None-Match when sent (If-Modified-Since is then ignored,
 * RFC 9110 13.1.3), else If-Modified-Since when it is a date no older than Last-Modified.
 */
export function notModified(ifNoneMatch: string | null | undefined, ifModifiedSince: string | null | undefined, etag: string | undefined, lastModified: string | undefined): boolean {
  if (ifNoneMatch != null) return etag !== undefined && matchesAny(ifNoneMatch, etag);
  if (ifModifiedSince == null || lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Date.parse(lastModified) <= since;
}

/** The headers a 304 repeats of its 200 (RFC 9110 15.4.5): validators, caching, Vary, and CORS so a browser can read it. */
const KEPT_ON_304 = new Set(['etag', 'last-modified', 'cache-control', 'cdn-cache-control', 'vary', 'access-control-allow-origin', 'access-control-expose-headers']);
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
