// The payment schemes the gate offers, one import a scheme, each module describing itself (./scheme-registry.ts).
// Their order is the order of every 402's `accepts` and of /openapi.json's terms: the scheme of one settlement per
// answer first, as clients that know one scheme expect.
import { registerSchemes } from './scheme-registry.ts';
import { exactScheme } from './exact.ts';
import { batchScheme } from './batch.ts';

registerSchemes(exactScheme, batchScheme);

export { registeredSchemes } from './scheme-registry.ts';

/**
 * What a person or an agent reads of the schemes, in one sentence (llms.txt, /.well-known/x402, OpenAPI): written
 * here, beside the list, and said anew when a scheme is added.
 */
export const SCHEMES_SENTENCE = [
  'Two ways to pay the same price, both in every 402 where the facilitator serves both: `exact`, one signed transfer',
  'settled on chain per answer; and `batch-settlement`, a prepaid channel: the first payment deposits at least',
  "`minDeposit` into x402's escrow, every later answer is paid by a signed voucher the server checks itself, in",
  'milliseconds and with no chain transaction, and the server claims vouchers in batches later (the rest of a deposit',
  'is refunded when the channel idles, or on request).',
].join(' ');
