// Free answers prepared once: the Node server (server.ts) writes these bytes and headers straight to the
// socket for the canonical spelling of each free query, without building a Web Request and Response per
// request. They are the dispatcher's own answers, computed at start from the shards the server checked,
// so a prepared answer is byte for byte the one the full handler gives; any other spelling, and every
// error, still goes through the handler.
import { dispatch } from './dispatch.ts';
import { coverageResponse } from '../domain/contract.ts';
import { requiredFreeBody } from './http.ts';

export interface PreparedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The canonical free queries: each free route with no parameter or with each state the build has. */
export function freeTargets(): string[] {
  const states = coverageResponse.parse(JSON.parse(Buffer.from(requiredFreeBody('coverage.json')).toString('utf8'))).map((c) => c.state);
  const perState = ['/v1/lines', '/v1/premium/sample', '/v1/publications'].flatMap((path) => states.map((s) => `${path}?state=${s}`));
  return ['/v1/coverage', '/v1/premium/sample', '/v1/solvency/sample', '/v1/rates/sample', '/v1/syndicates/sample', ...perState];
}

/** `METHOD target` → the answer, for GET and HEAD of every canonical free query answered 200. */
export async function prepareFreeAnswers(): Promise<Map<string, PreparedAnswer>> {
  const out = new Map<string, PreparedAnswer>();
  for (const target of freeTargets()) {
    for (const method of ['GET', 'HEAD']) {
      const res = await dispatch(new Request(`http://localhost${target}`, { method }));
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) continue;
      out.set(`${method} ${target}`, { status: res.status, headers: Object.fromEntries(res.headers), body });
    }
  }
  return out;
}
