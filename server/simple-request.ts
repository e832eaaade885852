// The plainest HTTP/1.1 requests, read straight from a socket's bytes for the raw front (server/raw-front.ts).
// Not an HTTP parser: a whitelist. It takes a request only in the one form no two HTTP parsers read
// differently, and says null to everything else, which then goes to Node's own parser (llhttp) unchanged:
// a request line `GET|HEAD|POST SP origin-form SP HTTP/1.1`; header lines `token ":" OWS visible-ASCII OWS`,
// each name at most once; a Host; no Transfer-Encoding, Expect or Upgrade, and no Connection but
// `keep-alive` (HTTP/1.1's default, so the answer is the same; the others change how the connection or the
// message is framed); a Content-Length, in plain digits, on POST only, and the whole body
// already in the buffer. Whatever is refused costs nothing but the slower path. A client sends the same
// head on every request, so a head's reading is remembered (server/remembered.ts): looked up, not parsed again.
import { remembered } from './remembered.ts';

/** A request read whole from a buffer. */
export interface SimpleRequest {
  method: 'GET' | 'HEAD' | 'POST';
  /** The request target as sent (origin form: starts with /). */
  target: string;
  /**
   * Header values by lower-case name, each sent once, trimmed of surrounding spaces and tabs (shared by every request
   * with the same head: read only).
   */
  headers: ReadonlyMap<string, string>;
  /** The body of a POST (a view into the buffer it was read from), else null. */
  body: Buffer | null;
  /** Where the request ends in the buffer: the next one starts here. */
  end: number;
}

/**
 * Longest request line and headers taken: well under Node's 16 KB limit, so nothing Node would refuse as too large is
 * taken.
 */
export const MAX_HEAD_BYTES = 8192;
/** Most header lines taken. */
const MAX_HEADERS = 64;
/** Longest body taken (MCP's own limit is lower; the caller checks it). */
const MAX_BODY_DIGITS = 7;
const HEAD_END = Buffer.from('\r\n\r\n');
const REQUEST_LINE = /^(GET|HEAD|POST) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*((?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?)[ \t]*$/;
/** Headers that change the connection or the framing: a request with one is Node's to read. */
const REFUSED_HEADERS = new Set(['transfer-encoding', 'expect', 'upgrade']);

/** What a head (request line and headers, without the blank line) says, when it is in the plainest form. */
interface Head {
  method: SimpleRequest['method'];
  target: string;
  headers: ReadonlyMap<string, string>;
  /** The body's declared length (a POST's), else null. */
  declared: number | null;
}

/**
 * A head's reading; past 256 heads all are forgotten, so a client cycling through heads cannot grow it (8 KB each at
 * most).
 */
const headOf = remembered((text: string): Head | null => {
  const lines = text.split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0]);
  if (!requestLine || lines.length - 1 > MAX_HEADERS) return null;
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const header = HEADER_LINE.exec(lines[i]);
    if (!header) return null;
    const name = header[1].toLowerCase();
    if (headers.has(name) || REFUSED_HEADERS.has(name)) return null;
    headers.set(name, header[2]);
  }
  const connection = headers.get('connection');
  if (!headers.has('host') || (connection !== undefined && connection.toLowerCase() !== 'keep-alive')) return null;
  const method = requestLine[1] as SimpleRequest['method'];
  const declared = headers.get('content-length');
  if (method !== 'POST')
    return declared === undefined ? { method, target: requestLine[2], headers, declared: null } : null;
  if (declared === undefined || !/^\d+$/.test(declared) || declared.length > MAX_BODY_DIGITS) return null;
  return { method, target: requestLine[2], headers, declared: Number(declared) };
}, 256);

/** The request that starts at `from` in `data`, when it is whole there and in the plainest form; else null. */
export function simpleRequestAt(data: Buffer, from: number): SimpleRequest | null {
  const headEnd = data.indexOf(HEAD_END, from);
  if (headEnd < 0 || headEnd - from > MAX_HEAD_BYTES) return null;
  const head = headOf(data.toString('latin1', from, headEnd));
  if (!head) return null;
  const { method, target, headers, declared } = head;
  const bodyStart = headEnd + HEAD_END.length;
  if (declared === null) return { method, target, headers, body: null, end: bodyStart };
  const end = bodyStart + declared;
  if (end > data.length) return null;
  return { method, target, headers, body: data.subarray(bodyStart, end), end };
}
