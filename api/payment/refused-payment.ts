// How a refused or malformed payment becomes the 402 answer: the route's challenge with the reason as its error (a
// code, never a facilitator's text), a settlement's receipt beside it when there was one, and one log line.
import { encodePaymentRequiredHeader, encodePaymentResponseHeader } from '@x402/core/http';
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { payment402 } from './status-answers.ts';
import { reasonCode } from './scheme.ts';

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
export function malformedPayment402(route: RouteContract, offered: PaymentRequired): Response {
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
): Promise<Response> {
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
