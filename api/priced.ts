// A priced route over HTTP: its query parsed, then the paid execution every front shares (api/paid-execution.ts:
// the request resolved before any payment is asked for, the answer kept, the gate around it), with the HTTP
// parts of its own: the answer as JSON or CSV bytes, a 304 for an answer the client holds.
import { mayHoldAnswer } from './conditional.ts';
import { type Handler, route } from './http.ts';
import { holdsAnswer, notModifiedAnswer, pricedCsv, pricedJson } from './responses.ts';
import { parseQuery } from './params.ts';
import type { PricedOperation } from './operation.ts';
import type { PricedAnswer } from './payment/gate.ts';
import { PaidAnswers, behindGate, readableQuery } from './paid-execution.ts';
import { partsLength } from './wire-answer.ts';

/**
 * The request's URL with its query rebuilt from the parsed parameters (readableQuery) (defaults applied, duplicates
 * folded, codes uppercased): what the payment challenge names as the resource. It echoes nothing the
 * parameters did not accept, so its size is bounded by the data, not by the client.
 */
function canonicalUrl(url: URL, query: string): URL {
  const canonical = new URL(url.pathname, url.origin);
  canonical.search = query;
  return canonical;
}

/**
 * Each priced answer once computed, as its bytes, by path and canonical query (format included), up to 32 MiB.
 * Only what is computed is kept, never a payment's outcome: each request still pays, or gets the 402.
 */
const httpAnswers = new PaidAnswers<PricedAnswer>(32 * 2 ** 20, (answer) => partsLength(answer.body));

/**
 * Whether a request may hold its answer already: `*` or an ETag of this API's form in If-None-Match, else an
 * HTTP-date in If-Modified-Since. Only then is the answer computed before payment, to compare.
 */
const conditional = (request: Request) =>
  mayHoldAnswer(request.headers.get('if-none-match'), request.headers.get('if-modified-since'));

export function pricedRoute(operation: PricedOperation): Handler {
  const { contract, params, csv, file } = operation;
  return route(async (request, url) => {
    const parsed = parseQuery(url, params);
    const query = readableQuery(parsed);
    // The same answer in either format: figures, price and the no-charge rule are the JSON's.
    const computed = httpAnswers.prepare(operation, parsed, `${url.pathname}?${query}`, (body, hasFigures) =>
      file
        ? file(body)
        : { body: csv && parsed.format === 'csv' ? pricedCsv(csv(body, parsed), body) : pricedJson(body), hasFigures },
    );
    // After validation, before payment: an answer the client holds already is a 304, which holds no figure and is free
    // (docs/design.md §14).
    if (conditional(request)) {
      const { headers } = computed().body;
      if (holdsAnswer(request, headers)) return notModifiedAnswer(headers);
    }
    return behindGate(
      (gate) => gate.charge(request, contract, computed, canonicalUrl(url, query)),
      () => computed().body,
    );
  });
}
