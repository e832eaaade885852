// The x402 payment gate around a priced route's answer (docs/design.md §7, §13). The protocol work (challenge,
// matching, settlement, header codecs) is @x402/core's resource server; this module runs the one paid path on it
// for HTTP and MCP alike, its outcomes shaped by ./gate-answers.ts: 402 with body {} and no internals, 503 when
// the facilitator (or a store the gate keeps) cannot be reached. Every 402 offers each scheme the gate has
// (./schemes.ts lists them, ./offers.ts decides which are offered) at the same price; the steps every payment
// shares are here (the payment matched to the offer, its payment id (./payment-identifier.ts), the refusal),
// each scheme's own step in its module.
import {
  type FacilitatorClient,
  type HTTPAdapter,
  type HTTPRequestContext,
  type x402HTTPResourceServer,
  type x402ResourceServer,
  FacilitatorResponseError,
} from '@x402/core/server';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import type { RouteContract } from '../../domain/route-contracts.ts';
import type { WireAnswer } from '../wire-answer.ts';
import { type GateChannels, createOffers } from './offers.ts';
import { isWellFormedPayload, wellFormedPayment } from './payload.ts';
import { PAYMENT_ID_EXTENSION, PaymentIdsUnavailable, payOncePerId } from './payment-identifier.ts';
import { type PaymentIds, memoryPaymentIds } from './settled-payment-ids.ts';
import {
  type CallOffer,
  MALFORMED_PAYLOAD,
  PAYMENT_IDS_DOWN,
  acknowledgement,
  callPaymentRequired,
  facilitatorDownMessage,
  malformedPayment402,
  payment402,
  refusedPayment402,
  unavailable,
  withReceipt,
} from './gate-answers.ts';
import type { Paid, PaidStep, PaymentOption, PaymentState } from './scheme.ts';
import { StoreUnavailable, refused } from './scheme.ts';
import type { SchemeStores } from './scheme-registry.ts';
import type { PaymentSettings } from './settings.ts';

/**
 * A computed answer (an HTTP answer, or a tool call's body), and whether it holds any figure: one that holds none is
 * not charged (docs/design.md §7).
 */
export interface PricedAnswer<B = WireAnswer> {
  body: B;
  hasFigures: boolean;
}

export interface Gate {
  /**
   * Answers a priced request: `answer` runs only once a payment matching the terms is presented, and is
   * settled (the facilitator's settle checks the payment) only when it returns an answer with figures;
   * nothing of it leaves before the settlement succeeded. `resource` is the URL the challenge names (the
   * canonical query, see api/priced.ts), which a payment id is bound to with the method.
   */
  charge(
    request: Request,
    route: RouteContract,
    answer: () => PricedAnswer | Promise<PricedAnswer>,
    resource: URL,
  ): Promise<WireAnswer>;
  /**
   * Answers a priced call made otherwise than by HTTP (an MCP tool call, x402's MCP transport): the
   * same requirements, settlement and refusals as `charge`, with the payment given as a PaymentPayload
   * object (`undefined`: none) and the outcome returned as data for the caller to shape. `key` names the
   * call (the tool and its arguments as parsed), which a payment id is bound to.
   */
  chargeCall(
    route: RouteContract,
    resource: CallResource,
    key: string,
    payment: unknown,
    answer: () => PricedAnswer<unknown> | Promise<PricedAnswer<unknown>>,
  ): Promise<CallOutcome>;
  /**
   * The prepaid channels, for claims, settlements and refunds (./claims.ts): the scheme's channel manager on this
   * gate's store and facilitator, the store, and the channels set aside; null when no scheme offered keeps channels.
   */
  channels(): Promise<GateChannels | null>;
}

/** What a paid call is sold as: the challenge's `resource`, and its declared extensions (Bazaar discovery). */
export interface CallResource {
  url: string;
  description: string;
  mimeType: string;
  extensions?: Record<string, unknown>;
}

type CallOutcome =
  /**
   * The answer (or, for a channel's cooperative refund, the scheme's acknowledgement); `receipt` when it was paid for
   * (absent: gate-free, or not charged because it holds no figure).
   */
  | { kind: 'answered'; body: unknown; receipt?: SettleResponse }
  /** No data: pay (again). `receipt` when a payment was refused at settlement. */
  | { kind: 'payment_required'; paymentRequired: PaymentRequired; receipt?: SettleResponse }
  /** The facilitator could not be reached: the 503's message. */
  | { kind: 'unavailable'; message: string };

/** Where a payment comes: x402 v2's header, and v1's name for it. */
const PAYMENT_HEADERS = new Set(['payment-signature', 'x-payment']);
/** How many encoded challenges a gate keeps (see `challenge`). */
const CHALLENGES_KEPT = 1000;

/**
 * The work kept under `key`, started by `make` when there is none; a failure (the facilitator not yet
 * reached) is forgotten, so the next call tries again. Past `limit` entries the map starts over, so a
 * client cycling through keys cannot grow it.
 */
function kept<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>, limit = Infinity): Promise<T> {
  let work = map.get(key);
  if (!work) {
    if (map.size >= limit) map.clear();
    map.set(key, (work = make()));
    work.catch(() => map.delete(key));
  }
  return work;
}

/**
 * The SDK's request adapter, over a Web Request, for asking it the route's challenge: the request's payment
 * is not shown. Accept is always JSON: the 402 body is {} even for a browser (docs/design.md §7). The URL and query the
 * SDK sees are the canonical `resource`, never the request's own text.
 */
function adapterOf(request: Request, resource: URL): HTTPAdapter {
  return {
    getHeader: (name) =>
      PAYMENT_HEADERS.has(name.toLowerCase()) ? undefined : (request.headers.get(name) ?? undefined),
    getMethod: () => request.method,
    getPath: () => resource.pathname,
    getUrl: () => resource.href,
    getAcceptHeader: () => 'application/json',
    getUserAgent: () => request.headers.get('user-agent') ?? '',
    getQueryParams: () => Object.fromEntries(resource.searchParams),
    getQueryParam: (name) => resource.searchParams.get(name) ?? undefined,
  };
}

/** The SDK's view of a request, asking for the route's challenge. */
const contextOf = (request: Request, resource: URL, route: RouteContract): HTTPRequestContext =>
  // The route's own path, not the request's: however the URL was spelled, it reached a priced handler.
  ({ adapter: adapterOf(request, resource), path: route.path, method: request.method });

/**
 * A route's challenge for the request, as the SDK's HTTP server answers it unpaid, with what it offers decoded beside
 * it.
 */
async function buildChallenge(http: x402HTTPResourceServer, request: Request, resource: URL, route: RouteContract) {
  const unpaid = await http.processHTTPRequest(contextOf(request, resource, route));
  const header = unpaid.type === 'payment-error' ? unpaid.response.headers['PAYMENT-REQUIRED'] : undefined;
  if (!header) throw new Error(`priced route ${route.path} gave no payment challenge`);
  return { header, offered: decodePaymentRequiredHeader(header) };
}

// A call's payment requirements and enriched extensions depend on its route alone (fixed price and
// payee; MCP declarations are not enriched per request): built once per route, not per call.
interface CallTerms extends CallOffer {
  /** What is offered, with no error: what a payment must match. */
  offered: PaymentRequired;
}
async function buildCallTerms(
  server: x402ResourceServer,
  options: PaymentOption[],
  resource: CallResource,
  context: { resource: string },
): Promise<CallTerms> {
  // fixed terms: nothing is resolved from a request
  const requirements = await server.buildPaymentRequirementsFromOptions(options, context as never);
  const extensions = server.enrichExtensions({ ...resource.extensions, ...PAYMENT_ID_EXTENSION }, context);
  const info = { url: resource.url, description: resource.description, mimeType: resource.mimeType };
  const offered = await server.createPaymentRequiredResponse(requirements, info, undefined, extensions, context);
  return { requirements, extensions, info, offered };
}

/** The 503's message for a failure that leaves nothing charged or served; any other failure is thrown again. */
function outageMessage(e: unknown, state: PaymentState): string {
  if (e instanceof FacilitatorResponseError) return facilitatorDownMessage(state.settling);
  if (e instanceof PaymentIdsUnavailable) return PAYMENT_IDS_DOWN;
  if (e instanceof StoreUnavailable) return e.message;
  throw e;
}

/** What the gate keeps: settled payment ids, and the schemes' stores (a scheme lacking one it needs is not offered). */
export interface GateStores extends SchemeStores {
  /** Settled payment ids (default: this process's memory). */
  ids?: PaymentIds | Promise<PaymentIds>;
}

/** What the paid path works with: the resource server, the offers on it, and the payment ids settled. */
interface PaidPath {
  server: x402ResourceServer;
  offers: ReturnType<typeof createOffers>;
  ids: PaymentIds | Promise<PaymentIds>;
}

/**
 * The paid path, for HTTP and MCP alike (docs/design.md §7, §13): the payment must match what was offered; then its
 * scheme pays for the answer (./exact.ts, ./batch.ts). With a payment id: the id is claimed while its payment is
 * made and recorded once paid, so that a retry with the same id for the same `key` (method and canonical
 * resource) gets the answer again with the original receipt, its own payment checked (that the caller holds the
 * payer's key) but not paid with, and the same id for another resource is refused.
 */
async function pay<A extends { hasFigures: boolean }>(
  { server, offers, ids }: PaidPath,
  offered: PaymentRequired,
  payload: PaymentPayload,
  key: string,
  answer: () => A | Promise<A>,
  transport: PaidStep<A>['transport'],
  state: PaymentState,
): Promise<Paid<A>> {
  const matching = server.findMatchingRequirements(offered.accepts, payload);
  const part = matching && offers.partOf(matching.scheme);
  if (!matching || !part) return refused('No matching payment requirements');
  const extensionCheck = server.validateExtensions(offered, payload);
  if (!extensionCheck.valid) return refused(extensionCheck.invalidReason ?? 'invalid_payment');
  const declared = offered.extensions ?? {};
  return payOncePerId(ids, key, part, { server, payload, matching, declared, transport, answer, state });
}

/**
 * The gate for `routes` (the priced ones), paid to `settings.payTo` through `facilitator`. Every 402 offers each
 * registered scheme that `stores` allow, those that ask the facilitator once it says it serves them (the others said
 * once in the log).
 */
export function createGate(
  settings: PaymentSettings,
  facilitator: FacilitatorClient,
  routes: readonly RouteContract[],
  stores: GateStores = {},
): Gate {
  const ids = stores.ids ?? memoryPaymentIds();
  const pricedRoutes = routes.filter((r) => r.priceUsd);
  const offers = createOffers(settings, facilitator, pricedRoutes, stores);
  const resourceServer = offers.server;
  const paid: PaidPath = { server: resourceServer, offers, ids };

  // A route's challenge is the same bytes for the same method and resource (it holds no time or nonce),
  // and building and base64-encoding it was most of an unpaid request's cost: each is built once, with what
  // it offers decoded beside it. Bounded: a client cycling through queries or Hosts cannot grow it past
  // CHALLENGES_KEPT.
  const challenges = new Map<string, Promise<{ header: string; offered: PaymentRequired }>>();
  const challenge = (http: x402HTTPResourceServer, request: Request, resource: URL, route: RouteContract) =>
    kept(
      challenges,
      `${request.method} ${resource.href}`,
      () => buildChallenge(http, request, resource, route),
      CHALLENGES_KEPT,
    );
  const callTerms = new Map<string, Promise<CallTerms>>();
  const callTermsOf = (
    route: RouteContract,
    resource: CallResource,
    context: { resource: string },
  ): Promise<CallTerms> =>
    kept(callTerms, route.path, () => buildCallTerms(resourceServer, offers.optionsOf(route), resource, context));

  return {
    channels: offers.channels,

    async charge(request, route, answer, resource) {
      const state: PaymentState = { settling: false };
      try {
        const http = await offers.initialized();
        // HEAD never pays: it has no answer to deliver, so it gets the challenge whatever it carries.
        const header =
          request.method === 'HEAD'
            ? null
            : (request.headers.get('payment-signature') ?? request.headers.get('x-payment'));
        const { header: challengeText, offered } = await challenge(http, request, resource, route);
        if (header === null) return payment402({ 'PAYMENT-REQUIRED': challengeText });
        const payload = wellFormedPayment(header);
        if (!payload) return malformedPayment402(route, offered);
        // A payment id is bound to the method and the canonical query, whatever host name the request came by.
        const key = `${request.method} ${resource.pathname}${resource.search}`;
        const transport = { request: contextOf(request, resource, route) };
        const outcome = await pay(paid, offered, payload, key, answer, transport, state);
        if (outcome.kind === 'refused') {
          const corrective = !!offers.partOf(payload.accepted?.scheme)?.correctiveRefusal;
          const request = { server: resourceServer, route, offered, payload, transport, corrective };
          return await refusedPayment402(request, outcome);
        }
        if (outcome.kind === 'acknowledged') return acknowledgement(outcome.body, outcome.receipt);
        return withReceipt(outcome.answer.body, outcome.receipt);
      } catch (e) {
        return unavailable(outageMessage(e, state));
      }
    },

    // x402's MCP transport (specs/transports-v2/mcp.md), on the same resource server and paid path as `charge`.
    async chargeCall(route, resource, key, payment, answer) {
      if (!route.priceUsd || !pricedRoutes.some((r) => r.path === route.path))
        throw new Error(`${route.path} is not a priced route of this gate`);
      const state: PaymentState = { settling: false };
      try {
        await offers.initialized();
        const context = { resource: resource.url };
        const terms = await callTermsOf(route, resource, context);
        const required = async (
          reason: string,
          payload?: PaymentPayload,
          receipt?: SettleResponse,
        ): Promise<CallOutcome> => ({
          kind: 'payment_required',
          paymentRequired: await callPaymentRequired(resourceServer, route, terms, context, reason, payload),
          ...(receipt ? { receipt } : {}),
        });
        if (payment === undefined) return await required('Payment required');
        if (!isWellFormedPayload(payment)) return await required(MALFORMED_PAYLOAD);
        const outcome = await pay(paid, terms.offered, payment, `CALL ${key}`, answer, context, state);
        if (outcome.kind === 'refused') return await required(outcome.reason, payment, outcome.receipt);
        if (outcome.kind === 'acknowledged') return { kind: 'answered', body: outcome.body, receipt: outcome.receipt };
        return {
          kind: 'answered',
          body: outcome.answer.body,
          ...(outcome.receipt ? { receipt: outcome.receipt } : {}),
        };
      } catch (e) {
        return { kind: 'unavailable', message: outageMessage(e, state) };
      }
    },
  };
}
