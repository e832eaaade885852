// `npm run bench:api`: throughput of the built Node server against the physical limit of this
// machine, a static file of the same size served by the same process. The free sample answers
// precomputed bytes, so it should cost about what a file costs (goal ≥ 0.9×); /v1/premium reads and
// serialises a 20-year monthly series per request (goal ≥ 0.5×), measured with the payment gate off.
// Data: a SYNTHETIC one-state corpus in a temp dir. Not a test: it reports goals, and exits 0 either way.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildShards } from '../ingest/build.ts';
import { generateSynthetic } from './synthetic.ts';
import { ROOT, astroBuild, startServer } from '../tests/support/server.ts';

const STATE = 'FL';
const YEARS = 20;
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = Math.min(2, SECONDS);

// autocannon ships no types: only the fields read here.
interface CannonResult {
  requests: { mean: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Cannon = (opts: { url: string; connections: number; duration: number }) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

/** The body of a 200 answer, or an error naming the URL. */
async function body(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function measure(url: string, duration: number): Promise<CannonResult> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration });
  if (r.non2xx || r.errors || r.timeouts || !r['2xx'])
    throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts, ${r['2xx']} 2xx`);
  return r;
}

const tmp = mkdtempSync(join(tmpdir(), 'slmd-bench-api-'));
// The built server resolves its packages from node_modules, so it is built inside the repo (.tmp/ is ignored).
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dist = mkdtempSync(join(ROOT, '.tmp', 'bench-api-dist-'));
let stop = () => {};
const cleanup = () => {
  stop();
  rmSync(tmp, { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  cleanup();
  process.exit(130);
});

try {
  if (!(SECONDS > 0)) throw new Error(`BENCH_SECONDS must be a positive number of seconds, got '${process.env.BENCH_SECONDS}'`);
  if (!(ROUNDS >= 1)) throw new Error(`BENCH_ROUNDS must be at least 1, got '${process.env.BENCH_ROUNDS}'`);
  const data = join(tmp, 'data-SYNTHETIC');
  const shards = join(tmp, 'shards');
  generateSynthetic(data, { states: [STATE], lines: 0, years: YEARS, vintages: 1 });
  const built = buildShards(data, shards);
  console.log(`SYNTHETIC corpus: 1 state (${STATE}), ${YEARS * 12} monthly reports, ${built.figures} figures, ${built.files} shard files`);
  console.log('building the Node server (astro build) ...');
  try {
    astroBuild({ ASTRO_OUT_DIR: dist, DEPLOY_TARGET: 'node' });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`astro build failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
  delete process.env.X402_PAY_TO; // the gate is on only when this is set: measure with it off
  const server = await startServer(join(dist, 'server', 'entry.mjs'), { SHARDS_DIR: shards });
  stop = server.stop;

  const sampleUrl = `${server.base}/v1/premium/sample?state=${STATE}`;
  const premiumUrl = `${server.base}/v1/premium?state=${STATE}`;
  const sampleBody = await body(sampleUrl);
  const premiumBody = await body(premiumUrl);
  const rows = (b: Uint8Array) => (JSON.parse(new TextDecoder().decode(b)) as { data: unknown[] }).data.length;
  if (rows(sampleBody) !== 13 || rows(premiumBody) !== YEARS * 12)
    throw new Error(`expected 13 sample rows and ${YEARS * 12} series rows, got ${rows(sampleBody)} and ${rows(premiumBody)}`);
  // The same bytes as files, so each route is compared with a file of exactly its size.
  writeFileSync(join(dist, 'client', 'bench-static-premium.json'), premiumBody);
  writeFileSync(join(dist, 'client', 'bench-static-sample.json'), sampleBody);
  const staticPremiumUrl = `${server.base}/bench-static-premium.json`;
  const staticSampleUrl = `${server.base}/bench-static-sample.json`;
  for (const [url, bytes] of [[staticPremiumUrl, premiumBody.length], [staticSampleUrl, sampleBody.length]] as const) {
    const got = (await body(url)).length;
    if (got !== bytes) throw new Error(`${url} served ${got} bytes, expected ${bytes}`);
  }

  console.log(
    `measuring: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds of ${SECONDS} s per target, ` +
      `each route right after its static file (the machine is shared: medians of the rounds are reported), node ${process.version}, X402_PAY_TO unset (gate off)`,
  );
  // Pairs: a route and the static file of its size, measured back to back in every round.
  const pairs = [
    { file: { label: 'static file, sample size', url: staticSampleUrl }, route: { label: 'GET /v1/premium/sample (free)', url: sampleUrl }, bytes: sampleBody.length, goal: 0.9 },
    { file: { label: 'static file, series size', url: staticPremiumUrl }, route: { label: 'GET /v1/premium 240 months (priced)', url: premiumUrl }, bytes: premiumBody.length, goal: 0.5 },
  ];
  for (const { file, route } of pairs) for (const url of [file.url, route.url]) await measure(url, WARMUP_SECONDS);
  const runs = pairs.map(() => ({ file: [] as CannonResult[], route: [] as CannonResult[] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { file, route }] of pairs.entries()) {
      runs[i].file.push(await measure(file.url, SECONDS));
      runs[i].route.push(await measure(route.url, SECONDS));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const row = (label: string, bytes: number, rs: CannonResult[], ratio: string) =>
    `${label.padEnd(36)} ${String(bytes).padStart(8)} ${median(rs.map((r) => r.requests.mean)).toFixed(0).padStart(9)} ` +
    `${median(rs.map((r) => r.latency.p50)).toFixed(0).padStart(8)} ${median(rs.map((r) => r.latency.p99)).toFixed(0).padStart(8)} ${ratio}`;
  console.log(`\n${'target'.padEnd(36)} ${'bytes'.padStart(8)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  vs file: median (each round)`);
  const ratios = pairs.map((_, i) => runs[i].route.map((r, k) => r.requests.mean / runs[i].file[k].requests.mean));
  for (const [i, pair] of pairs.entries()) {
    console.log(row(pair.file.label, pair.bytes, runs[i].file, '  1.00×'));
    console.log(row(pair.route.label, pair.bytes, runs[i].route, `  ${median(ratios[i]).toFixed(2)}× (${ratios[i].map((r) => r.toFixed(2)).join(', ')})`));
  }
  console.log('');
  for (const [i, pair] of pairs.entries()) {
    const ratio = median(ratios[i]);
    console.log(`goal: ${pair.route.label.padEnd(36)} ≥ ${pair.goal.toFixed(2)}× its static file: ${ratio.toFixed(2)}× → ${ratio >= pair.goal ? 'met' : 'NOT MET'}`);
  }
} catch (e) {
  cleanup();
  throw e;
}
cleanup();
