// x402's payment-identifier extension on the paid path: a payment that names an id is paid once for its key (the
// method and canonical resource, or the call); a retry with that id gets the same answer and receipt without
// paying again. The ids themselves are kept by ./settled-payment-ids.ts.
import {
  PAYMENT_IDENTIFIER,
  declarePaymentIdentifierExtension,
  isPaymentIdentifierExtension,
  isValidPaymentId,
} from '@x402/extensions/payment-identifier';
import { randomUUID } from 'node:crypto';
import { errorLine } from './error-line.ts';
import type { PaymentIds } from './settled-payment-ids.ts';
import { type Paid, type PaidStep, type SchemePart, refused } from './scheme.ts';

/**
 * Payment ids (x402 payment-identifier): one that is not 16-128 letters, digits, `-` and `_`; one settled for another
 * resource; one whose retry is signed by another payer; one another request still settles.
 */
const INVALID_PAYMENT_ID = 'invalid_payment_identifier';
const PAYMENT_ID_CONFLICT = 'payment_identifier_conflict';
const PAYMENT_ID_PAYER_MISMATCH = 'payment_identifier_payer_mismatch';
const PAYMENT_ID_IN_USE = 'payment_identifier_in_use';

const sameAddress = (a: string | undefined, b: string | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * How long an id is held while its payment settles: well past the facilitator's calls at their timeout, after which a
 * retry may claim it.
 */
const CLAIM_MS = 2 * 60 * 1000;
/** How often a request waits on an id another request holds while settling. */
const CLAIM_POLL_MS = 50;

/**
 * The payment-identifier extension every challenge declares (optional): x402's retry-safe payments (docs/design.md §7).
 */
export const PAYMENT_ID_EXTENSION = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) };

/** The store of payment ids could not be reached before anything was settled: 503, nothing charged. */
export class PaymentIdsUnavailable extends Error {}
async function unlessUnavailable<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    console.error(`payment ids: store unavailable: ${errorLine(e)}`);
    throw new PaymentIdsUnavailable();
  }
}

/**
 * Pays for the step's answer with its scheme's part, once for `key` when the payment names an id: the id is claimed
 * while the payment is made and recorded once paid; a retry with it is answered with the first receipt.
 */
export async function payOncePerId<A extends { hasFigures: boolean }>(
  ids: PaymentIds | Promise<PaymentIds>,
  key: string,
  part: SchemePart,
  step: PaidStep<A>,
): Promise<Paid<A>> {
  const payOnce = () => part.pay(step);

  // The extension as the client echoes it, with or without an id. Checked by hand: the SDK's
  // validatePaymentIdentifier compiles the schema the client sends with Ajv on every call (13 ms, and the
  // client's own schema), where the rule is a type and a pattern.
  const idExtension = step.payload.extensions?.[PAYMENT_IDENTIFIER];
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
      return { kind: 'answered', answer: await step.answer(), receipt: held.receipt };
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
    const record = (work: Promise<void>) =>
      work.catch((e: unknown) => console.error(`payment ids: could not record ${id}: ${errorLine(e)}`));
    if (outcome?.kind === 'answered' && outcome.receipt) await record(store.settle(id, key, outcome.receipt));
    // A settlement whose outcome is unknown (the facilitator lost while settling) keeps the claim until it
    // expires, so a retry does not pay again for what may still be paid; any other end frees the id.
    else if (!step.state.settling) await record(store.release(id, token));
  }
}
