// The payment gate end to end with real parts: the built Node server (server.ts) with the gate on,
// a local chain (anvil, chain id 8453) with an EIP-3009 token at the Base USDC address, a loopback
// facilitator built from @x402/core + @x402/evm, and the official @x402/fetch client paying. Every
// refusal leaves the payee's and the payer's on-chain balances as they were.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { join, relative } from 'node:path';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { type LocalChain, payingFetch, serveFacilitator, signPayment, startLocalChain } from '../support/chain.ts';
import { callHandler } from '../support/handlers.ts';
import {
  filesUnder,
  leakedFigures,
  pricedFigures,
  pricedFiguresIn,
  snapshotFigures,
} from '../support/priced-figures.ts';
import { ROOT, astroBuild, freePort, rawRequest, startServer } from '../support/server.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-paid');
const PREMIUM = '/v1/premium?state=TX';
const COMPARE = '/v1/compare?states=FL,TX';
const SUMMARY = '/v1/premium/summary?state=TX&year=2024';
const atomic = (path: string) =>
  BigInt(Math.round(Number(ROUTE_CONTRACTS.find((r) => r.path === path)!.priceUsd) * 1e6));

let chain: LocalChain;
let facilitator: { url: string; stop(): Promise<void> };
let server: { base: string; stop: () => void };
let shards: string;
let priced: Set<string>;
let restoreShards = () => {};

beforeAll(async () => {
  shards = buildInto(REAL_DATA);
  priced = pricedFigures(shards);
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
  chain = await startLocalChain();
  facilitator = await serveFacilitator(chain.facilitator);
  server = await startServer(join(OUT, 'server', 'entry.mjs'), {
    SHARDS_DIR: shards,
    X402_PAY_TO: chain.payee,
    X402_FACILITATOR_URL: facilitator.url,
  });
  restoreShards = serveShards(shards); // the gate-off answers, computed in this process
});
afterAll(async () => {
  server?.stop();
  await facilitator?.stop();
  await chain?.stop();
  restoreShards();
});

/** The answer with the gate off: the same handler in this process, where no X402_PAY_TO is set. */
async function unpaidAnswer(path: string): Promise<string> {
  const res = await callHandler(`http://x${path}`);
  expect(res.status).toBe(200);
  return res.text();
}

async function challenge(path: string, base = server.base): Promise<PaymentRequired> {
  const res = await fetch(`${base}${path}`);
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
}

const balances = async () => ({
  payee: await chain.balanceOf(chain.payee),
  payer: await chain.balanceOf(chain.payer.address),
});

/** Runs `attempt`, expects a refusal with no data, and the on-chain balances unchanged. */
async function expectRefusedOnChain(attempt: () => Promise<Response>, status = 402): Promise<Response> {
  const before = await balances();
  const res = await attempt();
  const text = await res.text();
  expect(res.status).toBe(status);
  if (status === 402) expect(text).toBe('{}');
  expect(pricedFiguresIn(text, priced)).toEqual([]);
  expect(await balances()).toEqual(before);
  return res;
}

const withPayment = (path: string, signature: string, base = server.base) =>
  fetch(`${base}${path}`, { headers: { 'PAYMENT-SIGNATURE': signature } });

describe('a paid request, settled on the local chain', () => {
  for (const path of [PREMIUM, SUMMARY, COMPARE]) {
    it(`${path}: 200 with the gate-off answer and PAYMENT-RESPONSE; the payee gains exactly the price`, async () => {
      const before = await balances();
      const res = await payingFetch(chain)(`${server.base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(await unpaidAnswer(path));
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const receipt = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
      expect(receipt).toMatchObject({ success: true, network: 'eip155:8453', payer: chain.payer.address });
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      const price = atomic(new URL(path, 'http://x').pathname);
      expect(await balances()).toEqual({ payee: before.payee + price, payer: before.payer - price });
    });
  }

  it('a bulk file: 5.00 USD by the official client once its $1 default cap is raised; below it the client refuses to pay; unpaid, 402 with no byte of it', async () => {
    const path = '/v1/bulk/premium.parquet';
    const expected = Buffer.from(await (await callHandler(`http://x${path}`)).arrayBuffer());
    const unpaid = await expectRefusedOnChain(() => fetch(`${server.base}${path}`));
    expect(unpaid.headers.get('content-type')).toMatch(/^application\/json/);
    const head = await fetch(`${server.base}${path}`, { method: 'HEAD' });
    expect([head.status, await head.text(), head.headers.get('content-type')]).toEqual([
      402,
      '',
      'application/json; charset=utf-8',
    ]);
    await expect(payingFetch(chain)(`${server.base}${path}`)).rejects.toThrow(/maxAmountPerPayment/);
    const before = await balances();
    const res = await payingFetch(chain, { spendControls: { maxAmountPerPayment: '$5' } })(`${server.base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(Buffer.from(await res.arrayBuffer()).equals(expected)).toBe(true);
    expect(decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!)).toMatchObject({
      success: true,
      payer: chain.payer.address,
    });
    expect(atomic(path)).toBe(5_000_000n);
    expect(await balances()).toEqual({ payee: before.payee + atomic(path), payer: before.payer - atomic(path) });
  });

  it('re-checking with the ETag is free: 304 with no body, no challenge and no transfer, in the coding asked for (docs/design.md §14)', async () => {
    const etag = (await callHandler(`http://x${PREMIUM}`)).headers.get('etag')!;
    const before = await balances();
    for (const [coding, tag] of [
      ['identity', etag],
      ['br', `${etag.slice(0, -1)}-br"`],
    ]) {
      const res = await fetch(`${server.base}${PREMIUM}`, {
        headers: { 'If-None-Match': etag, 'Accept-Encoding': coding },
      });
      expect(res.status, coding).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag'), coding).toBe(tag);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('payment-required')).toBeNull();
    }
    // Another tag is not the answer held: the challenge.
    expect((await fetch(`${server.base}${PREMIUM}`, { headers: { 'If-None-Match': '"0"' } })).status).toBe(402);
    expect(await balances()).toEqual(before);
  });

  it('asks nothing of a bad request: 400 and 404 come before payment', async () => {
    for (const [path, status] of [
      ['/v1/premium?state=TX&granularity=week', 400],
      ['/v1/premium?state=ZZ', 404],
      ['/v1/insurers?state=FL&period=2024-01', 404],
    ] as const) {
      const res = await expectRefusedOnChain(() => fetch(`${server.base}${path}`), status);
      expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
    }
  });

  it('keeps free routes free with the gate on', async () => {
    for (const path of ['/v1/coverage', '/v1/lines?state=TX', '/v1/premium/sample?state=TX'])
      expect((await fetch(`${server.base}${path}`)).status).toBe(200);
  });
});

describe("the README's paying agent (scripts/pay-local.mjs), both schemes", () => {
  const pay = (scheme: string) =>
    promisify(execFile)(
      process.execPath,
      [join(ROOT, 'scripts', 'pay-local.mjs'), scheme, `${server.base}${PREMIUM}`],
      {
        cwd: ROOT,
        env: { ...process.env, RPC: chain.rpcUrl, PAYER_KEY: chain.payer.privateKey },
      },
    );

  it('exact: three answers, each settled in a transaction of its own; batch: one deposit, then vouchers with no transaction', async () => {
    const before = await balances();
    const exact = (await pay('exact')).stdout.trim().split('\n');
    expect(exact).toHaveLength(3);
    for (const line of exact) expect(line).toMatch(/^200 exact 0x[0-9a-f]{64}$/);
    expect(new Set(exact).size).toBe(3);
    const batch = (await pay('batch')).stdout.trim().split('\n');
    expect(batch[0]).toMatch(/^200 batch 0x[0-9a-f]{64} 100000$/);
    expect(batch.slice(1)).toEqual([
      '200 batch (no transaction: a voucher) 200000',
      '200 batch (no transaction: a voucher) 300000',
    ]);
    // The exact answers paid the payee on the spot; the channel holds the deposit until the server claims it.
    const price = atomic('/v1/premium');
    const after = await balances();
    expect(after.payee).toBe(before.payee + 3n * price);
    expect(after.payer).toBeLessThan(before.payer - 3n * price);
  });
});

describe('no charge for nothing (docs/design.md §7): an answer with no figure is given, not settled', () => {
  // Read off the data files: the earliest publication date, and every period any publication covers.
  const files = readdirSync(join(ROOT, 'data', 'publications'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.csv'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'));
  const reportDates = files.map((t) => /^# report_date: (\d{4}-\d{2}-\d{2})$/m.exec(t)![1]).sort();
  const periods = files.flatMap((t) =>
    t
      .split('\n')
      .filter((l) => /^[A-Z]{2},/.test(l))
      .map((l) => l.split(',')[1]),
  );
  const BEFORE_ALL = '2000-01-01';
  const EMPTY = [
    '/v1/premium?state=TX&from=1990-01&to=1990-12',
    `/v1/premium?state=TX&granularity=year&report_date=${BEFORE_ALL}`,
    `/v1/compare?states=FL,TX&report_date=${BEFORE_ALL}`,
    '/v1/premium/summary?state=TX&year=1990',
  ];

  it('the empty queries ask for what no publication has: 1990 and 1989 periods, a date before every report', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(reportDates[0] > BEFORE_ALL).toBe(true);
    expect(periods.length).toBeGreaterThan(100);
    expect(periods.filter((p) => p.startsWith('1990') || p.startsWith('1989'))).toEqual([]);
  });

  for (const path of EMPTY)
    it(`${path}: 200 with the answer, data and publications empty, no PAYMENT-RESPONSE, balances unchanged`, async () => {
      const expected = await unpaidAnswer(path);
      const body = JSON.parse(expected);
      expect(body.publications).toEqual([]);
      if ('data' in body) expect(body.data).toEqual([]);
      if ('series' in body) expect(Object.values(body.series).flat()).toEqual([]);
      if ('basis' in body)
        expect([body.basis, body.premium, body.policy_count, body.prior_year.premium]).toEqual([
          null,
          null,
          null,
          null,
        ]);

      const before = await balances();
      const res = await payingFetch(chain)(`${server.base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(expected);
      expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
      expect(await balances()).toEqual(before);
    });

  it('the authorization an empty answer left unspent pays for an answer with figures: settled, the balances move by the price', async () => {
    const empty = EMPTY[0];
    // One /v1/premium signature ($0.10) is good for either query: x402 does not bind the resource.
    const signature = await signPayment(chain, await challenge(PREMIUM));
    const before = await balances();
    const first = await withPayment(empty, signature);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(await unpaidAnswer(empty));
    expect(first.headers.get('PAYMENT-RESPONSE')).toBeNull();
    expect(await balances()).toEqual(before);

    const second = await withPayment(PREMIUM, signature);
    expect(second.status).toBe(200);
    const text = await second.text();
    expect(text).toBe(await unpaidAnswer(PREMIUM));
    expect(JSON.parse(text).publications.length).toBeGreaterThan(0);
    expect(decodePaymentResponseHeader(second.headers.get('PAYMENT-RESPONSE')!)).toMatchObject({
      success: true,
      payer: chain.payer.address,
    });
    const price = atomic('/v1/premium');
    expect(await balances()).toEqual({ payee: before.payee + price, payer: before.payer - price });
  });
});

describe('refused payments: 402, no data, balances unchanged', () => {
  it('no payment: the challenge names price, network, payee and asset', async () => {
    const res = await expectRefusedOnChain(() =>
      fetch(`${server.base}${PREMIUM}`, { headers: { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' } }),
    );
    const offer = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).accepts[0];
    expect(offer).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: String(atomic('/v1/premium')),
      payTo: chain.payee,
      asset: chain.usdc,
    });
  });

  it("a valid compare listing FL 3,300 times: a challenge Node's fetch can read, naming the canonical query", async () => {
    // Echoing the request URL made PAYMENT-REQUIRED over 16 KB: fetch failed with UND_ERR_HEADERS_OVERFLOW.
    const res = await expectRefusedOnChain(() => fetch(`${server.base}/v1/compare?states=${'FL,'.repeat(3300)}TX`));
    expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).resource.url).toBe(
      `${server.base}/v1/compare?states=FL,TX&line=all&granularity=month`,
    );
  });

  it('a malformed payment header', async () => {
    await expectRefusedOnChain(() => withPayment(PREMIUM, 'not base64!'));
    await expectRefusedOnChain(() => withPayment(PREMIUM, Buffer.from('{"x402Version":2').toString('base64')));
  });

  it('the wrong amount', async () => {
    await expectRefusedOnChain(async () =>
      withPayment(PREMIUM, await signPayment(chain, await challenge(PREMIUM), { amount: '1' })),
    );
    // The same, echoing the offer while signing for less: refused by the facilitator's own check.
    await expectRefusedOnChain(async () =>
      withPayment(
        PREMIUM,
        await signPayment(chain, await challenge(PREMIUM), { amount: '1' }, { accepted: 'offered' }),
      ),
    );
  });

  it('a $0.10 payment presented at the $0.50 route', async () => {
    const dime = await signPayment(chain, await challenge(PREMIUM));
    await expectRefusedOnChain(() => withPayment(COMPARE, dime));
  });

  it('a payment to the wrong payee', async () => {
    await expectRefusedOnChain(async () =>
      withPayment(PREMIUM, await signPayment(chain, await challenge(PREMIUM), { payTo: chain.other })),
    );
    await expectRefusedOnChain(async () =>
      withPayment(
        PREMIUM,
        await signPayment(chain, await challenge(PREMIUM), { payTo: chain.other }, { accepted: 'offered' }),
      ),
    );
  });

  it('a payment on the wrong network', async () => {
    await expectRefusedOnChain(async () =>
      withPayment(PREMIUM, await signPayment(chain, await challenge(PREMIUM), { network: 'eip155:84532' })),
    );
    await expectRefusedOnChain(async () =>
      withPayment(
        PREMIUM,
        await signPayment(chain, await challenge(PREMIUM), { network: 'eip155:84532' }, { accepted: 'offered' }),
      ),
    );
  });

  it('an expired authorization', async () => {
    const offer = await challenge(PREMIUM);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 3_600_000); // signed an hour ago: valid until 55 minutes ago
    let stale: string;
    try {
      stale = await signPayment(chain, offer);
    } finally {
      vi.useRealTimers();
    }
    await expectRefusedOnChain(() => withPayment(PREMIUM, stale));
  });

  it('a replay of a settled payment', async () => {
    const signature = await signPayment(chain, await challenge(PREMIUM));
    const before = await balances();
    const first = await withPayment(PREMIUM, signature);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(await unpaidAnswer(PREMIUM));
    const price = atomic('/v1/premium');
    expect(await balances()).toEqual({ payee: before.payee + price, payer: before.payer - price });
    const replay = await expectRefusedOnChain(() => withPayment(PREMIUM, signature));
    expect(decodePaymentRequiredHeader(replay.headers.get('PAYMENT-REQUIRED')!).error).toMatch(/^[a-z_]+$/);
  });

  it('two concurrent requests with one payment: exactly one gets data, one price is paid', async () => {
    const signature = await signPayment(chain, await challenge(PREMIUM));
    const before = await balances();
    const answers = await Promise.all([withPayment(PREMIUM, signature), withPayment(PREMIUM, signature)]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 402]);
    expect(bodies.filter((b) => b === '{}')).toHaveLength(1);
    expect(bodies.filter((b) => pricedFiguresIn(b, priced).length > 0)).toHaveLength(1);
    const price = atomic('/v1/premium');
    expect(await balances()).toEqual({ payee: before.payee + price, payer: before.payer - price });
  });

  it('an unreachable facilitator: a clear 503 JSON error, nothing served, nothing settled', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const other = await startServer(join(OUT, 'server', 'entry.mjs'), {
      SHARDS_DIR: shards,
      X402_PAY_TO: chain.payee,
      X402_FACILITATOR_URL: dead,
    });
    try {
      const valid = await signPayment(chain, await challenge(PREMIUM)); // signed for the live server's identical offer
      for (const init of [{}, { headers: { 'PAYMENT-SIGNATURE': valid } }]) {
        const res = await expectRefusedOnChain(() => fetch(`${other.base}${PREMIUM}`, init), 503);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        const text = await fetch(`${other.base}${PREMIUM}`, init).then((r) => r.text());
        expect(JSON.parse(text).error).toMatchObject({
          code: 'internal',
          message: expect.stringMatching(/facilitator is unavailable/),
        });
        expect(text).not.toContain(dead.split('//')[1]);
      }
    } finally {
      other.stop();
    }
  });
});

describe('no way around the gate', () => {
  const TRICKS = [
    '/v1/premium/?state=TX',
    '/V1/premium?state=TX',
    '/v1/PREMIUM?state=TX',
    '/v1%2Fpremium?state=TX',
    '/v1/premium%2F?state=TX',
    '/%761/premium?state=TX',
    '/v1/premium%0A?state=TX',
    '/v1/premium%0D%0A?state=TX',
    '/v1/premium%00?state=TX',
    '/v1//premium?state=TX',
    '/v1/./premium?state=TX',
    '/v1/x/../premium?state=TX',
    '/v1/premium/..%2Fpremium?state=TX',
    '/v1/premium;x?state=TX',
    '/v1/premium.json?state=TX',
    '/v1/premium/summary/?state=TX&year=2024',
    '/v1/compare/?states=FL,TX',
    '//v1/premium?state=TX',
    '/v1/premium?state=TX&state=TX',
    '/v1/premium/sample/../../premium?state=TX',
  ];
  for (const path of TRICKS)
    it(`${path} serves no priced figure without payment`, async () => {
      const before = await balances();
      const res = await rawRequest(server.base, 'GET', path); // the target as written: fetch would normalise it
      expect([400, 402, 404]).toContain(res.status);
      expect(pricedFiguresIn(res.body, priced)).toEqual([]);
      expect(await balances()).toEqual(before);
    });

  it('the built static files carry no priced figure but the headlines the snapshot pages show and cite', async () => {
    expect(priced.size).toBeGreaterThan(20); // there are figures to look for
    const files = filesUnder(join(OUT, 'client'));
    expect(files.length).toBeGreaterThan(0);
    const shown = await snapshotFigures();
    for (const f of files) {
      const path = `/${relative(join(OUT, 'client'), f)}`;
      expect(leakedFigures(path, readFileSync(f, 'utf8'), priced, shown), path).toEqual([]);
    }
  });

  it("a crawl of the site from / reaches no priced figure without payment but the snapshot pages' headlines", async () => {
    const shown = await snapshotFigures();
    const seen = new Set<string>();
    const queue = ['/', '/openapi.json', '/llms.txt', '/robots.txt', '/sitemap.xml'];
    while (queue.length && seen.size < 500) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await fetch(`${server.base}${path}`);
      const text = await res.text();
      if (res.status === 200) expect(leakedFigures(path, text, priced, shown), path).toEqual([]);
      for (const [, href] of text.matchAll(/(?:href|src)="([^"#]+)"/g)) {
        const url = new URL(href.replaceAll('&amp;', '&'), `${server.base}${path}`);
        if (url.origin === server.base) queue.push(url.pathname + url.search);
      }
    }
    expect(seen.size).toBeGreaterThan(60); // it reached the month pages
  });
});
