// Prepaid channels (x402 `batch-settlement`, docs/design.md §13) end to end, in process: the gate offering both
// schemes, the local chain with the project's escrow and deposit collector, the facilitator served over HTTP so its
// calls can be counted, and agents that pay with only the official client parts (tests/support/batch-client.ts).
// A first payment deposits once; every later answer is paid by a voucher the gate checks itself, with no chain
// transaction and no facilitator call; claims collect exactly what was charged; refunds return the rest.
import { HTTPFacilitatorClient } from '@x402/core/server';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import { computeChannelId, signVoucher } from '@x402/evm/batch-settlement/client';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { toClientEvmSigner } from '@x402/evm';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleMcp } from '../../api/mcp/lazy-handler.ts';
import { claimCron } from '../../api/payment/claim-cron.ts';
import { responseOf } from '../../api/wire-answer.ts';
import { claimAndRefund } from '../../api/payment/claims.ts';
import { installGate } from '../../api/payment/configured.ts';
import { type Gate, createGate } from '../../api/payment/gate.ts';
import { type PaymentSettings, paymentSettings } from '../../api/payment/settings.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { type BatchPayer, batchPayer } from '../support/batch-client.ts';
import {
  BATCH_SETTLEMENT_ADDRESS as ESCROW,
  type LocalChain,
  serveFacilitator,
  startLocalChain,
} from '../support/chain.ts';
import { capturedConsole } from '../support/console.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);
const logged = capturedConsole([/^x402: payment refused on \/v1\/[a-z/]+: [\w .]+$/]);

const PREMIUM = '/v1/premium?state=TX';
const SUMMARY = '/v1/premium/summary?state=TX&year=2024';
const COMPARE = '/v1/compare?states=FL,TX';
/** A priced query that matches nothing: answered, never charged. */
const EMPTY = '/v1/premium?state=TX&from=1990-01&to=1990-12';
const PRICE = 100_000n; // 0.10 USDC
const DEPOSIT = 10_000_000n; // 10 USDC: room for every voucher of a test without a top-up

let chain: LocalChain;
let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
let settings: PaymentSettings;
let storage: InMemoryChannelStorage;
let gate: Gate;

const url = (path: string) => `http://127.0.0.1${path}`;
const facilitatorCalls = () => ({
  verify: facilitator.calls.get('/verify') ?? 0,
  settle: facilitator.calls.get('/settle') ?? 0,
});
async function blockNumber(): Promise<bigint> {
  const res = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  return BigInt(((await res.json()) as { result: string }).result);
}
const receiptOf = (res: Response): SettleResponse | null => {
  const header = res.headers.get('PAYMENT-RESPONSE');
  return header ? decodePaymentResponseHeader(header) : null;
};
const charged = (receipt: SettleResponse | null) =>
  BigInt(
    (receipt?.extra?.channelState as { chargedCumulativeAmount?: string } | undefined)?.chargedCumulativeAmount ?? -1,
  );
/** The gate's own record of a payer's channel (the only channel that payer has here). */
async function channelOf(payer: BatchPayer) {
  const all = await storage.list();
  return all.find((c) => c.channelConfig.payer.toLowerCase() === payer.address.toLowerCase());
}

/** A fresh funded payer, depositing DEPOSIT on its first payment. */
async function fundedPayer(funds = 20_000_000n): Promise<BatchPayer> {
  const key = generatePrivateKey();
  await chain.mint(privateKeyToAccount(key).address, funds);
  return batchPayer(key, chain.rpcUrl, callHandler, { deposit: DEPOSIT });
}

beforeAll(async () => {
  chain = await startLocalChain();
  facilitator = await serveFacilitator(chain.facilitator);
  settings = paymentSettings({ X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url })!;
  storage = new InMemoryChannelStorage();
  gate = createGate(settings, new HTTPFacilitatorClient({ url: facilitator.url }), ROUTE_CONTRACTS, {
    channels: storage,
  });
  installGate(gate);
});
afterAll(async () => {
  installGate(undefined);
  await facilitator?.stop();
  await chain?.stop();
});

describe('every 402 offers both schemes', () => {
  it('exact first, then batch-settlement at the same price, network, asset and payee, with the channel terms', async () => {
    for (const [path, amount] of [
      [PREMIUM, '100000'],
      [COMPARE, '500000'],
    ] as const) {
      const res = await callHandler(url(path));
      expect(res.status).toBe(402);
      const required = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
      expect(required.accepts.map((a) => a.scheme)).toEqual(['exact', 'batch-settlement']);
      const [exact, batch] = required.accepts;
      for (const key of ['network', 'asset', 'payTo', 'amount'] as const) expect(batch[key]).toBe(exact[key]);
      expect(batch.amount).toBe(amount);
      expect(batch.extra).toMatchObject({
        withdrawDelay: 86_400,
        minDeposit: '1000000',
        name: 'USD Coin',
        version: '2',
      });
      expect(batch.extra?.receiverAuthorizer).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
  });
});

describe('a payer on a channel', () => {
  let payer: BatchPayer;
  beforeAll(async () => {
    payer = await fundedPayer();
  });

  it('deposits once on its first payment, then pays 50 answers by voucher with no chain transaction and no facilitator call', async () => {
    const escrowBefore = await chain.balanceOf(ESCROW);
    const callsBefore = facilitatorCalls();
    const first = await payer.fetch(url(PREMIUM));
    expect(first.status).toBe(200);
    expect(((await first.json()) as { publications: unknown[] }).publications.length).toBeGreaterThan(0);
    const deposit = receiptOf(first)!;
    expect(deposit).toMatchObject({ success: true, amount: String(DEPOSIT), extra: { chargedAmount: String(PRICE) } });
    expect(deposit.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(charged(deposit)).toBe(PRICE);
    expect(await chain.balanceOf(ESCROW)).toBe(escrowBefore + DEPOSIT);
    expect(facilitatorCalls()).toEqual({ verify: callsBefore.verify + 1, settle: callsBefore.settle + 1 });

    const block = await blockNumber();
    const calls = facilitatorCalls();
    for (let i = 1; i <= 50; i++) {
      const res = await payer.fetch(url(i % 2 ? SUMMARY : PREMIUM));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { publications: unknown[] }).publications.length).toBeGreaterThan(0);
      const receipt = receiptOf(res)!;
      expect(receipt).toMatchObject({ success: true, transaction: '', extra: { chargedAmount: String(PRICE) } });
      expect(charged(receipt)).toBe(PRICE * BigInt(i + 1));
    }
    expect(await blockNumber()).toBe(block);
    expect(facilitatorCalls()).toEqual(calls);
    expect(BigInt((await channelOf(payer))!.chargedCumulativeAmount)).toBe(51n * PRICE);
  });

  it('is not charged for an answer without a figure, and its next voucher is accepted', async () => {
    const before = (await channelOf(payer))!;
    const empty = await payer.fetch(url(EMPTY));
    expect(empty.status).toBe(200);
    expect(((await empty.json()) as { publications: unknown[] }).publications).toEqual([]);
    expect(empty.headers.get('PAYMENT-RESPONSE')).toBeNull();
    const after = (await channelOf(payer))!;
    expect(after.chargedCumulativeAmount).toBe(before.chargedCumulativeAmount);
    expect(after.pendingRequest).toBeUndefined();
    const next = await payer.fetch(url(PREMIUM));
    expect(next.status).toBe(200);
    expect(charged(receiptOf(next))).toBe(BigInt(before.chargedCumulativeAmount) + PRICE);
  });

  it('pays an MCP tool call by voucher through _meta, and gets its receipt there', async () => {
    const mcp = new Client({ name: 'channels-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input: string | URL, init?: RequestInit) => handleMcp(new Request(input, init)),
      }),
    );
    try {
      const call = (payment?: PaymentPayload) =>
        mcp.callTool({
          name: 'get_premium',
          arguments: { state: 'TX' },
          ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
        }) as Promise<CallToolResult>;
      const unpaid = await call();
      expect(unpaid.isError).toBe(true);
      const required = unpaid.structuredContent as unknown as PaymentRequired;
      expect(required.accepts.map((a) => a.scheme)).toEqual(['exact', 'batch-settlement']);
      const before = BigInt((await channelOf(payer))!.chargedCumulativeAmount);
      const block = await blockNumber();
      const payment = await payer.client.createPaymentPayload(required);
      expect(payment.accepted.scheme).toBe('batch-settlement');
      expect((payment.payload as { type: string }).type).toBe('voucher');
      const paid = await call(payment);
      expect(paid.isError).toBeFalsy();
      expect((paid.structuredContent as { publications: unknown[] }).publications.length).toBeGreaterThan(0);
      const receipt = paid._meta?.['x402/payment-response'] as SettleResponse;
      expect(receipt).toMatchObject({ success: true, transaction: '', extra: { chargedAmount: String(PRICE) } });
      expect(charged(receipt)).toBe(before + PRICE);
      // The agent's own state follows the receipt, as the HTTP client's does, so its next voucher is accepted.
      await payer.client.handlePaymentResponse({
        paymentPayload: payment,
        requirements: payment.accepted,
        settleResponse: receipt,
      });
      expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
      expect(await blockNumber()).toBe(block);
    } finally {
      await mcp.close();
    }
  });

  it('claims collect exactly what was charged, and an idle refund returns the rest to the payer', async () => {
    const channel = (await channelOf(payer))!;
    const owed = BigInt(channel.chargedCumulativeAmount);
    const payeeBefore = await chain.balanceOf(chain.payee);
    const payerBefore = await chain.balanceOf(payer.address);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const channels = (await gate.channels())!;
      // Not yet idle: claimed and settled, not refunded.
      const run = await claimAndRefund(channels, settings);
      expect(run.failures).toEqual([]);
      expect(run.refunds).toEqual([]);
      expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + owed);
      expect(run.claims.reduce((n, c) => n + c.channels, 0)).toBe(1);
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            new RegExp(`^x402 claim: 1 channel\\(s\\), ${Number(owed) / 1e6} USDC, transaction 0x[0-9a-f]{64}$`),
          ),
        ]),
      );
      // A run with nothing new claims nothing and moves nothing.
      const again = await claimAndRefund(channels, settings);
      expect(again.claims).toEqual([]);
      expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + owed);
      // Idle past X402_CHANNEL_IDLE_DAYS: the rest of the deposit goes back to the payer; the channel is closed here.
      const later = Date.now() + (settings.channels.idleDays + 1) * 86_400_000;
      const idle = await claimAndRefund(channels, settings, later);
      expect(idle.refunds).toHaveLength(1);
      expect(await chain.balanceOf(payer.address)).toBe(payerBefore + DEPOSIT - owed);
      expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + owed);
      expect(await channelOf(payer)).toBeUndefined();
      expect(
        log.mock.calls.some((c) =>
          /^x402 refund: channel 0x[0-9a-f]{64} idle 30 days, [\d.]+ USDC to 0x[0-9a-fA-F]{40}, transaction 0x[0-9a-f]{64}$/.test(
            String(c[0]),
          ),
        ),
      ).toBe(true);
    } finally {
      log.mockRestore();
    }
  });
});

describe("a payer's cooperative refund (the official client's refund)", () => {
  it('returns the rest of the deposit at once, claims what was charged, and answers no data', async () => {
    const payer = await fundedPayer();
    for (let i = 0; i < 4; i++) expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
    const channel = (await channelOf(payer))!;
    const owed = BigInt(channel.chargedCumulativeAmount);
    expect(owed).toBe(4n * PRICE);
    const payerBefore = await chain.balanceOf(payer.address);
    const receipt = await payer.scheme.refund(url(PREMIUM), { fetch: callHandler });
    expect(receipt).toMatchObject({ success: true, amount: String(DEPOSIT - owed) });
    expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(payer.address)).toBe(payerBefore + DEPOSIT - owed);
    // Closed here: the charged vouchers were claimed with the refund, and the next settlement pays them out.
    expect(await channelOf(payer)).toBeUndefined();
    const othersOwe = (await storage.list()).reduce(
      (sum, c) => sum + BigInt(c.chargedCumulativeAmount) - BigInt(c.totalClaimed),
      0n,
    );
    const payeeBefore = await chain.balanceOf(chain.payee);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const channels = (await gate.channels())!;
      expect((await claimAndRefund(channels, settings)).failures).toEqual([]);
    } finally {
      log.mockRestore();
    }
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + owed + othersOwe);
  });

  it("over MCP (x402's MCP transport), a refund in a tool call's _meta returns the rest: the acknowledgement as the result, the receipt in _meta", async () => {
    const key = generatePrivateKey();
    await chain.mint(privateKeyToAccount(key).address, 20_000_000n);
    const payer = batchPayer(key, chain.rpcUrl, callHandler, { deposit: DEPOSIT });
    expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
    const mcp = new Client({ name: 'refund-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input: string | URL, init?: RequestInit) => handleMcp(new Request(input, init)),
      }),
    );
    try {
      const unpaid = (await mcp.callTool({ name: 'get_premium', arguments: { state: 'TX' } })) as CallToolResult;
      const required = unpaid.structuredContent as unknown as PaymentRequired;
      const accepted = required.accepts.find((a) => a.scheme === 'batch-settlement')!;
      const config = payer.scheme.buildChannelConfig(accepted);
      const channelId = computeChannelId(config, accepted.network);
      const signer = toClientEvmSigner(privateKeyToAccount(key), undefined);
      const refund = {
        x402Version: 2,
        accepted,
        resource: required.resource,
        payload: {
          type: 'refund',
          channelConfig: config,
          voucher: await signVoucher(signer, channelId, String(PRICE), accepted.network),
        },
      };
      const payerBefore = await chain.balanceOf(payer.address);
      const result: CallToolResult = await mcp.request(
        {
          method: 'tools/call',
          params: { name: 'get_premium', arguments: { state: 'TX' }, _meta: { 'x402/payment': refund } },
        },
        CallToolResultSchema,
      );
      // The request asks for no answer: the scheme's acknowledgement is the result (not the route's answer, so read
      // here without the output-schema check a client's callTool makes).
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ message: 'Refund acknowledged', channelId });
      expect(result._meta?.['x402/payment-response']).toMatchObject({ success: true, amount: String(DEPOSIT - PRICE) });
      expect(await chain.balanceOf(payer.address)).toBe(payerBefore + DEPOSIT - PRICE);
    } finally {
      await mcp.close();
    }
  });
  it('the refund request itself is answered 200 with the refund receipt and a body of no figure', async () => {
    const payer = await fundedPayer();
    expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
    let answered: Response | undefined;
    const watching = (async (input: RequestInfo | URL, init?: RequestInit) =>
      (answered = await callHandler(input, init))) as typeof fetch;
    await payer.scheme.refund(url(PREMIUM), { fetch: watching });
    expect(answered!.status).toBe(200);
    expect(answered!.headers.get('cache-control')).toBe('private, no-store');
    const body = (await answered!.json()) as Record<string, unknown>;
    expect(body).toEqual({ message: 'Refund acknowledged', channelId: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(decodePaymentResponseHeader(answered!.headers.get('PAYMENT-RESPONSE')!).success).toBe(true);
    // What the refund claimed is paid out now, so later tests' sums start from nothing owed.
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const channels = (await gate.channels())!;
      expect((await claimAndRefund(channels, settings)).settled?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    } finally {
      log.mockRestore();
    }
  });
});

describe('refused vouchers: nothing priced is sent, nothing is charged', () => {
  let payer: BatchPayer;
  /** The payer's channel, after one paid call (the deposit). */
  beforeAll(async () => {
    payer = await fundedPayer();
    expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
  });

  /** The 402 of `path`, decoded. */
  async function requiredOf(path: string): Promise<PaymentRequired> {
    return decodePaymentRequiredHeader((await callHandler(url(path))).headers.get('PAYMENT-REQUIRED')!);
  }
  async function expectRefused(
    path: string,
    payment: PaymentPayload,
    reason: string | RegExp,
  ): Promise<PaymentRequired> {
    const before = await channelOf(payer);
    const res = await callHandler(url(path), {
      headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) },
    });
    expect(res.status).toBe(402);
    expect(await res.text()).toBe('{}');
    const required = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
    expect(required.error).toMatch(reason);
    const after = await channelOf(payer);
    expect(after?.chargedCumulativeAmount).toBe(before?.chargedCumulativeAmount);
    expect(after?.pendingRequest).toBeUndefined();
    return required;
  }
  const voucherFor = async (path: string) => payer.client.createPaymentPayload(await requiredOf(path));

  it('a replayed voucher: refused with the corrective 402, which brings a client back in step', async () => {
    const payment = await voucherFor(PREMIUM);
    const res = await callHandler(url(PREMIUM), {
      headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) },
    });
    expect(res.status).toBe(200);
    const required = await expectRefused(PREMIUM, payment, 'invalid_batch_settlement_evm_cumulative_amount_mismatch');
    const batch = required.accepts.find((a) => a.scheme === 'batch-settlement')!;
    expect(batch.extra?.channelState).toMatchObject({
      chargedCumulativeAmount: (await channelOf(payer))!.chargedCumulativeAmount,
    });
    expect(batch.extra?.voucherState).toMatchObject({ signature: expect.stringMatching(/^0x/) });
    // The payer never saw the 200's receipt: its state is one answer behind, and the official client recovers.
    const recovered = await payer.fetch(url(PREMIUM));
    expect(recovered.status).toBe(200);
    expect(receiptOf(recovered)?.success).toBe(true);
  });

  it('a voucher for 0.10 presented at a 0.50 route matches no offer', async () => {
    await expectRefused(COMPARE, await voucherFor(PREMIUM), 'No matching payment requirements');
  });

  it('a voucher for another channel, another payee, or above the deposit: each refused with the scheme reason', async () => {
    const good = await voucherFor(PREMIUM);
    const raw = good.payload as { channelConfig: Record<string, unknown>; voucher: Record<string, string> };
    const tampered = (change: (p: typeof raw) => void): PaymentPayload => {
      const copy = structuredClone(raw);
      change(copy);
      return { ...good, payload: copy };
    };
    await expectRefused(
      PREMIUM,
      tampered((p) => (p.voucher.channelId = `0x${'ab'.repeat(32)}`)),
      /channel_id_mismatch/,
    );
    await expectRefused(
      PREMIUM,
      tampered((p) => (p.channelConfig.receiver = chain.other)),
      /channel_id_mismatch|receiver_mismatch/,
    );
    // Signed by someone else for this channel.
    const forger = batchPayer(generatePrivateKey(), chain.rpcUrl, callHandler);
    const forged = await forger.scheme.createPaymentPayload(2, good.accepted);
    const signature = (forged.payload as { voucher: { signature: string } }).voucher.signature;
    await expectRefused(
      PREMIUM,
      tampered((p) => (p.voucher.signature = signature)),
      /voucher_signature/,
    );
    // The payer's own good voucher still pays.
    expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
  });

  it('a voucher above the deposit: refused, though signed by the payer for exactly the next price', async () => {
    // A payer that deposited the least it may (1.00 USDC) and spent it all in ten answers.
    const key = generatePrivateKey();
    await chain.mint(privateKeyToAccount(key).address, 5_000_000n);
    const small = batchPayer(key, chain.rpcUrl, callHandler, { deposit: 1_000_000n });
    for (let i = 0; i < 10; i++) expect((await small.fetch(url(PREMIUM))).status).toBe(200);
    const required = await requiredOf(PREMIUM);
    const accepted = required.accepts.find((a) => a.scheme === 'batch-settlement')!;
    const channelConfig = small.scheme.buildChannelConfig(accepted);
    const channelId = computeChannelId(channelConfig, accepted.network);
    // The official client would top up here; this payment does not, and asks for 1.10 of a 1.00 channel.
    const voucher = await signVoucher(
      toClientEvmSigner(privateKeyToAccount(key)),
      channelId,
      String(11n * PRICE),
      accepted.network,
    );
    const payment: PaymentPayload = {
      x402Version: 2,
      accepted,
      resource: required.resource,
      payload: { type: 'voucher', channelConfig, voucher },
    };
    const res = await callHandler(url(PREMIUM), {
      headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) },
    });
    expect(res.status).toBe(402);
    expect(await res.text()).toBe('{}');
    expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toBe(
      'invalid_batch_settlement_evm_cumulative_exceeds_balance',
    );
    const record = (await storage.get(channelId))!;
    expect(record.chargedCumulativeAmount).toBe(String(10n * PRICE));
    expect(record.pendingRequest).toBeUndefined();
  });

  it('concurrent vouchers on one channel: one is answered, the others refused (busy or corrective), and the client recovers', async () => {
    const payments = await Promise.all([0, 1, 2, 3].map(() => voucherFor(PREMIUM)));
    const before = BigInt((await channelOf(payer))!.chargedCumulativeAmount);
    const answers = await Promise.all(
      payments.map((p) =>
        callHandler(url(PREMIUM), { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(p) } }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 402, 402, 402]);
    for (const res of answers.filter((r) => r.status === 402)) {
      expect(await res.text()).toBe('{}');
      expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toMatch(
        /channel_busy|cumulative_amount_mismatch/,
      );
    }
    expect(BigInt((await channelOf(payer))!.chargedCumulativeAmount)).toBe(before + PRICE);
    // The payer applied none of those receipts: the official client resynchronises from the corrective 402.
    const next = await payer.fetch(url(PREMIUM));
    expect(next.status).toBe(200);
    expect(charged(receiptOf(next))).toBe(before + 2n * PRICE);
    expect(logged.lines().length).toBeGreaterThan(0);
  });

  it('a payment-identifier retry of a voucher gets the answer again with the original receipt, charged once', async () => {
    const required = await requiredOf(PREMIUM);
    appendPaymentIdentifierToExtensions((required.extensions ??= {}), 'retry-voucher-0001');
    const payment = await payer.client.createPaymentPayload(required);
    expect(payment.extensions?.['payment-identifier']).toMatchObject({ info: { id: 'retry-voucher-0001' } });
    const header = { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) };
    const first = await callHandler(url(PREMIUM), { headers: header });
    expect(first.status).toBe(200);
    const before = (await channelOf(payer))!.chargedCumulativeAmount;
    const retry = await callHandler(url(PREMIUM), { headers: header });
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe(await first.text());
    expect(retry.headers.get('PAYMENT-RESPONSE')).toBe(first.headers.get('PAYMENT-RESPONSE'));
    expect((await channelOf(payer))!.chargedCumulativeAmount).toBe(before);
    // The same id for another query is refused.
    const elsewhere = await callHandler(url(SUMMARY), { headers: header });
    expect(elsewhere.status).toBe(402);
  });
});

describe('32 payers in parallel, each on its own channel', () => {
  it('every answer paid, none charged twice, and the claim collects exactly their sum', async () => {
    const payers = await Promise.all(Array.from({ length: 32 }, () => fundedPayer()));
    const rounds = 5;
    const owedBefore = (await storage.list()).reduce(
      (sum, c) => sum + BigInt(c.chargedCumulativeAmount) - BigInt(c.totalClaimed),
      0n,
    );
    const payeeBefore = await chain.balanceOf(chain.payee);
    const results = await Promise.all(
      payers.map(async (p) => {
        const receipts: SettleResponse[] = [];
        for (let i = 0; i < rounds; i++) {
          const res = await p.fetch(url(PREMIUM));
          expect(res.status).toBe(200);
          receipts.push(receiptOf(res)!);
        }
        return receipts;
      }),
    );
    for (const receipts of results)
      expect(receipts.map(charged)).toEqual(Array.from({ length: rounds }, (_, i) => PRICE * BigInt(i + 1)));
    for (const p of payers) expect(BigInt((await channelOf(p))!.chargedCumulativeAmount)).toBe(PRICE * BigInt(rounds));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const channels = (await gate.channels())!;
      const run = await claimAndRefund(channels, settings);
      expect(run.failures).toEqual([]);
    } finally {
      log.mockRestore();
    }
    // Theirs, and what earlier tests' channels still owed: nothing more, nothing less.
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + owedBefore + 32n * BigInt(rounds) * PRICE);
    for (const c of await storage.list()) expect(c.totalClaimed).toBe(c.chargedCumulativeAmount);
  });
});

describe('GET /cron/claims (the claim run a scheduler calls; Vercel cron)', () => {
  it('with the secret: claims what the channels owe, settles it to the payee, and says so', async () => {
    const payer = await fundedPayer();
    for (let i = 0; i < 3; i++) expect((await payer.fetch(url(PREMIUM))).status).toBe(200);
    const owed = (await storage.list()).reduce(
      (sum, c) => sum + BigInt(c.chargedCumulativeAmount) - BigInt(c.totalClaimed),
      0n,
    );
    expect(owed).toBeGreaterThanOrEqual(3n * PRICE);
    const env = { CRON_SECRET: 'cron-secret-0123', X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url };
    const call = (authorization?: string) =>
      claimCron(new Request(url('/cron/claims'), { headers: authorization ? { authorization } : {} }), env).then(
        responseOf,
      );
    expect((await call()).status).toBe(401);
    expect((await call('Bearer cron-secret-0124')).status).toBe(401);
    expect((await claimCron(new Request(url('/cron/claims')), {})).status).toBe(503);
    const payeeBefore = await chain.balanceOf(chain.payee);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const res = await call('Bearer cron-secret-0123');
      expect(res.status).toBe(200);
      const run = (await res.json()) as {
        claims: { channels: number; transaction: string }[];
        settled?: { transaction: string };
        failures: string[];
      };
      expect(run.failures).toEqual([]);
      expect(run.claims.reduce((n, c) => n + c.channels, 0)).toBeGreaterThanOrEqual(1);
      expect(run.settled?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    } finally {
      log.mockRestore();
    }
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + owed);
  });
});
