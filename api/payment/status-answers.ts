// What the payment gate answers when it answers no data: the 402 of a payment asked for or refused (body {},
// the challenge in PAYMENT-REQUIRED), the 503 of a facilitator or store it cannot reach (nothing charged, and said
// so), and the acknowledgement of a channel's cooperative refund. The gate (./gate.ts) decides; this shapes.
import { encodePaymentResponseHeader } from '@x402/core/http';
import type { SettleResponse } from '@x402/core/types';
import { CORS_HEADERS, PRICED_CACHE } from '../responses.ts';
import { errorResponse } from '../errors.ts';

/** A 402 with body {} (route() leaves the body out for HEAD). */
export function payment402(headers: Record<string, string>): Response {
  return new Response('{}', {
    status: 402,
    headers: {
      ...CORS_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': PRICED_CACHE,
      ...headers,
    },
  });
}

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

/** A 503 with Retry-After: nothing served. */
export function unavailable(message: string): Response {
  const response = errorResponse(503, message);
  response.headers.set('Retry-After', '30');
  return response;
}

export const PAYMENT_IDS_DOWN =
  'payment could not be processed: the store of payment ids (which makes retries safe) is ' +
  'unavailable; you were not charged and no data was served; retry later';

/**
 * A channel's cooperative refund, done: the scheme's acknowledgement and the refund's receipt (no data: nothing is
 * cached).
 */
export function acknowledgement(body: unknown, receipt: SettleResponse): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      ...CORS_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': PRICED_CACHE,
      'PAYMENT-RESPONSE': encodePaymentResponseHeader(receipt),
    },
  });
}
