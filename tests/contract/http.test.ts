// The same contract suite over HTTP, against the built Node server serving the fixture shards; and
// the prerendered /openapi.json that server serves, checked against what the schemas generate now.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
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
