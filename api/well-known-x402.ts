// GET /.well-known/x402: the x402 discovery document, which crawlers (x402scan and the tools built on its spec)
// read to find a site's paid resources before probing each one for its 402 challenge. Generated from the
// contract (every route of ROUTE_CONTRACTS with a price) and the payment terms, so it cannot drift from them.
//
// The shape is x402scan's `/.well-known/x402` fan-out: Merit-Systems/x402scan, docs/DISCOVERY.md ("x402scan
// Discovery & Registration Spec", section B), as Merit-Systems/agentcash-router's src/discovery/well-known.ts
// serves it and Merit-Systems/x402scan-mcp's discovery tool parses it:
//
//   { "version": 1, "resources": ["https://host/route", ...], "ownershipProofs"?: ["0x..."], "instructions"?: "..." }
//
// - `version` is the number 1 (readers refuse any other).
// - `resources` are absolute URL strings, which a crawler probes for a 402 (readers parse each as a URL). A
//   method is written before a URL only when it is not the probe's default (GET or POST): every route here is
//   GET, so each resource is a plain URL. Each is the route with example values for its required parameters,
//   so the probe passes validation (400 comes before 402) and reaches the challenge.
// - `instructions` is free text for people and agents. The spec has no field for a price: each resource's
//   method and price (USD, and the asset's atomic units the challenge states) are here, one line each.
// - `ownershipProofs` (the payee's signatures over the origin) are not published: none is configured.
//
// Free: 200 with the free routes' headers (api/responses.ts freeJson), the body made once per site and terms.
// Served by src/pages/.well-known/x402.ts, on demand, on the Node server and in the Vercel function alike.
import { ROUTE_CONTRACTS, type RouteContract } from '../domain/route-contracts.ts';
import { type Handler, route } from './http.ts';
import { freeJson } from './responses.ts';
import { exampleInput } from './json-schemas.ts';
import {
  type PaymentTerms,
  SCHEMES_SENTENCE,
  X402_SCHEMES,
  X402_VERSION,
  atomicAmount,
  networkName,
} from './payment/terms.ts';
import { readableQuery } from './paid-execution.ts';

export const WELL_KNOWN_X402_PATH = '/.well-known/x402';

/** The discovery document's shape (x402scan docs/DISCOVERY.md), as far as this site fills it. */
export interface WellKnownX402 {
  version: 1;
  resources: string[];
  instructions: string;
}

/** The priced routes, in the contract's order: the resources the document lists. */
const pricedRoutes = (): RouteContract[] => ROUTE_CONTRACTS.filter((r) => r.priceUsd);

/** A priced route's resource: its path with its required parameters' examples (none: the bare path). */
function resourcePath(route: RouteContract): string {
  const query = route.params ? readableQuery(exampleInput(route.params)) : '';
  return query ? `${route.path}?${query}` : route.path;
}

/** The document for a site (every URL absolute on it) and the gate's terms. */
export function wellKnownX402(site: URL | string, terms: PaymentTerms): WellKnownX402 {
  const link = (path: string) => new URL(path, site).href;
  const routes = pricedRoutes();
  const payee = terms.payTo ? `, paid to ${terms.payTo}` : '';
  const instructions = [
    `Surplus Lines Market Data API: U.S. excess and surplus lines insurance statistics from the publications of ` +
      `the state stamping offices, every figure dated and cited. Each resource is a priced route, called with GET; ` +
      `its URL gives example values for the route's required parameters (every ` +
      `parameter: ${link('/openapi.json')}).`,
    `Payment: x402 version ${X402_VERSION}, schemes ${X402_SCHEMES.join(' and ')}, network ${terms.network} ` +
      `(${networkName(terms.network)}), asset ${terms.asset.address} (${terms.asset.name}, ${terms.asset.decimals} ` +
      `decimals)${payee}. A request without payment answers 402 with the challenge in the PAYMENT-REQUIRED header, ` +
      `whose terms are authoritative; retry with the signed payment in PAYMENT-SIGNATURE, and the 200 carries the ` +
      `receipt in PAYMENT-RESPONSE. Parameters (400) and existence (404) are checked before payment, so an example ` +
      `the data cannot answer is a 404 (${link('/v1/coverage')} lists what each state has, and the periods ` +
      `/v1/insurers ranks), and an answer with no figure is answered and not charged. ${SCHEMES_SENTENCE}`,
    `Free routes, the same routes as MCP tools (${link('/mcp')}) and the data caveats: ${link('/llms.txt')}.`,
    '',
    'Resources (method, URL: price):',
    ...routes.map(
      (r) =>
        `- GET ${link(resourcePath(r))}: ${r.priceUsd} USD (${atomicAmount(r.priceUsd!, terms)} atomic ` +
        `units). ${r.summary}.`,
    ),
  ].join('\n');
  return { version: 1, resources: routes.map((r) => link(resourcePath(r))), instructions };
}

/** The document's bytes: 2-space JSON with a final newline. */
export const wellKnownX402Text = (site: URL | string, terms: PaymentTerms): string =>
  `${JSON.stringify(wellKnownX402(site, terms), null, 2)}\n`;

/**
 * The route's handler: the document as a free answer (GET and HEAD; OPTIONS is the CORS preflight; any
 * other method 405), its body made on first use and kept, so `terms` is read once (it reads the environment).
 */
export function wellKnownX402Handler(site: URL | string, terms: () => PaymentTerms): Handler {
  let body: Buffer | undefined;
  return route(() => freeJson((body ??= Buffer.from(wellKnownX402Text(site, terms())))));
}
