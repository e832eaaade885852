// Answers written to a Node response: a wire answer as it is, or a handler's answer compressed when the request
// accepts it and the answer is worth it (server/compression.ts).
import type { ServerResponse } from 'node:http';
import { codedEtag } from '../api/conditional.ts';
import { internalError } from '../api/errors.ts';
import type { WireAnswer } from '../api/wire-answer.ts';
import { type Coding, compressible, encodedBody, inCodingFor, varying } from './compression.ts';

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
function notModifiedInCoding({ headers, representation }: WireAnswer, coding: Coding | null): Record<string, string> {
  if (!representation || !compressible(representation, Number(representation['content-length']))) return headers;
  return varying(coding && headers.etag ? { ...headers, etag: codedEtag(headers.etag, coding) } : headers);
}

/**
 * A handler's answer, compressed when `coding` is given and the answer is worth it (a HEAD answer then says Vary, as
 * identity).
 */
export function send(res: ServerResponse, answer: WireAnswer, coding: Coding | null = null): void {
  if (answer.status === 304) return void res.writeHead(304, notModifiedInCoding(answer, coding)).end();
  // A body the handler keeps (a shard's, a priced answer computed once) is compressed once per coding.
  writeWire(
    res,
    inCodingFor(answer, coding, (body, chosen) => encodedBody(body, chosen, 'fast')),
  );
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
    else send(res, internalError());
  });
}
