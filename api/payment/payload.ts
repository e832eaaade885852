// What a PAYMENT-SIGNATURE header (or an MCP call's payment object) must be before the gate hands it on: base64 JSON of an x402
// PaymentPayload (the SDK's own schema) whose `payload` has the shape the exact EVM scheme signs
// (an EIP-3009 authorization, or a Permit2 one). Anything else is refused here as malformed: the SDK
// would log a stack for an undecodable header, and a facilitator may throw on a malformed payload,
// which would read as "facilitator unavailable".
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadSchema } from '@x402/core/schemas';
import type { PaymentPayload } from '@x402/core/types';
import { z } from 'zod';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const whole = z.string().regex(/^\d{1,78}$/);

const eip3009 = z.object({
  signature: hex.optional(),
  authorization: z.object({ from: address, to: address, value: whole, validAfter: whole, validBefore: whole, nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/) }),
});
const permit2 = z.object({ signature: hex, permit2Authorization: z.object({ from: address }).loose() });
const exactEvmPayload = z.union([eip3009, permit2]);

/** The payment payload a header decodes to, when the exact EVM scheme can verify it; else null. */
export function wellFormedPayment(header: string): PaymentPayload | null {
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header);
  } catch {
    return null;
  }
  return isWellFormedPayload(decoded) ? decoded : null;
}

/** True for a payment payload (as x402's MCP transport carries it: an object) that the exact EVM scheme can verify. */
export function isWellFormedPayload(value: unknown): value is PaymentPayload {
  return PaymentPayloadSchema.safeParse(value).success && exactEvmPayload.safeParse((value as { payload?: unknown }).payload).success;
}
