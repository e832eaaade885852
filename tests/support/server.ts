// Builds the Node server once into a private folder and runs it on a free loopback port.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export function astroBuild(env: Record<string, string>): void {
  execFileSync('npx', ['astro', 'build'], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
    stdio: 'pipe',
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/**
 * Runs server.ts (what `npm run serve` runs) over the Astro build whose entry is `entry`; with the gate on, in a
 * channels directory of its own unless `env` names one (one server owns a directory at a time).
 */
export async function startServer(
  entry: string,
  env: Record<string, string>,
): Promise<{ base: string; stop: () => void; child: ChildProcess }> {
  const port = await freePort();
  const channels = mkdtempSync(join(tmpdir(), 'slmd-channels-'));
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      ASTRO_ENTRY: entry,
      X402_CHANNELS_DIR: channels,
      ...env,
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${base}/v1/coverage`);
      return { base, stop: () => child.kill(), child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill();
  throw new Error(`server at ${base} did not start`);
}

/**
 * A raw HTTP/1.1 request to `base`, the target exactly as written: for what fetch will not send or would
 * normalise. It fails when no answer has come after `timeoutMs` (a hung request is a defect).
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(new Error(`no answer to ${method} ${path.slice(0, 200)} within ${timeoutMs} ms`)),
    );
    req.on('error', reject);
    req.end();
  });
}
