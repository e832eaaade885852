// The Vercel build of the real dataset: pages and free files may be static, but every shard (private
// figures included) travels inside the function and none is a static CDN file.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../api/openapi.ts';
import { buildShards } from '../../ingest/build.ts';
import { ROOT, astroBuild } from '../support/server.ts';
import { REAL_DATA } from '../support/shards.ts';

const SHARDS = join(ROOT, 'shards');
const OUTPUT = join(ROOT, '.vercel', 'output');
const FUNC = join(OUTPUT, 'functions', '_render.func');

// One request per endpoint of src/pages/v1/: each one-line endpoint is wired to its handler.
const PATHS = [
  '/v1/coverage',
  '/v1/lines?state=TX',
  '/v1/premium/sample?state=TX',
  '/v1/premium?state=TX',
  '/v1/compare?states=TX,FL',
  '/v1/premium/summary?state=TX&year=2024',
  '/v1/insurers?state=FL&period=2024',
];

const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(() => {
  buildShards(REAL_DATA, SHARDS); // what `npm run build:vercel` does first
  astroBuild({ DEPLOY_TARGET: 'vercel', ASTRO_OUT_DIR: join(ROOT, '.tmp', 'vercel-dist') });
});

describe('DEPLOY_TARGET=vercel build', () => {
  it('writes .vercel/output with a Node function and static pages', () => {
    expect(existsSync(join(OUTPUT, 'config.json'))).toBe(true);
    const vc = JSON.parse(readFileSync(join(FUNC, '.vc-config.json'), 'utf8'));
    expect(vc.runtime).toMatch(/^nodejs\d+/);
    expect(existsSync(join(OUTPUT, 'static', 'index.html'))).toBe(true);
  });

  it('prerenders /openapi.json as a static file equal to what the contract generates', () => {
    expect(JSON.parse(readFileSync(join(OUTPUT, 'static', 'openapi.json'), 'utf8'))).toEqual(openApiDocument());
  });

  it('puts no shard under static/, by path or by content', () => {
    const staticFiles = files(join(OUTPUT, 'static'));
    expect(staticFiles.filter((f) => /shards|private|series|insurers/.test(relative(OUTPUT, f)))).toEqual([]);
    const shardHashes = new Set(files(join(SHARDS, 'private')).map(sha));
    expect(staticFiles.filter((f) => shardHashes.has(sha(f)))).toEqual([]);
    for (const f of staticFiles) expect(readFileSync(f, 'utf8')).not.toContain('"snapshots"');
  });

  it('carries every shard, byte for byte, inside the function', () => {
    for (const f of files(SHARDS)) {
      const inFunction = join(FUNC, 'shards', relative(SHARDS, f));
      expect(existsSync(inFunction), relative(ROOT, inFunction)).toBe(true);
      expect(sha(inFunction)).toBe(sha(f));
    }
  });

  it('answers free and priced routes from inside the function folder, as Vercel runs it', () => {
    const script = `
      const { default: fn } = await import(${JSON.stringify(join(FUNC, '.vercel', 'output', 'server', 'entry.mjs'))});
      const out = {};
      for (const path of ${JSON.stringify(PATHS)}) {
        const res = await fn.fetch(new Request('https://sl.example' + path));
        out[path] = { status: res.status, body: await res.text() };
      }
      console.log(JSON.stringify(out));`;
    const env = { ...process.env };
    delete env.SHARDS_DIR;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: FUNC, env }).toString().trim().split('\n').at(-1)!);
    expect(out['/v1/coverage'].status).toBe(200);
    expect(out['/v1/coverage'].body).toBe(readFileSync(join(SHARDS, 'free', 'coverage.json'), 'utf8'));
    expect(out['/v1/lines?state=TX'].status).toBe(200);
    expect(out['/v1/lines?state=TX'].body).toBe(readFileSync(join(SHARDS, 'free', 'lines', 'TX.json'), 'utf8'));
    expect(out['/v1/premium/sample?state=TX'].body).toBe(readFileSync(join(SHARDS, 'free', 'sample', 'TX.json'), 'utf8'));
    // Priced answers need the private shards, which only the function carries.
    const months = JSON.parse(readFileSync(join(SHARDS, 'private', 'series', 'TX', 'all', 'month.json'), 'utf8')).rows.map((r: { period: string }) => r.period);
    expect(months.length).toBeGreaterThan(0);
    expect(out['/v1/premium?state=TX'].status).toBe(200);
    expect(JSON.parse(out['/v1/premium?state=TX'].body).data.map((r: { period: string }) => r.period)).toEqual(months);
    expect(out['/v1/compare?states=TX,FL'].status).toBe(200);
    expect(JSON.parse(out['/v1/compare?states=TX,FL'].body).series.TX.map((r: { period: string }) => r.period)).toEqual(months);
    expect(out['/v1/premium/summary?state=TX&year=2024'].status).toBe(200);
    expect(JSON.parse(out['/v1/premium/summary?state=TX&year=2024'].body).basis).toBe('partial_monthly_sum');
    // FL's only published ranking is for 2024-H1, neither a month nor a year: the endpoint answers 404.
    expect(out['/v1/insurers?state=FL&period=2024'].status).toBe(404);
    expect(JSON.parse(out['/v1/insurers?state=FL&period=2024'].body).error.message).toContain('2024-H1');
  });
});
