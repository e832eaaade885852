// The same contract suite over HTTP, against the built Node server serving the fixture shards.
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
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
