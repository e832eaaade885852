// Retry-safe payments (issue 22, docs/design.md §7, x402's payment-identifier extension), in process: the gate over
// the MOCK facilitator of tests/support (which checks signatures as the real one does and records transfers in
// memory) with its settled ids in this process's memory and in a real Redis (Debian's redis-server, started
// here); the payer is the official x402 client, whose payloads carry the id as the extension's helper puts it.
// Also: the paid path settles without a separate verify.
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { installGate } from '../../api/payment/configured.ts';
import { type Gate, createGate } from '../../api/payment/gate.ts';
import {
  type PaymentIds,
  SETTLED_TTL_MS,
  memoryPaymentIds,
  redisPaymentIds,
} from '../../api/payment/settled-payment-ids.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { callHandler } from '../support/handlers.ts';
import { type LocalRedis, startRedis } from '../support/redis.ts';
import { FIXTURE_DATA, useShardsOf } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';
import { capturedConsole } from '../support/console.ts';

const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
const PAYER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const OTHER_PAYER = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
/** The gate's one line per refused payment (reason code only), and the store's outage: expected here, not printed. */
const logged = capturedConsole([
  /^x402: payment refused on \/v1\/[a-z/]+: [\w .]+$/,
  /^x402: Redis at \S+ unavailable: /,
]);
const BASE = 'eip155:8453';
const ORIGIN = 'http://service.test';
const PREMIUM = `${ORIGIN}/v1/premium?state=FL`;
const SUMMARY = `${ORIGIN}/v1/premium/summary?state=FL&year=2024`;
/** 0.10 USD in USDC's atomic units, worked out here. */
const DIME = 100_000n;

const settings = paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!;
const clientOf = (account: typeof PAYER) => new x402Client().register(BASE, new ExactEvmScheme(account));

useShardsOf(FIXTURE_DATA);

let redis: LocalRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  installGate(undefined);
  await redis?.stop();
});

let idCount = 0;
/** A fresh payment id, as a client makes one: 16-128 letters, digits, `-` and `_`. */
const newId = () => `pay_${Date.now().toString(36)}_${(idCount++).toString().padStart(8, '0')}`;

async function challengeOf(url: string): Promise<PaymentRequired> {
  const res = await callHandler(url);
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
}

/** A PAYMENT-SIGNATURE header the official client signs for `url`'s challenge, carrying payment id `id` (if any). */
async function signed(url: string, id?: string, account = PAYER): Promise<string> {
  const challenge = structuredClone(await challengeOf(url));
  if (id) appendPaymentIdentifierToExtensions((challenge.extensions ??= {}), id);
  const payload = await clientOf(account).createPaymentPayload(challenge);
  if (id) expect(payload.extensions?.['payment-identifier']).toMatchObject({ info: { id } });
  return encodePaymentSignatureHeader(payload);
}

const paid = (url: string, header: string) => callHandler(url, { headers: { 'PAYMENT-SIGNATURE': header } });
const receiptOf = (res: Response): SettleResponse | null => {
  const header = res.headers.get('PAYMENT-RESPONSE');
  return header ? decodePaymentResponseHeader(header) : null;
};
/** A refusal: 402, body {}, and the reason its challenge gives. */
async function refusal(res: Response): Promise<string | undefined> {
  expect(res.status).toBe(402);
  expect(await res.text()).toBe('{}');
  return decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error;
}

/** The gate-off answer to `url`: what a paid request must get. */
async function gateOff(url: string, gate: Gate): Promise<string> {
  installGate(null);
  try {
    return await (await callHandler(url)).text();
  } finally {
    installGate(gate);
  }
}

/** A gate over a fresh mock facilitator, its settle and verify watched, keeping ids in `ids`; installed. */
function watchedGate(ids: PaymentIds | Promise<PaymentIds>) {
  const facilitator = verifyOnlyFacilitator(BASE);
  const settle = vi.spyOn(facilitator, 'settle');
  const verify = vi.spyOn(facilitator, 'verify');
  const gate = createGate(settings, facilitator, ROUTE_CONTRACTS, { ids });
  installGate(gate);
  const received = () => facilitator.received.get(PAYEE) ?? 0n;
  return { facilitator, settle, verify, gate, received };
}

const STORES: { name: string; make: () => Promise<PaymentIds> }[] = [
  { name: 'in memory', make: async () => memoryPaymentIds() },
  { name: 'in Redis', make: () => redisPaymentIds(redis.url) },
];

describe('the paid path settles without a separate verify', () => {
  it('a paid request: one settle, no verify call, the answer and its receipt', async () => {
    const { settle, verify, gate, received } = watchedGate(memoryPaymentIds());
    const res = await paid(PREMIUM, await signed(PREMIUM));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(await gateOff(PREMIUM, gate));
    expect(receiptOf(res)).toMatchObject({ success: true, network: BASE });
    expect([settle.mock.calls.length, verify.mock.calls.length, received()]).toEqual([1, 0, DIME]);
  });

  it('every 402 declares payment-identifier, not required (HTTP and MCP)', async () => {
    const { gate } = watchedGate(memoryPaymentIds());
    expect((await challengeOf(PREMIUM)).extensions?.['payment-identifier']).toMatchObject({
      info: { required: false },
    });
    const contract = ROUTE_CONTRACTS.find((r) => r.path === '/v1/premium')!;
    const call = await gate.chargeCall(
      contract,
      { url: 'mcp://tool/get_premium', description: 'x', mimeType: 'application/json' },
      'mcp://tool/get_premium?state=FL',
      undefined,
      () => ({ body: {}, hasFigures: true }),
    );
    expect(call.kind).toBe('payment_required');
    expect(
      (call as { paymentRequired: PaymentRequired }).paymentRequired.extensions?.['payment-identifier'],
    ).toMatchObject({ info: { required: false } });
  });
});

describe.each(STORES)('payment ids kept $name', ({ make }) => {
  let ids: PaymentIds;
  beforeAll(async () => {
    ids = await make();
  });
  afterAll(() => ids?.close());

  it('a retry with the same id and a new signature gets the same answer and the original receipt, and pays nothing', async () => {
    const { settle, verify, gate, received } = watchedGate(ids);
    const id = newId();
    const first = await paid(PREMIUM, await signed(PREMIUM, id));
    expect(first.status).toBe(200);
    const body = await first.text();
    const receipt = receiptOf(first)!;
    expect(receipt.success).toBe(true);
    const retry = await paid(PREMIUM, await signed(PREMIUM, id));
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe(body);
    expect(receiptOf(retry)).toEqual(receipt);
    expect(body).toBe(await gateOff(PREMIUM, gate));
    // one settlement; the retry's own payment verified (it proves the payer), never settled
    expect([settle.mock.calls.length, verify.mock.calls.length, received()]).toEqual([1, 1, DIME]);
  });

  it('the same id for another resource is refused, and nothing is settled', async () => {
    const { settle, received } = watchedGate(ids);
    const id = newId();
    expect((await paid(PREMIUM, await signed(PREMIUM, id))).status).toBe(200);
    const other = await paid(SUMMARY, await signed(SUMMARY, id));
    expect(await refusal(other)).toBe('payment_identifier_conflict');
    // the same route with another query is another resource too
    const otherQuery = `${ORIGIN}/v1/premium?state=IL`;
    expect(await refusal(await paid(otherQuery, await signed(otherQuery, id)))).toBe('payment_identifier_conflict');
    expect([settle.mock.calls.length, received()]).toEqual([1, DIME]);
    // Each refusal logged once, with its route and reason code and nothing of the payment.
    expect(logged.lines()).toEqual([
      'x402: payment refused on /v1/premium/summary: payment_identifier_conflict',
      'x402: payment refused on /v1/premium: payment_identifier_conflict',
    ]);
  });

  it('a retry signed by another payer is refused: the id is no bearer token', async () => {
    const { settle, received } = watchedGate(ids);
    const id = newId();
    expect((await paid(PREMIUM, await signed(PREMIUM, id))).status).toBe(200);
    expect(await refusal(await paid(PREMIUM, await signed(PREMIUM, id, OTHER_PAYER)))).toBe(
      'payment_identifier_payer_mismatch',
    );
    expect([settle.mock.calls.length, received()]).toEqual([1, DIME]);
  });

  it('two requests racing with one fresh id and two signatures settle once, and both get the answer with that receipt', async () => {
    const { settle, received } = watchedGate(ids);
    const id = newId();
    const [a, b] = await Promise.all([signed(PREMIUM, id), signed(PREMIUM, id)]);
    const answers = await Promise.all([paid(PREMIUM, a), paid(PREMIUM, b)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(receiptOf(answers[0])).toEqual(receiptOf(answers[1]));
    expect([settle.mock.calls.length, received()]).toEqual([1, DIME]);
  });

  it('an answer with no figure, or a refused settlement, leaves the id free for a payment that settles', async () => {
    const { facilitator, settle, received } = watchedGate(ids);
    const id = newId();
    const empty = `${ORIGIN}/v1/premium?state=FL&from=1990-01&to=1990-12`;
    const none = await paid(empty, await signed(empty, id));
    expect([none.status, receiptOf(none)]).toEqual([200, null]);
    facilitator.mode = 'refuse-settle';
    expect(await refusal(await paid(PREMIUM, await signed(PREMIUM, id)))).toMatch(/^[a-z_]+$/);
    facilitator.mode = 'up';
    const res = await paid(PREMIUM, await signed(PREMIUM, id));
    expect([res.status, receiptOf(res)?.success]).toEqual([200, true]);
    expect([settle.mock.calls.length, received()]).toEqual([2, DIME]); // the refused one and the good one
  });

  it('an id that is not 16-128 letters, digits, - and _ is refused before anything is computed or settled', async () => {
    const { settle } = watchedGate(ids);
    const challenge = structuredClone(await challengeOf(PREMIUM));
    (challenge.extensions!['payment-identifier'] as { info: { id?: string } }).info.id = 'short';
    const header = encodePaymentSignatureHeader(await clientOf(PAYER).createPaymentPayload(challenge));
    expect(await refusal(await paid(PREMIUM, header))).toBe('invalid_payment_identifier');
    expect(settle).not.toHaveBeenCalled();
  });

  it('over MCP: a retry with the same id gets the original receipt; the same id for another call is refused', async () => {
    const { settle, received, gate } = watchedGate(ids);
    const contract = ROUTE_CONTRACTS.find((r) => r.path === '/v1/premium')!;
    const resource = { url: 'mcp://tool/get_premium', description: 'x', mimeType: 'application/json' };
    const unpaid = await gate.chargeCall(contract, resource, 'mcp://tool/get_premium?state=FL', undefined, () => ({
      body: {},
      hasFigures: true,
    }));
    const terms = (unpaid as { paymentRequired: PaymentRequired }).paymentRequired;
    const id = newId();
    const payment = async () => {
      const copy = structuredClone(terms);
      appendPaymentIdentifierToExtensions(copy.extensions!, id);
      return clientOf(PAYER).createPaymentPayload(copy);
    };
    const answer = () => ({ body: { figures: 1 }, hasFigures: true });
    const first = await gate.chargeCall(contract, resource, 'mcp://tool/get_premium?state=FL', await payment(), answer);
    expect(first).toMatchObject({ kind: 'answered', body: { figures: 1 }, receipt: { success: true } });
    const again = await gate.chargeCall(contract, resource, 'mcp://tool/get_premium?state=FL', await payment(), answer);
    expect(again).toEqual(first);
    const elsewhere = await gate.chargeCall(
      contract,
      resource,
      'mcp://tool/get_premium?state=IL',
      await payment(),
      answer,
    );
    expect(elsewhere).toMatchObject({
      kind: 'payment_required',
      paymentRequired: { error: 'payment_identifier_conflict' },
    });
    // an id paid over HTTP is another resource's for MCP: HTTP and MCP names differ
    expect([settle.mock.calls.length, received()]).toEqual([1, DIME]);
  });
});

describe('payment ids in Redis, shared by every instance', () => {
  it('an id settled through one gate is honoured by another (as Vercel function instances share no memory)', async () => {
    const [one, two] = [await redisPaymentIds(redis.url), await redisPaymentIds(redis.url)];
    try {
      const first = watchedGate(one);
      const id = newId();
      const res = await paid(PREMIUM, await signed(PREMIUM, id));
      const receipt = receiptOf(res);
      const second = watchedGate(two);
      const retry = await paid(PREMIUM, await signed(PREMIUM, id));
      expect([retry.status, receiptOf(retry)]).toEqual([200, receipt]);
      expect([first.settle.mock.calls.length, second.settle.mock.calls.length]).toEqual([1, 0]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('Redis unreachable: a payment with an id is a 503 and nothing is settled; one without an id still pays', async () => {
    const down = await startRedis();
    const ids = await redisPaymentIds(down.url);
    await down.stop();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { settle, received } = watchedGate(ids);
      const res = await paid(PREMIUM, await signed(PREMIUM, newId()));
      expect(res.status).toBe(503);
      expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
      expect((await res.json()).error.message).toContain('you were not charged');
      expect(settle).not.toHaveBeenCalled();
      expect((await paid(PREMIUM, await signed(PREMIUM))).status).toBe(200);
      expect(received()).toBe(DIME);
      expect(errors.mock.calls.flat().join('\n')).not.toMatch(/\n\s+at /); // one line, no stack
    } finally {
      errors.mockRestore();
      await ids.close().catch(() => {});
    }
  });
});

describe.each(STORES)('the store of payment ids $name', ({ make }) => {
  let ids: PaymentIds;
  beforeAll(async () => {
    ids = await make();
  });
  afterAll(() => ids?.close());
  const receipt: SettleResponse = {
    success: true,
    transaction: `0x${'ab'.repeat(32)}`,
    network: BASE,
    payer: PAYER.address,
  };

  it('claims an id once; a claim is released only by its own token; a settled id holds its key and receipt', async () => {
    const id = newId();
    expect(await ids.claim(id, 'GET /a', 'token-1', 60_000)).toBeNull();
    expect(await ids.claim(id, 'GET /a', 'token-2', 60_000)).toEqual({
      key: 'GET /a',
      state: 'claimed',
      token: 'token-1',
    });
    await ids.release(id, 'token-2');
    expect(await ids.get(id)).toMatchObject({ state: 'claimed', token: 'token-1' });
    await ids.release(id, 'token-1');
    expect(await ids.get(id)).toBeNull();
    expect(await ids.claim(id, 'GET /a', 'token-3', 60_000)).toBeNull();
    await ids.settle(id, 'GET /a', receipt);
    expect(await ids.claim(id, 'GET /b', 'token-4', 60_000)).toEqual({ key: 'GET /a', state: 'settled', receipt });
    await ids.release(id, 'token-3'); // a settled id is not a claim any more: nothing to release
    expect(await ids.get(id)).toEqual({ key: 'GET /a', state: 'settled', receipt });
  });

  it('a claim lapses after its time, so a request that died while settling does not hold the id for ever', async () => {
    const id = newId();
    expect(await ids.claim(id, 'GET /a', 'token-1', 100)).toBeNull();
    await new Promise((r) => setTimeout(r, 250));
    expect(await ids.claim(id, 'GET /a', 'token-2', 60_000)).toBeNull();
  });
});

describe('the store of payment ids in memory', () => {
  it('keeps at most its limit, dropping expired ids first, then the oldest; a settled id lasts 24 hours', async () => {
    let now = 0;
    const ids = memoryPaymentIds(3, () => now);
    await ids.claim('id-a-0000000000000', 'k', 't', 10);
    await ids.settle('id-b-0000000000000', 'k', { success: true, transaction: '', network: BASE });
    await ids.settle('id-c-0000000000000', 'k', { success: true, transaction: '', network: BASE });
    now = 20; // id-a's claim has lapsed
    await ids.settle('id-d-0000000000000', 'k', { success: true, transaction: '', network: BASE });
    expect(await ids.get('id-b-0000000000000')).not.toBeNull();
    await ids.settle('id-e-0000000000000', 'k', { success: true, transaction: '', network: BASE });
    expect(await ids.get('id-b-0000000000000')).toBeNull(); // the oldest, dropped for the newest
    expect(await ids.get('id-e-0000000000000')).not.toBeNull();
    now = 20 + SETTLED_TTL_MS - 1;
    expect(await ids.get('id-e-0000000000000')).not.toBeNull();
    now = 20 + SETTLED_TTL_MS;
    expect(await ids.get('id-e-0000000000000')).toBeNull();
  });
});
