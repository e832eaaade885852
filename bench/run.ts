// What the server benchmarks share: a run's scratch folders and the things to stop when it ends (or is
// interrupted), the Node server's build, the paid-path benchmarks' start, and a server process's own CPU time.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildShards } from '../ingest/build.ts';
import { ROOT, astroBuild } from '../tests/support/server.ts';
import { REAL_DATA } from '../tests/support/shards.ts';

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/**
 * CPU time (user + system, ms) a process has used, from /proc (Linux; null elsewhere), counted in 10 ms ticks:
 * summed over many requests it is the server's own work per request, which latency and the req/s ratio cannot
 * show when the load generator on the same 2-core machine is the bottleneck or the host slows the machine.
 */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * A run's folders (`tmp` in the OS temp folder; `dist` for the built server, inside the repo because it resolves
 * its packages from node_modules; .tmp/ is ignored), and `stops`, run last first by `cleanup` (once), which also
 * removes both folders; Ctrl-C cleans up too.
 */
export function benchRun(name: string): {
  tmp: string;
  dist: string;
  stops: (() => unknown)[];
  cleanup(): Promise<void>;
} {
  const tmp = mkdtempSync(join(tmpdir(), `slmd-bench-${name}-`));
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const dist = mkdtempSync(join(ROOT, '.tmp', `bench-${name}-dist-`));
  const stops: (() => unknown)[] = [];
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      for (const stop of stops.reverse()) {
        try {
          await stop();
        } catch (e) {
          console.error('cleanup:', e);
        }
      }
      rmSync(tmp, { recursive: true, force: true });
      rmSync(dist, { recursive: true, force: true });
    })());
  process.once('SIGINT', () => {
    void cleanup().finally(() => process.exit(130));
  });
  return { tmp, dist, stops, cleanup };
}

/**
 * Builds the Node server into `dist` (astro build), a failed build's output as the error; returns the server's entry.
 */
export function buildNodeServer(dist: string, env: Record<string, string> = {}): string {
  try {
    astroBuild({ ASTRO_OUT_DIR: dist, DEPLOY_TARGET: 'node', ...env });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`astro build failed:\n${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`, { cause: e });
  }
  return join(dist, 'server', 'entry.mjs');
}

/**
 * The shell's own payment settings cleared (every server and gate of the run would inherit them), and REAL shards
 * built from data/ in `tmp`; returns the shards' folder. What the paid-path benchmarks share, built server or not.
 */
export function paidShards(tmp: string): string {
  for (const name of Object.keys(process.env))
    if (name.startsWith('X402_') || name.startsWith('CDP_API_KEY') || name === 'REDIS_URL') delete process.env[name];
  const shards = join(tmp, 'shards');
  const built = buildShards(REAL_DATA, shards);
  console.log(
    `REAL data (data/): ${built.publications} publications, ${built.figures} figures, ${built.files} shard files`,
  );
  return shards;
}

/**
 * Where the paid-path benchmarks over HTTP (bench/x402.ts, bench/channels.ts) start: {@link paidShards}, then the
 * Node server built over them in `dist`.
 */
export function paidBenchStart(tmp: string, dist: string): { shards: string; entry: string } {
  const shards = paidShards(tmp);
  console.log('building the Node server (astro build) and starting the local chain ...');
  return { shards, entry: buildNodeServer(dist, { SHARDS_DIR: shards }) };
}
