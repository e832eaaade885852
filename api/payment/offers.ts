// The schemes a gate offers, on one x402 resource server over the fail-closed facilitator (./facilitator.ts): each
// registered scheme (./schemes.ts) whose part the gate's stores allow, those that ask the facilitator first once it
// says it serves them, and each priced route's terms as the SDK's HTTP server serves them.
import {
  type FacilitatorClient,
  type RouteConfig,
  FacilitatorResponseError,
  x402HTTPResourceServer,
  x402ResourceServer,
} from '@x402/core/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { discoveryExtension } from './discovery.ts';
import { failClosed } from './facilitator.ts';
import { PAYMENT_ID_EXTENSION } from './payment-identifier.ts';
import type { PaymentOption } from './scheme.ts';
import type { GateChannels, OfferedPart, SchemeStores } from './scheme-registry.ts';
import { registeredSchemes } from './schemes.ts';
import type { PaymentSettings } from './settings.ts';

export type { GateChannels } from './scheme-registry.ts';

export interface Offers {
  /** The resource server the paid path runs on. */
  server: x402ResourceServer;
  /** The SDK's HTTP server for the priced routes, once what the facilitator supports has been read. */
  initialized(): Promise<x402HTTPResourceServer>;
  /** The part of `scheme`, when it is offered. */
  partOf(scheme: string | undefined): OfferedPart | undefined;
  /** The route's entries in every 402's `accepts`, one a scheme offered. */
  optionsOf(route: RouteContract): PaymentOption[];
  /** The prepaid channels (the gate's `channels`): null when no scheme offered keeps any. */
  channels(): Promise<GateChannels | null>;
}

/**
 * The offers for `pricedRoutes`, paid to `settings.payTo` through `facilitator`; `stores`: what the schemes keep
 * (a channel's vouchers, the channels set aside), without which a scheme that needs them is not offered.
 */
export function createOffers(
  settings: PaymentSettings,
  facilitator: FacilitatorClient,
  pricedRoutes: readonly RouteContract[],
  stores: SchemeStores = {},
): Offers {
  /** Every scheme the stores allow, in the registry's order: the order of every 402's `accepts`. */
  const possible = registeredSchemes().flatMap((scheme) => scheme.part(settings, stores) ?? []);
  const guarded = failClosed(facilitator);
  const resourceServer = new x402ResourceServer(guarded);
  for (const part of possible) if (!part.supportProblem) resourceServer.register(settings.network, part.server);
  resourceServer.registerExtension(bazaarResourceServerExtension);
  /** The schemes offered: until the facilitator's support is read, those that do not ask it. */
  let parts = possible.filter((part) => !part.supportProblem);
  const partOf = (scheme: string | undefined) => parts.find((p) => p.scheme === scheme);
  const optionsOf = (route: RouteContract) => parts.map((part) => part.option(route));

  /** Offers each scheme not yet offered that the facilitator, as now read, serves; says once why another is not. */
  const offerSupported = () => {
    const supported = possible.filter((part) => {
      if (parts.includes(part)) return true;
      const problem = part.supportProblem!(resourceServer);
      if (problem) console.warn(`x402: ${part.scheme} not offered: ${problem}`);
      else resourceServer.register(settings.network, part.server);
      return !problem;
    });
    parts = supported;
  };

  let ready: Promise<x402HTTPResourceServer> | null = null;
  // Asks the facilitator what it supports once; a failure is retried on the next request. The SDK
  // wraps an unreachable facilitator's error in a plain Error ("Failed to initialize"): unwrap it, so
  // that is a 503 like a failed settle, not a 500. What it supports decides the schemes offered.
  const initialized = () =>
    (ready ??= (async () => {
      await resourceServer.initialize();
      if (parts.length < possible.length) offerSupported();
      return new x402HTTPResourceServer(resourceServer, routeConfigs(pricedRoutes, optionsOf));
    })().catch((e: unknown) => {
      ready = null;
      throw e instanceof Error && e.cause instanceof FacilitatorResponseError ? e.cause : e;
    }));

  return {
    server: resourceServer,
    initialized,
    partOf,
    optionsOf,
    async channels() {
      await initialized();
      const keeper = parts.find((part) => part.channels);
      return keeper?.channels ? keeper.channels(guarded) : null;
    },
  };
}

/**
 * Each priced route's terms for the SDK's HTTP server: the schemes offered, the description and the extensions its 402
 * declares.
 */
function routeConfigs(
  pricedRoutes: readonly RouteContract[],
  optionsOf: (route: RouteContract) => PaymentOption[],
): Record<string, RouteConfig> {
  const config: Record<string, RouteConfig> = {};
  for (const route of pricedRoutes) {
    config[route.path] = {
      accepts: optionsOf(route),
      description: `${route.summary}. ${route.description}`,
      mimeType: route.download?.mediaType ?? 'application/json',
      extensions: { ...discoveryExtension(route), ...PAYMENT_ID_EXTENSION },
    };
  }
  return config;
}
