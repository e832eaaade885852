// What a payment scheme contributes to the one paid path of api/payment/gate.ts: its offer in every 402, how a
// payment made with it pays for an answer, and how a retry with a settled payment id proves its payer. Each
// scheme's part is a module of its own (listed in ./schemes.ts); the gate runs the steps every payment shares.
import type { RouteConfig, x402ResourceServer } from '@x402/core/server';
import { type PaymentPayload, type PaymentRequirements, type SettleResponse, SettleError } from '@x402/core/types';
import { isAddress } from 'viem';
import type { RouteContract } from '../../domain/route-contracts.ts';

/** One entry of a route's `accepts`, before the resource server builds its requirements. */
export type PaymentOption = Extract<RouteConfig['accepts'], { scheme: string }>;

/**
 * How a paid request ends: answered (`receipt` when paid for, now or by the request its payment id names), or refused.
 */
export type Paid<A> =
  | { kind: 'answered'; answer: A; receipt?: SettleResponse }
  | { kind: 'refused'; reason: string; receipt?: SettleResponse }
  /** A payment that asks for no answer (a channel's cooperative refund): the scheme's own acknowledgement. */
  | { kind: 'acknowledged'; body: unknown; receipt: SettleResponse };

/**
 * Where the payment of a request is: `settling` while a facilitator settlement is under way (an unreachable facilitator
 * then may still complete it).
 */
export interface PaymentState {
  settling: boolean;
}

/** What the paid step works with: the payment, the offer entry it matched, and the answer it pays for. */
export interface PaidStep<A extends { hasFigures: boolean }> {
  server: x402ResourceServer;
  payload: PaymentPayload;
  matching: PaymentRequirements;
  declared: Record<string, unknown>;
  transport: Parameters<x402ResourceServer['settlePayment']>[3];
  /** Computes the answer (kept, not sent); one that throws is a 500 and is not paid for. */
  answer: () => A | Promise<A>;
  state: PaymentState;
}

export interface SchemePart {
  readonly scheme: string;
  /** The route's entry in every 402. */
  option(route: RouteContract): PaymentOption;
  /**
   * Pays for the answer with the payment, or refuses it: nothing priced is answered before it is paid (docs/design.md
   * §7, §13).
   */
  pay<A extends { hasFigures: boolean }>(step: PaidStep<A>): Promise<Paid<A>>;
  /** A retry's payment, not paid with: the payer it proves (signed by its key), or why it proves none. */
  payerOf(
    step: Omit<PaidStep<{ hasFigures: boolean }>, 'answer' | 'state'>,
  ): Promise<{ payer: string } | { reason: string }>;
}

/**
 * A store a scheme keeps could not be reached before anything was charged or answered: the gate answers 503 with
 * the error's message, which says so.
 */
export class StoreUnavailable extends Error {}

/** A reason as a machine code (`invalid_exact_evm_payload_signature`), never a facilitator's free text. */
const SDK_REASONS = new Set(['Payment required', 'No matching payment requirements']);
export function reasonCode(reason: string | undefined, fallback: string): string {
  if (!reason) return fallback;
  if (SDK_REASONS.has(reason)) return reason;
  return /^[a-z][a-z0-9_]*(?=$|:)/.exec(reason)?.[0] ?? fallback;
}

/**
 * The payer's receipt of a payment refused at settlement: reason code, transaction, network, payer; no facilitator
 * text.
 */
function failedReceipt(failed: Partial<SettleResponse>, network: SettleResponse['network']): SettleResponse {
  return {
    success: false,
    errorReason: reasonCode(failed.errorReason, 'settlement_failed'),
    transaction: /^0x[0-9a-fA-F]{64}$/.test(failed.transaction ?? '') ? failed.transaction! : '',
    network,
    ...(failed.payer && isAddress(failed.payer) ? { payer: failed.payer } : {}),
  };
}

/** A refusal of the paid step, its reason as a code. */
export const refused = <A>(reason: string, receipt?: SettleResponse): Paid<A> => ({
  kind: 'refused',
  reason: reasonCode(reason, 'invalid_payment'),
  ...(receipt ? { receipt } : {}),
});

/** The answer with its receipt, or the refusal the receipt records. */
export const paidOrRefused = <A>(receipt: SettleResponse, answer: A): Paid<A> =>
  receipt.success
    ? { kind: 'answered', answer, receipt }
    : refused(receipt.errorReason ?? 'settlement_failed', receipt);

/**
 * Settles the payment with the facilitator (its settle checks the payment itself): its receipt, or, when it is
 * refused, the payer's receipt of the refusal (reason code, no facilitator text).
 */
export async function facilitatorSettle(
  step: Omit<PaidStep<{ hasFigures: boolean }>, 'answer'>,
): Promise<SettleResponse> {
  const { server, payload, matching, declared, transport, state } = step;
  state.settling = true;
  let settled: SettleResponse;
  try {
    settled = await server.settlePayment(payload, matching, declared, transport);
  } catch (e) {
    if (!(e instanceof SettleError)) throw e;
    settled = {
      success: false,
      errorReason: e.errorReason,
      transaction: e.transaction ?? '',
      network: matching.network,
      payer: e.payer,
    };
  }
  state.settling = false;
  return settled.success ? settled : failedReceipt(settled, matching.network);
}
