// What a PAYMENT-SIGNATURE header (or an MCP call's payment object) must be before the gate hands it on: base64 JSON of
// an x402 PaymentPayload (the SDK's own schema) whose `payload` has the shape its scheme signs, as the scheme's own
// module describes it (./schemes.ts). Anything else is refused here as malformed: the SDK would log a stack for an
// undecodable header, a scheme reads fields it assumes are there, and a facilitator may throw on a malformed payload,
// which would read as "facilitator unavailable".
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadSchema } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import { registeredSchemes } from './schemes.ts';

/** The payment payload a header decodes to, when its scheme can verify it; else null. */
export function wellFormedPayment(header: string): PaymentPayload | null {
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header);
  } catch {
    return null;
  }
  return isWellFormedPayload(decoded) ? decoded : null;
}

/**
 * True for a payment payload (as x402's MCP transport carries it: an object) that its scheme can verify. One naming
 * no registered scheme is held to the first scheme's shape: well formed, the offer it matches none of refuses it.
 */
export function isWellFormedPayload(value: unknown): value is PaymentPayload {
  if (!PaymentPayloadSchema.safeParse(value).success) return false;
  const { accepted, payload } = value as { accepted?: { scheme?: unknown }; payload?: unknown };
  const schemes = registeredSchemes();
  const scheme = schemes.find((s) => s.name === accepted?.scheme) ?? schemes[0];
  return scheme.payload.safeParse(payload).success;
}
