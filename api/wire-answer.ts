// An answer as the bytes a socket gets, the one shape from whoever makes it to whoever writes it: every REST
// handler, the payment gate and the MCP server answer it; the Node server and the raw front write it as it is,
// and a Web Response is made of it only where the platform asks for one (responseOf: Vercel's functions).
export interface WireAnswer {
  status: number;
  /**
   * Lower-case names, in the order written; `content-length` where it is not the parts' sum (a HEAD answer: its GET's).
   */
  headers: Record<string, string>;
  /** The body in parts, written in order and never copied (a kept MCP answer: before the id, the id, after it). */
  parts: Buffer[];
  /**
   * A 304's: the headers of the 200 it stands for, so the Node server can give the 304 the coding that 200 would have
   * had (server/send.ts).
   */
  representation?: Record<string, string>;
}

/**
 * A body as given to wireAnswer: text, or bytes kept as the same object (never copied), which the caches of its ETag
 * and its compressed forms are keyed by.
 */
export type Body = string | Buffer;

/**
 * An answer of its status, headers and body. The headers are normalised as a Web Headers object lists them
 * (lower-case names, sorted by name), so the bytes written are the same whether a Response is made of it or not.
 */
export function wireAnswer(status: number, headers: Record<string, string>, body: Body | null = null): WireAnswer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { status, headers: Object.fromEntries(new Headers(headers)), parts: bytes?.length ? [bytes] : [] };
}

/** The answer with these headers added (or replaced), normalised again. */
export function withHeaders(answer: WireAnswer, headers: Record<string, string>): WireAnswer {
  const merged = { ...answer.headers };
  for (const [name, value] of Object.entries(headers)) merged[name.toLowerCase()] = value;
  return { status: answer.status, headers: Object.fromEntries(new Headers(merged)), parts: answer.parts };
}

/** The body's length: its parts' summed. */
export function partsLength(answer: WireAnswer): number {
  let length = 0;
  for (const part of answer.parts) length += part.length;
  return length;
}

/** The body whole: its one part as it is (not copied), else its parts joined. */
export const bodyBytes = ({ parts }: WireAnswer): Buffer => (parts.length === 1 ? parts[0] : Buffer.concat(parts));

/** A wire answer as a Web Response: the one place the API makes one (Vercel's functions answer Responses). */
export const responseOf = (answer: WireAnswer): Response =>
  new Response(answer.parts.length ? (bodyBytes(answer) as Uint8Array<ArrayBuffer>) : null, {
    status: answer.status,
    headers: answer.headers,
  });
