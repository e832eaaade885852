// The payment schemes the gate offers, each described once, in its own module, by what the rest of the payment
// code needs of it (`PaymentScheme`), and registered in ./schemes.ts in the order of every 402's `accepts`. The
// offers, the payload check, the refusals, the terms and /openapi.json iterate the registered schemes and name
// none, so that a scheme is added by its own file and one line of that list (docs/design.md §13).
import type { FacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { BatchSettlementChannelManager, ChannelStorage } from '@x402/evm/batch-settlement/server';
import type { z } from 'zod';
import type { PaymentTerms } from './prices.ts';
import type { SchemePart } from './scheme.ts';
import type { SetAsideStore } from './set-aside.ts';
import type { PaymentSettings } from './settings.ts';
import type { VoucherCheck } from './voucher-check.ts';

/** What the gate keeps for the schemes beyond their parts. */
export interface SchemeStores {
  /** Where prepaid channels' vouchers are kept: a scheme that needs one is not offered without it. */
  channels?: ChannelStorage;
  /** The channels set aside, beside `channels` (default: this process's memory). */
  setAside?: SetAsideStore;
}

/** What claims, refunds and the operator's view work on: a scheme's channel manager, its channels, those set aside. */
export interface GateChannels {
  manager: BatchSettlementChannelManager;
  storage: ChannelStorage;
  setAside: SetAsideStore;
  /** The voucher check every kept voucher passed; a claim run holds the vouchers kept before it to it too. */
  check: VoucherCheck;
}

/** A scheme's part as the gate's offers hold it: its step on the paid path, and what the offers ask of it beside. */
export interface OfferedPart extends SchemePart {
  /** The SDK's server side of the scheme, registered on the gate's resource server for the settings' network. */
  readonly server: Parameters<x402ResourceServer['register']>[1];
  /**
   * Why the facilitator cannot serve the scheme, or null. A scheme that says so is asked once the facilitator's
   * support has been read, and offered only then; one that does not is offered from the start.
   */
  supportProblem?(resourceServer: x402ResourceServer): string | null;
  /** The prepaid channels the scheme keeps, on the gate's facilitator (claims and refunds run on them). */
  channels?(facilitator: FacilitatorClient): GateChannels;
  /**
   * Whether a refused payment's 402 is built anew with the payment beside it, so that the scheme can put in it the
   * state the payer must resynchronise to (x402's corrective 402); else it is the route's challenge with the reason.
   */
  readonly correctiveRefusal?: boolean;
}

/** A payment scheme, as its own module describes it. */
export interface PaymentScheme {
  /** x402's name for it, as a 402's `accepts` and a payment's `accepted` give it. */
  readonly name: string;
  /** The shape of a payment's `payload` made with it: anything else is refused as malformed before the SDK reads it. */
  readonly payload: z.ZodType;
  /** Its part in a gate with these settings and stores; null, and not offered, when a store it needs is missing. */
  part(settings: PaymentSettings, stores: SchemeStores): OfferedPart | null;
  /** What it adds to a priced route's x402 terms in /openapi.json (`x-payment-info`), beyond every scheme's. */
  paymentInfo?(priceUsd: string, terms: PaymentTerms): Record<string, unknown>;
  /** Its bullet in /openapi.json's rules, after the prices', when it has rules of its own to state. */
  readonly openApiRule?: string;
}

const registered: PaymentScheme[] = [];

/**
 * Adds schemes after those registered, in the order given (the order of every 402's `accepts`); returns what takes
 * them out again. Two schemes of one name would leave a payment's scheme ambiguous: refused.
 */
export function registerSchemes(...schemes: PaymentScheme[]): () => void {
  for (const scheme of schemes) {
    const twice = registered.some((s) => s.name === scheme.name);
    if (twice) throw new Error(`payment scheme ${scheme.name} registered twice`);
    registered.push(scheme);
  }
  return () => {
    for (const scheme of schemes) {
      const at = registered.indexOf(scheme);
      if (at >= 0) registered.splice(at, 1);
    }
  };
}

/** The registered schemes, in order. */
export const registeredSchemes = (): readonly PaymentScheme[] => registered;
