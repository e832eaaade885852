// The x402 payment gate around a priced route's answer (DECISIONS.md §7, §13). The protocol work (challenge,
// matching, settlement, header codecs) is @x402/core's resource server; this module runs the one paid path on it
// for HTTP and MCP alike and shapes its outcomes into this API's responses: 402 with body {} and no internals,
// 503 when the facilitator (or a store the gate keeps) cannot be reached. Every 402 offers each scheme the gate
// has at the same price: `exact` (./exact.ts, one settlement per answer) and `batch-settlement` (./batch.ts,
// vouchers against a deposit) when the facilitator serves it; the steps every payment shares are here (the
// payment matched to the offer, its payment id, the refusal), each scheme's own step in its module.
import { type FacilitatorClient, type HTTPAdapter, type HTTPRequestContext, type RouteConfig, FacilitatorResponseError, x402HTTPResourceServer, x402ResourceServer } from '@x402/core/server';
import { SettleError, VerifyError } from '@x402/core/types';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { BatchSettlementChannelManager, ChannelStorage } from '@x402/evm/batch-settlement/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { PAYMENT_IDENTIFIER, declarePaymentIdentifierExtension, isPaymentIdentifierExtension, isValidPaymentId } from '@x402/extensions/payment-identifier';
import { randomUUID } from 'node:crypto';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { type BatchPart, BATCH_SCHEME, ChannelsUnavailable, batchPart, batchSupportProblem } from './batch.ts';
import { discoveryExtension } from './discovery.ts';
import { exactPart } from './exact.ts';
import { isWellFormedPayload, wellFormedPayment } from './payload.ts';
import { type PaymentIds, memoryPaymentIds } from './payment-ids.ts';
import { CHANNELS_DOWN, PAYMENT_IDS_DOWN, acknowledgement, facilitatorDown, facilitatorDownMessage, payment402, unavailable } from './replies.ts';
import { type Paid, type PaymentState, type SchemePart, reasonCode, refused } from './scheme.ts';
import type { PaymentSettings } from './settings.ts';

/** A computed answer, and whether it holds any figure: one that holds none is not charged (DECISIONS §7). */
export interface PricedAnswer {
  response: Response;
  hasFigures: boolean;
}

export interface Gate {
  /**
   * Answers a priced request: `answer` runs only once a payment matching the terms is presented, and is
   * settled (the facilitator's settle checks the payment) only when it returns an answer with figures;
   * nothing of it leaves before the settlement succeeded. `resource` is the URL the challenge names (the
   * canonical query, see api/priced.ts), which a payment id is bound to with the method.
   */
  charge(request: Request, route: RouteContract, answer: () => PricedAnswer | Promise<PricedAnswer>, resource: URL): Promise<Response>;
  /**
   * Answers a priced call made otherwise than by HTTP (an MCP tool call, x402's MCP transport): the
   * same requirements, settlement and refusals as `charge`, with the payment given as a PaymentPayload
   * object (`undefined`: none) and the outcome returned as data for the caller to shape. `key` names the
   * call (the tool and its arguments as parsed), which a payment id is bound to.
   */
  chargeCall(route: RouteContract, resource: CallResource, key: string, payment: unknown, answer: () => CallAnswer | Promise<CallAnswer>): Promise<CallOutcome>;
  /**
   * The prepaid channels, for claims, settlements and refunds (./claims.ts): the scheme's channel manager on this
   * gate's store and facilitator, and the store; null when `batch-settlement` is not offered.
   */
  channels(): Promise<{ manager: BatchSettlementChannelManager; storage: ChannelStorage } | null>;
}

/** What a paid call is sold as: the challenge's `resource`, and its declared extensions (Bazaar discovery). */
export interface CallResource {
  url: string;
  description: string;
  mimeType: string;
  extensions?: Record<string, unknown>;
}

/** A call's computed answer, and whether it holds any figure (DECISIONS §7). */
export interface CallAnswer {
  body: unknown;
  hasFigures: boolean;
}

export type CallOutcome =
  /** The answer (or, for a channel's cooperative refund, the scheme's acknowledgement); `receipt` when it was paid for (absent: gate-free, or not charged because it holds no figure). */
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
 * is not shown. Accept is always JSON: the 402 body is {} even for a browser (SPEC). The URL and query the SDK
 * sees are the canonical `resource`, never the request's own text.
 */
function adapterOf(request: Request, resource: URL): HTTPAdapter {
  return {
    getHeader: (name) => (PAYMENT_HEADERS.has(name.toLowerCase()) ? undefined : (request.headers.get(name) ?? undefined)),
    getMethod: () => request.method,
    getPath: () => resource.pathname,
    getUrl: () => resource.href,
    getAcceptHeader: () => 'application/json',
    getUserAgent: () => request.headers.get('user-agent') ?? '',
    getQueryParams: () => Object.fromEntries(resource.searchParams),
    getQueryParam: (name) => resource.searchParams.get(name) ?? undefined,
  };
}

/** One line per refused payment, with the reason code only: a client cannot make the log grow faster than its requests. */
const logRefusal = (route: RouteContract, reason: string) => console.warn(`x402: payment refused on ${route.path}: ${reason}`);

/**
 * Facilitator failures other than a verdict (unreachable, timed out, a 5xx) become the SDK's
 * FacilitatorResponseError, which it passes through instead of answering 402 with the error's text.
 */
function failClosed(client: FacilitatorClient): FacilitatorClient {
  const guard =
    <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (e) {
        if (e instanceof FacilitatorResponseError || e instanceof VerifyError || e instanceof SettleError) throw e;
        // One line: the facilitator's error, not a stack.
        console.error(`x402 facilitator ${operation} failed: ${String((e as Error)?.message ?? e).split('\n')[0].slice(0, 300)}`);
        throw Object.assign(new FacilitatorResponseError(`facilitator ${operation} failed`), { cause: e });
      }
    };
  return {
    verify: guard('verify', (p, r) => client.verify(p, r)),
    settle: guard('settle', (p, r) => client.settle(p, r)),
    getSupported: guard('supported', () => client.getSupported()),
  };
}

/** The reason given for a PAYMENT-SIGNATURE header that is not base64 JSON of a well-formed payment payload. */
const MALFORMED_PAYMENT = 'invalid_payment_header';
/** Payment ids (x402 payment-identifier): one that is not 16-128 letters, digits, `-` and `_`; one settled for another resource; one whose retry is signed by another payer; one another request still settles. */
const INVALID_PAYMENT_ID = 'invalid_payment_identifier';
const PAYMENT_ID_CONFLICT = 'payment_identifier_conflict';
const PAYMENT_ID_PAYER_MISMATCH = 'payment_identifier_payer_mismatch';
const PAYMENT_ID_IN_USE = 'payment_identifier_in_use';

const sameAddress = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** A payment payload given as an object that is not well formed (x402's MCP transport carries it as JSON, not a header). */
const MALFORMED_PAYLOAD = 'invalid_payment_payload';

/** How long an id is held while its payment settles: well past the facilitator's calls at their timeout, after which a retry may claim it. */
const CLAIM_MS = 2 * 60 * 1000;
/** How often a request waits on an id another request holds while settling. */
const CLAIM_POLL_MS = 50;

/** The payment-identifier extension every challenge declares (optional): x402's retry-safe payments (DECISIONS §7). */
const PAYMENT_ID_EXTENSION = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) };

/** The store of payment ids could not be reached before anything was settled: 503, nothing charged. */
class PaymentIdsUnavailable extends Error {}
async function unlessUnavailable<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    console.error(`payment ids: store unavailable: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
    throw new PaymentIdsUnavailable();
  }
}
/** What the gate keeps of a scheme beyond its part: a channel store for `batch-settlement`. */
export interface GateStores {
  /** Settled payment ids (default: this process's memory). */
  ids?: PaymentIds | Promise<PaymentIds>;
  /** Prepaid channels; without one, the gate offers `exact` alone. */
  channels?: ChannelStorage;
}

/**
 * The gate for `routes` (the priced ones), paid to `settings.payTo` through `facilitator`. With a channel store in
 * `stores`, every 402 also offers `batch-settlement`, once the facilitator says it serves it (else `exact` alone,
 * said once in the log).
 */
export function createGate(settings: PaymentSettings, facilitator: FacilitatorClient, routes: readonly RouteContract[], stores: GateStores = {}): Gate {
  const ids = stores.ids ?? memoryPaymentIds();
  const exact = exactPart(settings);
  const batch: BatchPart | null = stores.channels ? batchPart(settings, stores.channels) : null;
  const guarded = failClosed(facilitator);
  const resourceServer = new x402ResourceServer(guarded).register(settings.network, exact.server);
  resourceServer.registerExtension(bazaarResourceServerExtension);
  /** The schemes offered, in the order of every 402's `accepts`: `exact` first, as clients that know one scheme expect. */
  let parts: SchemePart[] = [exact];
  const partOf = (scheme: string) => parts.find((p) => p.scheme === scheme);
  const pricedRoutes = routes.filter((r) => r.priceUsd);
  const optionsOf = (route: RouteContract) => parts.map((part) => part.option(route));

  let http: x402HTTPResourceServer;
  let ready: Promise<void> | null = null;
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
      const config: Record<string, RouteConfig> = {};
      for (const route of pricedRoutes) {
        config[route.path] = {
          accepts: optionsOf(route),
          description: `${route.summary}. ${route.description}`,
          mimeType: route.download?.mediaType ?? 'application/json',
          extensions: { ...discoveryExtension(route), ...PAYMENT_ID_EXTENSION },
        };
      }
      http = new x402HTTPResourceServer(resourceServer, config);
    })().catch((e: unknown) => {
      ready = null;
      throw e instanceof Error && e.cause instanceof FacilitatorResponseError ? e.cause : e;
    }));
  /** The SDK's view of a request, asking for the route's challenge. */
  const contextOf = (request: Request, resource: URL, route: RouteContract): HTTPRequestContext =>
    // The route's own path, not the request's: however the URL was spelled, it reached a priced handler.
    ({ adapter: adapterOf(request, resource), path: route.path, method: request.method });

  // A route's challenge is the same bytes for the same method and resource (it holds no time or nonce),
  // and building and base64-encoding it was most of an unpaid request's cost: each is built once, with what
  // it offers decoded beside it. Bounded: a client cycling through queries or Hosts cannot grow it past CHALLENGES_KEPT.
  const challenges = new Map<string, Promise<{ header: string; offered: PaymentRequired }>>();
  const challenge = (request: Request, resource: URL, route: RouteContract) =>
    kept(challenges, `${request.method} ${resource.href}`, () => buildChallenge(request, resource, route), CHALLENGES_KEPT);
  async function buildChallenge(request: Request, resource: URL, route: RouteContract) {
    const unpaid = await http.processHTTPRequest(contextOf(request, resource, route));
    const header = unpaid.type === 'payment-error' ? unpaid.response.headers['PAYMENT-REQUIRED'] : undefined;
    if (!header) throw new Error(`priced route ${route.path} gave no payment challenge`);
    return { header, offered: decodePaymentRequiredHeader(header) };
  }

  /**
   * The 402 of a refused payment: the route's challenge with the reason as its error. A refused channel payment's
   * is built anew with the payment beside it, so that the scheme can put in it the channel state the payer must
   * resynchronise to (x402's corrective 402: the official client recovers from it by itself).
   */
  async function refusalRequired(offered: PaymentRequired, reason: string, payload: PaymentPayload, transport: unknown): Promise<PaymentRequired> {
    const error = reasonCode(reason, 'invalid_payment');
    if (payload.accepted?.scheme !== BATCH_SCHEME || !partOf(BATCH_SCHEME)) return { ...offered, error };
    return resourceServer.createPaymentRequiredResponse(offered.accepts, offered.resource, error, offered.extensions, transport as never, payload);
  }

  // A call's payment requirements and enriched extensions depend on its route alone (fixed price and
  // payee; MCP declarations are not enriched per request): built once per route, not per call.
  interface CallTerms {
    requirements: PaymentRequirements[];
    extensions?: Record<string, unknown>;
    info: PaymentRequired['resource'];
    /** What is offered, with no error: what a payment must match. */
    offered: PaymentRequired;
  }
  const callTerms = new Map<string, Promise<CallTerms>>();
  const callTermsOf = (route: RouteContract, resource: CallResource, context: { resource: string }): Promise<CallTerms> =>
    kept(callTerms, route.path, async () => {
      const requirements = await resourceServer.buildPaymentRequirementsFromOptions(optionsOf(route), context as never); // fixed terms: nothing is resolved from a request
      const extensions = resourceServer.enrichExtensions({ ...resource.extensions, ...PAYMENT_ID_EXTENSION }, context);
      const info = { url: resource.url, description: resource.description, mimeType: resource.mimeType };
      const offered = await resourceServer.createPaymentRequiredResponse(requirements, info, undefined, extensions, context);
      return { requirements, extensions, info, offered };
    });

  /**
   * The paid path, for HTTP and MCP alike (DECISIONS §7, §13): the payment must match what was offered; then its
   * scheme pays for the answer (./exact.ts, ./batch.ts). With a payment id: the id is claimed while its payment is
   * made and recorded once paid, so that a retry with the same id for the same `key` (method and canonical
   * resource) gets the answer again with the original receipt, its own payment checked (that the caller holds the
   * payer's key) but not paid with, and the same id for another resource is refused.
   */
  async function pay<A extends { hasFigures: boolean }>(
    offered: PaymentRequired,
    payload: PaymentPayload,
    key: string,
    answer: () => A | Promise<A>,
    transport: Parameters<typeof resourceServer.settlePayment>[3],
    state: PaymentState,
  ): Promise<Paid<A>> {
    const matching = resourceServer.findMatchingRequirements(offered.accepts, payload);
    const part = matching && partOf(matching.scheme);
    if (!matching || !part) return refused('No matching payment requirements');
    const extensionCheck = resourceServer.validateExtensions(offered, payload);
    if (!extensionCheck.valid) return refused(extensionCheck.invalidReason ?? 'invalid_payment');
    const step = { server: resourceServer, payload, matching, declared: offered.extensions ?? {}, transport, answer, state };
    const payOnce = () => part.pay(step);

    // The extension as the client echoes it, with or without an id. Checked by hand: the SDK's
    // validatePaymentIdentifier compiles the schema the client sends with Ajv on every call (13 ms, and the
    // client's own schema), where the rule is a type and a pattern.
    const idExtension = payload.extensions?.[PAYMENT_IDENTIFIER];
    if (idExtension === undefined) return payOnce();
    const info = isPaymentIdentifierExtension(idExtension) ? idExtension.info : null;
    if (info && info.id === undefined) return payOnce();
    const id = info?.id;
    if (typeof id !== 'string' || !isValidPaymentId(id)) return refused(INVALID_PAYMENT_ID);

    const store = await unlessUnavailable(() => ids);
    const token = randomUUID();
    const waitUntil = Date.now() + CLAIM_MS;
    for (;;) {
      const held = await unlessUnavailable(() => store.claim(id, key, token, CLAIM_MS));
      if (!held) break;
      if (held.key !== key) return refused(PAYMENT_ID_CONFLICT);
      if (held.state === 'settled') {
        // A retry: its own payment proves the caller is the payer, and is not paid with.
        const proved = await part.payerOf(step);
        if ('reason' in proved) return refused(proved.reason);
        if (!sameAddress(proved.payer, held.receipt.payer)) return refused(PAYMENT_ID_PAYER_MISMATCH);
        return { kind: 'answered', answer: await answer(), receipt: held.receipt };
      }
      // Another request with this id is settling: its outcome decides (settled: the answer again; released: claim it).
      if (Date.now() > waitUntil) return refused(PAYMENT_ID_IN_USE);
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
    let outcome: Paid<A> | undefined;
    try {
      outcome = await payOnce();
      return outcome;
    } finally {
      // The answer is paid for and goes out whatever the store says; a failure to record costs only the retry's replay.
      const record = (work: Promise<void>) => work.catch((e: unknown) => console.error(`payment ids: could not record ${id}: ${String((e as Error)?.message ?? e).split('\n')[0]}`));
      if (outcome?.kind === 'answered' && outcome.receipt) await record(store.settle(id, key, outcome.receipt));
      // A settlement whose outcome is unknown (the facilitator lost while settling) keeps the claim until it
      // expires, so a retry does not pay again for what may still be paid; any other end frees the id.
      else if (!state.settling) await record(store.release(id, token));
    }
  }

  let manager: BatchSettlementChannelManager | undefined;
  return {
    async channels() {
      await initialized();
      if (!batch || !partOf(BATCH_SCHEME)) return null;
      manager ??= batch.server.createChannelManager(guarded, settings.network, settings.asset.address as `0x${string}`);
      return { manager, storage: batch.server.getStorage() };
    },

    async charge(request, route, answer, resource) {
      const state: PaymentState = { settling: false };
      try {
        await initialized();
        // HEAD never pays: it has no answer to deliver, so it gets the challenge whatever it carries.
        const header = request.method === 'HEAD' ? null : (request.headers.get('payment-signature') ?? request.headers.get('x-payment'));
        const { header: challengeText, offered } = await challenge(request, resource, route);
        if (header === null) return payment402({ 'PAYMENT-REQUIRED': challengeText });
        const payload = wellFormedPayment(header);
        if (!payload) {
          logRefusal(route, MALFORMED_PAYMENT);
          return payment402({ 'PAYMENT-REQUIRED': encodePaymentRequiredHeader({ ...offered, error: MALFORMED_PAYMENT }) });
        }
        // A payment id is bound to the method and the canonical query, whatever host name the request came by.
        const key = `${request.method} ${resource.pathname}${resource.search}`;
        const transport = { request: contextOf(request, resource, route) };
        const outcome = await pay(offered, payload, key, answer, transport, state);
        if (outcome.kind === 'refused') {
          logRefusal(route, outcome.reason);
          const refusal = { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(await refusalRequired(offered, outcome.reason, payload, transport)) };
          return payment402(outcome.receipt ? { ...refusal, 'PAYMENT-RESPONSE': encodePaymentResponseHeader(outcome.receipt) } : refusal);
        }
        if (outcome.kind === 'acknowledged') return acknowledgement(outcome.body, outcome.receipt);
        const { response } = outcome.answer;
        if (outcome.receipt) response.headers.set('PAYMENT-RESPONSE', encodePaymentResponseHeader(outcome.receipt));
        return response;
      } catch (e) {
        if (e instanceof FacilitatorResponseError) return facilitatorDown(state.settling);
        if (e instanceof PaymentIdsUnavailable) return unavailable(PAYMENT_IDS_DOWN);
        if (e instanceof ChannelsUnavailable) return unavailable(CHANNELS_DOWN);
        throw e;
      }
    },

    // x402's MCP transport (specs/transports-v2/mcp.md), on the same resource server and paid path as `charge`.
    async chargeCall(route, resource, key, payment, answer) {
      if (!route.priceUsd || !pricedRoutes.some((r) => r.path === route.path)) throw new Error(`${route.path} is not a priced route of this gate`);
      const state: PaymentState = { settling: false };
      try {
        await initialized();
        const context = { resource: resource.url };
        const { requirements, extensions, info, offered } = await callTermsOf(route, resource, context);
        const required = async (reason: string, payload?: PaymentPayload, receipt?: SettleResponse): Promise<CallOutcome> => {
          const error = reasonCode(reason, 'invalid_payment');
          if (payload !== undefined || reason === MALFORMED_PAYLOAD) logRefusal(route, error);
          const paymentRequired = await resourceServer.createPaymentRequiredResponse(requirements, info, error, extensions, context, payload);
          return { kind: 'payment_required', paymentRequired, ...(receipt ? { receipt } : {}) };
        };
        if (payment === undefined) return await required('Payment required');
        if (!isWellFormedPayload(payment)) return await required(MALFORMED_PAYLOAD);
        const outcome = await pay(offered, payment, `CALL ${key}`, answer, context, state);
        if (outcome.kind === 'refused') return await required(outcome.reason, payment, outcome.receipt);
        if (outcome.kind === 'acknowledged') return { kind: 'answered', body: outcome.body, receipt: outcome.receipt };
        return { kind: 'answered', body: outcome.answer.body, ...(outcome.receipt ? { receipt: outcome.receipt } : {}) };
      } catch (e) {
        if (e instanceof FacilitatorResponseError) return { kind: 'unavailable', message: facilitatorDownMessage(state.settling) };
        if (e instanceof PaymentIdsUnavailable) return { kind: 'unavailable', message: PAYMENT_IDS_DOWN };
        if (e instanceof ChannelsUnavailable) return { kind: 'unavailable', message: CHANNELS_DOWN };
        throw e;
      }
    },
  };
}
