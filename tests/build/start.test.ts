// `npm start` (scripts/start.sh) on another port: without SITE_URL, what it builds names the origin it serves, so
// PORT=5400 gives links, JSON-LD and /.well-known/x402 resources on 127.0.0.1:5400, not astro.config.mjs's 4321.
// The script itself, end to end, on the fixture data (a build of a few seconds), into folders of its own
// (SHARDS_DIR, ASTRO_OUT_DIR) so that the checkout's shards/ and dist/ stay as they were. The origin rule's cases
// (wildcard and IPv6 hosts) are tests/chain/pay-local.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, freePort } from '../support/server.ts';
import { FIXTURE_DATA } from '../support/shards.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-start'); // inside the checkout: the build's server imports node_modules
let shards: string;
let child: ChildProcess;
let origin: string;
let output = '';

beforeAll(async () => {
  shards = join(mkdtempSync(join(tmpdir(), 'slmd-start-')), 'shards');
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // The caller's SITE_URL, HOST and payment settings left out: the defaults are under test, with the gate off.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(SITE_URL|HOST|X402_.*)$/.test(name)),
  );
  child = spawn('bash', [join('scripts', 'start.sh')], {
    cwd: ROOT,
    env: {
      ...env,
      PATH: `${dirname(process.execPath)}${delimiter}${env.PATH}`,
      PORT: String(port),
      DATA_DIR: FIXTURE_DATA,
      SHARDS_DIR: shards,
      ASTRO_OUT_DIR: OUT,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: stopped whole, the build included if it is still running
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 150_000;
  while (!output.includes('Serving on')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not serve:\n${output}`);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 100))]);
  }
});
afterAll(async () => {
  if (child?.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
  rmSync(OUT, { recursive: true, force: true });
  if (shards) rmSync(dirname(shards), { recursive: true, force: true });
});

const text = async (path: string) => {
  const res = await fetch(`${origin}${path}`);
  expect(res.status, path).toBe(200);
  return res.text();
};

describe('npm start with PORT and no SITE_URL', () => {
  it('builds for the origin it serves, and says so', () => {
    expect(output).toContain(`build: astro build, links on ${origin} `);
    expect(output).toContain(`Serving on ${origin}`);
  });

  it('/.well-known/x402 lists its resources on that origin', async () => {
    const { resources } = JSON.parse(await text('/.well-known/x402')) as { resources: string[] };
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.filter((r) => !r.startsWith(`${origin}/`))).toEqual([]);
  });

  it("a snapshot page's JSON-LD and the sitemap name that origin; no page, feed or llms.txt names port 4321", async () => {
    const sitemap = await text('/sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.filter((loc) => !loc.startsWith(`${origin}/`))).toEqual([]);
    const snapshot = locs.find((loc) => /\/snapshots\/\d{4}-\d{2}\/$/.test(loc))!;
    const page = await text(new URL(snapshot).pathname);
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page)![1]) as {
      url: string;
    };
    expect(jsonLd.url).toBe(snapshot);
    for (const path of ['/', new URL(snapshot).pathname, '/snapshots/feed.xml', '/llms.txt'])
      expect(await text(path), path).not.toContain(':4321');
  });
});
