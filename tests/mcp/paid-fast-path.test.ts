// Paid tool calls written by the fast path (api/mcp/paid-fast.ts) against the SDK's own answers, in process, on the
// local chain with the gate offering prepaid channels: a voucher-paid call answered through the fast path, then the
// same request (the same payment and payment id: a retry, answered again and not charged) through the SDK, must be
// the same bytes (status, every header in order, body), in a 2025 revision and in 2026-07-28; so must a refused
// payment, a payment on a call with a bad argument, and a paid call that finds no figure, and (fast-check) forged
// payments mutated anywhere, with any id and arguments. The fast path writes a call's answer only once the writing
// is proven for its era, envelope and tool, and never charges twice.
import fc from 'fast-check';
import { HTTPFacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpFastPath } from '../../api/mcp/fast.ts';
import { handleMcp, mcpFastPath } from '../../api/mcp/handle-mcp.ts';
import { installGate } from '../../api/payment/configured.ts';
import { createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { type BatchPayer, batchPayer } from '../support/batch-client.ts';
import { type LocalChain, serveFacilitator, startLocalChain } from '../support/chain.ts';
import { callHandler } from '../support/handlers.ts';
import { envelopeOf, headersOf } from '../support/mcp-2026.ts';
import { viaFastPath } from '../support/mcp-fast.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

const HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
let chain: LocalChain;
let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
let payer: BatchPayer;
let fast: McpFastPath;

beforeAll(async () => {
  chain = await startLocalChain();
  facilitator = await serveFacilitator(chain.facilitator);
  const settings = paymentSettings({ X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url })!;
  installGate(
    createGate(settings, new HTTPFacilitatorClient({ url: facilitator.url }), ROUTE_CONTRACTS, {
      channels: new InMemoryChannelStorage(),
    }),
  );
  const key = generatePrivateKey();
  await chain.mint(privateKeyToAccount(key).address, 20_000_000n);
  payer = batchPayer(key, chain.rpcUrl, callHandler, { deposit: 10_000_000n });
  expect((await payer.fetch('http://127.0.0.1/v1/premium?state=TX')).status).toBe(200); // the deposit, over HTTP
  fast = mcpFastPath();
});
afterAll(async () => {
  installGate(undefined);
  await facilitator?.stop();
  await chain?.stop();
});

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}
const answerOf = async (response: Response): Promise<Answer> => ({
  status: response.status,
  headers: [...response.headers],
  body: await response.text(),
});

const ERAS = [
  {
    era: '2025-11-25',
    meta: () => ({}),
    headers: (_name: string) => ({ ...HEADERS, 'MCP-Protocol-Version': '2025-11-25' }),
  },
  {
    era: '2026-07-28',
    meta: () => envelopeOf('paid-fast-test'),
    headers: (name: string) => ({ ...HEADERS, ...headersOf('tools/call', { name }) }),
  },
];

describe.each(ERAS)("paid calls in $era: the fast path writes the SDK's bytes", ({ meta, headers }) => {
  /** The request of a call with `payment` in its `_meta`, as a client sends it. */
  const paidRequest = (id: number, name: string, args: Record<string, unknown>, payment?: PaymentPayload) =>
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: headers(name),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: args, _meta: { ...meta(), ...(payment ? { 'x402/payment': payment } : {}) } },
      }),
    });
  const result = (answer: Answer) =>
    JSON.parse(answer.body).result as {
      isError?: boolean;
      structuredContent: unknown;
      _meta?: Record<string, unknown>;
    };
  /** A voucher for the terms of `name`, with a payment id when `id` is given. */
  async function voucher(
    name: string,
    args: Record<string, unknown>,
    id?: string,
  ): Promise<{ payment: PaymentPayload; required: PaymentRequired }> {
    const required = result(await answerOf(await handleMcp(paidRequest(1, name, args))))
      .structuredContent as PaymentRequired;
    if (id) appendPaymentIdentifierToExtensions((required.extensions ??= {}), id);
    return { payment: await payer.client.createPaymentPayload(required), required };
  }
  /** The same request answered with the fast path, then by the SDK alone. */
  async function both(request: () => Request): Promise<[Answer, Answer]> {
    const viaFast = await answerOf(await viaFastPath(fast, request()));
    const viaSdk = await answerOf(await handleMcp(request()));
    return [viaFast, viaSdk];
  }

  it('a voucher-paid answer, with its receipt: the fast path charges once, and the SDK answers the retry with the same bytes', async () => {
    const args = { state: 'TX', year: 2021 };
    const written = fast.paid!.stats.written;
    for (let n = 0; n < 2; n++) {
      const { payment } = await voucher(
        'get_summary',
        args,
        `paid-fast-${Math.random().toString(36).slice(2)}-0123456789`,
      );
      const [viaFast, viaSdk] = await both(() => paidRequest(7 + n, 'get_summary', args, payment));
      expect(viaFast.status).toBe(200);
      const receipt = result(viaFast)._meta?.['x402/payment-response'] as { success: boolean; transaction: string };
      expect(receipt).toMatchObject({ success: true, transaction: '' });
      expect(viaFast).toEqual(viaSdk);
      await payer.client.handlePaymentResponse({
        paymentPayload: payment,
        requirements: payment.accepted,
        settleResponse: receipt as never,
      });
    }
    // The first call of the era proved the writing (with the unpaid terms, nothing charged); both were written here.
    expect(fast.paid!.stats.written).toBe(written + 2);
  });

  it("a refused payment (the same voucher again, with no payment id), a payment on a bad argument, a paid call with no figure: the SDK's bytes", async () => {
    const { payment } = await voucher('get_premium', { state: 'FL' });
    const written = fast.paid!.stats.written;
    const paid = await answerOf(await viaFastPath(fast, paidRequest(1, 'get_premium', { state: 'FL' }, payment)));
    await payer.client.handlePaymentResponse({
      paymentPayload: payment,
      requirements: payment.accepted,
      settleResponse: result(paid)._meta!['x402/payment-response'] as never,
    });
    const [replayFast, replaySdk] = await both(() => paidRequest(2, 'get_premium', { state: 'FL' }, payment));
    expect(result(replayFast).isError).toBe(true);
    expect(replayFast).toEqual(replaySdk);
    const next = await voucher('get_premium', { state: 'FL' });
    const [badFast, badSdk] = await both(() => paidRequest(3, 'get_premium', { state: 'Florida' }, next.payment));
    expect(badFast.body).toMatch(/invalid_request/);
    expect(badFast).toEqual(badSdk);
    const [emptyFast, emptySdk] = await both(() =>
      paidRequest(4, 'get_premium', { state: 'TX', from: '1990-01', to: '1990-12' }, next.payment),
    );
    expect(result(emptyFast)._meta?.['x402/payment-response']).toBeUndefined();
    expect(emptyFast).toEqual(emptySdk);
    // All four written here (the tool's writing proven by its first call), none handed to the SDK.
    expect(fast.paid!.stats.written).toBe(written + 4);
    // Arguments that are not an object are a protocol error the SDK gives before any tool runs: its answer, as it is.
    for (const args of ['FL', ['FL'], 7]) {
      const [listFast, listSdk] = await both(() => paidRequest(5, 'get_premium', args as never, next.payment));
      expect(JSON.parse(listFast.body).error).toBeDefined();
      expect(listFast).toEqual(listSdk);
    }
    expect(fast.paid!.stats.written).toBe(written + 4);
  });
  it("hostile payments and calls (fast-check): whatever the fast path takes, its answer is the SDK's, and nothing is charged", async () => {
    const { payment } = await voucher('get_summary', { state: 'TX', year: 2021 });
    // A voucher whose signature is no one's: the gate refuses it whatever else is changed, so no run is charged.
    const forged = {
      ...payment,
      payload: {
        ...(payment.payload as object),
        voucher: { ...(payment.payload as { voucher: object }).voucher, signature: `0x${'ab'.repeat(65)}` },
      },
    };
    const mutation = fc.record({
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 })),
      args: fc.oneof(
        fc.constant({ state: 'TX', year: 2021 }),
        fc.dictionary(fc.constantFrom('state', 'year', 'line', 'x'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
      ),
      path: fc.constantFrom(
        ['payload', 'voucher', 'maxClaimableAmount'],
        ['accepted', 'amount'],
        ['accepted', 'payTo'],
        ['payload', 'type'],
        ['x402Version'],
        ['payload', 'channelConfig', 'payer'],
        ['extensions'],
      ),
      value: fc.jsonValue({ maxDepth: 2 }),
    });
    const written = fast.paid!.stats.written;
    await fc.assert(
      fc.asyncProperty(mutation, async ({ id, args, path, value }) => {
        const changed = structuredClone(forged) as Record<string, unknown>;
        let at = changed;
        for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
        at[path.at(-1)!] = value;
        const [viaFast, viaSdk] = await both(() => paidRequest(id as number, 'get_summary', args, changed as never));
        expect(viaFast).toEqual(viaSdk);
        const answer = JSON.parse(viaFast.body) as { result?: { _meta?: Record<string, unknown> } };
        expect(
          (answer.result?._meta?.['x402/payment-response'] as { success?: boolean } | undefined)?.success,
        ).not.toBe(true);
      }),
      { numRuns: Math.max(20, Math.ceil(Number(process.env.FUZZ_RUNS ?? 200) / 10)) },
    );
    expect(fast.paid!.stats.written).toBeGreaterThan(written); // the fast path did write (refusals) in these runs
  });
});
