// The same contract suite over HTTP, against the built Node server serving the fixture shards; and
// the prerendered /openapi.json that server serves, checked against what the schemas generate now.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi.ts';
import { ROOT, astroBuild, rawRequest, startServer } from '../support/server.ts';
import { FIXTURE_DATA, buildInto } from '../support/shards.ts';
import { contractSuite } from './suite.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-node');
let server: { base: string; stop: () => void };

beforeAll(async () => {
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node' });
  server = await startServer(join(OUT, 'server', 'entry.mjs'), { SHARDS_DIR: buildInto(FIXTURE_DATA) });
});
afterAll(() => server?.stop());

contractSuite((path, init) => fetch(`${server.base}${path}`, init));

describe('GET /openapi.json over HTTP', () => {
  it('serves JSON equal to the document the contract generates (a stale build fails here)', async () => {
    const res = await fetch(`${server.base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(openApiDocument());
  });
});

/** A raw HTTP/1.1 request, for what fetch will not send (TRACE, a forged Host). */
const raw = (method: string, path: string, headers?: Record<string, string>) => rawRequest(server.base, method, path, headers);

describe('the Node server (server.ts) around the handlers', () => {
  it('answers TRACE on an API route with the 405 of every other method', async () => {
    const res = await raw('TRACE', '/v1/premium?state=FL');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(res.body).error.code).toBe('invalid_request');
  });

  it('answers from the path and query it was sent, whatever the Host header says', async () => {
    const plain = await raw('GET', '/v1/premium?state=FL');
    for (const host of ['x?state=TX&a=', 'x/v1/lines', 'x#']) {
      const forged = await raw('GET', '/v1/premium?state=FL', { Host: host });
      expect(forged.status, host).toBe(200);
      expect(forged.body, host).toBe(plain.body);
    }
  });

  it('answers a trailing slash as the route itself (through Astro)', async () => {
    const plain = await (await fetch(`${server.base}/v1/premium?state=FL`)).text();
    const res = await fetch(`${server.base}/v1/premium/?state=FL`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(plain);
  });

  it('answers an unknown /v1 path with the JSON 404 error body, pointing to /openapi.json', async () => {
    const res = await fetch(`${server.base}/v1/premiums?state=FL`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { error } = await res.json();
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('/v1/premiums');
    expect(error.message).toContain('/openapi.json');
  });
});
