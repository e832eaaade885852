// A priced route: parameters checked and the request resolved (400/404) before any payment is asked
// for, so a bad request is never charged; then the payment gate, when it is on, around the answer.
import { type Handler, parseQuery, pricedCsv, pricedJson, route } from './http.ts';
import type { PricedOperation } from './operations.ts';
import { configuredGate } from './payment/configured.ts';

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
 * Every figure an answer shows comes from a publication it lists (DECISIONS §10), and every listed
 * publication gave one of them: an answer that lists none holds no figure (empty data, or every figure
 * null), and is not charged (§7).
 */
export const citesPublications = (body: unknown) => ((body as { publications?: unknown[] }).publications?.length ?? 0) > 0;

export function pricedRoute(operation: PricedOperation): Handler {
  const { contract, params, prepare, csv } = operation;
  return route(async (request, url) => {
    const parsed = parseQuery(url, params);
    const compute = prepare(parsed);
    const answer = () => {
      const body = compute();
      // The same answer in either format: figures, price and the no-charge rule are the JSON's.
      const response = csv && parsed.format === 'csv' ? pricedCsv(csv(body, parsed)) : pricedJson(body);
      return { response, hasFigures: citesPublications(body) };
    };
    const gate = await configuredGate();
    return gate ? gate.charge(request, contract, answer, canonicalUrl(url, parsed)) : answer().response;
  });
}
