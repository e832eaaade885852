// The facilitator as the gate calls it: a verdict passes through; any other failure becomes the one error the
// SDK lets through, so the gate can answer 503 (nothing charged) rather than a 402 carrying the failure's text.
import { type FacilitatorClient, FacilitatorResponseError } from '@x402/core/server';
import { SettleError, VerifyError } from '@x402/core/types';
import { errorLine } from './error-line.ts';

/**
 * Facilitator failures other than a verdict (unreachable, timed out, a 5xx) become the SDK's
 * FacilitatorResponseError, which it passes through instead of answering 402 with the error's text.
 */
export function failClosed(client: FacilitatorClient): FacilitatorClient {
  const guard =
    <A extends unknown[], R>(operation: string, call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (e) {
        if (e instanceof FacilitatorResponseError || e instanceof VerifyError || e instanceof SettleError) throw e;
        // One line: the facilitator's error, not a stack.
        console.error(`x402 facilitator ${operation} failed: ${errorLine(e).slice(0, 300)}`);
        throw Object.assign(new FacilitatorResponseError(`facilitator ${operation} failed`), { cause: e });
      }
    };
  return {
    verify: guard('verify', (p, r) => client.verify(p, r)),
    settle: guard('settle', (p, r) => client.settle(p, r)),
    getSupported: guard('supported', () => client.getSupported()),
  };
}
