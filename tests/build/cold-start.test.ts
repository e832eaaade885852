// Cold start (issue 22): the Node server loads the payment stack (viem, @x402/*) only when a priced request finds
// the gate on, and the MCP SDK only for /mcp; every answer is still the same. Proven on server.ts over the Node
// build with a recorder preloaded that lists every module the process loads, read after each request. (The
// Vercel function's entry is held to the same in tests/build/vercel.test.ts; `npm run bench:cold` times it.)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configuredSettings } from '../../api/payment/configured.ts';
import { PaymentSettingsError, paymentSettings } from '../../api/payment/settings.ts';
import { serveFacilitator } from '../support/chain.ts';
import { MCP_SDK, PAYMENT_STACK, RECORDER, moduleRecord, packagesMatching } from '../support/loaded-modules.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { FIXTURE_DATA, buildInto } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-cold');
const ENTRY = join(OUT, 'server', 'entry.mjs');
const PAYEE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** The gate itself (api/payment/gate.ts) and what only it loads, beyond the settings' check at start: x402's extensions. */
const GATE = /(\/api\/payment\/gate\.ts$|\/node_modules\/@x402\/extensions\/)/;
const gateOf = (urls: string[]) =>
  urls.filter((url) => GATE.test(url)).map((url) => (url.endsWith('gate.ts') ? 'gate.ts' : '@x402/extensions'));

const rpc = (method: string, params?: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
});

let shards: string;
let facilitator: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node' });
  shards = buildInto(FIXTURE_DATA);
  facilitator = await serveFacilitator(verifyOnlyFacilitator()); // a MOCK facilitator: only the terms are needed here
});
afterAll(() => facilitator?.stop());

/** server.ts over the Node build with the recorder preloaded; `loaded()` lists every module it loaded so far. */
async function recordedServer(env: Record<string, string>) {
  const record = moduleRecord();
  const server = await startServer(ENTRY, {
    SHARDS_DIR: shards,
    NODE_OPTIONS: `--import=${RECORDER}`,
    RECORD_MODULES_TO: record.file,
    ...env,
  });
  return {
    get: (path: string, init?: RequestInit) => fetch(`${server.base}${path}`, init),
    loaded: record.loaded,
    stop: () => {
      server.stop();
      record.dispose();
    },
  };
}

describe('the Node server with the gate off (X402_PAY_TO unset)', () => {
  it('starts and answers free and priced routes with nothing of the payment stack or the MCP SDK loaded; /mcp loads the SDK, still no payment stack', async () => {
    const server = await recordedServer({ X402_PAY_TO: '' });
    try {
      const started = server.loaded();
      // The recorder works: the server's own modules and Astro's build are in the list.
      expect(started.some((url) => url.endsWith('/api/dispatch.ts'))).toBe(true);
      expect(started.some((url) => url.endsWith('/server/entry.mjs'))).toBe(true);
      expect(packagesMatching(started, PAYMENT_STACK)).toEqual([]);
      expect(packagesMatching(started, MCP_SDK)).toEqual([]);

      const free = await server.get('/v1/coverage');
      expect(free.status).toBe(200);
      expect(((await free.json()) as { state: string }[]).map((c) => c.state)).toContain('FL');
      const priced = await server.get('/v1/premium?state=FL');
      expect(priced.status).toBe(200);
      expect(((await priced.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
      expect(packagesMatching(server.loaded(), PAYMENT_STACK)).toEqual([]);
      expect(packagesMatching(server.loaded(), MCP_SDK)).toEqual([]);

      const list = (await (await server.get('/mcp', rpc('tools/list'))).json()) as {
        result: { tools: { name: string }[] };
      };
      expect(list.result.tools.map((t) => t.name)).toContain('get_premium');
      const call = (await (
        await server.get('/mcp', rpc('tools/call', { name: 'get_premium', arguments: { state: 'FL' } }))
      ).json()) as {
        result: { isError?: boolean; structuredContent: { data: unknown[] } };
      };
      expect(call.result.isError).toBeUndefined();
      expect(call.result.structuredContent.data.length).toBeGreaterThan(0);
      expect(packagesMatching(server.loaded(), MCP_SDK)).toEqual(['@modelcontextprotocol/server']);
      expect(packagesMatching(server.loaded(), PAYMENT_STACK)).toEqual([]);
    } finally {
      server.stop();
    }
  });
});

describe('the Node server with the gate on', () => {
  it('loads the gate (x402 resource server) at start, as it owns the channel journal and claims on a timer; the MCP SDK on the first /mcp request', async () => {
    const server = await recordedServer({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: facilitator.url });
    try {
      // A long-lived server loads the payment stack before it listens (a Vercel function, below, on first use):
      // it must own its channel directory (docs/design.md §13) and claim what it holds on a schedule.
      expect(new Set(gateOf(server.loaded()))).toEqual(new Set(['gate.ts', '@x402/extensions']));
      expect((await server.get('/v1/coverage')).status).toBe(200);
      expect((await server.get('/v1/premium?state=FL&granularity=week')).status).toBe(400);
      expect(packagesMatching(server.loaded(), MCP_SDK)).toEqual([]);

      const unpaid = await server.get('/v1/premium?state=FL');
      expect(unpaid.status).toBe(402);
      expect(unpaid.headers.get('payment-required')).toBeTruthy();
      expect(await unpaid.text()).toBe('{}');

      // MCP: the SDK on the first call, and a priced tool's terms from the same gate.
      const call = (await (
        await server.get('/mcp', rpc('tools/call', { name: 'get_premium', arguments: { state: 'FL' } }))
      ).json()) as {
        result: { isError: boolean; structuredContent: { x402Version: number; accepts: { payTo: string }[] } };
      };
      expect(call.result).toMatchObject({
        isError: true,
        structuredContent: {
          x402Version: 2,
          accepts: [
            { scheme: 'exact', payTo: PAYEE },
            { scheme: 'batch-settlement', payTo: PAYEE },
          ],
        },
      });
      expect(packagesMatching(server.loaded(), MCP_SDK)).toEqual(['@modelcontextprotocol/server']);
    } finally {
      server.stop();
    }
  });
});

describe('the native voucher check (api/payment/secp256k1.ts) unable to load', () => {
  it('the Node server with the gate on refuses to start, naming the library and what to do: no slow check stands in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-secp256k1-'));
    const hook = join(dir, 'no-binary.mjs');
    // A platform the package ships no binary for, as the module loader would see it.
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  if (specifier === 'secp256k1/bindings.js') throw new Error('simulated: no native build for this platform');
  return next(specifier, context);
} });`,
    );
    const env = {
      ...process.env,
      ASTRO_ENTRY: ENTRY,
      SHARDS_DIR: shards,
      X402_PAY_TO: PAYEE,
      X402_FACILITATOR_URL: facilitator.url,
      X402_CHANNELS_DIR: join(dir, 'channels'),
      NODE_OPTIONS: `--import=${hook}`,
      PORT: '0',
    };
    const started = await promisify(execFile)(process.execPath, [join(ROOT, 'server.ts')], {
      cwd: ROOT,
      env,
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    rmSync(dir, { recursive: true, force: true });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('Payment gate:');
    expect(started.stderr).toContain(
      'the native secp256k1 library could not load (simulated: no native build for this platform)',
    );
    expect(started.stderr).toContain('no slow fallback');
  });
});

describe('a damaged set-aside file in X402_CHANNELS_DIR', () => {
  it('the Node server with the gate on refuses to start, naming the file and what it should hold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'damaged-set-aside-'));
    writeFileSync(join(dir, 'set-aside.json'), '{"setAside": [{"channelId": "0x1"}]}');
    const env = {
      ...process.env,
      ASTRO_ENTRY: ENTRY,
      SHARDS_DIR: shards,
      X402_PAY_TO: PAYEE,
      X402_FACILITATOR_URL: facilitator.url,
      X402_CHANNELS_DIR: dir,
      PORT: '0',
    };
    const started = await promisify(execFile)(process.execPath, [join(ROOT, 'server.ts')], {
      cwd: ROOT,
      env,
      timeout: 30_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    rmSync(dir, { recursive: true, force: true });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(
      `${join(dir, 'set-aside.json')}: setAside[0]: expected {"channelId": "0x<64 hex>"`,
    );
  });
});

describe('configuredSettings (what the Node server checks at start, before loading settings.ts)', () => {
  it("is settings.ts's own answer: null exactly when X402_PAY_TO is unset or blank, the settings or the same error otherwise", async () => {
    for (const env of [{}, { X402_PAY_TO: '' }, { X402_PAY_TO: '  ' }, { X402_NETWORK: 'eip155:84532' }]) {
      expect(paymentSettings(env), JSON.stringify(env)).toBeNull();
      expect(await configuredSettings(env), JSON.stringify(env)).toBeNull();
    }
    const on = { X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' };
    expect(await configuredSettings(on)).toEqual(paymentSettings(on));
    const bad = { X402_PAY_TO: '0x123' };
    expect(() => paymentSettings(bad)).toThrow(PaymentSettingsError);
    await expect(configuredSettings(bad)).rejects.toThrow(PaymentSettingsError);
  });
});
