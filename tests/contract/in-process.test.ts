// The contract suite through the handlers themselves: Request in, Response out, no socket.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, serveShards, useShardsOf } from '../support/shards.ts';
import { contractSuite } from './suite.ts';

const call = (path: string, init?: RequestInit) => callHandler(`http://service.test${path}`, init);

useShardsOf(FIXTURE_DATA);

contractSuite(call);

describe('a failure to compute an answer', () => {
  it('is a 500 internal error that leaks no path or stack', async () => {
    const restore = serveShards(join(mkdtempSync(join(tmpdir(), 'slmd-empty-')), 'shards'));
    try {
      const res = await call('/v1/coverage');
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text).error.code).toBe('internal');
      expect(text).not.toMatch(/slmd-empty|shards|\/tmp|at .*\.ts|Error:/);
    } finally {
      restore();
    }
  });
});
