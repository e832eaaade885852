// `npm run bench`: runs every benchmark, one after another (each alone on the machine), and writes
// docs/benchmarks.md from what they measured: the API against the raw node:net ceiling (free and
// priced routes, MCP tool calls), the paid round trip on the local chain, prepaid channels (a voucher-paid request
// against the gate off and an exact payment, where its time goes, the voucher's signature check alone, 32 payers at
// once), a voucher-paid tool call through the MCP bridge against the same call gate off, the gas a paid answer costs
// on the local chain (exact and batch-settlement), the ingest at three corpus sizes, build times, the Vercel
// function's size and cold import, and the snapshot pages' weights; with the date, the machine and the commit, and a
// line on every goal, met or missed (each benchmark's section: ./all-report.ts). Not a test: it asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildShards } from '../ingest/build.ts';
import { REAL_DATA } from '../tests/support/shards.ts';
import { ROOT, astroBuild } from '../tests/support/server.ts';
import type { ApiReport } from './api.ts';
import {
  type Size,
  apiSection,
  buildsSection,
  channelsSection,
  coldSection,
  gasSection,
  header,
  ingestSection,
  mib,
  pagesSection,
  seconds,
  x402Section,
} from './all-report.ts';
import { type BridgeResult, bridgeSection } from './bridge-report.ts';
import type { ChannelsResult } from './channels-result.ts';
import type { ColdResult } from './cold.ts';
import type { GasResult } from './gas-report.ts';
import type { Corpus } from './ingest.ts';
import type { PagesResult } from './pages.ts';
import type { X402Result } from './x402-report.ts';

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT }).toString().trim();
const commit = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
if (dirty) console.warn('warning: the working tree has uncommitted changes; docs/benchmarks.md will say so');

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const tmp = mkdtempSync(join(ROOT, '.tmp', 'bench-all-'));
/** Runs one benchmark script in its own process, its output shown as it goes, and returns its JSON results. */
function run<T>(script: string, env: Record<string, string> = {}, nodeFlags: string[] = []): T {
  const out = join(tmp, `${script.replace(/\W/g, '_')}.json`);
  console.log(`\n=== ${script} ===`);
  const t = performance.now();
  execFileSync(process.execPath, [...nodeFlags, join(ROOT, 'bench', script)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env, BENCH_JSON: out },
  });
  console.log(`(${script}: ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  return JSON.parse(readFileSync(out, 'utf8')) as T;
}

/** Total bytes and number of files under a folder (symbolic links not followed). */
function sizeOf(dir: string): Size {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    bytes += statSync(join(e.parentPath, e.name)).size;
    files++;
  }
  return { bytes, files };
}

const timed = (f: () => void) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

const started = new Date();
try {
  // Builds first, on the real data: what `npm run build` and `npm run build:vercel` do.
  console.log('=== builds (real data) ===');
  const shards = join(tmp, 'shards');
  const ingestMs = timed(() => buildShards(REAL_DATA, shards));
  const nodeBuildMs = timed(() =>
    astroBuild({ ASTRO_OUT_DIR: join(tmp, 'dist-node'), DEPLOY_TARGET: 'node', SHARDS_DIR: shards }),
  );
  // The Vercel build packs shards/ (the folder it names) into the function, as `npm run build:vercel` does.
  buildShards(REAL_DATA, join(ROOT, 'shards'));
  const vercelBuildMs = timed(() => astroBuild({ ASTRO_OUT_DIR: join(tmp, 'dist-vercel'), DEPLOY_TARGET: 'vercel' }));
  const output = join(ROOT, '.vercel', 'output');
  const fn = sizeOf(join(output, 'functions', '_render.func'));
  const staticFiles = sizeOf(join(output, 'static'));
  console.log(
    `ingest ${seconds(ingestMs)}, astro build (node) ${seconds(nodeBuildMs)}, ` +
      `(vercel) ${seconds(vercelBuildMs)}; function ${mib(fn.bytes)} in ${fn.files} files`,
  );

  // The Vercel function just built, imported cold (bench/cold.ts builds nothing when .vercel/output exists).
  const cold = run<ColdResult>('cold.ts');
  const api = run<ApiReport>('api.ts');
  const x402 = run<X402Result>('x402.ts');
  const channels = run<ChannelsResult>('channels.ts');
  const bridge = run<BridgeResult>('bridge.ts');
  const gas = run<GasResult>('gas.ts');
  const ingest = run<{ corpora: Corpus[] }>('ingest.ts', {}, ['--expose-gc']);
  const pages = run<PagesResult>('pages.ts');

  const md = header(started, commit, dirty);
  const sections = [
    apiSection(api),
    x402Section(x402),
    channelsSection(channels),
    bridgeSection(bridge),
    gasSection(gas),
    ingestSection(ingest.corpora),
    buildsSection({ ingestMs, nodeBuildMs, vercelBuildMs, fn, staticFiles }),
    coldSection(cold),
    pagesSection(pages),
  ];
  const goals: string[] = [];
  for (const section of sections) {
    md.push(...section.md);
    goals.push(...section.goals);
  }
  md.push('## Goals', '', ...goals.map((g) => `- ${g}`), '');
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), md.join('\n'));
  console.log(`\nwrote docs/benchmarks.md (${goals.filter((g) => g.startsWith('**Missed')).length} goal(s) missed)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
