// The bridge's inputs and its arithmetic, in process: flags and their errors, the payer key's two sources and the key
// file's permissions (never echoing the key), USD amounts as exact atomic units, which offer is paid, how much a
// deposit is, and the state directory's spending record and lock. The command line once as a user meets it: a bad key exits 2 with usage and without the key.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { FileClientChannelStorage } from '@x402/evm/batch-settlement/client/file-storage';
import { ChannelFile } from '../../bridge/channel-file.mjs';
import { readPayerKey } from '../../bridge/key.mjs';
import { ledger } from '../../bridge/ledger.mjs';
import { parseOptions } from '../../bridge/options.mjs';
import { stateLock } from '../../bridge/state-lock.mjs';
import { chooseTerms, depositAmount } from '../../bridge/terms.mjs';
import { formatUsd, parseUsd } from '../../bridge/usd.mjs';
import { runBridge } from '../support/bridge.ts';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

describe('USD amounts', () => {
  it('parse to exact atomic units and print with at least two decimals', () => {
    expect(parseUsd('1', 'x')).toBe(1_000_000n);
    expect(parseUsd('0.10', 'x')).toBe(100_000n);
    expect(parseUsd('5.000001', 'x')).toBe(5_000_001n);
    expect(formatUsd(100_000n)).toBe('0.10');
    expect(formatUsd(5_000_001n)).toBe('5.000001');
    expect(formatUsd(0n)).toBe('0.00');
    for (const bad of ['', '-1', '1e3', '0.1234567', '1,00', 'NaN', '1.'])
      expect(() => parseUsd(bad, '--budget-usd')).toThrow(/--budget-usd must be an amount in USD/);
  });
});

describe('flags', () => {
  it('take their defaults: Base, its USDC and public RPC, a 1.00 USD budget, 5.00 USD deposits, the packaged remote', () => {
    const o = parseOptions([]);
    expect(o).toMatchObject({
      command: 'serve',
      network: 'eip155:8453',
      asset: USDC,
      budget: 1_000_000n,
      maxDeposit: 5_000_000n,
    });
    expect(o.url.pathname).toBe('/mcp');
    expect(o.rpcUrl).toMatch(/^https:\/\//);
    expect(o.stateDir).toMatch(/surplus-lines-mcp$/);
    expect(parseOptions(['refund', '--network', 'eip155:84532']).command).toBe('refund');
  });

  it.each([
    [['--budget-usd', 'ten'], /--budget-usd must be an amount in USD such as 1\.00/],
    [['--max-deposit-usd=-5'], /--max-deposit-usd must be an amount/],
    [['--network', 'eip155:1'], /--network must be one of eip155:8453, eip155:84532/],
    [['--url', 'ftp://example.com/mcp'], /--url must be an http\(s\) URL/],
    [['--rpc-url', 'not a url'], /--rpc-url must be an http\(s\) URL/],
    [['--budget'], /Unknown option '--budget'/],
    [['pay'], /unknown command "pay": the only command is refund/],
  ])('refuse %j', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(message);
  });
});

describe('the payer key', () => {
  const key = generatePrivateKey();
  const dir = mkdtempSync(join(tmpdir(), 'bridge-key-'));
  const file = (text: string, mode: number) => {
    const path = join(dir, `key-${mode.toString(8)}-${text.length}`);
    writeFileSync(path, text);
    chmodSync(path, mode);
    return path;
  };

  it('comes from X402_PAYER_KEY or a file only its owner can read, with or without 0x, a newline allowed', () => {
    expect(readPayerKey(undefined, { X402_PAYER_KEY: key })).toBe(key);
    expect(readPayerKey(file(`${key.slice(2).toUpperCase()}\n`, 0o600), {})).toBe(key);
    expect(readPayerKey(file(key, 0o400), {})).toBe(key);
  });

  it('is refused from a file others can read, given twice, missing or malformed, and no message holds it', () => {
    const messages: string[] = [];
    const refused = (f: () => unknown, pattern: RegExp) => {
      expect(f).toThrow(pattern);
      try {
        f();
      } catch (e) {
        messages.push((e as Error).message);
      }
    };
    const open = file(key, 0o644);
    refused(() => readPayerKey(open, {}), new RegExp(`can be read by others \\(mode 644\\): run chmod 600 ${open}`));
    refused(() => readPayerKey(file(key, 0o640), {}), /can be read by others \(mode 640\)/);
    refused(() => readPayerKey(file(key, 0o600), { X402_PAYER_KEY: key }), /given twice/);
    refused(() => readPayerKey(undefined, {}), /no payer key: set X402_PAYER_KEY or pass --key-file/);
    refused(
      () => readPayerKey(undefined, { X402_PAYER_KEY: `${key}00` }),
      /X402_PAYER_KEY does not hold a private key: expected 0x followed by 64 hex digits/,
    );
    refused(() => readPayerKey(join(dir, 'absent'), {}), /cannot be read/);
    expect(messages.join('\n').toLowerCase()).not.toContain(key.slice(2, 18));
  });

  it('the command exits 2 on a malformed key, with the usage and without the key', async () => {
    const run = await runBridge(['--state-dir', dir], { X402_PAYER_KEY: `${key}zz` });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^surplus-lines-mcp: X402_PAYER_KEY does not hold a private key[^\n]*\nusage: surplus-lines-mcp/,
    );
    expect(run.stderr.toLowerCase()).not.toContain(key.slice(2, 18));
  });
});

describe('which offer is paid', () => {
  const limits = { network: 'eip155:8453', asset: USDC, budget: 1_000_000n, maxDeposit: 5_000_000n };
  const exact = {
    scheme: 'exact',
    network: 'eip155:8453',
    asset: USDC.toLowerCase(),
    amount: '100000',
    payTo: '0x1',
    maxTimeoutSeconds: 60,
    extra: {},
  };
  const batch = { ...exact, scheme: 'batch-settlement', extra: { minDeposit: '1000000' } };
  const terms = (...accepts: object[]) => ({ x402Version: 2, resource: { url: 'mcp://tool/x' }, accepts }) as never;

  it('the prepaid channel when offered and its least deposit fits; else exact; the asset compared without case', () => {
    expect(chooseTerms(terms(exact, batch), limits, 0n)).toEqual({ requirement: batch });
    expect(chooseTerms(terms(exact, { ...batch, extra: { minDeposit: '6000000' } }), limits, 0n)).toEqual({
      requirement: exact,
    });
    expect(chooseTerms(terms(exact), limits, 0n)).toEqual({ requirement: exact });
  });

  it('only while the price fits what is left of the budget: a call that reaches it exactly is paid', () => {
    expect(chooseTerms(terms(batch), limits, 900_000n)).toEqual({ requirement: batch });
    expect(chooseTerms(terms(batch), limits, 900_001n)).toMatchObject({ refusal: { code: 'budget_exceeded' } });
  });

  it('refuses amounts that are not whole atomic units, and unknown schemes', () => {
    expect(chooseTerms(terms({ ...exact, amount: '0.1' }), limits, 0n)).toMatchObject({
      refusal: { code: 'terms_refused' },
    });
    expect(chooseTerms(terms({ ...exact, scheme: 'upto' }), limits, 0n)).toMatchObject({
      refusal: { code: 'terms_refused' },
    });
    expect(chooseTerms({ x402Version: 2 } as never, limits, 0n)).toMatchObject({
      refusal: { code: 'terms_refused', message: expect.stringMatching(/offers nothing$/) },
    });
  });
});

describe('a deposit', () => {
  const base = {
    needed: 100_000n,
    minDeposit: 1_000_000n,
    unspentInChannel: 0n,
    budgetLeft: 3_000_000n,
    maxDeposit: 5_000_000n,
  };
  it('covers what is left of the budget beyond what the channel holds, at least the least deposit, at most --max-deposit-usd', () => {
    expect(depositAmount(base)).toBe(3_000_000n);
    expect(depositAmount({ ...base, budgetLeft: 500_000n })).toBe(1_000_000n);
    expect(depositAmount({ ...base, budgetLeft: 9_000_000n })).toBe(5_000_000n);
    expect(depositAmount({ ...base, unspentInChannel: 50_000n, budgetLeft: 3_000_000n })).toBe(2_950_000n);
    expect(depositAmount({ ...base, minDeposit: 6_000_000n })).toMatchObject({
      code: 'terms_refused',
      message: expect.stringMatching(/needs a deposit of 6\.00 USD, above --max-deposit-usd \(5\.00 USD\)/),
    });
  });
});

describe('the state directory', () => {
  it('keeps the spending exactly; a missing record is nothing spent; a damaged one is refused, naming the file, never read as zero', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bridge-ledger-'));
    const record = ledger(dir);
    expect(record.read()).toEqual({ spent: 0n, deposited: 0n, channelId: null });
    record.write({ spent: 300_000n, deposited: 1_000_000n, channelId: `0x${'ab'.repeat(32)}` });
    expect(ledger(dir).read()).toEqual({ spent: 300_000n, deposited: 1_000_000n, channelId: `0x${'ab'.repeat(32)}` });
    for (const damaged of ['', '{"spent": "3x", "deposited": "0"}', 'not json', '{"deposited": "0"}']) {
      writeFileSync(record.file, damaged);
      expect(() => record.read()).toThrow(
        new RegExp(
          `${record.file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged .*removing it resets what counts against --budget-usd`,
        ),
      );
    }
  });

  it("keeps the channel's record where and as x402's own file storage does: each reads what the other wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bridge-channel-'));
    const ours = new ChannelFile(dir);
    const theirs = new FileClientChannelStorage({ directory: dir });
    const [a, b] = [`0x${'a1'.repeat(32)}`, `0x${'b2'.repeat(32)}`];
    await ours.set(a, { chargedCumulativeAmount: '300000', balance: '1000000' });
    expect(await theirs.get(a)).toEqual({ chargedCumulativeAmount: '300000', balance: '1000000' });
    await theirs.set(b, { chargedCumulativeAmount: '100000', balance: '5000000', totalClaimed: '0' });
    expect(await ours.get(b.toUpperCase().replace('0X', '0x'))).toEqual({
      chargedCumulativeAmount: '100000',
      balance: '5000000',
      totalClaimed: '0',
    });
    await ours.delete(b);
    expect(await theirs.get(b)).toBeUndefined();
    expect(await ours.get(b)).toBeUndefined();
    await expect(ours.get('../../etc/passwd')).rejects.toThrow(/not a channel id/);
  });

  it("one paid call at a time: a lock held by a live process is waited for, a dead owner's lock is taken over", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bridge-lock-'));
    const lockFile = join(dir, 'lock');
    // Held by a live process (this one's parent): the work waits until the lock is released.
    writeFileSync(lockFile, String(process.ppid));
    const order: string[] = [];
    const waiting = stateLock(dir).run(async () => void order.push('work'));
    await new Promise((r) => setTimeout(r, 150));
    order.push('released');
    rmSync(lockFile);
    await waiting;
    expect(order).toEqual(['released', 'work']);
    expect(existsSync(lockFile)).toBe(false);
    // Held by a process that no longer exists: taken over at once.
    writeFileSync(lockFile, '999999999');
    expect(await stateLock(dir).run(async () => readFileSync(lockFile, 'utf8'))).toBe(String(process.pid));
    // Calls of one process run in turn, each holding the lock.
    const lock = stateLock(dir);
    const held: boolean[] = [];
    await Promise.all([1, 2, 3].map(() => lock.run(async () => void held.push(existsSync(lockFile)))));
    expect(held).toEqual([true, true, true]);
  });
});
