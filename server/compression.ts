// Compressed answers for the Node server, fewer bytes on the wire for the larger answers: br or gzip, as the request's
// Accept-Encoding allows, for an answer of /v1 or /mcp over 1 KB of a text type. Such an answer says `Vary:
// Accept-Encoding` in every coding, identity too, so a shared cache keeps them apart. Bytes that are kept (the prepared
// free answers, the kept priced ones, a priced answer's body computed once) are compressed once, at full strength; an
// answer made for one request (an MCP answer with its id) at a fast level.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { codedEtag } from '../api/conditional.ts';
import { type WireAnswer, bodyBytes, partsLength } from '../api/wire-answer.ts';
import { remembered } from './remembered.ts';

export type Coding = 'br' | 'gzip';

/** Answers this long or shorter go as they are: compression saves too little to pay its cost. */
const MIN_COMPRESSED_BYTES = 1024;
const TEXT_TYPE = /^(?:application\/(?:json|xml|atom\+xml)|text\/)/i;

/** Whether an answer of this type and length is offered compressed (and so varies on Accept-Encoding). */
export function compressible(headers: Record<string, string>, length: number): boolean {
  return length > MIN_COMPRESSED_BYTES && TEXT_TYPE.test(headers['content-type'] ?? '') && !headers['content-encoding'];
}

/** An Accept-Encoding value's choice (see negotiate). */
const chosen = remembered((accept): Coding | null => {
  const q = new Map<string, number>();
  for (const entry of accept.split(',')) {
    const [name, ...params] = entry.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const weight = params.find((p) => /^q\s*=/.test(p));
    const value = weight === undefined ? 1 : Number(weight.replace(/^q\s*=\s*/, ''));
    if (Number.isFinite(value)) q.set(name, value);
  }
  const acceptable = (coding: Coding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  return acceptable('br') ? 'br' : acceptable('gzip') ? 'gzip' : null;
});

/**
 * The coding to answer in: br when acceptable, else gzip, else none (identity), per RFC 9110 12.5.3: a
 * coding is acceptable when listed (or matched by `*`) with a q-value above 0. Unparseable entries are ignored.
 */
export const negotiate = (accept: string | undefined): Coding | null => (accept ? chosen(accept) : null);

/** How hard to compress: `max` for bytes compressed once at start, `fast` for bytes compressed on a request. */
export type Effort = 'max' | 'fast';

/**
 * Each kept body in each coding, made on first use: the same bytes are compressed once, whichever answer holds them.
 */
const encodedBodies = new WeakMap<Uint8Array, Partial<Record<Coding, Buffer>>>();

/**
 * `body` in `coding`. Bytes kept (a prepared or kept answer's, or a priced body computed once: api/priced.ts)
 * are compressed once; a string is made for one answer, and compressed for it.
 */
export function encodedBody(body: string | Uint8Array, coding: Coding, effort: Effort): Buffer {
  if (typeof body === 'string') return compress(Buffer.from(body), coding, effort);
  let forms = encodedBodies.get(body);
  if (!forms) encodedBodies.set(body, (forms = {}));
  return (forms[coding] ??= compress(body, coding, effort));
}

/** `body` in `coding`, compressed now. */
export function compress(body: Uint8Array, coding: Coding, effort: Effort): Buffer {
  if (coding === 'gzip') return gzipSync(body, { level: effort === 'max' ? 9 : 6 });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: effort === 'max' ? constants.BROTLI_MAX_QUALITY : 5,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** Each headers object with Vary added, made once: kept answers' headers are the same object on every request. */
const withVary = new WeakMap<Record<string, string>, Record<string, string>>();

/** The headers of an answer that varies on Accept-Encoding (its identity form too): Vary added (or extended). */
export function varying(headers: Record<string, string>): Record<string, string> {
  let out = withVary.get(headers);
  if (!out) {
    const vary = headers.vary;
    out =
      vary && /(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary)
        ? headers
        : { ...headers, vary: vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding' };
    withVary.set(headers, out);
  }
  return out;
}

/** The headers of the encoded form: Content-Encoding, its own Content-Length and ETag (same places), Vary. */
function encodedHeaders(headers: Record<string, string>, coding: Coding, length: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers)
    out[name] =
      name === 'content-length' ? String(length) : name === 'etag' ? codedEtag(headers[name], coding) : headers[name];
  if (!('content-length' in out)) out['content-length'] = String(length);
  out['content-encoding'] = coding;
  return varying(out);
}

/** A kept answer that may be given encoded: its encoded forms, made once each (eagerly or on first use). */
export interface CodedAnswer extends WireAnswer {
  /** Offered compressed: its headers (all forms) say Vary. */
  varies: boolean;
  /** What the encoded forms are made of: the body, or a HEAD answer's GET body. */
  source: Uint8Array | null;
  encoded: Partial<Record<Coding, WireAnswer>>;
}

/**
 * A kept answer ready to be given in any coding (its headers say Vary when it may be compressed). A HEAD
 * answer has no body: `getBody` is its GET twin's, so its encoded headers are the GET's; without one it goes as
 * identity.
 */
export function codedAnswer(answer: WireAnswer, getBody?: Uint8Array): CodedAnswer {
  const length = Number(answer.headers['content-length'] ?? partsLength(answer));
  const body = bodyBytes(answer);
  const source = getBody ?? (body.length ? body : null);
  const varies = source !== null && compressible(answer.headers, length);
  return { ...answer, headers: varies ? varying(answer.headers) : answer.headers, varies, source, encoded: {} };
}

/**
 * An answer made for one request, in `coding` when it is worth compressing (`encode` makes the coded body), else as it
 * is, saying Vary when it could have been (a HEAD answer, whose body is not there to encode, too).
 */
export function inCodingFor(
  answer: WireAnswer,
  coding: Coding | null,
  encode: (body: Buffer, coding: Coding) => Buffer,
): WireAnswer {
  const length = partsLength(answer);
  if (!compressible(answer.headers, Number(answer.headers['content-length'] ?? length))) return answer;
  if (!coding || !length) return { ...answer, headers: varying(answer.headers) };
  const body = encode(bodyBytes(answer), coding);
  return { status: answer.status, headers: encodedHeaders(answer.headers, coding, body.length), parts: [body] };
}

/** The answer in `coding` (made on first use, then kept): itself when not negotiated or not offered compressed. */
export function inCoding(answer: CodedAnswer, coding: Coding | null, effort: Effort): WireAnswer {
  if (!coding || !answer.varies || !answer.source) return answer;
  let encoded = answer.encoded[coding];
  if (!encoded) {
    const body = encodedBody(answer.source, coding, effort);
    encoded = answer.encoded[coding] = {
      status: answer.status,
      headers: encodedHeaders(answer.headers, coding, body.length),
      parts: partsLength(answer) ? [body] : [], // HEAD: the headers alone
    };
  }
  return encoded;
}
