// A deployment whose shards are missing or damaged (issue 9): the server refuses to start on it, and a
// shard that goes missing or bad while serving is a 500 for the queries that need it (never an empty
// 200, never a cached one), tried again on the next request.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorBody } from '../../domain/contract.ts';
import { checkShards } from '../../api/store.ts';
import { callHandler } from '../support/handlers.ts';
import { ROOT } from '../support/server.ts';
import { FIXTURE_DATA, buildInto, serveShards } from '../support/shards.ts';

const call = (path: string) => callHandler(`http://service.test${path}`);

let shards: string;
let restore = () => {};
let quiet: { mockRestore(): void };
beforeEach(() => {
  shards = buildInto(FIXTURE_DATA);
  restore = serveShards(shards);
  quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  quiet.mockRestore();
  restore();
});

const fileOf = (rel: string) => join(shards, rel);

async function expectInternal(path: string): Promise<void> {
  const res = await call(path);
  expect(res.status, path).toBe(500);
  expect(res.headers.get('cache-control'), path).toBe('no-store');
  const text = await res.text();
  expect(errorBody.strict().parse(JSON.parse(text)).error.code).toBe('internal');
  expect(text, path).not.toMatch(/shards|\/tmp|manifest|\.json/); // the log has the file, the client does not
}

/** Answers to the paths, read before anything is broken. */
async function answers(paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of paths) {
    const res = await call(p);
    expect(res.status, p).toBe(200);
    out.set(p, await res.text());
  }
  return out;
}

describe('a private shard the build lists but the disk lacks', () => {
  const NEEDS_FL_MONTHS = [
    '/v1/premium?state=FL',
    '/v1/compare?states=IL,FL',
    '/v1/premium/summary?state=FL&year=2024',
  ];

  it('is a 500 for every query that needs it, while other queries answer', async () => {
    const healthy = await answers([...NEEDS_FL_MONTHS, '/v1/premium?state=IL']);
    serveShards(shards); // a fresh process: nothing read yet
    rmSync(fileOf('private/series/FL/all/month.json'));
    for (const p of NEEDS_FL_MONTHS) await expectInternal(p);
    expect(await (await call('/v1/premium?state=IL')).text()).toBe(healthy.get('/v1/premium?state=IL'));
  });

  it('is tried again on the next request: restoring the file restores the answers', async () => {
    const healthy = await answers(NEEDS_FL_MONTHS);
    const file = fileOf('private/series/FL/all/month.json');
    const bytes = readFileSync(file);
    serveShards(shards);
    rmSync(file);
    await expectInternal(NEEDS_FL_MONTHS[0]);
    writeFileSync(file, bytes);
    for (const p of NEEDS_FL_MONTHS) expect(await (await call(p)).text(), p).toBe(healthy.get(p));
  });

  it('damaged (one figure changed, still valid JSON): a 500, not a wrong figure', async () => {
    const file = fileOf('private/series/FL/all/month.json');
    const text = readFileSync(file, 'utf8');
    const changed = text.replace(/(\d)(\d)/, (_, a: string, b: string) => `${a}${(Number(b) + 1) % 10}`);
    expect(changed).not.toBe(text);
    writeFileSync(file, changed);
    await expectInternal('/v1/premium?state=FL');
  });

  it('the index itself missing: every priced route is a 500, not a 404 for an unknown state', async () => {
    rmSync(fileOf('private/index.json'));
    for (const p of [
      '/v1/premium?state=FL',
      '/v1/insurers?state=FL&period=2024-01',
      '/v1/premium/summary?state=IL&year=2023',
    ])
      await expectInternal(p);
  });
});

describe('free shards are checked before they are served', () => {
  it('a truncated free body is a 500 with no-store, never a cacheable 200', async () => {
    const file = fileOf('free/lines/FL.json');
    writeFileSync(file, readFileSync(file).subarray(0, 20));
    await expectInternal('/v1/lines?state=FL');
  });

  it('a deleted sample is a 500, not 404 "unknown state"; restored, it is served again', async () => {
    const healthy = await answers(['/v1/premium/sample?state=FL']);
    const file = fileOf('free/sample/FL.json');
    const bytes = readFileSync(file);
    serveShards(shards);
    rmSync(file);
    await expectInternal('/v1/premium/sample?state=FL');
    await expectInternal('/v1/premium/sample');
    writeFileSync(file, bytes);
    expect(await (await call('/v1/premium/sample?state=FL')).text()).toBe(healthy.get('/v1/premium/sample?state=FL'));
  });

  it('a damaged coverage body is a 500', async () => {
    writeFileSync(
      fileOf('free/coverage.json'),
      readFileSync(fileOf('free/coverage.json'), 'utf8').replace('"FL"', '"FX"'),
    );
    await expectInternal('/v1/coverage');
  });

  it('no manifest: every route is a 500 (the build cannot be trusted), an unknown state included', async () => {
    rmSync(fileOf('manifest.json'));
    for (const p of [
      '/v1/coverage',
      '/v1/lines?state=FL',
      '/v1/lines?state=ZZ',
      '/v1/premium/sample',
      '/v1/premium?state=FL',
    ])
      await expectInternal(p);
  });
});

describe('checkShards: what the server checks before it listens', () => {
  it('finds nothing wrong in a fresh build', () => {
    expect(checkShards()).toEqual([]);
  });

  it('names every missing and every damaged file', () => {
    rmSync(fileOf('private/series/FL/all/month.json'));
    rmSync(fileOf('free/sample/IL.json'));
    writeFileSync(fileOf('free/lines/FL.json'), '[]\n');
    expect(checkShards().sort()).toEqual([
      'free/lines/FL.json: does not match its SHA-256 in manifest.json',
      'free/sample/IL.json: listed in manifest.json but missing',
      'private/series/FL/all/month.json: listed in manifest.json but missing',
    ]);
  });

  it('says so when the manifest is missing or not JSON', () => {
    writeFileSync(fileOf('manifest.json'), '{"files":');
    expect(checkShards()).toEqual([expect.stringContaining('manifest.json is not valid JSON')]);
    rmSync(fileOf('manifest.json'));
    expect(checkShards()).toEqual([expect.stringContaining('manifest.json cannot be read')]);
  });
});

describe('server.ts on a damaged build', () => {
  it('refuses to start, naming each file, and exits 1', () => {
    rmSync(fileOf('private/series/FL/all/month.json'));
    writeFileSync(fileOf('free/lines/FL.json'), '[');
    // Refused before the Astro build is loaded, so no build is needed here.
    const run = spawnSync(process.execPath, [join(ROOT, 'server.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        SHARDS_DIR: shards,
        PORT: '0',
        ASTRO_ENTRY: join(ROOT, 'no-such-entry.mjs'),
        X402_PAY_TO: '',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('private/series/FL/all/month.json: listed in manifest.json but missing');
    expect(run.stderr).toContain('free/lines/FL.json: does not match its SHA-256');
    expect(run.stdout).not.toContain('Serving on');
  });
});
