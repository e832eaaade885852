// surplus-lines-mcp against a hostile service: terms in another asset, on another network, a prepaid channel whose
// least deposit is above --max-deposit-usd, a price above the whole budget. Each is refused with a tool error that
// says why, and the service never receives a payment: the bridge signed nothing. Among offers, only the configured
// network's USDC is paid. The service here is a stand-in MCP server (the v2 SDK's own handler) that offers what a
// test tells it to and records every call.
import { createServer, type Server as HttpServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, createMcpHandler } from '@modelcontextprotocol/server';
import { getDefaultAsset } from '@x402/evm';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBridge, type BridgeClient } from '../support/bridge.ts';

const USDC = getDefaultAsset('eip155:8453').asset;
const PAY_TO = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const offer = (o: Record<string, unknown>) => ({
  scheme: 'exact',
  network: 'eip155:8453',
  asset: USDC,
  amount: '100000',
  payTo: PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2' },
  ...o,
});

/** Each tool's offers, by name. */
const OFFERS: Record<string, Record<string, unknown>[]> = {
  other_asset: [offer({ asset: '0x000000000000000000000000000000000000dEaD' })],
  other_network: [offer({ network: 'eip155:1', asset: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' })],
  deposit_above_max: [
    offer({ scheme: 'batch-settlement', extra: { minDeposit: '10000000', receiverAuthorizer: PAY_TO } }),
  ],
  price_above_budget: [offer({ amount: '5000000' })],
  usdc_among_others: [
    offer({ asset: '0x000000000000000000000000000000000000dEaD' }),
    offer({ network: 'eip155:1' }),
    offer({}),
  ],
};

describe('surplus-lines-mcp refuses hostile terms before signing', () => {
  let http: HttpServer;
  let bridge: BridgeClient;
  /** Every tools/call the stand-in received: its tool and its `_meta`. */
  const calls: { name: string; meta: Record<string, unknown> | undefined }[] = [];

  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({
        tools: Object.keys(OFFERS).map((name) => ({
          name,
          description: `${name}: 0.10 USD`,
          inputSchema: { type: 'object' as const, properties: {} },
        })),
      }));
      server.setRequestHandler('tools/call', (request) => {
        const { name, _meta } = request.params;
        calls.push({ name, meta: _meta });
        if (_meta?.['x402/payment']) return { content: [{ type: 'text' as const, text: 'an answer' }] };
        const terms = {
          x402Version: 2,
          resource: { url: `mcp://tool/${name}`, description: name, mimeType: 'application/json' },
          accepts: OFFERS[name],
        };
        return {
          isError: true,
          structuredContent: terms,
          content: [{ type: 'text' as const, text: JSON.stringify(terms) }],
        };
      });
      return server;
    });
    http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await handler.fetch(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers: req.headers as Record<string, string>,
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        }),
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as { port: number };
    const stateDir = mkdtempSync(join(tmpdir(), 'bridge-hostile-'));
    // No chain: nothing here may need one (an RPC on the discard port fails any read).
    bridge = await launchBridge(
      'v2',
      [
        '--url',
        `http://127.0.0.1:${port}/mcp`,
        '--rpc-url',
        'http://127.0.0.1:9/',
        '--state-dir',
        stateDir,
        '--budget-usd',
        '1.00',
        '--max-deposit-usd',
        '2.00',
      ],
      { X402_PAYER_KEY: generatePrivateKey() },
    );
  });
  afterAll(async () => {
    await bridge?.close();
    await new Promise((resolve) => http?.close(resolve));
  });

  const errorOf = async (name: string) => {
    const result = (await bridge.callTool({ name, arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(result.isError).toBe(true);
    return (JSON.parse(result.content[0].text) as { error: { code: string; message: string } }).error;
  };
  const paymentsTo = (name: string) => calls.filter((c) => c.name === name && c.meta?.['x402/payment']);

  it.each([
    [
      'other_asset',
      'terms_refused',
      /this bridge pays USDC \(0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\) on eip155:8453 only.*exact 100000 units of asset 0x000000000000000000000000000000000000dEaD on eip155:8453/,
    ],
    ['other_network', 'terms_refused', /on eip155:8453 only.*on eip155:1$/],
    [
      'deposit_above_max',
      'terms_refused',
      /needs a deposit of at least 10\.00 USD, above --max-deposit-usd \(2\.00 USD\).*raise --max-deposit-usd/,
    ],
    ['price_above_budget', 'budget_exceeded', /this call costs 5\.00 USD and 0\.00 of the 1\.00 USD budget is spent/],
  ])('%s: refused (%s), twice, and no payment sent', async (name, code, message) => {
    for (let i = 0; i < 2; i++) {
      const error = await errorOf(name);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/nothing signed/);
      expect(error.message).toMatch(message);
    }
    expect(calls.filter((c) => c.name === name).length).toBeGreaterThan(0);
    expect(paymentsTo(name)).toEqual([]);
  });

  it("among several offers pays only the configured network's USDC, by exact", async () => {
    const result = (await bridge.callTool({ name: 'usdc_among_others', arguments: {} })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(result.isError).toBeFalsy();
    const [payment] = paymentsTo('usdc_among_others');
    const accepted = (payment.meta!['x402/payment'] as { accepted: Record<string, unknown> }).accepted;
    expect(accepted).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: USDC,
      amount: '100000',
      payTo: PAY_TO,
    });
    // No receipt came back, so nothing counts as spent.
    const status = (await bridge.callTool({ name: 'wallet_status', arguments: {} })) as {
      structuredContent: Record<string, unknown>;
    };
    expect(status.structuredContent.spent_usd).toBe('0.00');
  });
});
