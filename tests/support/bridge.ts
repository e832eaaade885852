// The bridge (bridge/cli.mjs, `surplus-lines-mcp`) as an MCP client launches it: spawned over stdio by the MCP SDK's
// own clients (v2 and 1.x), its standard error kept; and a recording proxy between it and the service, so a test
// sees every byte the bridge sends and what it was answered, and can lose an answer on the way.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ROOT } from './server.ts';

export const BRIDGE = join(ROOT, 'bridge', 'cli.mjs');
/**
 * The machine's own Node when it has one (CI's is 20, older than the project's scripts need): the bridge is plain
 * JavaScript so that it runs on any Node the MCP SDK runs on, and the tests run it there.
 */
export const MACHINE_NODE = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;

export interface BridgeClient {
  listTools(): Promise<{
    tools: { name: string; description?: string; inputSchema: unknown; outputSchema?: unknown }[];
  }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  close(): Promise<void>;
  /** What the bridge wrote to standard error so far. */
  stderr(): string;
}

/** Spawns the bridge with `args` and `env` (added to a plain environment), connected to a client of the SDK `sdk`. */
export async function launchBridge(
  sdk: 'v2' | 'v1',
  args: string[],
  env: Record<string, string>,
): Promise<BridgeClient> {
  const params = {
    command: MACHINE_NODE,
    args: [BRIDGE, ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stderr: 'pipe' as const,
  };
  let stderr = '';
  if (sdk === 'v2') {
    const transport = new StdioClientTransport(params);
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'bridge-test', version: '2.0.0' });
    await client.connect(transport);
    return {
      listTools: () => client.listTools(),
      callTool: (p) => client.callTool(p),
      close: () => client.close(),
      stderr: () => stderr,
    };
  }
  const transport = new StdioV1(params);
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new ClientV1({ name: 'bridge-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    listTools: () => client.listTools(),
    callTool: (p) => client.callTool(p),
    close: () => client.close(),
    stderr: () => stderr,
  };
}

/** Runs the bridge once as a command (`refund`, a bad flag): its exit code and both outputs. */
export function runBridge(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(MACHINE_NODE, [BRIDGE, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RecordingProxy {
  /** The proxy's URL for `path` on the target. */
  url(path: string): string;
  /** Every request body sent through it, and every answer body, in order. */
  exchanges: { request: string; response: string }[];
  /** Loses the answer to the next request whose body matches: forwarded and answered by the target, then the connection cut. */
  dropNextAnswer(match: RegExp): void;
  close(): Promise<void>;
}

/** A loopback HTTP proxy to `target` (an origin) that records each exchange's bodies. */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: { request: string; response: string }[] = [];
  let drop: RegExp | null = null;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection' && k !== 'content-length'),
    ) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : request,
    });
    const response = await answer.text();
    exchanges.push({ request, response });
    if (drop?.test(request)) {
      drop = null;
      req.socket.destroy();
      return;
    }
    res.writeHead(
      answer.status,
      Object.fromEntries(
        [...answer.headers].filter(
          ([k]) => k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding',
        ),
      ),
    );
    res.end(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    exchanges,
    dropNextAnswer: (match) => (drop = match),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
