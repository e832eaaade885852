// The Vercel build of the real dataset: pages and free files may be static, but every shard (private
// figures included) travels inside the function and none is a static CDN file.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { keccak256, toBytes } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { errorBody } from '../../domain/contract.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { freeTargets } from '../../api/prepared.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { WELL_KNOWN_X402_PATH, wellKnownX402Text } from '../../api/well-known-x402.ts';
import { buildShards } from '../../ingest/build.ts';
import { serveFacilitator } from '../support/chain.ts';
import { ROOT, astroBuild } from '../support/server.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';
import { MCP_SDK, PAYMENT_STACK, fetchRecorded, packagesMatching } from '../support/loaded-modules.ts';
import {
  filesUnder,
  leakedFigures,
  pricedFigures,
  pricedFiguresIn,
  snapshotFigures,
} from '../support/priced-figures.ts';
import { REAL_DATA, serveShards } from '../support/shards.ts';
import { allSnapshots } from '../../src/snapshots/model.ts';

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
  '/v1/publications?state=TX',
];

// Spellings Astro's router answered itself (a plain-text 400, a redirect, its HTML 404) or routed by a near match.
const SPELLINGS = [
  '/v1/premium/?state=TX',
  '/v1/%zz',
  '/v1/%25252525252e',
  '/V1/premium?state=TX',
  '//v1/premium?state=TX',
  '/v1/premium%2F',
  '/v1',
  '/v1/nope',
];
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE', 'PATCH'];

/**
 * Runs the built function in its own folder, as Vercel does, and answers each request with it; the
 * answers are keyed by path for GET, by `METHOD path` otherwise.
 */
async function callFunction(
  env: Record<string, string>,
  requests: readonly {
    method: string;
    path: string;
    body?: string;
    headers?: Record<string, string>;
    key?: string;
  }[] = PATHS.map((path) => ({ method: 'GET', path })),
): Promise<Record<string, { status: number; headers: Record<string, string>; body: string }>> {
  const script = `
    const { default: fn } = await import(${JSON.stringify(join(FUNC, '.vercel', 'output', 'server', 'entry.mjs'))});
    const out = {};
    for (const { method, path, body, headers, key } of ${JSON.stringify(requests)}) {
      const res = await fn.fetch(new Request('https://sl.example' + path, { method, body, headers }));
      out[key ?? (method === 'GET' ? path : method + ' ' + path)] = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
    }
    console.log(JSON.stringify(out));`;
  // VERCEL=1 as Vercel's runtime sets it: the function keeps no state on its disk (prepaid channels need REDIS_URL).
  const childEnv: Record<string, string | undefined> = { ...process.env, VERCEL: '1', ...env };
  delete childEnv.SHARDS_DIR;
  // Asynchronous: a loopback facilitator in this process must be free to answer the function.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: FUNC,
    env: childEnv,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A route of `.vercel/output/config.json` (Build Output API v3), as far as this build's routes use it. */
interface VercelRoute {
  handle?: string;
  src?: string;
  dest?: string;
  caseSensitive?: boolean;
  methods?: string[];
  has?: { type: string; key?: string; value?: string }[];
  missing?: { type: string; key?: string; value?: string }[];
  headers?: Record<string, string>;
  continue?: boolean;
  check?: boolean;
  status?: number;
}

const vercelRoutes = (): VercelRoute[] => JSON.parse(readFileSync(join(OUTPUT, 'config.json'), 'utf8')).routes;

/** Every file of static/, as the path it is served at (`/snapshots/index.html`). */
const staticPaths = (): Set<string> =>
  new Set(filesUnder(join(OUTPUT, 'static')).map((f) => `/${relative(join(OUTPUT, 'static'), f)}`));

type Resolution =
  | { to: 'static'; file: string; headers: Record<string, string> }
  | { to: 'function'; name: string; status?: number; headers: Record<string, string> }
  | { to: 'nothing' };

/**
 * Where Vercel's routing sends a request, by the route list: each route's `src` is a regular expression on the
 * path as sent (not the query; case-insensitive unless `caseSensitive`, and, as the CLI's router `vercel dev`
 * does, tried on the path without its first character too), `methods`, and `has`/`missing` on the query (a
 * parameter's first value, the value a regular expression on the whole of it) or on a request header (lower-case names). A matching route adds its
 * headers; with `continue` it rewrites the path and goes on; otherwise its `dest` is a static file (with `check`,
 * if there is none, routing goes on from that path) or, without a leading slash, the function of that name.
 * At `handle: filesystem`, a static file at the path answers.
 */
function resolveRequest(
  routes: readonly VercelRoute[],
  files: ReadonlySet<string>,
  method: string,
  target: string,
  requestHeaders: Record<string, string> = {},
): Resolution {
  const q = target.indexOf('?');
  let path = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  const headers: Record<string, string> = {};
  const fileAt = (p: string) =>
    files.has(p) ? p : p.endsWith('/') && files.has(`${p}index.html`) ? `${p}index.html` : undefined;
  const holds = (c: { type: string; key?: string; value?: string }) => {
    if ((c.type !== 'query' && c.type !== 'header') || c.key === undefined)
      throw new Error(`condition ${JSON.stringify(c)} is not modelled`);
    // A header's name is case-insensitive; a query parameter's is not.
    const value = c.type === 'header' ? (requestHeaders[c.key.toLowerCase()] ?? null) : query.get(c.key);
    return value !== null && (c.value === undefined || new RegExp(`^${c.value}$`).test(value));
  };
  for (const r of routes) {
    if (r.handle !== undefined) {
      if (r.handle !== 'filesystem') throw new Error(`phase ${r.handle} is not modelled`);
      const file = fileAt(path);
      if (file) return { to: 'static', file, headers };
      continue;
    }
    if (r.methods && !r.methods.includes(method)) continue;
    const src = new RegExp(r.src!, r.caseSensitive ? '' : 'i');
    if (!src.test(path) && !src.test(path.slice(1))) continue;
    if (!(r.has ?? []).every(holds) || (r.missing ?? []).some(holds)) continue;
    if (r.dest?.includes('$')) throw new Error(`dest ${r.dest} with a capture is not modelled`);
    for (const [name, value] of Object.entries(r.headers ?? {})) headers[name.toLowerCase()] = value;
    const dest = r.dest ?? path;
    if (r.continue) {
      path = dest;
      continue;
    }
    if (!dest.startsWith('/')) return { to: 'function', name: dest, status: r.status, headers };
    const file = fileAt(dest);
    if (file) return { to: 'static', file, headers };
    if (!r.check) return { to: 'nothing' };
    path = dest;
  }
  return { to: 'nothing' };
}

/** Every parameter name a route of the API knows. */
const KNOWN_PARAMETERS = [...new Set(ROUTE_CONTRACTS.flatMap((r) => Object.keys(r.params?.shape ?? {})))];

/** The headers of an answer a static file must repeat: all but the length, which the CDN sets for what it sends. */
const withoutLength = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'content-length'));

/** The figures only a paid answer may carry (see tests/support/priced-figures.ts). */
let priced: Set<string>;

beforeAll(() => {
  buildShards(REAL_DATA, SHARDS); // what `npm run build:vercel` does first
  priced = pricedFigures(SHARDS);
  astroBuild({ DEPLOY_TARGET: 'vercel', ASTRO_OUT_DIR: join(ROOT, '.tmp', 'vercel-dist') });
});

describe('DEPLOY_TARGET=vercel build', () => {
  it('writes .vercel/output with a Node function and static pages', () => {
    expect(existsSync(join(OUTPUT, 'config.json'))).toBe(true);
    const vc = JSON.parse(readFileSync(join(FUNC, '.vc-config.json'), 'utf8'));
    expect(vc.runtime).toMatch(/^nodejs\d+/);
    expect(existsSync(join(OUTPUT, 'static', 'index.html'))).toBe(true);
  });

  it("holds its own copy of the entry and refers to nothing in Astro's intermediate _functions/ beside it (not deployed)", () => {
    const vc = JSON.parse(readFileSync(join(FUNC, '.vc-config.json'), 'utf8'));
    expect(existsSync(join(FUNC, vc.handler))).toBe(true);
    const code = filesUnder(FUNC).filter((f) => /\.(mjs|js|json)$/.test(f) && !f.includes('node_modules'));
    expect(code.length).toBeGreaterThan(3);
    expect(code.filter((f) => readFileSync(f, 'utf8').includes('_functions/'))).toEqual([]);
  });

  it("carries the native voucher check: the function's code imports secp256k1's bindings, whose binary loads from the function's own folder and recovers a signer", async () => {
    const code = filesUnder(FUNC).filter((f) => /\.m?js$/.test(f) && !f.includes('node_modules'));
    expect(code.filter((f) => readFileSync(f, 'utf8').includes('secp256k1/bindings.js')).length).toBeGreaterThan(0);
    const account = privateKeyToAccount(generatePrivateKey());
    const digest = keccak256(toBytes('a voucher digest'));
    const signature = await account.sign({ hash: digest });
    const script = `
      const secp = require('module').createRequire(${JSON.stringify(join(FUNC, 'entry.js'))})('secp256k1/bindings.js');
      const sig = Buffer.from(${JSON.stringify(signature.slice(2, 130))}, 'hex');
      const key = secp.ecdsaRecover(sig, ${Number.parseInt(signature.slice(130), 16) - 27}, Buffer.from(${JSON.stringify(digest.slice(2))}, 'hex'), false);
      console.log(Buffer.from(key).toString('hex'));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: FUNC });
    expect(`0x${stdout.trim()}`).toBe(account.publicKey);
  });

  it('prerenders /openapi.json as a static file equal to what the contract generates', () => {
    expect(JSON.parse(readFileSync(join(OUTPUT, 'static', 'openapi.json'), 'utf8'))).toEqual(openApiDocument());
  });

  it('puts no shard under static/, by path or by content', () => {
    const staticFiles = filesUnder(join(OUTPUT, 'static'));
    expect(staticFiles.filter((f) => /shards|private|series|insurers/.test(relative(OUTPUT, f)))).toEqual([]);
    const shardHashes = new Set(filesUnder(join(SHARDS, 'private')).map(sha));
    expect(staticFiles.filter((f) => shardHashes.has(sha(f)))).toEqual([]);
    for (const f of staticFiles) expect(readFileSync(f, 'utf8')).not.toContain('"snapshots"');
  });

  it('serves no priced figure in any static file but the statewide headlines the snapshot pages show and cite', async () => {
    expect(priced.size).toBeGreaterThan(20); // the check has figures to look for
    const staticFiles = filesUnder(join(OUTPUT, 'static'));
    expect(staticFiles.length).toBeGreaterThan(0);
    const restore = serveShards(SHARDS);
    const shown = await snapshotFigures();
    restore();
    for (const f of staticFiles) {
      const path = `/${relative(join(OUTPUT, 'static'), f)}`;
      expect(leakedFigures(path, readFileSync(f, 'utf8'), priced, shown), path).toEqual([]);
    }
    // The pages do show priced figures: the exception above has something to judge.
    expect(
      pricedFiguresIn(readFileSync(join(OUTPUT, 'static', 'snapshots', 'index.html'), 'utf8'), priced).length,
    ).toBeGreaterThan(0);
  });

  it('prerenders every snapshot page, its CSV, the index, the feed and the sitemap as static files, served before the function', async () => {
    const restore = serveShards(SHARDS);
    const months = (await allSnapshots()).map((s) => s.month);
    restore();
    expect(months.length).toBeGreaterThan(50);
    const files = [
      'index.html',
      'snapshots/index.html',
      'snapshots/feed.xml',
      'sitemap.xml',
      'robots.txt',
      'favicon.svg',
      'llms.txt',
    ];
    for (const m of months) files.push(`snapshots/${m}/index.html`, `snapshots/${m}/figures.csv`);
    expect(files.filter((f) => !existsSync(join(OUTPUT, 'static', f)))).toEqual([]);
    // Vercel serves a static file when its `filesystem` phase comes before every route to a function.
    const routes = vercelRoutes();
    const filesystem = routes.findIndex((r) => r.handle === 'filesystem');
    expect(filesystem).toBeGreaterThanOrEqual(0);
    expect(routes.slice(0, filesystem).filter((r) => r.dest !== undefined && !r.dest.startsWith('/'))).toEqual([]);
    // And by the routes, each of these files is what its own path answers.
    const paths = staticPaths();
    // The feed goes as Atom, not as the application/xml its extension would give it.
    const headersOf = (f: string) =>
      f === 'snapshots/feed.xml' ? { 'content-type': 'application/atom+xml; charset=utf-8' } : {};
    for (const f of files)
      expect(resolveRequest(routes, paths, 'GET', `/${f}`), f).toEqual({
        to: 'static',
        file: `/${f}`,
        headers: headersOf(f),
      });
    for (const page of ['/', '/snapshots/', `/snapshots/${months[0]}/`])
      expect(resolveRequest(routes, paths, 'GET', page), page).toEqual({
        to: 'static',
        file: `${page}index.html`,
        headers: {},
      });
  });

  it("serves every canonical free query, GET and HEAD, from a static file with the function's very bytes and headers", async () => {
    const restore = serveShards(SHARDS);
    const targets = freeTargets(); // what the integration wrote files for: one list, api/prepared.ts
    restore();
    const states = JSON.parse(readFileSync(join(SHARDS, 'free', 'coverage.json'), 'utf8')).length;
    // the free routes, the bulk files' data package and the publications feed, lines, sample and publications of each state, and the sample as CSV (default state and each)
    expect(targets.length).toBe(7 + 3 * states + 1 + states);
    const requests = targets.flatMap((path) => ['GET', 'HEAD'].map((method) => ({ method, path })));
    const out = await callFunction({}, requests);
    const routes = vercelRoutes();
    const paths = staticPaths();
    const served = new Set<string>();
    for (const { method, path } of requests) {
      const what = `${method} ${path}`;
      const answer = out[method === 'GET' ? path : what];
      expect(answer.status, what).toBe(200);
      const resolved = resolveRequest(routes, paths, method, path);
      if (resolved.to !== 'static') throw new Error(`${what} reaches ${JSON.stringify(resolved)}, not a static file`);
      const csv = new URL(path, 'https://x').searchParams.get('format') === 'csv';
      expect(resolved.file, what).toMatch(
        csv ? /^\/_free\/v1\/premium\/sample(?:\/[A-Z]{2})?\.csv$/ : /^\/_free\/v1\/[a-z/]+(?:\/[A-Z]{2})?\.json$/,
      );
      served.add(resolved.file);
      // The file's bytes are the function's answer to GET (HEAD has no body, and the same headers).
      expect(
        readFileSync(join(OUTPUT, 'static', resolved.file)).equals(Buffer.from(out[path].body, 'utf8')),
        what,
      ).toBe(true);
      expect(resolved.headers, what).toEqual(withoutLength(answer.headers));
      expect(resolved.headers, what).toMatchObject({
        'content-type': csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=3600',
        'access-control-allow-origin': '*',
        'access-control-expose-headers': expect.stringContaining('PAYMENT-REQUIRED'),
      });
    }
    // One file per canonical query, and no other file under _free/.
    expect(served.size).toBe(targets.length);
    expect([...paths].filter((p) => p.startsWith('/_free/')).sort()).toEqual([...served].sort());
  });

  it('sends every other request for a free path to the function: other spellings, values, parameters and methods', async () => {
    const restore = serveShards(SHARDS);
    const targets = freeTargets();
    restore();
    const takes = (path: string) => Object.keys(ROUTE_CONTRACTS.find((r) => r.path === path)!.params?.shape ?? {});
    const requests: { method: string; path: string }[] = [
      ...[
        '/v1/lines?state=fl',
        '/v1/lines?state=XX',
        '/v1/lines?state=',
        '/v1/lines?state',
        '/v1/lines',
        '/v1/lines?state=FLA',
        '/v1/lines?state=xFL',
        '/v1/lines?state=%20FL',
        '/v1/lines?STATE=FL',
        '/v1/lines?state=FL&line=x',
        '/v1/lines?line=x&state=FL',
        '/v1/premium/sample?state=fl',
        '/v1/premium/sample?state=',
        '/v1/premium/sample?granularity=month',
        '/v1/premium/sample?state=FL&format=json',
        '/v1/premium/sample?format=json',
        '/v1/premium/sample?state=FL&format=CSV',
        '/v1/premium/sample?state=FL&format=',
        '/v1/premium/sample?state=fl&format=csv',
        '/v1/lines?state=FL&format=csv',
        '/v1/coverage?format=csv',
        '/v1/publications?state=TX&report_date=2024-01-01',
        '/v1/coverage?state=FL',
        '/v1/coverage?state',
        '/v1/solvency/sample?insurer=x',
        '/v1/coverage/',
        '/v1/lines/?state=FL',
        '/V1/coverage',
        '/v1/Coverage',
        '/V1/LINES?state=FL',
        '//v1/coverage',
        '///v1/coverage',
        '//v1/lines?state=FL',
        '/v1/coverage%2F',
        '/v1/c%6Fverage',
        '/v1/coverage.json',
        '/v1/lines.json?state=FL',
        '/v1/coverage;x',
        '/_free/v1/coverage',
      ].map((path) => ({ method: 'GET', path })),
      // Every canonical query with any parameter its route does not take, with its state in lower case, by any other method.
      ...targets.flatMap((target) => {
        const url = new URL(target, 'https://x');
        const more = KNOWN_PARAMETERS.filter((k) => !takes(url.pathname).includes(k)).map(
          (k) => `${target}${url.search ? '&' : '?'}${k}=x`,
        );
        const lower = url.searchParams.has('state')
          ? [target.replace(/state=([A-Z]{2})/, (_, s: string) => `state=${s.toLowerCase()}`)]
          : [];
        return [
          ...[...more, ...lower].flatMap((path) => ['GET', 'HEAD'].map((method) => ({ method, path }))),
          ...['POST', 'OPTIONS', 'DELETE', 'PUT', 'PATCH'].map((method) => ({ method, path: target })),
        ];
      }),
    ];
    expect(requests.length).toBeGreaterThan(targets.length * 20);
    const routes = vercelRoutes();
    const paths = staticPaths();
    for (const { method, path } of requests) {
      const resolved = resolveRequest(routes, paths, method, path);
      // The function, with no header of a free file's route: it answers in full (400, 404, 405, or the same 200).
      expect({ ...resolved, status: undefined }, `${method} ${path}`).toEqual({
        to: 'function',
        name: '_render',
        headers: {},
      });
    }
    // What no route can see (README, deploy section): a parameter name the API does not know, and a repeated
    // parameter (a route reads its first value). The CDN answers these with the canonical file where the
    // function answers 400.
    const unseen = ['/v1/lines?state=FL&foo=1', '/v1/lines?state=FL&state=TX', '/v1/premium/sample?foo=1'];
    for (const path of unseen) expect(resolveRequest(routes, paths, 'GET', path).to, path).toBe('static');
    const out = await callFunction(
      {},
      unseen.map((path) => ({ method: 'GET', path })),
    );
    expect(unseen.map((path) => out[path].status)).toEqual([400, 400, 400]);
  });

  it("sends a conditional request for a free file to the function, which answers 304 by the API's own ETag; the bulk files are the function's, priced", async () => {
    const restore = serveShards(SHARDS);
    const targets = freeTargets();
    restore();
    const routes = vercelRoutes();
    const paths = staticPaths();
    const first = await callFunction(
      {},
      targets.map((path) => ({ method: 'GET', path })),
    );
    type Conditional = { method: string; path: string; headers: Record<string, string>; key: string };
    const conditional = targets.flatMap((path): Conditional[] => [
      { method: 'GET', path, headers: { 'If-None-Match': first[path].headers.etag }, key: `INM ${path}` },
      {
        method: 'HEAD',
        path,
        headers: { 'If-Modified-Since': first[path].headers['last-modified'] },
        key: `IMS ${path}`,
      },
    ]);
    for (const { method, path, headers } of conditional) {
      const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      expect(resolveRequest(routes, paths, method, path, lower), `${method} ${path} ${Object.keys(headers)}`).toEqual({
        to: 'function',
        name: '_render',
        headers: {},
      });
    }
    const out = await callFunction({}, conditional);
    for (const { key, path } of conditional) {
      expect([out[key].status, out[key].body], key).toEqual([304, '']);
      expect(out[key].headers.etag, key).toBe(first[path].headers.etag);
    }
    // The bulk files: no static file, the function's answer (the gate off here: the file itself).
    const bulk = await callFunction(
      {},
      ['/v1/bulk/premium.csv', '/v1/bulk/premium.parquet'].map((path) => ({ method: 'GET', path })),
    );
    for (const path of ['/v1/bulk/premium.csv', '/v1/bulk/premium.parquet']) {
      expect(resolveRequest(routes, paths, 'GET', path).to, path).toBe('function');
      expect(bulk[path].status, path).toBe(200);
      expect(bulk[path].headers['cache-control'], path).toBe('private, no-store');
    }
  });

  it('carries every shard, byte for byte, inside the function', () => {
    for (const f of filesUnder(SHARDS)) {
      const inFunction = join(FUNC, 'shards', relative(SHARDS, f));
      expect(existsSync(inFunction), relative(ROOT, inFunction)).toBe(true);
      expect(sha(inFunction)).toBe(sha(f));
    }
  });

  it('answers free and priced routes from inside the function folder, as Vercel runs it', async () => {
    const out = await callFunction({});
    expect(out['/v1/coverage'].status).toBe(200);
    expect(out['/v1/coverage'].body).toBe(readFileSync(join(SHARDS, 'free', 'coverage.json'), 'utf8'));
    expect(out['/v1/lines?state=TX'].status).toBe(200);
    expect(out['/v1/lines?state=TX'].body).toBe(readFileSync(join(SHARDS, 'free', 'lines', 'TX.json'), 'utf8'));
    expect(out['/v1/premium/sample?state=TX'].body).toBe(
      readFileSync(join(SHARDS, 'free', 'sample', 'TX.json'), 'utf8'),
    );
    // Priced answers need the private shards, which only the function carries.
    const months = JSON.parse(
      readFileSync(join(SHARDS, 'private', 'series', 'TX', 'all', 'month.json'), 'utf8'),
    ).rows.map((r: { period: string }) => r.period);
    expect(months.length).toBeGreaterThan(0);
    expect(out['/v1/premium?state=TX'].status).toBe(200);
    expect(JSON.parse(out['/v1/premium?state=TX'].body).data.map((r: { period: string }) => r.period)).toEqual(months);
    expect(out['/v1/compare?states=TX,FL'].status).toBe(200);
    expect(JSON.parse(out['/v1/compare?states=TX,FL'].body).series.TX.map((r: { period: string }) => r.period)).toEqual(
      months,
    );
    expect(out['/v1/premium/summary?state=TX&year=2024'].status).toBe(200);
    // SLTX's twelve 2024 eNews each print an exact policy count: the year is the sum of its months.
    expect(JSON.parse(out['/v1/premium/summary?state=TX&year=2024'].body)).toMatchObject({
      basis: 'monthly_sum',
      months_available: 12,
    });
    // FL's only published ranking is for 2024-H1, neither a month nor a year: the endpoint answers 404.
    expect(out['/v1/insurers?state=FL&period=2024'].status).toBe(404);
    expect(JSON.parse(out['/v1/insurers?state=FL&period=2024'].body).error.message).toContain('2024-H1');
  });

  it("declares Vercel's cron for the prepaid channels' claims, routed to the function, which refuses it without CRON_SECRET or with another secret", async () => {
    const config = JSON.parse(readFileSync(join(OUTPUT, 'config.json'), 'utf8')) as {
      crons?: { path: string; schedule: string }[];
      routes: VercelRoute[];
    };
    expect(config.crons).toEqual([{ path: '/cron/claims', schedule: '0 * * * *' }]);
    expect(config.routes.find((r) => r.src && new RegExp(r.src).test('/cron/claims'))).toMatchObject({
      dest: '_render',
    });
    const requests = [
      { key: 'none', method: 'GET', path: '/cron/claims' },
      { key: 'wrong', method: 'GET', path: '/cron/claims', headers: { authorization: 'Bearer not-the-secret' } },
      { key: 'right', method: 'GET', path: '/cron/claims', headers: { authorization: 'Bearer s3cret-for-cron' } },
    ];
    const unset = await callFunction({}, requests);
    expect(unset.none.status).toBe(503);
    expect(JSON.parse(unset.right.body).error.message).toContain('CRON_SECRET');
    const set = await callFunction({ CRON_SECRET: 's3cret-for-cron' }, requests);
    expect([set.none.status, set.wrong.status]).toEqual([401, 401]);
    expect(set.wrong.headers['www-authenticate']).toBe('Bearer');
    // The right secret with the gate off: a run with nothing to claim, said so.
    expect(set.right.status).toBe(200);
    expect(JSON.parse(set.right.body)).toMatchObject({
      claims: [],
      refunds: [],
      note: expect.stringContaining('X402_PAY_TO'),
    });
  });

  it('routes /mcp to the function, and the function answers MCP: tools/list, a free tool, a priced tool (terms when the gate is on), GET 405', async () => {
    const routes = (
      JSON.parse(readFileSync(join(OUTPUT, 'config.json'), 'utf8')) as {
        routes: { src?: string; dest?: string; status?: number }[];
      }
    ).routes;
    const first = routes.find((r) => r.src && new RegExp(r.src).test('/mcp'));
    expect(first).toMatchObject({ dest: '_render' });
    expect(first!.status).toBeUndefined();

    const rpc = (key: string, method: string, params?: unknown) => ({
      key,
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
    });
    const requests = [
      rpc('list', 'tools/list'),
      rpc('sample', 'tools/call', { name: 'get_premium_sample', arguments: { state: 'TX' } }),
      rpc('premium', 'tools/call', { name: 'get_premium', arguments: { state: 'TX' } }),
      { method: 'GET', path: '/mcp' },
    ];
    const facilitator = await serveFacilitator(verifyOnlyFacilitator()); // a MOCK facilitator: only the terms are needed here
    try {
      for (const gateOn of [false, true]) {
        const out = await callFunction(
          gateOn
            ? { X402_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', X402_FACILITATOR_URL: facilitator.url }
            : {},
          requests,
        );
        expect(
          JSON.parse(out.list.body)
            .result.tools.map((t: { name: string }) => t.name)
            .sort(),
        ).toEqual(TOOL_ROUTES.map((r) => r.operationId).sort());
        const sample = JSON.parse(out.sample.body).result;
        expect(sample.structuredContent).toEqual(
          JSON.parse(readFileSync(join(SHARDS, 'free', 'sample', 'TX.json'), 'utf8')),
        );
        const premium = JSON.parse(out.premium.body).result;
        if (gateOn) {
          expect(premium).toMatchObject({
            isError: true,
            structuredContent: { x402Version: 2, accepts: [{ payTo: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' }] },
          });
          expect(pricedFiguresIn(out.premium.body, priced)).toEqual([]);
        } else expect(premium.structuredContent.data.length).toBeGreaterThan(0);
        expect(out['/mcp'].status).toBe(405);
      }
    } finally {
      await facilitator.stop();
    }
  });

  it("routes /.well-known/x402 to the function, which answers the document of the build's site with the free routes' headers (the Node server's bytes); with the gate on, its resources reach the 402 it states", async () => {
    const routes = vercelRoutes();
    const paths = staticPaths();
    // No static file and no header rule: every method reaches the function, which answers in full.
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST'])
      expect(resolveRequest(routes, paths, method, WELL_KNOWN_X402_PATH), method).toEqual({
        to: 'function',
        name: '_render',
        headers: {},
      });
    const site = process.env.SITE_URL ?? 'http://127.0.0.1:4321'; // astro.config.mjs's site, as the build had it
    const requests = ['GET', 'HEAD', 'POST'].map((method) => ({ method, path: WELL_KNOWN_X402_PATH }));
    const out = await callFunction({}, [...requests, { method: 'GET', path: '/v1/coverage' }]);
    const get = out[WELL_KNOWN_X402_PATH];
    expect(get.status).toBe(200);
    // The bytes tests/discovery/http.test.ts finds on the Node server: one generator, the same site and terms.
    expect(get.body).toBe(wellKnownX402Text(site, paymentTerms()));
    expect(get.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    expect(get.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'cdn-cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
    });
    // The free routes' headers, but its own length and ETag (the SHA-256 of its bytes).
    expect(get.headers.etag).toBe(`"${createHash('sha256').update(get.body).digest('hex')}"`);
    expect({ ...withoutLength(get.headers), etag: undefined }).toEqual({
      ...withoutLength(out['/v1/coverage'].headers),
      etag: undefined,
    });
    expect(out[`HEAD ${WELL_KNOWN_X402_PATH}`]).toEqual({ status: 200, headers: get.headers, body: '' });
    expect([out[`POST ${WELL_KNOWN_X402_PATH}`].status, out[`POST ${WELL_KNOWN_X402_PATH}`].headers.allow]).toEqual([
      405,
      'GET, HEAD, OPTIONS',
    ]);

    const facilitator = await serveFacilitator(verifyOnlyFacilitator()); // a MOCK facilitator: only the challenges are needed here
    try {
      const payee = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
      const doc = JSON.parse(
        (await callFunction({ X402_PAY_TO: payee, X402_FACILITATOR_URL: facilitator.url }, [requests[0]]))[
          WELL_KNOWN_X402_PATH
        ].body,
      ) as { resources: string[]; instructions: string };
      expect(doc.instructions).toContain(`paid to ${payee}`);
      const probes = doc.resources.map((url) => ({
        method: 'GET',
        path: `${new URL(url).pathname}${new URL(url).search}`,
        key: url,
      }));
      const answers = await callFunction({ X402_PAY_TO: payee, X402_FACILITATOR_URL: facilitator.url }, probes);
      const coverage = JSON.parse(readFileSync(join(SHARDS, 'free', 'coverage.json'), 'utf8')) as {
        state: string;
        insurer_periods: string[];
      }[];
      for (const url of doc.resources) {
        const { pathname, searchParams } = new URL(url);
        // /v1/insurers ranks only the periods the coverage lists (none in the real data yet): its example is a 404, before payment.
        const ranked =
          pathname !== '/v1/insurers' ||
          coverage
            .find((c) => c.state === searchParams.get('state'))
            ?.insurer_periods.includes(searchParams.get('period')!);
        expect(answers[url].status, url).toBe(ranked ? 402 : 404);
        if (!ranked) continue;
        const [accept] = decodePaymentRequiredHeader(answers[url].headers['payment-required']).accepts;
        expect(doc.instructions, url).toContain(
          `- GET ${url}: ${ROUTE_CONTRACTS.find((r) => r.path === pathname)!.priceUsd} USD (${accept.amount} atomic units).`,
        );
        expect(accept.payTo, url).toBe(payee);
      }
    } finally {
      await facilitator.stop();
    }
  });

  it('with the payment gate on, answers every priced route 402 with {} and no figure, and free routes 200', async () => {
    const facilitator = await serveFacilitator(verifyOnlyFacilitator()); // a MOCK facilitator: only the challenge is needed here
    try {
      const payee = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
      const out = await callFunction({ X402_PAY_TO: payee, X402_FACILITATOR_URL: facilitator.url });
      for (const path of PATHS) {
        const route = ROUTE_CONTRACTS.find((r) => r.path === new URL(path, 'https://x').pathname)!;
        const { status, headers, body } = out[path];
        expect(pricedFiguresIn(body, priced), path).toEqual([]);
        if (!route.priceUsd) expect(status, path).toBe(200);
        else if (path.startsWith('/v1/insurers'))
          expect(status, path).toBe(404); // no ranking: refused before payment
        else {
          expect([status, body], path).toEqual([402, '{}']);
          expect(decodePaymentRequiredHeader(headers['payment-required']).accepts[0]).toMatchObject({
            payTo: payee,
            network: 'eip155:8453',
          });
        }
      }
    } finally {
      await facilitator.stop();
    }
  });

  it('answers every spelling of a path under /v1, for every method, with the JSON error body (as the Node server does)', async () => {
    const out = await callFunction(
      {},
      SPELLINGS.flatMap((path) => METHODS.map((method) => ({ method, path }))),
    );
    for (const path of SPELLINGS) {
      for (const method of METHODS) {
        const { status, headers, body } = out[method === 'GET' ? path : `${method} ${path}`];
        const what = `${method} ${path}`;
        expect(method === 'GET' || method === 'HEAD' ? 404 : 405, what).toBe(status);
        expect(headers['content-type'], what).toMatch(/^application\/json/);
        if (method !== 'HEAD')
          expect(errorBody.strict().parse(JSON.parse(body)).error.code, what).toBe(
            status === 404 ? 'not_found' : 'invalid_request',
          );
      }
    }
    expect(JSON.parse(out['/v1/premium/?state=TX'].body).error.message).toContain("did you mean '/v1/premium'");
  });
});

describe('the function, cold (issue 22; `npm run bench:cold` times the import)', () => {
  it('imports its entry with nothing of the payment stack or the MCP SDK; the gate off, free and priced routes load neither and /mcp the SDK only; the gate on, a priced request loads the payment stack', async () => {
    const entry = join(
      FUNC,
      (JSON.parse(readFileSync(join(FUNC, '.vc-config.json'), 'utf8')) as { handler: string }).handler,
    );
    const tool = (name: string, args: unknown) => ({
      key: name,
      method: 'POST',
      path: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    const off = await fetchRecorded(
      entry,
      [
        { key: 'free', path: '/v1/coverage' },
        { key: 'priced', path: '/v1/premium?state=TX' },
        tool('get_premium', { state: 'TX' }),
      ],
      {
        cwd: FUNC,
        env: { SHARDS_DIR: undefined, X402_PAY_TO: undefined },
      },
    );
    expect(off.imported.some((url) => url.endsWith('/server/entry.mjs'))).toBe(true); // the recorder works
    for (const loaded of [off.imported, off.answers.free.loaded, off.answers.priced.loaded]) {
      expect(packagesMatching(loaded, PAYMENT_STACK)).toEqual([]);
      expect(packagesMatching(loaded, MCP_SDK)).toEqual([]);
    }
    expect([off.answers.free.status, off.answers.priced.status]).toEqual([200, 200]);
    expect(JSON.parse(off.answers.priced.body).data.length).toBeGreaterThan(0);
    expect(JSON.parse(off.answers.get_premium.body).result.structuredContent.data.length).toBeGreaterThan(0);
    expect(packagesMatching(off.answers.get_premium.loaded, MCP_SDK)).toEqual(['@modelcontextprotocol/server']);
    expect(packagesMatching(off.answers.get_premium.loaded, PAYMENT_STACK)).toEqual([]);

    const facilitator = await serveFacilitator(verifyOnlyFacilitator()); // a MOCK facilitator: only the terms are needed here
    try {
      const payee = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
      const on = await fetchRecorded(
        entry,
        [
          { key: 'free', path: '/v1/coverage' },
          { key: 'invalid', path: '/v1/premium?state=TX&granularity=week' },
          { key: 'priced', path: '/v1/premium?state=TX' },
        ],
        {
          cwd: FUNC,
          env: { SHARDS_DIR: undefined, X402_PAY_TO: payee, X402_FACILITATOR_URL: facilitator.url },
        },
      );
      expect([on.answers.free.status, on.answers.invalid.status]).toEqual([200, 400]); // validation before payment
      expect(packagesMatching(on.answers.invalid.loaded, PAYMENT_STACK)).toEqual([]);
      expect([on.answers.priced.status, on.answers.priced.body]).toEqual([402, '{}']);
      expect(decodePaymentRequiredHeader(on.answers.priced.headers['payment-required']).accepts[0]).toMatchObject({
        payTo: payee,
      });
      expect(packagesMatching(on.answers.priced.loaded, PAYMENT_STACK)).toEqual(
        expect.arrayContaining(['@x402/core', '@x402/evm', '@x402/extensions', 'viem']),
      );
      expect(packagesMatching(on.answers.priced.loaded, MCP_SDK)).toEqual([]);
    } finally {
      await facilitator.stop();
    }
  });
});
