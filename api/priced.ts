// A priced route: parameters checked and the request resolved (400/404) before any payment is asked
// for, so a bad request is never charged; then the payment gate, when it is on, around the answer.
import type { z } from 'zod';
import { ROUTE_CONTRACTS } from './contract.ts';
import { type Handler, parseQuery, pricedJson, route } from './http.ts';
import { configuredGate } from './payment/configured.ts';

export function pricedRoute<S extends z.ZodObject>(path: string, params: S, prepare: (params: z.infer<S>) => () => unknown): Handler {
  const contract = ROUTE_CONTRACTS.find((r) => r.path === path && r.priceUsd);
  if (!contract) throw new Error(`${path} is not a priced route of the contract`);
  return route(async (request, url) => {
    const compute = prepare(parseQuery(url, params));
    const answer = () => pricedJson(compute(), request.method);
    const gate = await configuredGate();
    return gate ? gate.charge(request, contract, answer) : answer();
  });
}
