// Priced answers are kept once computed (api/priced.ts): asked again, the same bytes; and never an answer of
// shards no longer served (the store's reset forgets them too).
import { describe, expect, it } from 'vitest';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

const ask = async (target: string) => {
  const response = await callHandler(`http://localhost${target}`);
  return { status: response.status, text: await response.text(), length: response.headers.get('content-length') };
};

describe('priced answers kept once computed (gate off)', () => {
  it('answer the same query, and each spelling of it, with the same bytes, and in each format its own', async () => {
    const restore = serveShards(buildInto(FIXTURE_DATA));
    try {
      const first = await ask('/v1/premium?state=FL');
      expect(first.status).toBe(200);
      expect(JSON.parse(first.text).data.length).toBeGreaterThan(0);
      expect(await ask('/v1/premium?state=FL')).toEqual(first);
      expect(await ask('/v1/premium?state=fl&granularity=month')).toEqual(first);
      const csv = await ask('/v1/premium?state=FL&format=csv');
      expect(csv.text).not.toBe(first.text);
      expect(csv.text.split(/\r?\n/)[0]).toMatch(/^[a-z_]+(,[a-z_]+)+$/); // a CSV header line, not the JSON kept for the same state
    } finally {
      restore();
    }
  });

  it('are forgotten with the shards they came from', async () => {
    const restoreFixtures = serveShards(buildInto(FIXTURE_DATA));
    const fixtures = await ask('/v1/premium?state=FL');
    restoreFixtures();
    const restoreReal = serveShards(buildInto(REAL_DATA));
    try {
      const real = await ask('/v1/premium?state=FL');
      expect(real.status).toBe(200);
      expect(real.text).not.toBe(fixtures.text);
    } finally {
      restoreReal();
    }
  });
});
