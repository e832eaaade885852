// A priced route: parameters checked and the request resolved (400/404) before any payment is asked
// for, so a bad request is never charged; then the payment gate, when it is on, around the answer.
import { AnswerCache } from './answer-cache.ts';
import { mayHoldAnswer } from './conditional.ts';
import { type Handler, route } from './http.ts';
import { holdsAnswer, notModifiedResponse, pricedCsv, pricedJson, respondOk } from './responses.ts';
import { parseQuery } from './params.ts';
import type { ComputedAnswer, PricedOperation } from './operation.ts';
import { configuredGate } from './payment/configured.ts';
import { onStoreReset } from './store.ts';

/**
 * The request's URL with its query rebuilt from the parsed parameters (defaults applied, duplicates
 * folded, codes uppercased): what the payment challenge names as the resource. It echoes nothing the
 * parameters did not accept, so its size is bounded by the data, not by the client.
 */
export function canonicalUrl(url: URL, params: Record<string, unknown>): URL {
  const canonical = new URL(url.pathname, url.origin);
  canonical.search = readableQuery(params);
  return canonical;
}

/** A query string of parameter values (a list joined with commas), commas left readable: `states=FL,TX`, as a person would write it. */
export const readableQuery = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value)).replaceAll('%2C', ',')}`)
    .join('&');

/**
 * Every figure an answer shows comes from a publication it lists (docs/design.md §10), and every listed
 * publication gave one of them: an answer that lists none holds no figure (empty data, or every figure
 * null), and is not charged (§7).
 */
export const citesPublications = (body: unknown) => ((body as { publications?: unknown[] }).publications?.length ?? 0) > 0;


/**
 * Each priced answer once computed, by path and canonical query (format included), up to 32 MiB: the
 * shards do not change while a process runs, so the same query gives the same bytes, and a paid request's
 * answer is ready at once, its settle started sooner (issue 22). Only what is computed is kept, never a
 * payment's outcome: each request still pays, or gets the 402.
 */
const computedAnswers = new AnswerCache<ComputedAnswer>(32 * 2 ** 20);
onStoreReset(() => computedAnswers.clear());

/**
 * Whether a request may hold its answer already: `*` or an ETag of this API's form in If-None-Match, else an
 * HTTP-date in If-Modified-Since. Only then is the answer computed before payment, to compare.
 */
const conditional = (request: Request) => mayHoldAnswer(request.headers.get('if-none-match'), request.headers.get('if-modified-since'));

export function pricedRoute(operation: PricedOperation): Handler {
  const { contract, params, prepare, csv, file } = operation;
  return route(async (request, url) => {
    const parsed = parseQuery(url, params);
    const compute = prepare(parsed);
    const key = `${url.pathname}?${readableQuery(parsed)}`;
    const computed = () => {
      let kept = computedAnswers.get(key);
      if (!kept) {
        const body = compute();
        // The same answer in either format: figures, price and the no-charge rule are the JSON's.
        if (file) kept = file(body);
        else kept = { ...(csv && parsed.format === 'csv' ? pricedCsv(csv(body, parsed), body) : pricedJson(body)), hasFigures: citesPublications(body) };
        computedAnswers.set(key, kept);
      }
      return kept;
    };
    const answer = () => {
      const kept = computed();
      return { body: respondOk(kept), hasFigures: kept.hasFigures };
    };
    // After validation, before payment: an answer the client holds already is a 304, which holds no figure and is free (docs/design.md §14).
    if (conditional(request)) {
      const headers = new Headers(computed().headers);
      if (holdsAnswer(request, headers)) return notModifiedResponse(headers);
    }
    const gate = await configuredGate();
    return gate ? gate.charge(request, contract, answer, canonicalUrl(url, parsed)) : answer().body;
  });
}
