// Answers the Node server (server/kept-answers.ts) writes straight to the socket, without building a Web Request
// per request: the canonical free queries' answers, prepared at start. They are the dispatcher's own answers
// (computed from the shards the server checked), so a prepared answer is byte for byte the one the full handler
// gives; any other spelling, and every error, still goes through the handler.
import { dispatch } from './dispatch.ts';
import { coverage } from './store.ts';
import type { WireAnswer } from './wire-answer.ts';

/**
 * The canonical free queries: each free route with no parameter (/v1/publications: every state's, the feed)
 * or with each state the build has; the sample also as CSV. /v1/publications with since is computed.
 */
export function freeTargets(): string[] {
  const states = coverage().map((c) => c.state);
  const perState = ['/v1/lines', '/v1/premium/sample', '/v1/publications'].flatMap((path) =>
    states.map((s) => `${path}?state=${s}`),
  );
  const sampleCsv = ['/v1/premium/sample?format=csv', ...states.map((s) => `/v1/premium/sample?state=${s}&format=csv`)];
  return [
    '/v1/coverage',
    '/v1/premium/sample',
    '/v1/publications',
    '/v1/solvency/sample',
    '/v1/rates/sample',
    '/v1/syndicates/sample',
    '/v1/bulk/datapackage.json',
    ...perState,
    ...sampleCsv,
  ];
}

/** `METHOD target` → the answer, for GET and HEAD of every canonical free query answered 200. */
export async function prepareFreeAnswers(): Promise<Map<string, WireAnswer>> {
  const out = new Map<string, WireAnswer>();
  for (const target of freeTargets()) {
    for (const method of ['GET', 'HEAD']) {
      const answer = await dispatch(new Request(`http://localhost${target}`, { method }));
      if (answer.status === 200) out.set(`${method} ${target}`, answer);
    }
  }
  return out;
}
