// The answers the Node server writes without asking a handler: the canonical free queries' answers, prepared
// once from the checked shards (api/prepared.ts) and compressed once at full strength where worth it; and, with
// the gate off, each priced answer once computed (GET and HEAD, 200 only), up to 64 MiB, each coding made on
// first use. One lookup serves the server's own fast path and the raw front alike.
import { AnswerCache } from '../api/answer-cache.ts';
import { notModified, notModifiedHeaders } from '../api/conditional.ts';
import { prepareFreeAnswers } from '../api/prepared.ts';
import { type WireAnswer, partsLength } from '../api/wire-answer.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CodedAnswer, type Coding, codedAnswer, inCoding, negotiate } from './compression.ts';
import type { ReadyAnswerOf } from './raw-front.ts';
import type { SimpleRequest } from './simple-request.ts';
import { hostProblemOf, validHost } from './request-target.ts';
import { writeWire } from './send.ts';

/**
 * Free answers in every coding; a HEAD answer's encoded forms are made of its GET twin's body (compressed once for
 * both).
 */
function codedFreeAnswers(prepared: Map<string, WireAnswer>): Map<string, CodedAnswer> {
  const out = new Map<string, CodedAnswer>();
  for (const [key, answer] of prepared) {
    const getTwin = key.startsWith('HEAD ') ? prepared.get(`GET ${key.slice('HEAD '.length)}`)?.parts[0] : undefined;
    const coded = codedAnswer(answer, getTwin);
    for (const coding of ['br', 'gzip'] as const) inCoding(coded, coding, 'max');
    out.set(key, coded);
  }
  return out;
}

/**
 * A kept answer, or its 304 when the request's conditional headers say the client holds it already
 * (api/conditional.ts).
 */
function orNotModified(
  answer: WireAnswer,
  ifNoneMatch: string | null | undefined,
  ifModifiedSince: string | null | undefined,
): WireAnswer {
  if (ifNoneMatch == null && ifModifiedSince == null) return answer;
  if (!notModified(ifNoneMatch, ifModifiedSince, answer.headers.etag, answer.headers['last-modified'])) return answer;
  return { status: 304, headers: notModifiedHeaders(answer.headers), parts: [] };
}

export class KeptAnswers {
  readonly #free: Map<string, CodedAnswer>;
  readonly #priced: AnswerCache<CodedAnswer> | undefined;

  private constructor(free: Map<string, CodedAnswer>, keepPriced: boolean) {
    this.#free = free;
    this.#priced = keepPriced ? new AnswerCache<CodedAnswer>(64 * 2 ** 20, partsLength) : undefined;
  }

  /**
   * The free answers prepared now; priced answers kept as computed when `keepPriced` (the gate off: no payment guards
   * them).
   */
  static async prepare(keepPriced: boolean): Promise<KeptAnswers> {
    return new KeptAnswers(codedFreeAnswers(await prepareFreeAnswers()), keepPriced);
  }

  /** The answer kept for exactly this method and target (as sent), or undefined. */
  #kept(method: string | undefined, target: string | undefined): CodedAnswer | undefined {
    const key = `${method} ${target}`;
    return this.#free.get(key) ?? this.#priced?.get(key);
  }

  /**
   * Writes the kept answer to exactly this request when there is one and its Host is sound, in its coding or as its
   * 304: at once, no URL parsed.
   */
  writeKept(req: IncomingMessage, res: ServerResponse): boolean {
    const kept = this.#kept(req.method, req.url);
    if (!kept || hostProblemOf(req)) return false;
    writeWire(
      res,
      orNotModified(
        inCoding(kept, negotiate(req.headers['accept-encoding']), 'fast'),
        req.headers['if-none-match'],
        req.headers['if-modified-since'],
      ),
    );
    return true;
  }

  /** The raw front's answers: kept ones, and for a POST what `post` gives (the MCP front's kept answers). */
  readyAnswers(
    post: (request: SimpleRequest, host: string, coding: Coding | null) => WireAnswer | null,
  ): ReadyAnswerOf {
    return (request) => {
      const host = request.headers.get('host')!;
      if (!validHost(host)) return null;
      if (request.method === 'POST') return post(request, host, negotiate(request.headers.get('accept-encoding')));
      const kept = this.#kept(request.method, request.target);
      if (!kept) return null;
      const answer = inCoding(kept, negotiate(request.headers.get('accept-encoding')), 'fast');
      return orNotModified(answer, request.headers.get('if-none-match'), request.headers.get('if-modified-since'));
    };
  }

  /** Whether priced answers are kept (the gate is off). */
  get keepsPriced(): boolean {
    return this.#priced !== undefined;
  }

  /** Keeps a priced 200 for the next identical request, and returns it in `coding`. */
  keep(method: string, target: string, answer: WireAnswer, coding: Coding | null): WireAnswer {
    const getTwin = method === 'HEAD' ? this.#priced!.get(`GET ${target}`)?.parts[0] : undefined;
    const coded = codedAnswer(answer, getTwin);
    this.#priced!.set(`${method} ${target}`, coded);
    return inCoding(coded, coding, 'fast');
  }
}
