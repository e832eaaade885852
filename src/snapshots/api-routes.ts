// Where the free pages stop and the paid API starts: the route and price a reader needs for more.
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';

const route = (path: string) => ROUTE_CONTRACTS.find((r) => r.path === path)!;

/** "GET /v1/premium?state=TX&line=56 (0.10 USD)". */
export function paidQuery(
  path: '/v1/premium' | '/v1/compare' | '/v1/premium/summary',
  query: string,
): { request: string; price: string } {
  return { request: `GET ${path}?${query}`, price: `${route(path).priceUsd} USD` };
}
