// The x402 payment gate around a priced route's answer (DECISIONS.md §7). The protocol work
// (challenge, matching, verification, settlement, header codecs) is @x402/core's
// x402HTTPResourceServer; this module adapts a Web Request to it and shapes its outcomes into this
// API's responses: 402 with body {} and no internals, 503 when the facilitator cannot be reached.
import { type FacilitatorClient, type HTTPAdapter, type HTTPRequestContext, type RouteConfig, FacilitatorResponseError, x402HTTPResourceServer, x402ResourceServer } from '@x402/core/server';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import { type PaymentPayload, type PaymentRequired, type PaymentRequirements, type SettleResponse, SettleError, VerifyError } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { isAddress } from 'viem';
import type { RouteContract } from '../../domain/contract.ts';
import { CORS_HEADERS, PRICED_CACHE, errorResponse } from '../http.ts';
import { discoveryExtension } from './discovery.ts';
import { isWellFormedPayload, isWellFormedPayment } from './payload.ts';
import type { PaymentSettings } from './settings.ts';
import { X402_SCHEME, paymentPrice } from './terms.ts';

/** A computed answer, and whether it holds any figure: one that holds none is not charged (DECISIONS §7). */
export interface PricedAnswer {
  response: Response;
  hasFigures: boolean;
}

export interface Gate {
  /**
   * Answers a priced request: `answer` runs only once a payment has been verified, and is settled only
   * when it returns an answer with figures. `resource` is the URL the challenge names (the canonical
   * query, see api/priced.ts).
   */
  charge(request: Request, route: RouteContract, answer: () => PricedAnswer | Promise<PricedAnswer>, resource: URL): Promise<Response>;
  /**
   * Answers a priced call made otherwise than by HTTP (an MCP tool call, x402's MCP transport): the
   * same requirements, verification, settlement and refusals as `charge`, with the payment given as a
   * PaymentPayload object (`undefined`: none) and the outcome returned as data for the caller to shape.
   */
  chargeCall(route: RouteContract, resource: CallResource, payment: unknown, answer: () => CallAnswer | Promise<CallAnswer>): Promise<CallOutcome>;
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
  /** The answer; `receipt` when it was paid for (absent: gate-free, or not charged because it holds no figure). */
  | { kind: 'answered'; body: unknown; receipt?: SettleResponse }
  /** No data: pay (again). `receipt` when a payment was refused at settlement. */
  | { kind: 'payment_required'; paymentRequired: PaymentRequired; receipt?: SettleResponse }
  /** The facilitator could not be reached: the 503's message. */
  | { kind: 'unavailable'; message: string };


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
 * The SDK's request adapter, over a Web Request. Accept is always JSON: the 402 body is {} even for a
 * browser (SPEC). With `payment` false the request's payment is not shown, which asks for the challenge.
 * The URL and query the SDK sees are the canonical `resource`, never the request's own text.
 */
function adapterOf(request: Request, resource: URL, payment: boolean): HTTPAdapter {
  return {
    getHeader: (name) => (!payment && PAYMENT_HEADERS.has(name.toLowerCase()) ? undefined : (request.headers.get(name) ?? undefined)),
    getMethod: () => request.method,
    getPath: () => resource.pathname,
    getUrl: () => resource.href,
    getAcceptHeader: () => 'application/json',
    getUserAgent: () => request.headers.get('user-agent') ?? '',
    getQueryParams: () => Object.fromEntries(resource.searchParams),
    getQueryParam: (name) => resource.searchParams.get(name) ?? undefined,
  };
}

/** A PAYMENT-SIGNATURE header that is there but is not a well-formed payment payload. */
function malformedPayment(request: Request): boolean {
  const header = request.headers.get('payment-signature');
  return header !== null && !isWellFormedPayment(header);
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

/** A reason as a machine code (`invalid_exact_evm_payload_signature`), never a facilitator's free text. */
const SDK_REASONS = new Set(['Payment required', 'No matching payment requirements']);
function reasonCode(reason: string | undefined, fallback: string): string {
  if (!reason) return fallback;
  if (SDK_REASONS.has(reason)) return reason;
  return /^[a-z][a-z0-9_]*(?=$|:)/.exec(reason)?.[0] ?? fallback;
}

/** The route's challenge with its error (`reason`, else its own) as a reason code; and that code. */
function challengeHeader(challenge: string, reason?: string): { header: string; reason: string } {
  const decoded = decodePaymentRequiredHeader(challenge);
  const code = reasonCode(reason ?? decoded.error, 'invalid_payment');
  return { header: encodePaymentRequiredHeader({ ...decoded, error: code }), reason: code };
}

/** The payer's receipt of a payment refused at settlement: reason code, transaction, network, payer; no facilitator text. */
function failedReceipt(failed: Partial<SettleResponse>, network: SettleResponse['network']): SettleResponse {
  return {
    success: false,
    errorReason: reasonCode(failed.errorReason, 'settlement_failed'),
    transaction: /^0x[0-9a-fA-F]{64}$/.test(failed.transaction ?? '') ? failed.transaction! : '',
    network,
    ...(failed.payer && isAddress(failed.payer) ? { payer: failed.payer } : {}),
  };
}

/** A payment refused at settlement: the challenge again, and the payer's receipt. */
function settlementRefused(challenge: string, failed: Partial<SettleResponse>, network: SettleResponse['network']): Response {
  const receipt = failedReceipt(failed, network);
  return payment402({ 'PAYMENT-REQUIRED': challengeHeader(challenge, receipt.errorReason).header, 'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt) });
}

/** A 402 with body {} (route() leaves the body out for HEAD). */
function payment402(headers: Record<string, string>): Response {
  return new Response('{}', {
    status: 402,
    headers: { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': PRICED_CACHE, ...headers },
  });
}

/** Why nothing was served when the facilitator could not be reached; said plainly when a settlement may still complete. */
function facilitatorDownMessage(whileSettling: boolean): string {
  const outcome = whileSettling
    ? 'no data was served, but the facilitator stopped answering while settling your payment, which may still complete: check the payer balance before paying again'
    : 'you were not charged and no data was served';
  return `payment could not be processed: the payment facilitator is unavailable; ${outcome}; retry later`;
}

/** The facilitator could not be reached: 503, nothing served. */
function facilitatorDown(whileSettling: boolean): Response {
  const response = errorResponse(503, facilitatorDownMessage(whileSettling));
  response.headers.set('Retry-After', '30');
  return response;
}

/** A payment payload given as an object that is not well formed (x402's MCP transport carries it as JSON, not a header). */
const MALFORMED_PAYLOAD = 'invalid_payment_payload';

export function createGate(settings: PaymentSettings, facilitator: FacilitatorClient, routes: readonly RouteContract[]): Gate {
  const resourceServer = new x402ResourceServer(failClosed(facilitator)).register(settings.network, new ExactEvmScheme());
  resourceServer.registerExtension(bazaarResourceServerExtension);
  const config: Record<string, RouteConfig> = {};
  const acceptsOf = (route: RouteContract) => ({ scheme: X402_SCHEME, network: settings.network, payTo: settings.payTo, price: paymentPrice(route.priceUsd!, settings.asset) });
  for (const route of routes.filter((r) => r.priceUsd)) {
    config[route.path] = {
      accepts: acceptsOf(route),
      description: `${route.summary}. ${route.description}`,
      mimeType: 'application/json',
      extensions: discoveryExtension(route),
    };
  }
  const http = new x402HTTPResourceServer(resourceServer, config);
  let ready: Promise<void> | null = null;
  // Asks the facilitator what it supports once; a failure is retried on the next request. The SDK
  // wraps an unreachable facilitator's error in a plain Error ("Failed to initialize"): unwrap it, so
  // that is a 503 like a failed verify, not a 500.
  const initialized = () =>
    (ready ??= http.initialize().catch((e: unknown) => {
      ready = null;
      throw e instanceof Error && e.cause instanceof FacilitatorResponseError ? e.cause : e;
    }));
  /** The SDK's view of a request; with `payment` false it asks for the route's challenge. */
  const contextOf = (request: Request, resource: URL, route: RouteContract, payment: boolean): HTTPRequestContext =>
    // The route's own path, not the request's: however the URL was spelled, it reached a priced handler.
    ({ adapter: adapterOf(request, resource, payment), path: route.path, method: request.method });

  // A route's challenge is the same bytes for the same method and resource (it holds no time or nonce),
  // and building and base64-encoding it was most of an unpaid request's cost: each is built once. Bounded:
  // a client cycling through queries or Hosts cannot grow it past CHALLENGES_KEPT.
  const challenges = new Map<string, Promise<string>>();
  /** The route's 402 challenge, as the SDK encodes it. */
  const challenge = (request: Request, resource: URL, route: RouteContract): Promise<string> =>
    kept(challenges, `${request.method} ${resource.href}`, () => buildChallenge(request, resource, route), CHALLENGES_KEPT);
  async function buildChallenge(request: Request, resource: URL, route: RouteContract): Promise<string> {
    const unpaid = await http.processHTTPRequest(contextOf(request, resource, route, false));
    const header = unpaid.type === 'payment-error' ? unpaid.response.headers['PAYMENT-REQUIRED'] : undefined;
    if (!header) throw new Error(`priced route ${route.path} gave no payment challenge`);
    return header;
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
      const requirements = await resourceServer.buildPaymentRequirementsFromOptions([acceptsOf(route)], context);
      const extensions = resource.extensions && resourceServer.enrichExtensions(resource.extensions, context);
      const info = { url: resource.url, description: resource.description, mimeType: resource.mimeType };
      const offered = await resourceServer.createPaymentRequiredResponse(requirements, info, undefined, extensions, context);
      return { requirements, extensions, info, offered };
    });

  return {
    async charge(request, route, answer, resource) {
      let settling = false;
      try {
        await initialized();
        // HEAD never pays: it has no answer to deliver, so it gets the challenge whatever it carries.
        const paying = request.method !== 'HEAD' && [...PAYMENT_HEADERS].some((name) => request.headers.has(name));
        if (!paying) return payment402({ 'PAYMENT-REQUIRED': await challenge(request, resource, route) });
        if (malformedPayment(request)) {
          logRefusal(route, MALFORMED_PAYMENT);
          return payment402({ 'PAYMENT-REQUIRED': challengeHeader(await challenge(request, resource, route), MALFORMED_PAYMENT).header });
        }
        const context = contextOf(request, resource, route, true);
        const result = await http.processHTTPRequest(context);
        if (result.type === 'payment-error') {
          const refused = result.response.headers['PAYMENT-REQUIRED'];
          // Any other outcome the SDK reports as an error (it can come after a settle) is not a refusal.
          if (result.response.status !== 402 || !refused) throw new Error(`payment flow for ${route.path} ended with ${result.response.status}`);
          const { header, reason } = challengeHeader(refused);
          if (request.headers.has('payment-signature')) logRefusal(route, reason);
          return payment402({ 'PAYMENT-REQUIRED': header });
        }
        if (result.type !== 'payment-verified') throw new Error(`priced route ${route.path} has no payment configuration`);

        let computed: PricedAnswer;
        try {
          computed = await answer();
        } catch (e) {
          // An answer that fails is not settled: the payer keeps the money (the route answers 500).
          await result.cancellationDispatcher.cancel({ reason: 'handler_threw', error: e });
          throw e;
        }
        const { response } = computed;
        if (!computed.hasFigures) {
          // No charge for nothing: the answer is given and the payment never settled, so the signed
          // authorization expires unused and the payer keeps the money.
          await result.cancellationDispatcher.cancel({ reason: 'handler_failed' });
          return response;
        }
        // Settled before the answer leaves: of two requests carrying one payment, only the one that settles gets data.
        settling = true;
        const settled = await http.processSettlement(result.paymentPayload, result.paymentRequirements, result.declaredExtensions, { request: context });
        settling = false;
        if (!settled.success) {
          logRefusal(route, reasonCode(settled.errorReason, 'settlement_failed'));
          return settlementRefused(await challenge(request, resource, route), settled, settings.network);
        }
        for (const [name, value] of Object.entries(settled.headers)) response.headers.set(name, value);
        return response;
      } catch (e) {
        if (e instanceof FacilitatorResponseError) return facilitatorDown(settling);
        throw e;
      }
    },

    // x402's MCP transport (specs/transports-v2/mcp.md), on the same resource server as `charge`; the
    // steps mirror the SDK's own HTTP flow (x402HTTPResourceServer.processHTTPRequest and processSettlement).
    async chargeCall(route, resource, payment, answer) {
      if (!route.priceUsd || !config[route.path]) throw new Error(`${route.path} is not a priced route of this gate`);
      let settling = false;
      try {
        await initialized();
        const context = { resource: resource.url };
        const { requirements, extensions, info, offered } = await callTermsOf(route, resource, context);
        const required = async (reason: string, payload?: PaymentPayload): Promise<CallOutcome> => {
          const error = reasonCode(reason, 'invalid_payment');
          if (payload !== undefined || reason === MALFORMED_PAYLOAD) logRefusal(route, error);
          return { kind: 'payment_required', paymentRequired: await resourceServer.createPaymentRequiredResponse(requirements, info, error, extensions, context, payload) };
        };
        if (payment === undefined) return await required('Payment required');
        if (!isWellFormedPayload(payment)) return await required(MALFORMED_PAYLOAD);
        const matching = resourceServer.findMatchingRequirements(offered.accepts, payment);
        if (!matching) return await required('No matching payment requirements', payment);
        const extensionCheck = resourceServer.validateExtensions(offered, payment);
        if (!extensionCheck.valid) return await required(extensionCheck.invalidReason ?? 'invalid_payment', payment);
        let verified;
        try {
          verified = await resourceServer.verifyPayment(payment, matching, extensions, context);
        } catch (e) {
          if (e instanceof FacilitatorResponseError) throw e;
          return await required(e instanceof VerifyError ? (e.invalidReason ?? 'invalid_payment') : 'invalid_payment', payment);
        }
        if (!verified.isValid) return await required(verified.invalidReason ?? 'invalid_payment', payment);

        const cancellation = resourceServer.createPaymentCancellationDispatcher(payment, matching, extensions, context);
        let computed: CallAnswer;
        try {
          computed = await answer();
        } catch (e) {
          await cancellation.cancel({ reason: 'handler_threw', error: e });
          throw e;
        }
        if (!computed.hasFigures) {
          // No charge for nothing, as on HTTP: answered, never settled.
          await cancellation.cancel({ reason: 'handler_failed' });
          return { kind: 'answered', body: computed.body };
        }
        settling = true;
        let settled: SettleResponse;
        try {
          settled = await resourceServer.settlePayment(payment, matching, extensions, context);
        } catch (e) {
          if (!(e instanceof SettleError)) throw e;
          settled = { success: false, errorReason: e.errorReason, transaction: e.transaction ?? '', network: settings.network, payer: e.payer };
        }
        settling = false;
        if (!settled.success) {
          const receipt = failedReceipt(settled, settings.network);
          const refused = (await required(receipt.errorReason!, payment)) as Extract<CallOutcome, { kind: 'payment_required' }>;
          return { ...refused, receipt };
        }
        return { kind: 'answered', body: computed.body, receipt: settled };
      } catch (e) {
        if (e instanceof FacilitatorResponseError) return { kind: 'unavailable', message: facilitatorDownMessage(settling) };
        throw e;
      }
    },
  };
}
