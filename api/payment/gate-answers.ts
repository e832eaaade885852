// What the payment gate answers of its own, for HTTP and for an MCP call: the 402 of a payment asked for, malformed
// or refused (body {}, the challenge in PAYMENT-REQUIRED with the reason as its error: a code, never a facilitator's
// text; a settlement's receipt beside it when there was one, and one log line), the 503 of a facilitator or store
// it cannot reach (nothing charged, and said so), the acknowledgement of a channel's cooperative refund, and a paid
// answer's receipt. The gate (./gate.ts) decides; this shapes.
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { errorAnswer } from '../errors.ts';
import { CORS_HEADERS, PRICED_CACHE } from '../responses.ts';
import { type WireAnswer, wireAnswer, withHeaders } from '../wire-answer.ts';
import { reasonCode } from './scheme.ts';

/** A 402 with body {} (route() leaves the body out for HEAD). */
export const payment402 = (headers: Record<string, string>): WireAnswer =>
  wireAnswer(
    402,
    { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': PRICED_CACHE, ...headers },
    '{}',
  );

/**
 * Why nothing was served when the facilitator could not be reached; said plainly when a settlement may still complete.
 */
export function facilitatorDownMessage(whileSettling: boolean): string {
  const outcome = whileSettling
    ? 'no data was served, but the facilitator stopped answering while settling your payment, which ' +
      'may still complete: check the payer balance before paying again'
    : 'you were not charged and no data was served';
  return `payment could not be processed: the payment facilitator is unavailable; ${outcome}; retry later`;
}

/** A paid answer, with the settlement's receipt in PAYMENT-RESPONSE when it was charged. */
export const withReceipt = (answer: WireAnswer, receipt: SettleResponse | undefined): WireAnswer =>
  receipt ? withHeaders(answer, { 'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt) }) : answer;

/** A 503 with Retry-After: nothing served. */
export const unavailable = (message: string): WireAnswer => errorAnswer(503, message, { 'Retry-After': '30' });

export const PAYMENT_IDS_DOWN =
  'payment could not be processed: the store of payment ids (which makes retries safe) is ' +
  'unavailable; you were not charged and no data was served; retry later';

/**
 * A channel's cooperative refund, done: the scheme's acknowledgement and the refund's receipt (no data: nothing is
 * cached).
 */
export const acknowledgement = (body: unknown, receipt: SettleResponse): WireAnswer =>
  wireAnswer(
    200,
    {
      ...CORS_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': PRICED_CACHE,
      'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt),
    },
    JSON.stringify(body),
  );

/** The reason given for a PAYMENT-SIGNATURE header that is not base64 JSON of a well-formed payment payload. */
const MALFORMED_PAYMENT = 'invalid_payment_header';
/**
 * A payment payload given as an object that is not well formed (x402's MCP transport carries it as JSON, not a header).
 */
export const MALFORMED_PAYLOAD = 'invalid_payment_payload';

/**
 * One line per refused payment, with the reason code only: a client cannot make the log grow faster than its requests.
 */
const logRefusal = (route: RouteContract, reason: string) =>
  console.warn(`x402: payment refused on ${route.path}: ${reason}`);

/** The 402 of a PAYMENT-SIGNATURE header that holds no well-formed payment. */
export function malformedPayment402(route: RouteContract, offered: PaymentRequired): WireAnswer {
  logRefusal(route, MALFORMED_PAYMENT);
  return payment402({ 'PAYMENT-REQUIRED': encodePaymentRequiredHeader({ ...offered, error: MALFORMED_PAYMENT }) });
}

/** The request a refused payment came with: its route, what it was offered, and the payment. */
export interface RefusedRequest {
  server: x402ResourceServer;
  route: RouteContract;
  offered: PaymentRequired;
  payload: PaymentPayload;
  transport: unknown;
  /** Whether the payment's scheme is offered and corrects a refused payment's 402 (./scheme-registry.ts). */
  corrective: boolean;
}

/** The 402 of a refused payment, with the refusal's receipt in PAYMENT-RESPONSE when it was refused at settlement. */
export async function refusedPayment402(
  request: RefusedRequest,
  { reason, receipt }: { reason: string; receipt?: SettleResponse },
): Promise<WireAnswer> {
  logRefusal(request.route, reason);
  const refusal = { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(await refusalRequired(request, reason)) };
  return payment402(receipt ? { ...refusal, 'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt) } : refusal);
}

/**
 * The 402 of a refused payment: the route's challenge with the reason as its error. That of a scheme that corrects
 * it is built anew with the payment beside it, so that the scheme can put in it the state the payer must
 * resynchronise to (x402's corrective 402: the official client recovers from it by itself).
 */
async function refusalRequired(request: RefusedRequest, reason: string): Promise<PaymentRequired> {
  const { server, offered, payload, transport, corrective } = request;
  const error = reasonCode(reason, 'invalid_payment');
  if (!corrective) return { ...offered, error };
  return server.createPaymentRequiredResponse(
    offered.accepts,
    offered.resource,
    error,
    offered.extensions,
    transport,
    payload,
  );
}

/** What a call's 402 is made of besides its error, the same for every call of a route. */
export interface CallOffer {
  requirements: PaymentRequirements[];
  extensions?: Record<string, unknown>;
  info: PaymentRequired['resource'];
}

/**
 * A call's 402 (x402's MCP transport): its offer with the reason as its error, built with the payment beside it
 * when there was one. Logged as a refusal when a payment was given, or was not well formed.
 */
export function callPaymentRequired(
  server: x402ResourceServer,
  route: RouteContract,
  offer: CallOffer,
  context: { resource: string },
  reason: string,
  payload?: PaymentPayload,
): Promise<PaymentRequired> {
  const error = reasonCode(reason, 'invalid_payment');
  if (payload !== undefined || reason === MALFORMED_PAYLOAD) logRefusal(route, error);
  return server.createPaymentRequiredResponse(
    offer.requirements,
    offer.info,
    error,
    offer.extensions,
    context,
    payload,
  );
}
