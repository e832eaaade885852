// Retry-safe payments end to end (issue 22, docs/design.md §7), with real parts only: the built Node server with the
// gate on and its payment ids in a real Redis (Debian's redis-server), a local chain (anvil) with an EIP-3009
// token at the Base USDC address, a loopback facilitator from @x402/core + @x402/evm, and an outside paying
// client, the official @x402/fetch with a payment id added by @x402/extensions' own helper. Every outcome is
// read off the chain's balances.
import { join } from 'node:path';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalChain, payerClient, serveFacilitator, signPayment, startLocalChain } from '../support/chain.ts';
import { callHandler } from '../support/handlers.ts';
import { type LocalRedis, startRedis } from '../support/redis.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-retry');
const PREMIUM = '/v1/premium?state=TX';
const SUMMARY = '/v1/premium/summary?state=TX&year=2024';
/** 0.10 USD in USDC's atomic units, worked out here. */
const DIME = 100_000n;

let chain: LocalChain;
let redis: LocalRedis;
let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
let server: { base: string; stop: () => void };
let shards: string;
let restoreShards = () => {};
const serve = () =>
  startServer(join(OUT, 'server', 'entry.mjs'), {
    SHARDS_DIR: shards,
    X402_PAY_TO: chain.payee,
    X402_FACILITATOR_URL: facilitator.url,
    REDIS_URL: redis.url,
  });

beforeAll(async () => {
  shards = buildInto(REAL_DATA);
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
  [chain, redis] = await Promise.all([startLocalChain(), startRedis()]);
  facilitator = await serveFacilitator(chain.facilitator);
  server = await serve();
  restoreShards = serveShards(shards); // the gate-off answers, computed in this process
});
afterAll(async () => {
  server?.stop();
  await facilitator?.stop();
  await chain?.stop();
  await redis?.stop();
  restoreShards();
});

const balances = async () => ({
  payee: await chain.balanceOf(chain.payee),
  payer: await chain.balanceOf(chain.payer.address),
});

/** The official paying fetch, each payment it signs carrying payment id `id` (the extension's own helper puts it there). */
function fetchPayingWithId(id: string) {
  const client = payerClient(chain.payer.privateKey);
  client.onBeforePaymentCreation(async ({ paymentRequired }) => {
    appendPaymentIdentifierToExtensions((paymentRequired.extensions ??= {}), id);
  });
  return wrapFetchWithPayment(globalThis.fetch, client);
}

const receiptOf = (res: Response) => decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);

describe('a paid request with a payment id, on the local chain, ids in Redis', () => {
  it('pays the price once; a retry with the same id and a new signature gets the same answer and receipt and moves nothing', async () => {
    const id = generatePaymentId();
    const before = await balances();
    const first = await fetchPayingWithId(id)(`${server.base}${PREMIUM}`);
    expect(first.status).toBe(200);
    const body = await first.text();
    expect(body).toBe(await (await callHandler(`http://x${PREMIUM}`)).text());
    const receipt = receiptOf(first);
    expect(receipt).toMatchObject({ success: true, payer: chain.payer.address });
    expect(await balances()).toEqual({ payee: before.payee + DIME, payer: before.payer - DIME });

    const retry = await fetchPayingWithId(id)(`${server.base}${PREMIUM}`);
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe(body);
    expect(receiptOf(retry)).toEqual(receipt);
    expect(await balances()).toEqual({ payee: before.payee + DIME, payer: before.payer - DIME });
  });

  it('a restart of the Node server keeps honouring the ids it settled (they are in Redis)', async () => {
    const id = generatePaymentId();
    const first = await fetchPayingWithId(id)(`${server.base}${SUMMARY}`);
    expect(
      first.status,
      first.headers.get('PAYMENT-REQUIRED')
        ? decodePaymentRequiredHeader(first.headers.get('PAYMENT-REQUIRED')!).error
        : '',
    ).toBe(200);
    const receipt = receiptOf(first);
    server.stop();
    server = await serve();
    const before = await balances();
    const retry = await fetchPayingWithId(id)(`${server.base}${SUMMARY}`);
    expect(
      retry.status,
      retry.headers.get('PAYMENT-REQUIRED')
        ? decodePaymentRequiredHeader(retry.headers.get('PAYMENT-REQUIRED')!).error
        : '',
    ).toBe(200);
    expect(receiptOf(retry)).toEqual(receipt);
    expect(await balances()).toEqual(before);
  });

  it('the same id for another resource is refused: 402, nothing moved', async () => {
    const id = generatePaymentId();
    expect((await fetchPayingWithId(id)(`${server.base}${PREMIUM}`)).status).toBe(200);
    const before = await balances();
    const other = await fetchPayingWithId(id)(`${server.base}${SUMMARY}`);
    expect(other.status).toBe(402);
    expect(decodePaymentRequiredHeader(other.headers.get('PAYMENT-REQUIRED')!).error).toBe(
      'payment_identifier_conflict',
    );
    expect(await balances()).toEqual(before);
  });

  it('two retries racing with one fresh id and two signatures settle once', async () => {
    const id = generatePaymentId();
    const res = await fetch(`${server.base}${PREMIUM}`);
    const terms = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
    appendPaymentIdentifierToExtensions(terms.extensions!, id);
    const [a, b] = [await signPayment(chain, terms), await signPayment(chain, terms)];
    expect(a).not.toBe(b);
    const before = await balances();
    const answers = await Promise.all(
      [a, b].map((signature) => fetch(`${server.base}${PREMIUM}`, { headers: { 'PAYMENT-SIGNATURE': signature } })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(receiptOf(answers[0])).toEqual(receiptOf(answers[1]));
    expect(await balances()).toEqual({ payee: before.payee + DIME, payer: before.payer - DIME });
  });

  it('settles without a separate verify, over connections kept alive to the facilitator', async () => {
    const [verifies, settles, connections] = [
      facilitator.calls.get('/verify') ?? 0,
      facilitator.calls.get('/settle') ?? 0,
      facilitator.connections(),
    ];
    for (let i = 0; i < 3; i++)
      expect((await fetchPayingWithId(generatePaymentId())(`${server.base}${PREMIUM}`)).status).toBe(200);
    expect((facilitator.calls.get('/verify') ?? 0) - verifies).toBe(0);
    expect((facilitator.calls.get('/settle') ?? 0) - settles).toBe(3);
    expect(facilitator.connections() - connections).toBeLessThanOrEqual(1);
  });
});
