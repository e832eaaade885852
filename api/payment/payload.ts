// What a PAYMENT-SIGNATURE header (or an MCP call's payment object) must be before the gate hands it on: base64 JSON of an x402
// PaymentPayload (the SDK's own schema) whose `payload` has the shape its scheme signs: for `exact`, an EIP-3009
// authorization or a Permit2 one; for `batch-settlement`, a deposit, a voucher or a refund of a channel.
// Anything else is refused here as malformed: the SDK would log a stack for an undecodable header, the
// batch scheme reads fields it assumes are there, and a facilitator may throw on a malformed payload,
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

const bytes32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/);
const channelConfig = z.object({ payer: address, payerAuthorizer: address, receiver: address, receiverAuthorizer: address, token: address, withdrawDelay: z.number().int().min(0).max(2 ** 40 - 1), salt: bytes32 });
const voucher = z.object({ channelId: bytes32, maxClaimableAmount: whole, signature: hex });
const channel = { channelConfig, voucher };
const batchPayload = z.discriminatedUnion('type', [
  z.object({ type: z.literal('voucher'), ...channel }),
  z.object({
    type: z.literal('deposit'),
    ...channel,
    deposit: z.object({
      amount: whole,
      authorization: z.object({
        erc3009Authorization: z.object({ validAfter: whole, validBefore: whole, salt: z.string().regex(/^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/), signature: hex }).optional(),
        permit2Authorization: z.object({}).loose().optional(),
      }),
    }),
  }),
  z.object({ type: z.literal('refund'), ...channel, amount: whole.optional() }),
]);

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

/** True for a payment payload (as x402's MCP transport carries it: an object) that its scheme can verify. */
export function isWellFormedPayload(value: unknown): value is PaymentPayload {
  if (!PaymentPayloadSchema.safeParse(value).success) return false;
  const { accepted, payload } = value as { accepted?: { scheme?: unknown }; payload?: unknown };
  return (accepted?.scheme === 'batch-settlement' ? batchPayload : exactEvmPayload).safeParse(payload).success;
}
