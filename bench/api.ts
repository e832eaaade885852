// `npm run bench:api`: throughput and latency of the built Node server against the raw limit of this
// machine, measured in the same run: a node:net server (bench/ceiling-server.ts, its own process, as the
// built server is) that only finds where each request ends and writes the very bytes the built server
// wrote for it, status line and headers included (captured off a socket). Rounds alternate server and
// ceiling, so machine noise hits both alike; medians of the rounds are reported. Routes: the free sample
// and coverage (precomputed bytes: goal ≥ 0.9× the ceiling), /v1/premium and the summary with the payment
// gate off (kept once computed: goal ≥ 0.7×), p99 within 2× the ceiling's; a conditional request answered 304
// (the sample's CSV with its ETag: goal ≥ 0.9×); and MCP (POST /mcp): tools/list,
// a free tool and a priced one with the gate off, each in a 2025 revision and in 2026-07-28 (its envelope in
// `_meta`, its headers repeating the body): the fast path's kept answers, api/mcp/fast.ts: goal ≥ 0.8× for both
// eras; their p99 is reported, no goal set.
// Data: a SYNTHETIC one-state corpus in a temp dir. Not a test: it reports goals, and exits 0 either way.
// With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers them).
import { buildNodeServer, cpuMs } from './run.ts';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildShards } from '../ingest/build.ts';
import { generateSynthetic } from './synthetic.ts';
import { parseResponse, rawExchange, rawRequestBytes } from '../tests/support/raw-http.ts';
import { envelopeOf, headersOf } from '../tests/support/mcp-2026.ts';
import { ROOT, startServer } from '../tests/support/server.ts';

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface ApiResult {
  connections: number;
  label: string;
  bytes: number;
  reqs: number;
  ceilingReqs: number;
  ratio: number;
  rounds: number[];
  /** The ceiling's req/s in each round: how much the machine itself varied. */
  ceilingRounds: number[];
  p50: number;
  p99: number;
  ceilingP99: number;
  cpuUsPerRequest: number | null;
  ceilingCpuUsPerRequest: number | null;
  goal: number | null;
  /** Whether the goal also holds p99 within 2× the ceiling's (the REST routes; MCP's goal is the ratio alone). */
  p99Goal: boolean;
  met: boolean | null;
}
export interface ApiReport {
  node: string;
  seconds: number;
  rounds: number;
  corpus: string;
  results: ApiResult[];
}

const STATE = 'FL';
const YEARS = 20;
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '32,64').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** What a 2026-07-28 request carries in `_meta`: its version, the client's capabilities and identity. */
const ENVELOPE = envelopeOf('bench-api');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** Only the targets whose label contains this (all when unset). */
const ONLY = process.env.BENCH_ONLY;
const WARMUP_SECONDS = Math.min(2, SECONDS);

// autocannon ships no types: only the fields read here.
interface CannonResult {
  requests: { mean: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  '3xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Cannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}) => Promise<CannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Cannon;

/** What is measured: a request, and the ratio to the ceiling it should reach (null: none set). */
interface Target {
  label: string;
  target: string;
  goal: number | null;
  /** The goal also holds p99 within 2× the ceiling's (default true). */
  p99Goal?: boolean;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** The answer expected: 200 (default), or 304 for a conditional request naming the answer's ETag. */
  status?: 200 | 304;
}

async function measure(
  base: string,
  t: Target,
  duration: number,
  connections: number,
  pid?: number,
): Promise<CannonResult & { cpuUsPerRequest: number | null }> {
  const url = base + t.target;
  const cpuBefore = cpuMs(pid);
  const r = await autocannon({
    url,
    connections,
    duration,
    method: t.method ?? 'GET',
    ...(t.body ? { body: t.body } : {}),
    ...(t.headers ? { headers: t.headers } : {}),
  });
  // Every answer of the expected class: 2xx, or for a conditional request 3xx (autocannon counts 3xx among non2xx too).
  const expected = t.status === 304 ? r['3xx'] : r['2xx'];
  const unexpected = t.status === 304 ? r['2xx'] + r.non2xx - r['3xx'] : r.non2xx;
  if (unexpected || r.errors || r.timeouts || !expected)
    throw new Error(
      `${url}: ${r.errors} errors, ${r.timeouts} timeouts, ${r['2xx']} 2xx, ${r['3xx']} 3xx, ${r.non2xx} non-2xx ` +
        `(expected ${t.status ?? 200})`,
    );
  const cpuAfter = cpuMs(pid);
  return {
    ...r,
    cpuUsPerRequest: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / expected,
  };
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
  if (!(SECONDS > 0))
    throw new Error(`BENCH_SECONDS must be a positive number of seconds, got '${process.env.BENCH_SECONDS}'`);
  if (!(ROUNDS >= 1)) throw new Error(`BENCH_ROUNDS must be at least 1, got '${process.env.BENCH_ROUNDS}'`);
  const data = join(tmp, 'data-SYNTHETIC');
  const shards = join(tmp, 'shards');
  generateSynthetic(data, { states: [STATE], lines: 0, years: YEARS, vintages: 1 });
  const built = buildShards(data, shards);
  console.log(
    `SYNTHETIC corpus: 1 state (${STATE}), ${YEARS * 12} monthly reports, ${built.figures} ` +
      `figures, ${built.files} shard files`,
  );
  console.log('building the Node server (astro build) ...');
  const entry = buildNodeServer(dist);
  delete process.env.X402_PAY_TO; // the gate is on only when this is set: measure with it off
  const server = await startServer(entry, { SHARDS_DIR: shards });
  stop = server.stop;

  const coverage = (await (await fetch(`${server.base}/v1/coverage`)).json()) as {
    period_types: { month?: { to: string } };
  }[];
  const lastYear = Number(coverage[0].period_types.month!.to.slice(0, 4)) - 1;
  /**
   * An MCP request in a 2025 revision, or (`modern`) in 2026-07-28: the envelope in `_meta`, the headers it requires.
   */
  const mcp = (label: string, method: string, params?: Record<string, unknown>, modern = false): Target => ({
    label: `MCP ${modern ? '2026-07-28' : '2025'} ${label}`,
    target: '/mcp',
    goal: 0.8,
    p99Goal: false,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(modern ? headersOf(method, params) : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      ...(modern ? { params: { ...params, _meta: ENVELOPE } } : params ? { params } : {}),
    }),
  });
  const mcpCall = (label: string, name: string, args: Record<string, unknown>, modern = false) =>
    mcp(label, 'tools/call', { name, arguments: args }, modern);
  const mcpTargets = (modern: boolean) => [
    mcp('tools/list', 'tools/list', undefined, modern),
    mcpCall('get_premium_sample (free)', 'get_premium_sample', { state: STATE }, modern),
    mcpCall('get_summary (priced)', 'get_summary', { state: STATE, year: lastYear }, modern),
  ];
  const allRoutes: Target[] = [
    { label: 'GET /v1/premium/sample (free)', target: `/v1/premium/sample?state=${STATE}`, goal: 0.9 },
    { label: 'GET /v1/coverage (free)', target: '/v1/coverage', goal: 0.9 },
    // An agent re-checking what it holds: the sample's CSV asked with its ETag, answered 304 by the raw
    // front.
    {
      label: 'GET /v1/premium/sample?format=csv, If-None-Match (304)',
      target: `/v1/premium/sample?state=${STATE}&format=csv`,
      goal: 0.9,
      status: 304,
      headers: {
        'If-None-Match': (await fetch(`${server.base}/v1/premium/sample?state=${STATE}&format=csv`)).headers.get(
          'etag',
        )!,
      },
    },
    { label: `GET /v1/premium 240 months (priced)`, target: `/v1/premium?state=${STATE}`, goal: 0.7 },
    {
      label: 'GET /v1/premium/summary (priced)',
      target: `/v1/premium/summary?state=${STATE}&year=${lastYear}`,
      goal: 0.7,
    },
    ...mcpTargets(false),
    ...mcpTargets(true),
  ];
  const routes = ONLY ? allRoutes.filter((r) => r.label.includes(ONLY)) : allRoutes;
  if (!routes.length)
    throw new Error(`BENCH_ONLY '${ONLY}' names none of: ${allRoutes.map((r) => r.label).join('; ')}`);
  // The ceiling answers each request with the very bytes the server wrote, read off a socket: asked twice,
  // the server must give the same bytes but its Date (the second time an MCP answer is a kept one).
  const port = Number(new URL(server.base).port);
  const requestOf = (r: Target, host: string) =>
    rawRequestBytes(r.method ?? 'GET', r.target, host, Object.entries(r.headers ?? {}), r.body);
  const withoutDate = (raw: Buffer) => raw.toString('latin1').replace(/\r\nDate: [^\r]*/, '');
  const captured = [];
  for (const r of routes) {
    const raw = await rawExchange(port, requestOf(r, `127.0.0.1:${port}`));
    const { statusLine, body } = parseResponse(raw);
    const status = r.status === 304 ? 'HTTP/1.1 304 Not Modified' : 'HTTP/1.1 200 OK';
    if (statusLine !== status || body.includes('"isError":true'))
      throw new Error(`${r.label} answered ${statusLine}: ${body.toString('utf8').slice(0, 300)}`);
    const again = await rawExchange(port, requestOf(r, `127.0.0.1:${port}`));
    if (withoutDate(again) !== withoutDate(raw))
      throw new Error(`${r.label}: the server's second answer is not the same bytes as its first`);
    captured.push({
      key: `${r.method ?? 'GET'} ${r.target} ${r.body ?? ''}`,
      raw: raw.toString('base64'),
      bytes: body.length,
    });
  }
  const answersFile = join(tmp, 'ceiling-answers.json');
  writeFileSync(answersFile, JSON.stringify(captured));
  const ceiling = spawn(process.execPath, [join(ROOT, 'bench', 'ceiling-server.ts'), answersFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stopServer = stop;
  stop = () => {
    stopServer();
    ceiling.kill();
  };
  const ceilingPort = await new Promise<number>((resolve, reject) => {
    ceiling.stdout.on('data', (chunk: Buffer) => {
      const m = chunk.toString().match(/ready (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    ceiling.once('exit', (code) => reject(new Error(`the ceiling server exited (${code})`)));
  });
  const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
  for (const [i, r] of routes.entries()) {
    const got = await rawExchange(ceilingPort, requestOf(r, `127.0.0.1:${ceilingPort}`));
    if (got.toString('base64') !== captured[i].raw)
      throw new Error(`the ceiling does not answer ${r.label} with the server's bytes`);
  }

  console.log(
    `measuring: ${CONNECTIONS.join(' and ')} connections, ${WARMUP_SECONDS} s warm-up, then ${ROUNDS} rounds ` +
      `of ${SECONDS} s per target, ` +
      `server and ceiling (raw node:net, the server's own bytes) alternating (medians of the rounds), ` +
      `node ${process.version}, X402_PAY_TO unset (gate off)`,
  );
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const lines: string[] = [];
  const goals: string[] = [];
  const results: ApiResult[] = [];
  for (const connections of CONNECTIONS) {
    for (const r of routes)
      for (const base of [server.base, ceilingBase]) await measure(base, r, WARMUP_SECONDS, connections);
    for (const [i, r] of routes.entries()) {
      const mine: Awaited<ReturnType<typeof measure>>[] = [];
      const top: Awaited<ReturnType<typeof measure>>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        mine.push(await measure(server.base, r, SECONDS, connections, server.child.pid));
        top.push(await measure(ceilingBase, r, SECONDS, connections, ceiling.pid));
      }
      const cpuOf = (ms: typeof mine) =>
        ms.some((m) => m.cpuUsPerRequest === null) ? null : median(ms.map((m) => m.cpuUsPerRequest!));
      const cpu = cpuOf(mine);
      const ceilingCpu = cpuOf(top);
      const ratios = mine.map((m, k) => m.requests.mean / top[k].requests.mean);
      const ratio = median(ratios);
      const p99 = median(mine.map((m) => m.latency.p99));
      const p99Top = median(top.map((m) => m.latency.p99));
      const bytes = captured[i].bytes;
      const p50 = median(mine.map((m) => m.latency.p50));
      const reqs = median(mine.map((m) => m.requests.mean));
      const ceilingReqs = median(top.map((m) => m.requests.mean));
      lines.push(
        `${String(connections).padStart(4)}  ${r.label.padEnd(36)} ${String(bytes).padStart(8)} ` +
          `${reqs.toFixed(0).padStart(8)} ` +
          `${ceilingReqs.toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(6)}× ` +
          `${p50.toFixed(0).padStart(5)} ${p99.toFixed(0).padStart(5)} ${p99Top.toFixed(0).padStart(5)} ` +
          `${(cpu?.toFixed(0) ?? '-').padStart(6)} ${(ceilingCpu?.toFixed(0) ?? '-').padStart(6)}   ` +
          `(${ratios.map((x) => x.toFixed(2)).join(', ')})`,
      );
      const p99Goal = r.p99Goal ?? true;
      const met = r.goal === null ? null : ratio >= r.goal && (!p99Goal || p99 <= 2 * Math.max(p99Top, 1));
      results.push({
        connections,
        label: r.label,
        bytes,
        reqs,
        ceilingReqs,
        ratio,
        rounds: ratios,
        ceilingRounds: top.map((m) => m.requests.mean),
        p50,
        p99,
        ceilingP99: p99Top,
        cpuUsPerRequest: cpu,
        ceilingCpuUsPerRequest: ceilingCpu,
        goal: r.goal,
        p99Goal,
        met,
      });
      if (r.goal !== null)
        goals.push(
          `goal at ${connections} connections: ${r.label} ≥ ${r.goal.toFixed(2)}× the ` +
            `ceiling${p99Goal ? ', p99 ≤ 2× its' : ''}: ${ratio.toFixed(2)}×, ` +
            `p99 ${p99} vs ${p99Top} ms, CPU ${cpu?.toFixed(0) ?? '-'} vs ${ceilingCpu?.toFixed(0) ?? '-'} µs a ` +
            `request → ${met ? 'met' : 'NOT MET'}`,
        );
    }
  }
  console.log(
    `\nconn  ${'route'.padEnd(36)} ${'bytes'.padStart(8)} ${'req/s'.padStart(8)} ${'ceiling'.padStart(8)} ` +
      `${'ratio'.padStart(7)} ${'p50'.padStart(5)} ${'p99'.padStart(5)} ${'c.p99'.padStart(5)} ` +
      `${'cpu µs'.padStart(6)} ${'c.cpu'.padStart(6)}   ` +
      `(ratio each round; ms; CPU µs a request)`,
  );
  for (const l of lines) console.log(l);
  console.log('');
  for (const g of goals) console.log(g);
  if (process.env.BENCH_JSON) {
    const report: ApiReport = {
      node: process.version,
      seconds: SECONDS,
      rounds: ROUNDS,
      corpus: `SYNTHETIC 1 state (${STATE}), ${built.figures} figures`,
      results,
    };
    writeFileSync(process.env.BENCH_JSON, JSON.stringify(report, null, 1));
  }
} catch (e) {
  cleanup();
  throw e;
}
cleanup();
