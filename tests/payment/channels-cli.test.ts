// `npm run channels` (scripts/channels.ts), the operator's view: every channel the server holds with what it owes
// and its state, from X402_CHANNELS_DIR (read while the server owns it) or from Redis; `--json` for scripts; and
// `--clear <id>`, which puts a set-aside channel back, seen at once by the running server's store.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { RedisChannelStorage } from '@x402/evm/batch-settlement/server/redis-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelJournal } from '../../api/payment/channel-journal.ts';
import { closeRedis, sharedRedis } from '../../api/payment/redis.ts';
import { fileSetAside, redisSetAside } from '../../api/payment/set-aside.ts';
import { type LocalRedis, startRedis } from '../support/redis.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

/** A channel record as the scheme keeps it: `balance` deposited, `charged` charged, `claimed` claimed (atomic USDC). */
function channel(n: number, balance: bigint, charged: bigint, claimed: bigint, withdrawRequestedAt = 0): Channel {
  const key = address(0x1000 + n);
  return {
    channelId: id(n),
    channelConfig: {
      payer: key,
      payerAuthorizer: key,
      receiver: address(2),
      receiverAuthorizer: address(3),
      token: address(4),
      withdrawDelay: 86_400,
      salt: id(0),
    },
    chargedCumulativeAmount: String(charged),
    signedMaxClaimable: String(charged),
    signature: `0x${'11'.repeat(65)}`,
    balance: String(balance),
    totalClaimed: String(claimed),
    withdrawRequestedAt,
    refundNonce: 0,
    lastRequestTimestamp: Date.UTC(2026, 10, 20, 12, n),
  } as Channel;
}
const CHANNELS = [
  channel(1, 2_000_000n, 300_000n, 100_000n),
  channel(2, 5_000_000n, 1_200_000n, 1_200_000n, 1_795_000_000),
  channel(3, 1_000_000n, 400_000n, 0n),
];
const REASON = 'Claim failed: invalid_batch_settlement_evm_claim_simulation_failed';

async function run(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'scripts', 'channels.ts'), ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH!, ...env } },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** What every view of CHANNELS must say, in the operator's units. */
function expectTheChannels(json: { channels: Record<string, unknown>[]; totals: Record<string, unknown> }) {
  expect(json.channels).toEqual([
    {
      channel: id(1),
      payer: address(0x1001),
      deposit: '2',
      charged: '0.3',
      claimed: '0.1',
      owed: '0.2',
      lastAnswer: '2026-11-20T12:01:00.000Z',
      state: 'open',
    },
    {
      channel: id(2),
      payer: address(0x1002),
      deposit: '5',
      charged: '1.2',
      claimed: '1.2',
      owed: '0',
      lastAnswer: '2026-11-20T12:02:00.000Z',
      state: 'withdrawing',
    },
    {
      channel: id(3),
      payer: address(0x1003),
      deposit: '1',
      charged: '0.4',
      claimed: '0',
      owed: '0.4',
      lastAnswer: '2026-11-20T12:03:00.000Z',
      state: 'set aside',
      setAside: { reason: REASON, at: '2026-11-21T00:00:00.000Z' },
    },
  ]);
  expect(json.totals).toEqual({ channels: 3, deposit: '8', charged: '1.9', claimed: '1.3', owed: '0.6' });
}

describe('from X402_CHANNELS_DIR, while a server owns it', () => {
  let dir: string;
  let journal: ChannelJournal;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'channels-cli-'));
    journal = ChannelJournal.open(dir);
    for (const c of CHANNELS) await journal.updateChannel(c.channelId, () => c);
    await fileSetAside(dir).add({ channelId: id(3), reason: REASON, at: '2026-11-21T00:00:00.000Z' });
  });
  afterAll(() => {
    journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--json: every channel with deposit, charged, claimed, owed, last answer and state, and the totals', async () => {
    const out = await run({ X402_CHANNELS_DIR: dir }, '--json');
    expect(out.code).toBe(0);
    expectTheChannels(JSON.parse(out.stdout));
  });

  it('a table for people, with the totals and why a channel was set aside', async () => {
    const out = await run({ X402_CHANNELS_DIR: dir });
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`prepaid channels in ${dir} (amounts in USDC)`);
    expect(lines[1].split(/\s{2,}/)).toEqual([
      'channel',
      'payer',
      'deposit',
      'charged',
      'claimed',
      'owed',
      'last answer',
      'state',
    ]);
    expect(lines[2].split(/\s{2,}/)).toEqual([
      id(1),
      address(0x1001),
      '2',
      '0.3',
      '0.1',
      '0.2',
      '2026-11-20T12:01:00.000Z',
      'open',
    ]);
    expect(lines[5].split(/\s{2,}/)).toEqual(['total', '3 channel(s)', '8', '1.9', '1.3', '0.6']);
    expect(lines[6]).toBe(`set aside ${id(3)} at 2026-11-21T00:00:00.000Z: ${REASON}`);
  });

  it('--clear puts a set-aside channel back, and the running server store sees it at once; a channel not set aside is said so', async () => {
    const serverView = fileSetAside(dir);
    expect(await serverView.get(id(3))).toBeDefined();
    const out = await run({ X402_CHANNELS_DIR: dir }, '--clear', id(3).toUpperCase().replace('0X', '0x'));
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`channel ${id(3)} cleared`);
    expect(await serverView.get(id(3))).toBeUndefined();
    const again = await run({ X402_CHANNELS_DIR: dir }, '--clear', id(3));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${id(3)} is not set aside`);
    await serverView.add({ channelId: id(3), reason: REASON, at: '2026-11-21T00:00:00.000Z' });
  });

  it('bad arguments: exit 2 with what was expected', async () => {
    for (const args of [['--clear'], ['--clear', '0x12'], ['--all']]) {
      const out = await run({ X402_CHANNELS_DIR: dir }, ...args);
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(
        /^channels: (--clear needs a channel id, 0x and 64 hex digits|unknown argument '--all')/,
      );
      expect(out.stderr).toContain('usage: npm run channels');
    }
  });
});

describe('from Redis (REDIS_URL), shared by every instance', () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startRedis();
    const client = await sharedRedis(redis.url);
    const storage = new RedisChannelStorage({ client: client });
    for (const c of CHANNELS) await storage.updateChannel(c.channelId, () => c);
    await redisSetAside(client).add({ channelId: id(3), reason: REASON, at: '2026-11-21T00:00:00.000Z' });
  });
  afterAll(async () => {
    await closeRedis(redis.url);
    await redis?.stop();
  });

  it('--json says the same as from a directory; --clear clears it for every instance', async () => {
    const out = await run({ REDIS_URL: redis.url }, '--json');
    expect(out.code).toBe(0);
    expectTheChannels(JSON.parse(out.stdout));
    expect((await run({ REDIS_URL: redis.url }, '--clear', id(3))).code).toBe(0);
    expect(await redisSetAside(await sharedRedis(redis.url)).get(id(3))).toBeUndefined();
  });
});
