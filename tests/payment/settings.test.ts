// The payment gate's settings from the environment (docs/design.md §7): off without a payee, Base
// mainnet USDC by default, and a bad or missing value stops the service naming the variable.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../support/server.ts';
import { paymentPrice } from '../../api/payment/terms.ts';
import { type PaymentAsset, PaymentSettingsError, paymentSettings } from '../../api/payment/settings.ts';

const PAYEE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const FACILITATOR = 'https://facilitator.example.com';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

type Env = Record<string, string | undefined>;

/** The PaymentSettingsError `env` raises (fails the test when there is none). */
function settingsError(env: Env): PaymentSettingsError {
  try {
    paymentSettings(env);
  } catch (e) {
    expect(e).toBeInstanceOf(PaymentSettingsError);
    return e as PaymentSettingsError;
  }
  throw new Error(`no PaymentSettingsError for ${JSON.stringify(env)}`);
}

describe('paymentSettings', () => {
  it('is null (gate off) when X402_PAY_TO is unset or blank, whatever else is set', () => {
    expect(paymentSettings({})).toBeNull();
    expect(paymentSettings({ X402_FACILITATOR_URL: FACILITATOR, X402_NETWORK: 'eip155:8453' })).toBeNull();
    expect(paymentSettings({ X402_PAY_TO: '' })).toBeNull();
    expect(paymentSettings({ X402_PAY_TO: '   ' })).toBeNull();
  });

  it('defaults to Base mainnet USDC with the configured facilitator', () => {
    const settings = paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: FACILITATOR })!;
    expect(settings.payTo).toBe(PAYEE);
    expect(settings.network).toBe('eip155:8453');
    expect(settings.asset).toEqual({ address: BASE_USDC, name: 'USD Coin', version: '2', decimals: 6 });
    expect(settings.facilitator).toMatchObject({ kind: 'url', url: FACILITATOR });
    expect(settings.facilitator.timeoutMs).toBeGreaterThan(0);
  });

  it('checksums the payee and trims the facilitator URL', () => {
    const settings = paymentSettings({
      X402_PAY_TO: ` ${PAYEE.toLowerCase()} `,
      X402_FACILITATOR_URL: `${FACILITATOR}/`,
    })!;
    expect(settings.payTo).toBe(PAYEE);
    expect(settings.facilitator).toMatchObject({ kind: 'url', url: FACILITATOR });
  });

  it("on Base Sepolia defaults to its own USDC and the x402 project's public facilitator", () => {
    const settings = paymentSettings({ X402_PAY_TO: PAYEE, X402_NETWORK: 'eip155:84532' })!;
    expect(settings.network).toBe('eip155:84532');
    expect(settings.asset.address).toBe(BASE_SEPOLIA_USDC);
    expect(settings.asset.name).toBe('USDC');
    expect(settings.asset.decimals).toBe(6);
    expect(settings.facilitator).toMatchObject({ kind: 'url', url: 'https://x402.org/facilitator' });
  });

  it('on Base Sepolia still takes a configured facilitator over the public one', () => {
    const settings = paymentSettings({
      X402_PAY_TO: PAYEE,
      X402_NETWORK: 'eip155:84532',
      X402_FACILITATOR_URL: FACILITATOR,
    })!;
    expect(settings.facilitator).toMatchObject({ kind: 'url', url: FACILITATOR });
  });

  it('refuses Base mainnet with no facilitator URL and no CDP keys, naming what to set', () => {
    const error = settingsError({ X402_PAY_TO: PAYEE });
    expect(error.message).toContain('X402_FACILITATOR_URL');
    expect(error.message).toContain('CDP_API_KEY_ID');
  });

  it("uses Coinbase's facilitator with both CDP keys, and names both when only one is set", () => {
    const settings = paymentSettings({
      X402_PAY_TO: PAYEE,
      CDP_API_KEY_ID: 'key-id',
      CDP_API_KEY_SECRET: 'key-secret',
    })!;
    expect(settings.facilitator).toMatchObject({ kind: 'cdp', apiKeyId: 'key-id', apiKeySecret: 'key-secret' });
    for (const env of [{ CDP_API_KEY_ID: 'key-id' }, { CDP_API_KEY_SECRET: 'key-secret' }]) {
      const error = settingsError({ X402_PAY_TO: PAYEE, ...env });
      expect(error.message).toContain('CDP_API_KEY_ID');
      expect(error.message).toContain('CDP_API_KEY_SECRET');
    }
  });

  it.each(['not-an-address', '0x1234', `${PAYEE}00`])('refuses X402_PAY_TO=%s, naming the variable', (payTo) => {
    expect(settingsError({ X402_PAY_TO: payTo, X402_FACILITATOR_URL: FACILITATOR }).message).toContain('X402_PAY_TO');
  });

  it.each(['base', '8453', 'eip155:0', 'solana:mainnet', 'eip155:999999999'])(
    'refuses X402_NETWORK=%s, naming the variable',
    (network) => {
      expect(
        settingsError({ X402_PAY_TO: PAYEE, X402_NETWORK: network, X402_FACILITATOR_URL: FACILITATOR }).message,
      ).toContain('X402_NETWORK');
    },
  );

  it('refuses a custom X402_ASSET without its EIP-712 domain, naming what is missing', () => {
    const base = { X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: FACILITATOR, X402_ASSET: TOKEN };
    const neither = settingsError(base).message;
    expect(neither).toContain('X402_ASSET_NAME');
    expect(neither).toContain('X402_ASSET_VERSION');
    const noVersion = settingsError({ ...base, X402_ASSET_NAME: 'Test Token' }).message;
    expect(noVersion).toContain('X402_ASSET_VERSION');
    expect(noVersion).not.toContain('X402_ASSET_NAME');
    const noName = settingsError({ ...base, X402_ASSET_VERSION: '1' }).message;
    expect(noName).toContain('X402_ASSET_NAME');
    expect(noName).not.toContain('X402_ASSET_VERSION');
  });

  it('takes a custom asset with its domain and decimals, and prices it in its own atomic units', () => {
    const settings = paymentSettings({
      X402_PAY_TO: PAYEE,
      X402_FACILITATOR_URL: FACILITATOR,
      X402_ASSET: TOKEN.toLowerCase(),
      X402_ASSET_NAME: 'Test Token',
      X402_ASSET_VERSION: '1',
      X402_ASSET_DECIMALS: '18',
    })!;
    expect(settings.asset).toEqual({ address: TOKEN, name: 'Test Token', version: '1', decimals: 18 });
    expect(paymentPrice('0.10', settings.asset)).toEqual({
      amount: '100000000000000000',
      asset: TOKEN,
      extra: { name: 'Test Token', version: '1' },
    });
  });

  it.each(['six', '-1', '1.5', '37'])('refuses X402_ASSET_DECIMALS=%s, naming the variable', (decimals) => {
    const env = {
      X402_PAY_TO: PAYEE,
      X402_FACILITATOR_URL: FACILITATOR,
      X402_ASSET: TOKEN,
      X402_ASSET_NAME: 'T',
      X402_ASSET_VERSION: '1',
      X402_ASSET_DECIMALS: decimals,
    };
    expect(settingsError(env).message).toContain('X402_ASSET_DECIMALS');
  });

  it('recognises the default USDC given explicitly as X402_ASSET', () => {
    const settings = paymentSettings({
      X402_PAY_TO: PAYEE,
      X402_FACILITATOR_URL: FACILITATOR,
      X402_ASSET: BASE_USDC.toLowerCase(),
    })!;
    expect(settings.asset).toEqual({ address: BASE_USDC, name: 'USD Coin', version: '2', decimals: 6 });
  });

  it.each(['facilitator.example.com', 'ftp://facilitator.example.com', 'not a url'])(
    'refuses X402_FACILITATOR_URL=%s, naming the variable',
    (url) => {
      expect(settingsError({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: url }).message).toContain(
        'X402_FACILITATOR_URL',
      );
    },
  );

  it.each(['soon', '0', '-5', '1.5', ''])('refuses X402_FACILITATOR_TIMEOUT_MS=%j, naming the variable', (timeout) => {
    expect(
      settingsError({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: FACILITATOR, X402_FACILITATOR_TIMEOUT_MS: timeout })
        .message,
    ).toContain('X402_FACILITATOR_TIMEOUT_MS');
  });

  it('takes a valid X402_FACILITATOR_TIMEOUT_MS', () => {
    const settings = paymentSettings({
      X402_PAY_TO: PAYEE,
      X402_FACILITATOR_URL: FACILITATOR,
      X402_FACILITATOR_TIMEOUT_MS: '5000',
    })!;
    expect(settings.facilitator.timeoutMs).toBe(5000);
  });

  it('keeps payment ids in memory unless REDIS_URL names a Redis (redis:// or rediss://); anything else stops the service, naming it', () => {
    const gate = { X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: FACILITATOR };
    expect(paymentSettings(gate)!.redisUrl).toBeNull();
    expect(paymentSettings({ ...gate, REDIS_URL: ' ' })!.redisUrl).toBeNull();
    expect(paymentSettings({ ...gate, REDIS_URL: 'redis://127.0.0.1:6379' })!.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(paymentSettings({ ...gate, REDIS_URL: 'rediss://user:secret@cache.example.com:6380/0' })!.redisUrl).toBe(
      'rediss://user:secret@cache.example.com:6380/0',
    );
    for (const bad of ['127.0.0.1:6379', 'http://cache.example.com', 'redis://', 'redis://a b'])
      expect(settingsError({ ...gate, REDIS_URL: bad }).message).toMatch(/^REDIS_URL='.*': expected a Redis URL/);
  });
});

describe('prepaid channel settings (docs/design.md §13)', () => {
  const gate = { X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: FACILITATOR };

  it('default to hourly claims, 30 idle days, a 1.00 USD least deposit, a one-day withdrawal delay, .data/channels and the facilitator as authorizer', () => {
    const { channels } = paymentSettings(gate)!;
    expect(channels).toEqual({
      dir: join(process.cwd(), '.data', 'channels'),
      claimIntervalS: 3600,
      idleDays: 30,
      minDepositUsd: '1.00',
      withdrawDelayS: 86_400,
      receiverAuthorizerKey: null,
    });
  });

  it('take each variable, the directory resolved', () => {
    const key = `0x${'4'.repeat(64)}`;
    const { channels } = paymentSettings({
      ...gate,
      X402_CHANNELS_DIR: 'var/channels',
      X402_CLAIM_INTERVAL_S: '600',
      X402_CHANNEL_IDLE_DAYS: '7',
      X402_MIN_DEPOSIT_USD: '5',
      X402_WITHDRAW_DELAY_S: '3600',
      X402_RECEIVER_AUTHORIZER_KEY: key,
    })!;
    expect(channels).toEqual({
      dir: join(process.cwd(), 'var', 'channels'),
      claimIntervalS: 600,
      idleDays: 7,
      minDepositUsd: '5',
      withdrawDelayS: 3600,
      receiverAuthorizerKey: key,
    });
  });

  it('refuse a bad value, naming the variable and what it expects, and never echo a key', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ X402_CLAIM_INTERVAL_S: '0' }, /^X402_CLAIM_INTERVAL_S='0': expected a whole number of seconds, 10 to 86400$/],
      [{ X402_CLAIM_INTERVAL_S: '1h' }, /^X402_CLAIM_INTERVAL_S='1h'/],
      [{ X402_CHANNEL_IDLE_DAYS: '-1' }, /^X402_CHANNEL_IDLE_DAYS='-1': expected a whole number of days/],
      [
        { X402_WITHDRAW_DELAY_S: '60' },
        /^X402_WITHDRAW_DELAY_S='60': expected a whole number of seconds, 900 to 2592000$/,
      ],
      [{ X402_MIN_DEPOSIT_USD: '0' }, /^X402_MIN_DEPOSIT_USD='0': expected a positive amount/],
      [{ X402_MIN_DEPOSIT_USD: '$1' }, /^X402_MIN_DEPOSIT_USD='\$1'/],
      [
        { X402_RECEIVER_AUTHORIZER_KEY: '0xdeadbeefsecret' },
        /^X402_RECEIVER_AUTHORIZER_KEY: expected a private key, 0x and 64 hex digits$/,
      ],
    ];
    for (const [env, message] of cases)
      expect(settingsError({ ...gate, ...env }).message, JSON.stringify(env)).toMatch(message);
    expect(settingsError({ ...gate, X402_RECEIVER_AUTHORIZER_KEY: '0xdeadbeefsecret' }).message).not.toContain(
      'deadbeef',
    );
  });

  it('refuse a withdrawal delay shorter than two claim intervals: vouchers must be claimed before a withdrawal finalizes', () => {
    expect(settingsError({ ...gate, X402_CLAIM_INTERVAL_S: '3600', X402_WITHDRAW_DELAY_S: '3600' }).message).toMatch(
      /X402_WITHDRAW_DELAY_S=3600 is less than twice X402_CLAIM_INTERVAL_S=3600/,
    );
    expect(
      paymentSettings({ ...gate, X402_CLAIM_INTERVAL_S: '1800', X402_WITHDRAW_DELAY_S: '3600' })!.channels
        .withdrawDelayS,
    ).toBe(3600);
  });
});

describe('paymentPrice', () => {
  it('gives USDC prices in 6-decimal atomic units with the token domain', () => {
    const usdc: PaymentAsset = paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: FACILITATOR })!.asset;
    expect(paymentPrice('0.10', usdc)).toEqual({
      amount: '100000',
      asset: BASE_USDC,
      extra: { name: 'USD Coin', version: '2' },
    });
    expect(paymentPrice('0.50', usdc).amount).toBe('500000');
  });
});

describe('server.ts with a bad payment configuration', () => {
  it('refuses to start, naming the variable, before serving anything', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'server.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        X402_PAY_TO: PAYEE,
        X402_NETWORK: 'eip155:8453',
        X402_FACILITATOR_URL: '',
        CDP_API_KEY_ID: '',
        CDP_API_KEY_SECRET: '',
        PORT: '0',
        ASTRO_ENTRY: '/nonexistent/entry.mjs',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('X402_FACILITATOR_URL');
    expect(run.stderr).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });
});
