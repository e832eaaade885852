// surplus-lines-mcp (bridge/), driven from outside as an MCP client drives it: the SDK's own clients (v2 and 1.x)
// spawn it over stdio against the built server with the gate on, on the local chain, through a proxy that records
// every byte the bridge sends. Priced calls are paid by the bridge itself: one deposit, then vouchers with no chain
// transaction; the cap refuses before anything is signed; a restart pays from the same channel; the refund returns
// the rest; and the payer's key appears in no output, request, result or file.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BRIDGE,
  MACHINE_NODE,
  type BridgeClient,
  type RecordingProxy,
  launchBridge,
  recordingProxy,
  runBridge,
} from '../support/bridge.ts';
import { type LocalChain, serveFacilitator, startLocalChain } from '../support/chain.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { REAL_DATA, buildInto } from '../support/shards.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-bridge');
const INSPECTOR = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);
const run = promisify(execFile);
const PRICE = 100_000n;

interface Result {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
interface Receipt {
  success: boolean;
  transaction: string;
  extra?: { chargedAmount?: string; channelState?: { chargedCumulativeAmount: string; balance: string } };
}
const receiptOf = (r: Result) => r._meta?.['x402/payment-response'] as Receipt | undefined;

describe('surplus-lines-mcp against the gated server on the local chain', () => {
  let chain: LocalChain;
  let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
  let server: Awaited<ReturnType<typeof startServer>>;
  let proxy: RecordingProxy;
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key).address;
  const stateDir = mkdtempSync(join(tmpdir(), 'bridge-state-'));
  /** Every output of every bridge process and command, searched for the key at the end. */
  const outputs: string[] = [];
  let env: Record<string, string>;
  let args: string[];

  beforeAll(async () => {
    const shards = buildInto(REAL_DATA);
    astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
    chain = await startLocalChain();
    facilitator = await serveFacilitator(chain.facilitator);
    server = await startServer(join(OUT, 'server', 'entry.mjs'), {
      SHARDS_DIR: shards,
      X402_PAY_TO: chain.payee,
      X402_FACILITATOR_URL: facilitator.url,
    });
    proxy = await recordingProxy(server.base);
    await chain.mint(payer, 20_000_000n);
    env = { X402_PAYER_KEY: key };
    args = [
      '--url',
      proxy.url('/mcp'),
      '--rpc-url',
      chain.rpcUrl,
      '--state-dir',
      stateDir,
      '--budget-usd',
      '0.50',
      '--max-deposit-usd',
      '2.00',
    ];
  }, 180_000);
  afterAll(async () => {
    server?.stop();
    await proxy?.close();
    await facilitator?.stop();
    await chain?.stop();
  });

  /** Runs `use` on a bridge launched for it, keeping what it wrote to standard error, and closes it. */
  async function withBridge(
    sdk: 'v1' | 'v2',
    argv: string[],
    environment: Record<string, string>,
    use: (bridge: BridgeClient) => Promise<void>,
  ) {
    const bridge = await launchBridge(sdk, argv, environment);
    try {
      await use(bridge);
    } finally {
      outputs.push(bridge.stderr());
      await bridge.close();
    }
  }
  const facilitatorCalls = () => (facilitator.calls.get('/verify') ?? 0) + (facilitator.calls.get('/settle') ?? 0);
  const block = () => chain.rpc<string>('eth_blockNumber');

  it('lists the remote tools as they are, and wallet_status; answers a free call; pays priced calls: one deposit, then vouchers', async () => {
    await withBridge('v2', args, env, async (bridge) => {
      const remote = new Client({ name: 'direct', version: '1.0.0' });
      await remote.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
      const direct = (await remote.listTools()).tools;
      await remote.close();
      const listed = (await bridge.listTools()).tools;
      expect(listed.map((t) => t.name)).toEqual([...direct.map((t) => t.name), 'wallet_status']);
      expect(listed.slice(0, -1)).toEqual(direct);

      const free = (await bridge.callTool({ name: 'get_coverage', arguments: {} })) as unknown as Result;
      expect(free.isError).toBeFalsy();
      expect(receiptOf(free)).toBeUndefined();

      const first = (await bridge.callTool({ name: 'get_premium', arguments: { state: 'TX' } })) as unknown as Result;
      outputs.push(JSON.stringify(first));
      expect(first.isError).toBeFalsy();
      expect((first.structuredContent as { publications: unknown[] }).publications.length).toBeGreaterThan(0);
      expect(receiptOf(first)).toMatchObject({
        success: true,
        transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        extra: { chargedAmount: String(PRICE) },
      });
      expect(first.content.at(-1)!.text).toMatch(
        /^paid 0\.10 USD from the prepaid channel, with a deposit of 1\.00 USD into it \(transaction 0x[0-9a-f]{64}\); 0\.10 of the 0\.50 USD budget spent$/,
      );

      const [height, calls] = [await block(), facilitatorCalls()];
      for (let i = 2; i <= 3; i++) {
        const paid = (await bridge.callTool({
          name: 'get_summary',
          arguments: { state: 'TX', year: 2021 },
        })) as unknown as Result;
        outputs.push(JSON.stringify(paid));
        expect(paid.isError).toBeFalsy();
        expect(receiptOf(paid)).toMatchObject({
          success: true,
          transaction: '',
          extra: { channelState: { chargedCumulativeAmount: String(BigInt(i) * PRICE) } },
        });
        expect(paid.content.at(-1)!.text).toBe(
          `paid 0.10 USD from the prepaid channel; 0.${i}0 of the 0.50 USD budget spent`,
        );
      }
      expect(await block()).toBe(height);
      expect(facilitatorCalls()).toBe(calls);

      const status = (await bridge.callTool({ name: 'wallet_status', arguments: {} })) as unknown as Result;
      expect(status.structuredContent).toMatchObject({
        payer,
        spent_usd: '0.30',
        budget_usd: '0.50',
        deposit_usd: '1.00',
        channel_balance_usd: '1.00',
        channel_charged_usd: '0.30',
      });
      outputs.push(JSON.stringify(status));
    });
  });

  it('an answer lost after paying: the bridge asks again with the same payment id, and gets the answer charged once', async () => {
    await withBridge('v2', args, env, async (bridge) => {
      proxy.dropNextAnswer(/"x402\/payment"/);
      const sent = proxy.exchanges.length;
      const paid = (await bridge.callTool({ name: 'get_premium', arguments: { state: 'FL' } })) as unknown as Result;
      outputs.push(JSON.stringify(paid));
      expect(paid.isError).toBeFalsy();
      // The service answered twice, the same payment both times: charged once, the receipt the first one's.
      const payments = proxy.exchanges
        .slice(sent)
        .map((e) => /"x402\/payment":(\{.*?"payload":\{.*?\}\})/.exec(e.request)?.[1])
        .filter(Boolean);
      expect(payments).toHaveLength(2);
      expect(payments[0]).toBe(payments[1]);
      expect(receiptOf(paid)).toMatchObject({
        success: true,
        transaction: '',
        extra: { channelState: { chargedCumulativeAmount: String(4n * PRICE) } },
      });
      expect(paid.content.at(-1)!.text).toBe(
        'paid 0.10 USD from the prepaid channel; 0.40 of the 0.50 USD budget spent',
      );
    });
  });

  it('refuses a call past the cap before signing: nothing reaches the service, and the refusal says the cap, the spending and how to raise it', async () => {
    await withBridge('v2', args, env, async (bridge) => {
      for (const spent of ['0.50']) {
        const paid = (await bridge.callTool({ name: 'get_premium', arguments: { state: 'FL' } })) as unknown as Result;
        expect(paid.content.at(-1)!.text).toBe(
          `paid 0.10 USD from the prepaid channel; ${spent} of the 0.50 USD budget spent`,
        );
      }
      const sent = proxy.exchanges.length;
      for (const tool of ['get_premium', 'compare_states']) {
        const refused = (await bridge.callTool({
          name: tool,
          arguments: tool === 'get_premium' ? { state: 'TX' } : { states: 'FL,TX' },
        })) as unknown as Result;
        outputs.push(JSON.stringify(refused));
        expect(refused.isError).toBe(true);
        const { error } = JSON.parse(refused.content[0].text) as { error: { code: string; message: string } };
        expect(error.code).toBe('budget_exceeded');
        expect(error.message).toMatch(
          /^spending cap reached, nothing signed: this call costs 0\.(10|50) USD and 0\.50 of the 0\.50 USD budget is spent \(--budget-usd, counted in this state directory\); to spend more, raise --budget-usd/,
        );
      }
      // compare_states had never been called: its terms came from one unpaid call, and no payment followed it.
      const after = proxy.exchanges.slice(sent);
      expect(after).toHaveLength(1);
      expect(after[0].request).not.toContain('x402/payment');
      const status = (await bridge.callTool({ name: 'wallet_status', arguments: {} })) as unknown as Result;
      expect(status.structuredContent).toMatchObject({ spent_usd: '0.50', channel_charged_usd: '0.50' });
    });
  });

  it('after a restart on the same state directory (raised budget, the SDK 1.x client), pays from the same channel: no second deposit', async () => {
    const raised = args.map((a) => (a === '0.50' ? '1.00' : a));
    await withBridge('v1', raised, env, async (bridge) => {
      expect((await bridge.listTools()).tools.map((t) => t.name)).toContain('get_premium');
      const height = await block();
      const paid = (await bridge.callTool({ name: 'get_premium', arguments: { state: 'TX' } })) as unknown as Result;
      outputs.push(JSON.stringify(paid));
      expect(paid.isError).toBeFalsy();
      expect(receiptOf(paid)).toMatchObject({
        success: true,
        transaction: '',
        extra: { channelState: { chargedCumulativeAmount: String(6n * PRICE) } },
      });
      expect(paid.content.at(-1)!.text).toBe(
        'paid 0.10 USD from the prepaid channel; 0.60 of the 1.00 USD budget spent',
      );
      expect(await block()).toBe(height);
    });
  });

  it('the MCP Inspector CLI, another outside client, lists the tools and gets a paid answer through the bridge', async () => {
    const raised = args.map((a) => (a === '0.50' ? '1.00' : a));
    const inspector = (...method: string[]) =>
      run(
        process.execPath,
        [INSPECTOR, '--cli', '-e', `X402_PAYER_KEY=${key}`, ...method, '--', MACHINE_NODE, BRIDGE, ...raised],
        { timeout: 60_000 },
      ).then(({ stdout, stderr }) => {
        outputs.push(stdout, stderr);
        return JSON.parse(stdout);
      });
    const { tools } = await inspector('--method', 'tools/list');
    expect(tools.at(-1).name).toBe('wallet_status');
    const paid = await inspector('--method', 'tools/call', '--tool-name', 'get_premium', '--tool-arg', 'state=FL');
    expect((paid.structuredContent as { publications: unknown[] }).publications.length).toBeGreaterThan(0);
    expect(paid._meta['x402/payment-response']).toMatchObject({ success: true, transaction: '' });
    expect(paid.content.at(-1).text).toBe('paid 0.10 USD from the prepaid channel; 0.70 of the 1.00 USD budget spent');
  });

  it("refund: the channel's rest goes back to the payer, and the command prints the transaction", async () => {
    const before = await chain.balanceOf(payer);
    const refund = await runBridge(['refund', ...args], env);
    outputs.push(refund.stdout, refund.stderr);
    expect(refund.code, refund.stderr).toBe(0);
    expect(refund.stdout).toMatch(
      new RegExp(
        `^refunded channel 0x[0-9a-f]{64} to ${payer} \\(0\\.30 USD was unspent in the channel\\): transaction 0x[0-9a-f]{64}\n$`,
      ),
    );
    expect(await chain.balanceOf(payer)).toBe(before + 1_000_000n - 7n * PRICE);
  });

  it('two bridges on one state directory, calls at once: the budget holds across both, and each charge is counted once', async () => {
    const sharedKey = generatePrivateKey();
    await chain.mint(privateKeyToAccount(sharedKey).address, 5_000_000n);
    const shared = [
      '--url',
      `${server.base}/mcp`,
      '--rpc-url',
      chain.rpcUrl,
      '--state-dir',
      mkdtempSync(join(tmpdir(), 'bridge-shared-')),
      '--budget-usd',
      '0.50',
    ];
    await withBridge('v2', shared, { X402_PAYER_KEY: sharedKey }, (one) =>
      withBridge('v2', shared, { X402_PAYER_KEY: sharedKey }, async (other) => {
        const calls = [one, other].flatMap((bridge) =>
          ['FL', 'TX', 'FL', 'TX'].map(
            (state) =>
              bridge.callTool({ name: 'get_premium', arguments: { state } }) as Promise<unknown> as Promise<Result>,
          ),
        );
        const results = await Promise.all(calls);
        const paid = results.filter((r) => !r.isError);
        const refused = results
          .filter((r) => r.isError)
          .map((r) => (JSON.parse(r.content[0].text) as { error: { code: string } }).error.code);
        expect(paid).toHaveLength(5);
        expect(refused).toEqual(['budget_exceeded', 'budget_exceeded', 'budget_exceeded']);
        const charged = paid
          .map((r) => BigInt(receiptOf(r)!.extra!.channelState!.chargedCumulativeAmount))
          .sort((a, b) => (a < b ? -1 : 1));
        expect(charged).toEqual([1n, 2n, 3n, 4n, 5n].map((n) => n * PRICE));
        for (const bridge of [one, other]) {
          const status = (await bridge.callTool({ name: 'wallet_status', arguments: {} })) as unknown as Result;
          expect(status.structuredContent).toMatchObject({
            spent_usd: '0.50',
            deposit_usd: '1.00',
            channel_charged_usd: '0.50',
          });
        }
      }),
    );
  });

  it('never shows the key: not in any output, result or request, nor in the state directory', () => {
    const hex = key.slice(2).toLowerCase();
    const files = readdirSync(stateDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
    const everything = [...outputs, ...proxy.exchanges.flatMap((e) => [e.request, e.response]), ...files]
      .join('\n')
      .toLowerCase();
    expect(everything.length).toBeGreaterThan(10_000);
    expect(everything).toContain(payer.toLowerCase().slice(2)); // the search can find what is there
    expect(everything).not.toContain(hex);
    expect(everything).not.toContain(hex.slice(0, 16));
    expect(statSync(stateDir).mode & 0o077).toBe(0);
  });
});
