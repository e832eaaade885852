// x402's `exact` scheme on the paid path (docs/design.md §7): one signed transfer per answer, settled by the
// facilitator once the answer is computed and holds a figure; the facilitator's settle checks the payment
// itself, so no separate verify call sits on the paid path.
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { VerifyError } from '@x402/core/types';
import { FacilitatorResponseError } from '@x402/core/server';
import { z } from 'zod';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { address, bytes32, hex, whole } from './payload-fields.ts';
import { paymentPrice } from './prices.ts';
import type { OfferedPart, PaymentScheme } from './scheme-registry.ts';
import type { PaymentSettings } from './settings.ts';
import { type SchemePart, facilitatorSettle, paidOrRefused, refused } from './scheme.ts';

const EXACT_SCHEME = 'exact';

/** What the payer signs: an EIP-3009 transfer authorization, or a Permit2 one. */
const exactEvmPayload = z.union([
  z.object({
    signature: hex.optional(),
    authorization: z.object({
      from: address,
      to: address,
      value: whole,
      validAfter: whole,
      validBefore: whole,
      nonce: bytes32,
    }),
  }),
  z.object({ signature: hex, permit2Authorization: z.object({ from: address }).loose() }),
]);

/** The facilitator's verify: that the new authorization is good and signed by its payer (nothing moves). */
const payerOf: SchemePart['payerOf'] = async ({ server, payload, matching, declared, transport }) => {
  let verified;
  try {
    verified = await server.verifyPayment(payload, matching, declared, transport);
  } catch (e) {
    if (e instanceof FacilitatorResponseError) throw e;
    return { reason: e instanceof VerifyError ? (e.invalidReason ?? 'invalid_payment') : 'invalid_payment' };
  }
  if (!verified.isValid) return { reason: verified.invalidReason ?? 'invalid_payment' };
  return { payer: verified.payer ?? '' };
};

export function exactPart(settings: PaymentSettings): OfferedPart & { server: ExactEvmScheme } {
  return {
    scheme: EXACT_SCHEME,
    server: new ExactEvmScheme(),
    option: (route: RouteContract) => ({
      scheme: EXACT_SCHEME,
      network: settings.network,
      payTo: settings.payTo,
      price: paymentPrice(route.priceUsd!, settings.asset),
    }),
    async pay(step) {
      const computed = await step.answer(); // an answer that fails is a 500, and nothing is settled
      if (computed.hasFigures) return paidOrRefused(await facilitatorSettle(step), computed);
      // No charge for nothing: answered, never settled, the signed authorization left to expire unused; but only
      // for a payment that would have paid (verified: nothing moves), as the settle checks one that pays.
      const verdict = await payerOf(step);
      return 'reason' in verdict ? refused(verdict.reason) : { kind: 'answered', answer: computed };
    },
    payerOf,
  };
}

/** The scheme as the gate offers it (./schemes.ts): always, as it needs no store. */
export const exactScheme: PaymentScheme = {
  name: EXACT_SCHEME,
  payload: exactEvmPayload,
  part: (settings) => exactPart(settings),
};
