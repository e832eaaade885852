// How the x402 benchmark (bench/x402.ts) times a paid round trip: what it measures (a target, run once a round), and
// the instruments that split a paid request into its parts: the paying client's fetch, timing its two HTTP legs and
// the signing between them, and the chain's facilitator, timing its verify and settle. Requests are sequential, so
// the parts are recorded into the one request being measured.
import type { FacilitatorClient } from '../tests/support/chain.ts';

/** What one round times once: a request, or the facilitator's settle called directly. */
export interface Target {
  label: string;
  path: string;
  run(): Promise<{ ms: number; parts?: Parts }>;
}

/** Each target's times (ms) and, for a paid request, its parts, by the target's index. */
export interface RoundRecord {
  ms: number[][];
  parts: Parts[][];
}

/** One paid request's parts, in ms. The client's two HTTP legs are timed to their response headers. */
export interface Parts {
  challengeLeg: number; // unpaid request → 402 headers
  sign: number; // 402 headers → paid request sent: read the 402, choose, sign
  paidLeg: number; // paid request → 200 headers: compute + settle on the server
  verify: number; // facilitator.verify, in process (no HTTP): none on the paid path
  settle: number; // facilitator.settle, in process: simulate, send, mine, receipt
  body: number; // 200 headers → body read
  fetches: number;
  verifies: number;
  settles: number;
}
let current: Parts | null = null;
const newParts = (): Parts => ({
  challengeLeg: 0,
  sign: 0,
  paidLeg: 0,
  verify: 0,
  settle: 0,
  body: 0,
  fetches: 0,
  verifies: 0,
  settles: 0,
});

/** Starts recording the parts of the paid request about to be made. */
export function startParts(): void {
  current = newParts();
}

/** Stops recording, and returns the parts of the paid request just made. */
export function takeParts(): Parts {
  const parts = current!;
  current = null;
  return parts;
}

/** The chain's facilitator, timing its verify and settle into the request being measured (requests are sequential). */
export function timedFacilitator(inner: FacilitatorClient): FacilitatorClient {
  type Args = Parameters<FacilitatorClient['verify']>;
  const timed =
    <R>(part: 'verify' | 'settle', count: 'verifies' | 'settles', call: (...args: Args) => Promise<R>) =>
    async (...args: Args): Promise<R> => {
      const t = performance.now();
      try {
        return await call(...args);
      } finally {
        if (current) {
          current[part] += performance.now() - t;
          current[count]++;
        }
      }
    };
  return {
    getSupported: () => inner.getSupported(),
    verify: timed('verify', 'verifies', (p, r) => inner.verify(p, r)),
    settle: timed('settle', 'settles', (p, r) => inner.settle(p, r)),
  };
}

/** globalThis.fetch for the paying client, timing its two legs (and the gap between them: the client's signing). */
let legEnd = 0;
export const timedFetch: typeof fetch = async (input, init) => {
  const t = performance.now();
  const res = await fetch(input, init);
  const end = performance.now();
  if (current) {
    current.fetches++;
    if (current.fetches === 1) current.challengeLeg = end - t;
    else {
      current.sign += t - legEnd;
      current.paidLeg += end - t;
    }
  }
  legEnd = end;
  return res;
};
