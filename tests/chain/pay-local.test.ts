// scripts/pay-local.mjs pays the server `npm start` runs in the same environment: HOST and PORT as it has them
// (scripts/local-origin.mjs: a wildcard host is called on its loopback, an IPv6 one in brackets), or the full URL it
// is given, and says first which one. A stand-in server that answers 200 records what it is asked (an answer
// without a 402 needs no payment, so no chain either); the payment itself is tests/payment/chain-http.test.ts.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { localOrigin } from '../../scripts/local-origin.mjs';
import { ANVIL_ACCOUNTS } from '../support/chain.ts';
import { ROOT } from '../support/server.ts';

/** A server on `host` (a free port) answering 200 to everything, and the paths it was asked for. */
async function standIn(host: string): Promise<{ port: number; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(req.url!);
    res.end('{}');
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return { port, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Runs pay-local.mjs with `args` in an environment of HOST/PORT (none of the caller's). */
async function payLocal(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ stdout: string[]; stderr: string[] }> {
  const { HOST: _h, PORT: _p, ...rest } = process.env;
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'scripts', 'pay-local.mjs'), ...args],
    {
      cwd: ROOT,
      env: { ...rest, RPC: 'http://127.0.0.1:9', PAYER_KEY: ANVIL_ACCOUNTS[1].privateKey, ...env }, // the RPC is not called: nothing is paid
    },
  );
  return { stdout: stdout.trim().split('\n'), stderr: stderr.trim().split('\n') };
}

describe('the origin of a local server (scripts/local-origin.mjs)', () => {
  it("is npm start's by default, follows HOST and PORT, calls a wildcard host on its loopback, and brackets IPv6", () => {
    expect(localOrigin({})).toBe('http://127.0.0.1:4321');
    expect(localOrigin({ HOST: '', PORT: '' })).toBe('http://127.0.0.1:4321');
    expect(localOrigin({ PORT: '5400' })).toBe('http://127.0.0.1:5400');
    expect(localOrigin({ HOST: '0.0.0.0', PORT: '5400' })).toBe('http://127.0.0.1:5400');
    expect(localOrigin({ HOST: '::', PORT: '5400' })).toBe('http://[::1]:5400');
    expect(localOrigin({ HOST: '[::]' })).toBe('http://[::1]:4321');
    expect(localOrigin({ HOST: '::1' })).toBe('http://[::1]:4321');
    expect(localOrigin({ HOST: 'fd00::7', PORT: '80' })).toBe('http://[fd00::7]:80');
    expect(localOrigin({ HOST: 'localhost' })).toBe('http://localhost:4321');
    expect(localOrigin({ HOST: '192.168.1.20', PORT: '8080' })).toBe('http://192.168.1.20:8080');
  });
});

describe('scripts/pay-local.mjs', () => {
  it('pays /v1/premium?state=TX on PORT (HOST unset: 127.0.0.1; 0.0.0.0: 127.0.0.1), saying so first', async () => {
    const server = await standIn('127.0.0.1');
    try {
      for (const env of [{ PORT: String(server.port) }, { HOST: '0.0.0.0', PORT: String(server.port) }] as Record<
        string,
        string
      >[]) {
        server.asked.length = 0;
        const { stdout, stderr } = await payLocal(env);
        expect(stderr[0]).toBe(`paying http://127.0.0.1:${server.port}/v1/premium?state=TX (batch)`);
        expect(stdout).toEqual(Array(3).fill('200 batch (no transaction: a voucher)'));
        expect(server.asked).toEqual(Array(3).fill('/v1/premium?state=TX'));
      }
    } finally {
      await server.close();
    }
  });

  it('calls a server on :: at [::1]', async (ctx) => {
    const server = await standIn('::1').catch(() => ctx.skip('no IPv6 loopback on this machine'));
    try {
      const { stderr } = await payLocal({ HOST: '::', PORT: String(server.port) }, ['exact']);
      expect(stderr[0]).toBe(`paying http://[::1]:${server.port}/v1/premium?state=TX (exact)`);
      expect(server.asked).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('pays the full URL it is given, whatever PORT says', async () => {
    const server = await standIn('127.0.0.1');
    try {
      const url = `http://127.0.0.1:${server.port}/v1/compare?states=FL,TX`;
      const { stderr } = await payLocal({ PORT: '1' }, ['batch', url]);
      expect(stderr[0]).toBe(`paying ${url} (batch)`);
      expect(server.asked).toEqual(Array(3).fill('/v1/compare?states=FL,TX'));
    } finally {
      await server.close();
    }
  });
});
