// Vouchers are money (docs/design.md §13): the channel state the server keeps survives a crash, and processes that share
// it through Redis share it exactly. The built Node server, the local chain and the official batch client: a server
// killed with SIGKILL after N paid answers and started again still claims exactly N × price; two servers on one Redis
// take vouchers of one channel in turn and their claims collect exactly what was paid, once.
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { RedisChannelStorage } from '@x402/evm/batch-settlement/server/redis-storage';
import { installGate } from '../../api/payment/configured.ts';
import { createGate } from '../../api/payment/gate.ts';
import { closeRedis, sharedRedis } from '../../api/payment/redis.ts';
import { redisSetAside } from '../../api/payment/set-aside.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { callHandler } from '../support/handlers.ts';
import { ChannelJournal, ChannelJournalError } from '../../api/payment/channel-journal.ts';
import { batchPayer } from '../support/batch-client.ts';
import { type LocalChain, serveFacilitator, startLocalChain } from '../support/chain.ts';
import { startRedis, type LocalRedis } from '../support/redis.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-channels');
const PREMIUM = '/v1/premium?state=TX';
const PRICE = 100_000n;

/** A channel as the scheme stores it, trimmed to what the journal tests read. */
const channel = (id: string, charged: string, extra: Record<string, unknown> = {}) =>
  ({
    channelId: id,
    channelConfig: { payer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
    chargedCumulativeAmount: charged,
    signedMaxClaimable: charged,
    signature: '0x01',
    balance: '1000000',
    totalClaimed: '0',
    withdrawRequestedAt: 0,
    refundNonce: 0,
    lastRequestTimestamp: 1,
    ...extra,
  }) as never;
const ID = `0x${'a1'.repeat(32)}`;

describe('the channel journal (X402_CHANNELS_DIR)', () => {
  it('reads back every recorded change, writes no reservation, and forgets a refunded channel', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    const journal = ChannelJournal.open(dir);
    await journal.updateChannel(ID, () => channel(ID, '100000'));
    await journal.updateChannel(
      ID,
      (c) =>
        ({
          ...(c as object),
          pendingRequest: { pendingId: 'p', signedMaxClaimable: '200000', expiresAt: Date.now() + 60_000 },
        }) as never,
    );
    const lines = readFileSync(join(dir, 'channels.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1); // the reservation alone wrote nothing
    await journal.updateChannel(ID, () => channel(ID, '200000'));
    const other = `0x${'b2'.repeat(32)}`;
    await journal.updateChannel(other, () => channel(other, '100000'));
    await journal.updateChannel(other, () => undefined);
    journal.close();
    const reopened = ChannelJournal.open(dir);
    expect((await reopened.get(ID))?.chargedCumulativeAmount).toBe('200000');
    expect((await reopened.get(ID))?.pendingRequest).toBeUndefined();
    expect(await reopened.get(other)).toBeUndefined();
    expect((await reopened.list()).map((c) => c.channelId)).toEqual([ID]);
    reopened.close();
  });

  it('is owned by one server at a time; a dead owner (killed) is taken over', () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    const first = ChannelJournal.open(dir);
    expect(() => ChannelJournal.open(dir)).toThrow(ChannelJournalError);
    expect(() => ChannelJournal.open(dir)).toThrow(/in use by process \d+/);
    first.close();
    writeFileSync(join(dir, 'owner.pid'), '999999999'); // no such process
    ChannelJournal.open(dir).close();
  });

  it('refuses a damaged journal, naming the line, and ignores only a last line cut short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    const good = JSON.stringify({ channel: channel(ID, '100000') });
    writeFileSync(join(dir, 'channels.jsonl'), `${good}\n{"channel": {"chann`);
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => void errors.push(line);
    try {
      const journal = ChannelJournal.open(dir);
      expect((await journal.get(ID))?.chargedCumulativeAmount).toBe('100000');
      journal.close();
    } finally {
      console.error = original;
    }
    expect(errors).toEqual([expect.stringMatching(/channels\.jsonl:2: incomplete last line ignored$/)]);
    writeFileSync(join(dir, 'channels.jsonl'), `${good}\nnot json\n${good}\n`);
    expect(() => ChannelJournal.open(dir)).toThrow(/channels\.jsonl:2: not a JSON line/);
    writeFileSync(join(dir, 'channels.jsonl'), `${good}\n{"other": 1}\n`);
    expect(() => ChannelJournal.open(dir)).toThrow(/channels\.jsonl:2: expected \{"channel"/);
  });
});

describe('the built server with prepaid channels', () => {
  let chain: LocalChain;
  let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
  let shards: string;
  let redis: LocalRedis;
  beforeAll(async () => {
    shards = buildInto(REAL_DATA);
    astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
    chain = await startLocalChain();
    facilitator = await serveFacilitator(chain.facilitator);
    redis = await startRedis();
  });
  afterAll(async () => {
    await facilitator?.stop();
    await chain?.stop();
    if (redis) await closeRedis(redis.url); // this process's client of the set-aside test
    await redis?.stop();
  });

  const serve = (env: Record<string, string>) =>
    startServer(join(OUT, 'server', 'entry.mjs'), {
      SHARDS_DIR: shards,
      X402_PAY_TO: chain.payee,
      X402_FACILITATOR_URL: facilitator.url,
      ...env,
    });
  /** Ends a server with a signal and waits for it to exit (SIGTERM: after claiming what it holds). */
  const ended = (child: ChildProcess, signal: NodeJS.Signals) =>
    new Promise<number | null>((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.kill(signal);
    });
  async function newPayer(fetchThrough: (path: string) => string, deposit = 5_000_000n) {
    const key = generatePrivateKey();
    await chain.mint(privateKeyToAccount(key).address, 20_000_000n);
    const payer = batchPayer(key, chain.rpcUrl, globalThis.fetch, { deposit });
    return (path: string) => payer.fetch(fetchThrough(path));
  }

  it('over HTTP, an outside client: one deposit, then 50 answers by voucher with no chain transaction and no facilitator call', async () => {
    const server = await serve({});
    try {
      const pay = await newPayer((path) => `${server.base}${path}`, 10_000_000n); // room for 51 answers: no top-up
      const calls = () => (facilitator.calls.get('/verify') ?? 0) + (facilitator.calls.get('/settle') ?? 0);
      const first = await pay(PREMIUM);
      expect(first.status).toBe(200);
      expect(decodePaymentResponseHeader(first.headers.get('PAYMENT-RESPONSE')!).transaction).toMatch(
        /^0x[0-9a-f]{64}$/,
      );
      const [block, before] = [await chain.rpc<string>('eth_blockNumber'), calls()];
      for (let i = 2; i <= 51; i++) {
        const res = await pay(PREMIUM);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { publications: unknown[] }).publications.length).toBeGreaterThan(0);
        const receipt = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
        expect(receipt.transaction).toBe('');
        expect((receipt.extra?.channelState as { chargedCumulativeAmount: string }).chargedCumulativeAmount).toBe(
          String(BigInt(i) * PRICE),
        );
      }
      expect(await chain.rpc<string>('eth_blockNumber')).toBe(block);
      expect(calls()).toBe(before);
      // Stopping claims it all: the payee gains exactly 51 answers' price.
      const payeeBefore = await chain.balanceOf(chain.payee);
      expect(await ended(server.child, 'SIGTERM')).toBe(0);
      expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + 51n * PRICE);
    } finally {
      server.stop();
    }
  });

  it('SIGKILL after N paid answers loses no voucher: after a restart the claim collects exactly N × price', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'channels-'));
    let server = await serve({ X402_CHANNELS_DIR: dir });
    const pay = await newPayer((path) => `${server.base}${path}`);
    const N = 7;
    for (let i = 0; i < N; i++) {
      const res = await pay(PREMIUM);
      expect(res.status).toBe(200);
      expect(decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!).success).toBe(true);
    }
    await ended(server.child, 'SIGKILL');
    const payeeBefore = await chain.balanceOf(chain.payee);
    server = await serve({ X402_CHANNELS_DIR: dir });
    // The restarted server knows the channel: the payer's next voucher is accepted as the (N+1)th.
    const next = await pay(PREMIUM);
    expect(next.status).toBe(200);
    const receipt = decodePaymentResponseHeader(next.headers.get('PAYMENT-RESPONSE')!);
    expect((receipt.extra?.channelState as { chargedCumulativeAmount: string }).chargedCumulativeAmount).toBe(
      String(BigInt(N + 1) * PRICE),
    );
    expect(receipt.transaction).toBe('');
    // Stopping claims and settles what it holds, then exits cleanly.
    expect(await ended(server.child, 'SIGTERM')).toBe(0);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + BigInt(N + 1) * PRICE);
  });

  it('two servers on one Redis share a channel: vouchers taken in turn, claimed exactly once', async () => {
    const env = { REDIS_URL: redis.url };
    const servers = [await serve(env), await serve(env)];
    let turn = 0;
    const pay = await newPayer((path) => `${servers[turn++ % 2].base}${path}`);
    const N = 8;
    let channelId = '';
    for (let i = 0; i < N; i++) {
      const res = await pay(PREMIUM);
      expect(res.status).toBe(200);
      const receipt = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
      expect((receipt.extra?.channelState as { chargedCumulativeAmount: string }).chargedCumulativeAmount).toBe(
        String(BigInt(i + 1) * PRICE),
      );
      channelId = (receipt.extra?.channelState as { channelId: string }).channelId;
    }
    // A channel set aside in Redis is set aside for both servers, and so is its clearing.
    const setAside = redisSetAside(await sharedRedis(redis.url));
    await setAside.add({ channelId, reason: 'a test', at: new Date().toISOString() });
    for (let i = 0; i < 2; i++) {
      const refused = await pay(PREMIUM);
      expect(refused.status).toBe(402);
      expect(decodePaymentRequiredHeader(refused.headers.get('PAYMENT-REQUIRED')!).error).toBe('channel_set_aside');
    }
    expect(await setAside.clear(channelId)).toBe(true);
    for (let i = 0; i < 2; i++) expect((await pay(PREMIUM)).status).toBe(200);
    const paid = BigInt(N + 2);
    const payeeBefore = await chain.balanceOf(chain.payee);
    // Both stop, and both claim: the second finds nothing left to claim.
    expect(await Promise.all(servers.map((s) => ended(s.child, 'SIGTERM')))).toEqual([0, 0]);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + paid * PRICE);
  });
});

describe('channels in Redis, in process', () => {
  let chain: LocalChain;
  let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
  let redis: LocalRedis;
  beforeAll(async () => {
    chain = await startLocalChain();
    facilitator = await serveFacilitator(chain.facilitator);
    redis = await startRedis();
  });
  afterAll(async () => {
    installGate(undefined);
    await closeRedis(redis.url);
    await facilitator?.stop();
    await chain?.stop();
    await redis?.stop();
  });

  it('Redis gone mid-session: a voucher gets 503, no data and no charge, and the payer is told why', async () => {
    const restoreShards = serveShards(buildInto(REAL_DATA));
    const logged: string[] = [];
    const spies = (['warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    try {
      const settings = paymentSettings({
        X402_PAY_TO: chain.payee,
        X402_FACILITATOR_URL: facilitator.url,
        REDIS_URL: redis.url,
      })!;
      const storage = new RedisChannelStorage({ client: await sharedRedis(redis.url) });
      installGate(
        createGate(settings, new HTTPFacilitatorClient({ url: facilitator.url }), ROUTE_CONTRACTS, {
          channels: storage,
        }),
      );
      const key = generatePrivateKey();
      await chain.mint(privateKeyToAccount(key).address, 20_000_000n);
      const payer = batchPayer(key, chain.rpcUrl, callHandler, { deposit: 5_000_000n });
      for (let i = 0; i < 3; i++) expect((await payer.fetch(`http://127.0.0.1${PREMIUM}`)).status).toBe(200);
      const [channel] = await storage.list();
      expect(channel.chargedCumulativeAmount).toBe(String(3n * PRICE));

      await redis.stop();
      const res = await payer.fetch(`http://127.0.0.1${PREMIUM}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toContain(
        'store of prepaid channels is unavailable; you were not charged and no data was served',
      );
      expect(logged.some((line) => /^x402: Redis at \S+ unavailable: /.test(line))).toBe(true);
    } finally {
      spies.forEach((spy) => spy.mockRestore());
      installGate(undefined);
      restoreShards();
    }
  });
});
