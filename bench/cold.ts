// `npm run bench:cold`: the Vercel function's cold start. In fresh Node processes, one after another, it imports
// the function's entry (the `handler` of .vercel/output/functions/_render.func/.vc-config.json, from the function's
// own folder, as Vercel runs it) and times that import: what every cold instance pays before its first answer
// (goal ≤ 150 ms). Each process then answers one first request, and the time of each is printed too: a
// free route, a priced route with the gate off, and an MCP tools/list (which loads the MCP SDK on first use).
// Also the function's size (bytes and files). It builds nothing when .vercel/output exists (`npm run build:vercel`
// makes it; `npm run bench` builds first); when it is missing it builds it, and says so. Not a test: it asserts
// nothing.
//   BENCH_COLD_RUNS  fresh processes timed (default 11), after one not counted
//   BENCH_COLD_FUNC  another built function folder to measure, e.g. a copy of an earlier build (never built here)
//   BENCH_JSON       a file to write the results to (see ColdResult; bench/all.ts reads it)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildShards } from '../ingest/build.ts';
import { REAL_DATA } from '../tests/support/shards.ts';
import { ROOT, astroBuild } from '../tests/support/server.ts';

/** The goal: the entry imported in at most this many ms (median). */
export const COLD_IMPORT_GOAL_MS = 150;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** What `npm run bench:cold` measured, as written to BENCH_JSON. */
export interface ColdResult {
  /** The entry, relative to the function's folder. */
  entry: string;
  runs: number;
  /** True when this run had to build .vercel/output first. */
  built: boolean;
  /** `await import(entry)` in a fresh process, ms. */
  importMs: Spread;
  /** A fresh process from spawn to exit (Node's own start, the import, and the three first requests), ms. */
  processMs: Spread;
  /** Each first request's answer, after the import, in the same process, ms. */
  firstMs: Record<'free' | 'priced' | 'mcp', Spread>;
  goalMs: number;
  met: boolean;
  /** Files under the function's folder (symbolic links not followed). */
  size: { bytes: number; files: number; nodeModulesBytes: number; nodeModulesFiles: number; shardsBytes: number };
}

const FUNC = process.env.BENCH_COLD_FUNC
  ? resolve(process.env.BENCH_COLD_FUNC)
  : join(ROOT, '.vercel', 'output', 'functions', '_render.func');
const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 11);
if (!Number.isInteger(RUNS) || RUNS < 1)
  throw new Error(`BENCH_COLD_RUNS: expected a whole number from 1, got '${process.env.BENCH_COLD_RUNS}'`);

const FIRST_REQUESTS = {
  free: { path: '/v1/coverage' },
  priced: { path: '/v1/premium?state=TX' },
  mcp: {
    path: '/mcp',
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  },
} as const;

/** One fresh process: the import timed, then each first request; prints the times as JSON. */
const childScript = (entry: string) => `
  const t0 = performance.now();
  const { default: fn } = await import(${JSON.stringify(pathToFileURL(entry).href)});
  const importMs = performance.now() - t0;
  const firstMs = {};
  for (const [key, { path, ...init }] of Object.entries(${JSON.stringify(FIRST_REQUESTS)})) {
    const t = performance.now();
    const res = await fn.fetch(new Request('https://sl.example' + path, init));
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(key + ': ' + path + ' answered ' + res.status);
    firstMs[key] = performance.now() - t;
  }
  console.log(JSON.stringify({ importMs, firstMs }));`;

/** Total bytes and number of files under a folder (symbolic links not followed). */
function sizeOf(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  if (!existsSync(dir)) return { bytes, files };
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    bytes += statSync(join(e.parentPath, e.name)).size;
    files++;
  }
  return { bytes, files };
}

const spread = (values: number[]): Spread => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted.at(-1)! };
};

let built = false;
if (process.env.BENCH_COLD_FUNC && !existsSync(join(FUNC, '.vc-config.json')))
  throw new Error(`BENCH_COLD_FUNC: no .vc-config.json in ${FUNC}`);
if (!existsSync(join(FUNC, '.vc-config.json'))) {
  console.log(
    'no .vercel/output: building it first, as `npm run build:vercel` does (ingest of data/, then astro build ' +
      'with DEPLOY_TARGET=vercel)',
  );
  buildShards(REAL_DATA, join(ROOT, 'shards'));
  astroBuild({ DEPLOY_TARGET: 'vercel' });
  built = true;
}
const handler = (JSON.parse(readFileSync(join(FUNC, '.vc-config.json'), 'utf8')) as { handler: string }).handler;
const entry = join(FUNC, handler);
// The function reads the shards in its own folder, as on Vercel; the gate is off (the import does not read it).
const env: Record<string, string | undefined> = { ...process.env };
delete env.SHARDS_DIR;
delete env.X402_PAY_TO;

const oneProcess = () => {
  const t = performance.now();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', childScript(entry)], {
    cwd: FUNC,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const processMs = performance.now() - t;
  return {
    ...(JSON.parse(out.toString().trim().split('\n').at(-1)!) as {
      importMs: number;
      firstMs: Record<keyof typeof FIRST_REQUESTS, number>;
    }),
    processMs,
  };
};

console.log(
  `cold start of the Vercel function: ${relative(ROOT, entry)} imported in ${RUNS} fresh processes, one at a ` +
    `time, after one not counted (node ${process.version})`,
);
oneProcess(); // files into the page cache
const samples = Array.from({ length: RUNS }, oneProcess);
const all = sizeOf(FUNC);
const modules = sizeOf(join(FUNC, 'node_modules'));
const result: ColdResult = {
  entry: handler,
  runs: RUNS,
  built,
  importMs: spread(samples.map((s) => s.importMs)),
  processMs: spread(samples.map((s) => s.processMs)),
  firstMs: {
    free: spread(samples.map((s) => s.firstMs.free)),
    priced: spread(samples.map((s) => s.firstMs.priced)),
    mcp: spread(samples.map((s) => s.firstMs.mcp)),
  },
  goalMs: COLD_IMPORT_GOAL_MS,
  met: false,
  size: {
    ...all,
    nodeModulesBytes: modules.bytes,
    nodeModulesFiles: modules.files,
    shardsBytes: sizeOf(join(FUNC, 'shards')).bytes,
  },
};
result.met = result.importMs.median <= COLD_IMPORT_GOAL_MS;

const ms = (s: Spread) => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}-${s.max.toFixed(1)})`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
console.log(
  `import of the entry: median ${ms(result.importMs)}; goal ≤ ${COLD_IMPORT_GOAL_MS} ` +
    `ms: ${result.met ? 'met' : 'MISSED'}`,
);
console.log(`fresh process, spawn to exit: median ${ms(result.processMs)}`);
console.log(
  `first answers after the import: free ${ms(result.firstMs.free)}, priced with the gate ` +
    `off ${ms(result.firstMs.priced)}, MCP tools/list ${ms(result.firstMs.mcp)}`,
);
console.log(
  `function: ${result.size.bytes} bytes (${mib(result.size.bytes)}) in ${result.size.files} files; ` +
    `node_modules ${mib(result.size.nodeModulesBytes)} in ${result.size.nodeModulesFiles} files, ` +
    `shards ${mib(result.size.shardsBytes)}`,
);
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(result, null, 2) + '\n');
