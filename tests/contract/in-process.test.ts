// The contract suite through the handlers themselves: Request in, Response out, no socket.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, serveShards, useShardsOf } from '../support/shards.ts';
import { contractSuite } from './suite.ts';
import { conditionalSuite } from './conditional-suite.ts';

const call = (path: string, init?: RequestInit) => callHandler(`http://service.test${path}`, init);

useShardsOf(FIXTURE_DATA);

contractSuite(call);
conditionalSuite(call);

describe('a failure to compute an answer', () => {
  it('is a 500 internal error that leaks no path or stack', async () => {
    const restore = serveShards(join(mkdtempSync(join(tmpdir(), 'slmd-empty-')), 'shards'));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await call('/v1/coverage');
      expect(res.status).toBe(500);
      // The operator's log says what is wrong; the client's answer does not.
      expect(logged.mock.calls.map((args) => args.join(' '))).toEqual([
        expect.stringMatching(/^shards: manifest\.json cannot be read \(ENOENT\): run the ingest/),
      ]);
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe('internal');
      expect(text).not.toMatch(/slmd-empty|shards|\/tmp|at .*\.ts|Error:/);
    } finally {
      logged.mockRestore();
      restore();
    }
  });
});

describe('answers a client cannot inflate (issue 9)', () => {
  it('HEAD gets no body with an error either, wherever the Response goes (the Vercel function too)', async () => {
    for (const path of ['/v1/premium?state=ZZ', '/v1/premium?state=1', '/v1/nope', '/v1/premium/']) {
      const res = await call(path, { method: 'HEAD' });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body, path).toBeNull();
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
    }
  });

  it('quotes a 10 kB line, county, state list or path cut to 80 characters', async () => {
    const long = 'x'.repeat(10_000);
    for (const path of [
      `/v1/premium?state=FL&line=${long}`,
      `/v1/premium?state=FL&county=${long}`,
      `/v1/compare?states=FL,${long}`,
      `/v1/${long}`,
      `/v1/premium?state=${long}`,
    ]) {
      const { error } = await (await call(path)).json();
      expect(error.message.length, path.slice(0, 40)).toBeLessThan(400);
      expect(error.message, path.slice(0, 40)).toMatch(/…' \(100[0-9]{2} characters\)/);
    }
  });
});
