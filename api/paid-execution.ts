// A priced operation answered for whoever asks, an HTTP request (api/priced.ts) or an MCP tool call
// (api/mcp/tool.ts): the request resolved before anything is paid for (a QueryError is a 400 or 404, never
// charged), the answer computed once per key and kept (the shards do not change while a process runs, so a paid
// request's answer is ready at once and its settlement starts sooner), whether it cites a publication (one that
// cites none holds no figure and is not charged, docs/design.md §7, §10), and the payment gate around it when the
// gate is on. Each front translates only its wire format: its parameters in, its answer or the gate's outcome out.
import { AnswerCache } from './answer-cache.ts';
import type { PricedOperation } from './operation.ts';
import { configuredGate } from './payment/configured.ts';
import type { Gate } from './payment/gate.ts';
import { onStoreReset } from './store.ts';

/**
 * Every figure an answer shows comes from a publication it lists (docs/design.md §10), and every listed
 * publication gave one of them: an answer that lists none holds no figure (empty data, or every figure
 * null), and is not charged (§7). A file's answer (a bulk download) says for itself.
 */
const citesPublications = (body: unknown) =>
  ((body as { publications?: unknown[] } | null)?.publications?.length ?? 0) > 0;

/** A parameter's value in a query string: a list joined with commas, the commas left readable. */
const queryValue = (value: unknown) =>
  encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value)).replaceAll('%2C', ',');

/** A query string of parameter values, as a person would write it: `states=FL,TX`. */
export const readableQuery = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${queryValue(value)}`)
    .join('&');

/** The answers of one front, in its form, kept by key up to a total size. */
export class PaidAnswers<A extends { hasFigures: boolean }> {
  readonly #kept: AnswerCache<A>;

  /** `bytesOf`: what an answer in this front's form weighs. */
  constructor(maxBytes: number, bytesOf?: (answer: A) => number) {
    this.#kept = new AnswerCache<A>(maxBytes, bytesOf);
    onStoreReset(() => this.#kept.clear());
  }

  /**
   * Resolves the request now (a QueryError for an unknown state, line, ...) and returns its answer: computed on
   * first use, rendered in this front's form (`render`, told whether it cites a publication), and kept under `key`
   * (the route, its parameters as parsed with defaults applied, and what else changes the form).
   */
  prepare(
    operation: PricedOperation,
    parsed: Record<string, unknown>,
    key: string,
    render: (body: unknown, hasFigures: boolean) => A,
  ): () => A {
    const compute = operation.prepare(parsed);
    return () => {
      let kept = this.#kept.get(key);
      if (!kept) {
        const body = compute();
        kept = render(body, citesPublications(body));
        this.#kept.set(key, kept);
      }
      return kept;
    };
  }
}

/** The payment gate around an answer when the gate is on (`charge`), else the answer as it is (`free`). */
export async function behindGate<R>(charge: (gate: Gate) => Promise<R>, free: () => R): Promise<R> {
  const gate = await configuredGate();
  return gate ? charge(gate) : free();
}
