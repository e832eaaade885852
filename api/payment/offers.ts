// The schemes a gate offers, on one x402 resource server over the fail-closed facilitator (./facilitator.ts):
// `exact` always, `batch-settlement` with a channel store once the facilitator says it serves it, and each priced
// route's terms as the SDK's HTTP server serves them.
import { type FacilitatorClient, type RouteConfig, FacilitatorResponseError, x402HTTPResourceServer, x402ResourceServer } from '@x402/core/server';
import type { BatchSettlementChannelManager, ChannelStorage } from '@x402/evm/batch-settlement/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { type BatchPart, BATCH_SCHEME, batchPart, batchSupportProblem } from './batch.ts';
import { discoveryExtension } from './discovery.ts';
import { exactPart } from './exact.ts';
import { failClosed } from './facilitator.ts';
import { PAYMENT_ID_EXTENSION } from './payment-identifier.ts';
import type { PaymentOption, SchemePart } from './scheme.ts';
import { type SetAsideStore, memorySetAside } from './set-aside.ts';
import type { VoucherCheck } from './voucher-check.ts';
import type { PaymentSettings } from './settings.ts';

export interface Offers {
  /** The resource server the paid path runs on. */
  server: x402ResourceServer;
  /** The SDK's HTTP server for the priced routes, once what the facilitator supports has been read. */
  initialized(): Promise<x402HTTPResourceServer>;
  /** The part of `scheme`, when it is offered. */
  partOf(scheme: string): SchemePart | undefined;
  /** The route's entries in every 402's `accepts`, one a scheme offered. */
  optionsOf(route: RouteContract): PaymentOption[];
  /** The prepaid channels (the gate's `channels`): null when `batch-settlement` is not offered. */
  channels(): Promise<GateChannels | null>;
}

/** What claims, refunds and the operator's view work on: the scheme's channel manager, its channels, and those set aside. */
export interface GateChannels {
  manager: BatchSettlementChannelManager;
  storage: ChannelStorage;
  setAside: SetAsideStore;
  /** The voucher check every kept voucher passed; a claim run holds the vouchers kept before it to it too. */
  check: VoucherCheck;
}

/**
 * The offers for `pricedRoutes`, paid to `settings.payTo` through `facilitator`; `channels`: the store a channel's
 * vouchers are kept in, and `setAside` the channels that take no more (this process's memory when not given).
 */
export function createOffers(settings: PaymentSettings, facilitator: FacilitatorClient, pricedRoutes: readonly RouteContract[], channels?: ChannelStorage, setAside?: SetAsideStore): Offers {
  const exact = exactPart(settings);
  const batch: BatchPart | null = channels ? batchPart(settings, channels, setAside ?? memorySetAside()) : null;
  const guarded = failClosed(facilitator);
  const resourceServer = new x402ResourceServer(guarded).register(settings.network, exact.server);
  resourceServer.registerExtension(bazaarResourceServerExtension);
  /** The schemes offered, in the order of every 402's `accepts`: `exact` first, as clients that know one scheme expect. */
  let parts: SchemePart[] = [exact];
  const partOf = (scheme: string) => parts.find((p) => p.scheme === scheme);
  const optionsOf = (route: RouteContract) => parts.map((part) => part.option(route));

  let ready: Promise<x402HTTPResourceServer> | null = null;
  // Asks the facilitator what it supports once; a failure is retried on the next request. The SDK
  // wraps an unreachable facilitator's error in a plain Error ("Failed to initialize"): unwrap it, so
  // that is a 503 like a failed settle, not a 500. What it supports decides the schemes offered.
  const initialized = () =>
    (ready ??= (async () => {
      await resourceServer.initialize();
      if (batch && parts.length === 1) {
        const problem = batchSupportProblem(resourceServer, batch, settings.network);
        if (problem) console.warn(`x402: ${BATCH_SCHEME} not offered: ${problem}`);
        else {
          resourceServer.register(settings.network, batch.server);
          parts = [exact, batch];
        }
      }
      return new x402HTTPResourceServer(resourceServer, routeConfigs(pricedRoutes, optionsOf));
    })().catch((e: unknown) => {
      ready = null;
      throw e instanceof Error && e.cause instanceof FacilitatorResponseError ? e.cause : e;
    }));

  let manager: BatchSettlementChannelManager | undefined;
  return {
    server: resourceServer,
    initialized,
    partOf,
    optionsOf,
    async channels() {
      await initialized();
      if (!batch || !partOf(BATCH_SCHEME)) return null;
      manager ??= batch.server.createChannelManager(guarded, settings.network, settings.asset.address as `0x${string}`);
      return { manager, storage: batch.server.getStorage(), setAside: batch.setAside, check: batch.check };
    },
  };
}

/** Each priced route's terms for the SDK's HTTP server: the schemes offered, the description and the extensions its 402 declares. */
function routeConfigs(pricedRoutes: readonly RouteContract[], optionsOf: (route: RouteContract) => PaymentOption[]): Record<string, RouteConfig> {
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
