// Answers written to a Node response: a wire answer as it is, or a handler's Response, compressed when the
// request accepts it and the answer is worth it (server/compression.ts).
import type { ServerResponse } from 'node:http';
import { codedEtag } from '../api/conditional.ts';
import { internalError } from '../api/errors.ts';
import { bodyOf, representationOf } from '../api/responses.ts';
import type { WireAnswer } from '../api/wire-answer.ts';
import { type Coding, compressible, encodedBody, encodedHeaders, varying } from './compression.ts';

/** Writes a wire answer: its headers as they are, its parts in one write, nothing copied. */
export function writeWire(res: ServerResponse, { status, headers, parts }: WireAnswer): void {
  res.writeHead(status, headers);
  if (parts.length <= 1) return void res.end(parts[0]);
  res.cork();
  for (let i = 0; i < parts.length - 1; i++) res.write(parts[i]);
  res.end(parts[parts.length - 1]);
  res.uncork();
}

/** A 304's headers as its 200 would have been given in `coding`: that coding's ETag, and Vary when the 200 varies. */
function notModifiedInCoding(response: Response, coding: Coding | null): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  const full = representationOf(response);
  if (!full || !compressible(full, Number(full['content-length']))) return headers;
  return varying(coding && headers.etag ? { ...headers, etag: codedEtag(headers.etag, coding) } : headers);
}

/**
 * A handler's answer, compressed when `coding` is given and the answer is worth it (a HEAD answer then says Vary, as
 * identity).
 */
export async function send(res: ServerResponse, response: Response, coding: Coding | null = null): Promise<void> {
  if (response.status === 304) return void res.writeHead(304, notModifiedInCoding(response, coding)).end();
  const body = await bodyOf(response);
  let headers = Object.fromEntries(response.headers);
  if (compressible(headers, Number(headers['content-length'] ?? (body === undefined ? 0 : Buffer.byteLength(body))))) {
    if (coding && body !== undefined && body.length) {
      const encoded = encodedBody(body, coding, 'fast');
      res.writeHead(response.status, encodedHeaders(headers, coding, encoded.length));
      return void res.end(encoded);
    }
    headers = varying(headers);
  }
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A plain-text answer for paths outside the API. */
export function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(`${text}\n`);
}

/**
 * Waits for an answer being given; a failure is logged and answered 500, or the connection dropped when the answer had
 * begun.
 */
export function answering(res: ServerResponse, pending: Promise<void>): void {
  pending.catch((e: unknown) => {
    console.error(e);
    if (res.headersSent) res.destroy();
    else void send(res, internalError());
  });
}
