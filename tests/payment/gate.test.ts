// The x402 payment gate, in process: Request in, Response out, no socket and no chain. The payer is
// the official x402 client (@x402/fetch over @x402/evm's exact scheme) signing real EIP-3009
// authorizations; the facilitator is the mock of tests/support/verify-only-facilitator.ts, which
// checks those signatures with viem and keeps an in-memory ledger. Every paid answer is compared to
// the gate-off answer of the same request, computed in the same test.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  decodePaymentRequiredHeader,
  decodePaymentSignatureHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { createHash, createHmac } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RouteContract, ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { errorBody } from '../../domain/contract.ts';
import { installGate } from '../../api/payment/configured.ts';
import { resetStore } from '../../api/store.ts';
import { type Gate, type PricedAnswer, createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { responseOf, wireAnswer } from '../../api/wire-answer.ts';
import { callHandler } from '../support/handlers.ts';
import { type VerifyOnlyFacilitator, verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';
import { FIXTURE_DATA, buildInto, serveShards, useShardsOf } from '../support/shards.ts';
import { capturedConsole } from '../support/console.ts';

const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
const PAYER = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const BASE = 'eip155:8453';
const BASE_SEPOLIA = 'eip155:84532';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
/** The mock facilitator's own address, which its settlement error text carries. */
const FACILITATOR_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const ORIGIN = 'http://service.test';

/**
 * A query per priced route (two for /v1/insurers) that answers 200 with figures from the fixture data (checked below), and
 * the resource its challenge names: the query as parsed, defaults included (docs/design.md §2-3: line all,
 * compare's granularity month), never the request's own text.
 */
const PRICED = [
  { path: '/v1/premium', query: 'state=FL', resource: 'state=FL&line=all' },
  { path: '/v1/premium/summary', query: 'state=FL&year=2024', resource: 'state=FL&year=2024' },
  { path: '/v1/insurers', query: 'state=FL&period=2024-01', resource: 'state=FL&period=2024-01' },
  { path: '/v1/compare', query: 'states=FL,IL', resource: 'states=FL,IL&line=all&granularity=month' },
  { path: '/v1/solvency', query: 'insurer=acme+casualty+co', resource: 'insurer=acme%20casualty%20co' },
  { path: '/v1/enforcement', query: 'state=ma&action_type=fine', resource: 'action_type=fine&state=MA' },
  { path: '/v1/rates', query: 'state=FL', resource: 'state=FL' },
  { path: '/v1/rates/activity', query: 'states=FL,TX', resource: 'states=FL,TX&granularity=quarter' },
  { path: '/v1/syndicates', query: 'syndicate=1234', resource: 'syndicate=1234' },
  { path: '/v1/eligibility', query: 'syndicate=1234', resource: 'syndicate=1234' },
  // a ranking as printed (rankings/office/tx-2021-top-companies.csv), beside the list ranked from figures above
  { path: '/v1/insurers', query: 'state=tx&period=2021', resource: 'state=TX&period=2021' },
  // the bulk downloads: no parameters, the whole table
  { path: '/v1/bulk/premium.csv', query: '', resource: '' },
  { path: '/v1/bulk/premium.parquet', query: '', resource: '' },
] as const;
const FREE = ['/v1/premium/sample', '/v1/lines?state=FL', '/v1/coverage'];

const contractOf = (path: string): RouteContract => ROUTE_CONTRACTS.find((r) => r.path === path)!;
const urlOf = (p: { path: string; query: string }) => `${ORIGIN}${p.path}?${p.query}`;
/** The resource a challenge names: the path, and the query as parsed when there is one. */
const resourceOf = (p: { path: string; resource: string }) => `${ORIGIN}${p.path}${p.resource ? `?${p.resource}` : ''}`;
/** The price in USDC atomic units (6 decimals), worked out here from the contract's USD price. */
const expectedAmount = (path: string) => BigInt(Math.round(Number(contractOf(path).priceUsd) * 1_000_000));

const local = callHandler;
/** The gate's one line per refused payment (reason code only), and the facilitator's failures: expected here, not printed. */
capturedConsole([/^x402: payment refused on \/v1\/[a-z/]+: [\w .]+$/, /^x402 facilitator \w+ failed: /]);

const payerScheme = new ExactEvmScheme(PAYER);
// The official client caps a payment at $1 unless told otherwise: a bulk file costs 5.00 USD.
const client = new x402Client()
  .register(BASE, payerScheme)
  .register(BASE_SEPOLIA, payerScheme)
  .setSpendControls({ maxAmountPerPayment: '$5' });
const pay = wrapFetchWithPayment(local, client);

const settingsOf = () => paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!;
const facilitator = verifyOnlyFacilitator(BASE);
let gate: Gate;

/** What the payee has received from the mock's settlements. */
const ledger = (fac: VerifyOnlyFacilitator = facilitator) => fac.received.get(PAYEE) ?? 0n;

/** The same request with the gate off: the answer a paid request must equal. */
async function gateOff(url: string): Promise<{ status: number; text: string }> {
  installGate(null);
  try {
    const res = await local(url);
    return { status: res.status, text: await res.text() };
  } finally {
    installGate(gate);
  }
}

async function challengeOf(url: string): Promise<PaymentRequired> {
  const res = await local(url);
  expect(res.status).toBe(402);
  return decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
}

/** A PAYMENT-SIGNATURE header signed by the official client for (a possibly edited copy of) a challenge. */
async function signed(challenge: PaymentRequired, edit: (c: PaymentRequired) => void = () => {}): Promise<string> {
  const copy = structuredClone(challenge);
  edit(copy);
  return encodePaymentSignatureHeader(await client.createPaymentPayload(copy));
}

const withPayment = (url: string, header: string) => local(url, { headers: { 'PAYMENT-SIGNATURE': header } });

/** A refused payment: 402, body exactly {} (no data); returns the challenge's error, if any. */
async function expectRefused(res: Response): Promise<string | undefined> {
  expect(res.status).toBe(402);
  expect(await res.text()).toBe('{}');
  expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
  expect(res.headers.get('Cache-Control')).toBe('private, no-store');
  const challenge = res.headers.get('PAYMENT-REQUIRED');
  return challenge ? decodePaymentRequiredHeader(challenge).error : undefined;
}

/** A refusal reason is a machine code or one of the SDK's fixed phrases, never a facilitator's free text. */
const SDK_PHRASES = ['Payment required', 'No matching payment requirements'];
function expectReasonCode(reason: string | undefined) {
  expect(reason).toBeDefined();
  if (!SDK_PHRASES.includes(reason!)) expect(reason).toMatch(/^[a-z][a-z0-9_]*$/);
}

const exposed = (res: Response) =>
  (res.headers.get('Access-Control-Expose-Headers') ?? '').split(',').map((h) => h.trim().toUpperCase());
function expectCors(res: Response) {
  expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  expect(exposed(res)).toEqual(expect.arrayContaining(['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE']));
}

/** Figures of an answer that would give it away: large or fractional numbers. */
function figuresOf(json: unknown, out: number[] = []): number[] {
  if (typeof json === 'number' && (json >= 10_000 || !Number.isInteger(json))) out.push(json);
  else if (Array.isArray(json)) json.forEach((v) => figuresOf(v, out));
  else if (json && typeof json === 'object') Object.values(json).forEach((v) => figuresOf(v, out));
  return out;
}

/** What a priced answer holds: its figures, or, for a list of names (eligibility), the names it gives. */
function heldIn(body: { data?: { company_name?: string }[] }): string[] {
  return [
    ...figuresOf(body).map(String),
    ...(body.data ?? []).flatMap((d) => (d.company_name ? [d.company_name] : [])),
  ];
}

/** The figures a priced answer holds: a JSON answer's, or, for a bulk file, the values of the bulk CSV (the Parquet file holds the same rows). */
async function paidFiguresAt(path: string, url: string): Promise<number[]> {
  if (!contractOf(path).download) return figuresOf(JSON.parse((await gateOff(url)).text));
  const rows = parse<{ value: string }>((await gateOff(`${ORIGIN}/v1/bulk/premium.csv`)).text, { columns: true });
  return figuresOf(rows.map((r) => Number(r.value)));
}

/** A 200's body holds figures: a JSON answer its contract's shape, a bulk CSV rows after its header, a bulk Parquet file a Parquet file. */
function expectFigures(path: string, text: string): void {
  if (path.endsWith('.csv')) expect(text.split('\r\n').filter(Boolean).length, `${path} has rows`).toBeGreaterThan(1);
  else if (path.endsWith('.parquet'))
    expect(text.startsWith('PAR1') && text.length > 1000, `${path} is a Parquet file`).toBe(true);
  else {
    const body = JSON.parse(text);
    contractOf(path).response.parse(body);
    expect(heldIn(body).length, `${path} has figures`).toBeGreaterThan(0);
  }
}

interface Bazaar {
  info: { input: { queryParams: Record<string, unknown> }; output: { example: unknown } };
  schema: { properties: { input: { properties: { queryParams: { properties: Record<string, unknown> } } } } };
}

useShardsOf(FIXTURE_DATA);

beforeAll(() => {
  gate = createGate(settingsOf(), facilitator, ROUTE_CONTRACTS);
  installGate(gate);
});
afterAll(() => installGate(undefined));

describe('the fixture queries', () => {
  it('cover every priced route of the contract and answer 200 with figures when the gate is off', async () => {
    expect([...new Set(PRICED.map((p) => p.path))].sort()).toEqual(
      ROUTE_CONTRACTS.filter((r) => r.priceUsd)
        .map((r) => r.path)
        .sort(),
    );
    for (const p of PRICED) {
      const { status, text } = await gateOff(urlOf(p));
      expect(status, p.path).toBe(200);
      expectFigures(p.path, text);
    }
  });
});

describe('an unpaid request to a priced route', () => {
  it.each(PRICED)('$path: 402, body {}, and a PAYMENT-REQUIRED challenge for the contract price', async (p) => {
    const url = urlOf(p);
    const route = contractOf(p.path);
    const before = ledger();
    const res = await local(url);
    expect(res.status).toBe(402);
    expect(await res.text()).toBe('{}');
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
    expectCors(res);
    expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();

    const header = res.headers.get('PAYMENT-REQUIRED')!;
    expect(header).toBeTruthy();
    expect(header.length).toBeLessThan(8 * 1024);
    const challenge = decodePaymentRequiredHeader(header);
    expect(challenge.x402Version).toBe(2);
    expect(challenge.accepts).toHaveLength(1);
    const [accept] = challenge.accepts;
    expect(accept.scheme).toBe('exact');
    expect(accept.network).toBe(BASE);
    expect(accept.amount).toBe(expectedAmount(p.path).toString());
    expect(getAddress(accept.asset)).toBe(BASE_USDC);
    expect(getAddress(accept.payTo)).toBe(PAYEE);
    expect(accept.extra).toEqual({ name: 'USD Coin', version: '2' });
    expect(challenge.resource.url).toBe(resourceOf(p));
    // x402 names one type per route: JSON's, or a download's own (docs/design.md §14).
    expect(challenge.resource.mimeType).toBe(route.download?.mediaType ?? 'application/json');
    expect(challenge.resource.description?.trim()).toBeTruthy();

    // Bazaar discovery: an example query with every required parameter, the parameters' schema, an example answer.
    const bazaar = challenge.extensions?.bazaar as Bazaar;
    const params = route.params!.shape as Record<string, { safeParse: (v: unknown) => { success: boolean } }>;
    const required = Object.keys(params).filter((name) => !params[name].safeParse(undefined).success);
    for (const name of required) expect(bazaar.info.input.queryParams, name).toHaveProperty(name);
    expect(Object.keys(bazaar.schema.properties.input.properties.queryParams.properties).sort()).toEqual(
      Object.keys(params).sort(),
    );
    expect(() => route.response.parse(bazaar.info.output.example)).not.toThrow();

    // The free challenge gives no priced figure away.
    const paidFigures = await paidFiguresAt(p.path, url);
    const challengeText = Buffer.from(header, 'base64').toString('utf8');
    for (const n of paidFigures) expect(challengeText, `figure ${n}`).not.toContain(String(n));
    expect(ledger()).toBe(before);
  });

  it('from a browser is also JSON {}, not an HTML paywall', async () => {
    const res = await local(urlOf(PRICED[0]), {
      headers: {
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'User-Agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      },
    });
    expect(res.status).toBe(402);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await res.text()).toBe('{}');
    expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).accepts[0].amount).toBe(
      expectedAmount(PRICED[0].path).toString(),
    );
  });

  it.each(PRICED)('HEAD $path: 402 with an empty body and the challenge', async (p) => {
    const res = await local(urlOf(p), { method: 'HEAD' });
    expect(res.status).toBe(402);
    expect(await res.text()).toBe('');
    expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).accepts[0].amount).toBe(
      expectedAmount(p.path).toString(),
    );
  });

  it('asked again, by GET and HEAD in turn and for each priced query: every challenge names its own method and resource (challenges are kept once built)', async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 2; round++) {
      for (const p of PRICED) {
        for (const method of round ? ['HEAD', 'GET'] : ['GET', 'HEAD']) {
          const header = (await local(urlOf(p), { method })).headers.get('PAYMENT-REQUIRED')!;
          const challenge = decodePaymentRequiredHeader(header);
          expect(challenge.resource.url, `${method} ${p.path}`).toBe(resourceOf(p));
          expect(
            (challenge.extensions?.bazaar as { info: { input: { method: string } } }).info.input.method,
            `${method} ${p.path}`,
          ).toBe(method);
          seen.add(header);
        }
      }
    }
    expect(seen.size).toBe(PRICED.length * 2);
  });

  it('HEAD with a valid payment is still 402 and is not charged: there is no answer to deliver', async () => {
    const url = urlOf(PRICED[0]);
    const before = ledger();
    // Signed for HEAD's own challenge, so nothing but the method stands in its way.
    const headChallenge = (await local(url, { method: 'HEAD' })).headers.get('PAYMENT-REQUIRED')!;
    const signature = await signed(decodePaymentRequiredHeader(headChallenge));
    const res = await local(url, { method: 'HEAD', headers: { 'PAYMENT-SIGNATURE': signature } });
    expect(res.status).toBe(402);
    expect(await res.text()).toBe('');
    expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
    expect(ledger()).toBe(before);
  });
});

describe('validation comes before payment', () => {
  const invalid = [
    '/v1/premium?state=F1',
    '/v1/premium/summary?state=FL&year=24',
    '/v1/insurers?state=FL&period=2024-13',
    '/v1/compare?states=FL,1X',
    '/v1/premium?state=FL&bogus=1',
  ];
  const unknown = [
    '/v1/premium?state=ZZ',
    '/v1/premium/summary?state=ZZ&year=2024',
    '/v1/insurers?state=ZZ&period=2024-01',
    '/v1/compare?states=FL,ZZ',
  ];

  it.each(invalid)('%s: 400 invalid_request, no challenge', async (path) => {
    const res = await local(ORIGIN + path);
    expect(res.status).toBe(400);
    const body = errorBody.parse(await res.json());
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toBeTruthy();
    expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
    expectCors(res);
  });

  it.each(unknown)('%s: 404 not_found, no challenge', async (path) => {
    const res = await local(ORIGIN + path);
    expect(res.status).toBe(404);
    const body = errorBody.parse(await res.json());
    expect(body.error.code).toBe('not_found');
    expect(body.error.message).toMatch(/ZZ/);
    expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
  });

  it.each(FREE)('free route %s: 200 with the gate on, never 402', async (path) => {
    const res = await local(ORIGIN + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
    expect(await res.text()).toBe((await gateOff(ORIGIN + path)).text);
  });

  it.each(PRICED)('OPTIONS $path: 204 preflight allowing the PAYMENT-SIGNATURE header', async (p) => {
    const res = await local(urlOf(p), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'payment-signature',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const allowed = (res.headers.get('Access-Control-Allow-Headers') ?? '')
      .split(',')
      .map((h) => h.trim().toUpperCase());
    expect(allowed).toContain('PAYMENT-SIGNATURE');
    expect(res.headers.get('Access-Control-Allow-Methods')).toMatch(/\bGET\b/);
    expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
  });
});

describe('a paid request with the official x402 client', () => {
  it.each(PRICED)(
    '$path: 200 with the gate-off answer, a settlement receipt, and exactly the price received',
    async (p) => {
      const url = urlOf(p);
      const expected = await gateOff(url);
      const before = ledger();
      const settledBefore = facilitator.settled;
      const res = await pay(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(expected.text);
      expect(res.headers.get('Cache-Control')).toBe('private, no-store');
      expectCors(res);
      const receipt = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
      expect(receipt.success).toBe(true);
      expect(getAddress(receipt.payer!)).toBe(PAYER.address);
      expect(receipt.network).toBe(BASE);
      expect(receipt.transaction).toMatch(/^0x[0-9a-f]{64}$/i);
      expect(ledger() - before).toBe(expectedAmount(p.path));
      expect(facilitator.settled).toBe(settledBefore + 1);
    },
  );
});

describe('format=csv (docs/design.md §11): the same price, the same gate, the same no-charge rule', () => {
  const CSV = [
    { path: '/v1/premium', query: 'state=FL&format=csv', resource: 'state=FL&line=all&format=csv' },
    {
      path: '/v1/compare',
      query: 'states=FL,IL&format=csv',
      resource: 'states=FL,IL&line=all&granularity=month&format=csv',
    },
  ] as const;

  it.each(CSV)('$path?$query: a 402 naming the CSV query at the JSON price, then the CSV once paid', async (p) => {
    const url = urlOf(p);
    const challenge = await challengeOf(url);
    expect(challenge.resource.url).toBe(resourceOf(p));
    expect(challenge.accepts.map((a) => BigInt(a.amount))).toEqual([expectedAmount(p.path)]);
    const expected = await gateOff(url);
    expect(expected.text.split('\r\n').length).toBeGreaterThan(2); // a header and figures
    const before = ledger();
    const res = await pay(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(await res.text()).toBe(expected.text);
    expect(decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!).success).toBe(true);
    expect(ledger() - before).toBe(expectedAmount(p.path));
  });

  it('an empty CSV answer (the header line alone) is given and never settled', async () => {
    const fac = verifyOnlyFacilitator(BASE);
    const settle = vi.spyOn(fac, 'settle');
    installGate(createGate(settingsOf(), fac, ROUTE_CONTRACTS));
    try {
      const url = `${ORIGIN}/v1/premium?state=FL&from=1990-01&to=1990-12&format=csv`;
      const res = await pay(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(
        'state,line,granularity,period,field,value,kind,as_printed,qualifier,measures,unit,report_date,publication_url\r\n',
      );
      expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
      expect(settle).not.toHaveBeenCalled();
    } finally {
      installGate(gate);
    }
  });
});

describe('a payment that is refused: 402, no data, nothing received', () => {
  const premium = urlOf(PRICED[0]);
  const compare = urlOf(PRICED[3]);

  /** Runs `send`, expects a refusal, and that the payee received nothing; returns the refusal's reason. */
  async function refused(send: () => Promise<Response>): Promise<string | undefined> {
    const before = ledger();
    const settledBefore = facilitator.settled;
    const res = await send();
    const reason = await expectRefused(res);
    expect(
      res.headers.get('PAYMENT-RESPONSE') === null ||
        decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!).success === false,
    ).toBe(true);
    expect(ledger()).toBe(before);
    expect(facilitator.settled).toBe(settledBefore);
    return reason;
  }

  it('no payment at all', async () => {
    expect(await refused(() => local(premium))).toBe('Payment required');
  });

  it('a malformed PAYMENT-SIGNATURE header: not base64, or base64 of something other than JSON', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (const header of ['not base64!', Buffer.from('this is not json {', 'utf8').toString('base64')]) {
        const reason = await refused(() => withPayment(premium, header));
        expectReasonCode(reason);
      }
    } finally {
      warn.mockRestore();
    }
  });

  it('an amount edited down to 1 atomic unit', async () => {
    const challenge = await challengeOf(premium);
    const header = await signed(challenge, (c) => (c.accepts[0].amount = '1'));
    expect(
      (decodePaymentSignatureHeader(header).payload as { authorization: { value: string } }).authorization.value,
    ).toBe('1');
    expectReasonCode(await refused(() => withPayment(premium, header)));
  });

  it("/v1/premium's $0.10 payment presented at /v1/compare ($0.50)", async () => {
    const header = await signed(await challengeOf(premium));
    expect(expectedAmount('/v1/compare')).toBeGreaterThan(expectedAmount('/v1/premium'));
    expectReasonCode(await refused(() => withPayment(compare, header)));
  });

  it('a payment to another payee', async () => {
    const other = getAddress('0x90F79bf6EB2c4f870365E785982E1f101E93b906'); // anvil account #3
    expect(other).not.toBe(PAYEE);
    const header = await signed(await challengeOf(premium), (c) => (c.accepts[0].payTo = other));
    expect(
      getAddress((decodePaymentSignatureHeader(header).payload as { authorization: { to: string } }).authorization.to),
    ).toBe(other);
    expectReasonCode(await refused(() => withPayment(premium, header)));
  });

  it('a payment on another network (Base Sepolia): in its test USDC, or in the asked asset signed for that chain', async () => {
    const challenge = await challengeOf(premium);
    const inTestUsdc = await signed(challenge, (c) => {
      c.accepts[0] = {
        ...c.accepts[0],
        network: BASE_SEPOLIA,
        asset: BASE_SEPOLIA_USDC,
        extra: { name: 'USDC', version: '2' },
      };
    });
    // The official client refuses a non-default asset unless spend controls are off: a hand-rolled payer's.
    const anyAsset = x402Client.fromConfig({
      schemes: [{ network: BASE_SEPOLIA, client: payerScheme }],
      spendControls: false,
    });
    const edited = structuredClone(challenge);
    edited.accepts[0].network = BASE_SEPOLIA;
    const sameAsset = encodePaymentSignatureHeader(await anyAsset.createPaymentPayload(edited));
    for (const header of [inTestUsdc, sameAsset]) {
      expect(decodePaymentSignatureHeader(header).accepted.network).toBe(BASE_SEPOLIA);
      expectReasonCode(await refused(() => withPayment(premium, header)));
    }
  });

  it('an expired authorization (signed an hour ago)', async () => {
    const challenge = await challengeOf(premium);
    const anHourAgo = Date.now() - 3_600_000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(anHourAgo);
    let header: string;
    try {
      header = await signed(challenge);
    } finally {
      clock.mockRestore();
    }
    const validBefore = Number(
      (decodePaymentSignatureHeader(header).payload as { authorization: { validBefore: string } }).authorization
        .validBefore,
    );
    expect(validBefore).toBeLessThan(Date.now() / 1000);
    const reason = await refused(() => withPayment(premium, header));
    expectReasonCode(reason);
    expect(reason).toBe('invalid_exact_evm_payload_authorization_valid_before');
  });

  it('a signed authorization whose value was raised after signing', async () => {
    const payload = decodePaymentSignatureHeader(await signed(await challengeOf(premium))) as PaymentPayload & {
      payload: { authorization: { value: string } };
    };
    payload.payload.authorization.value = (expectedAmount('/v1/premium') * 10n).toString();
    const reason = await refused(() => withPayment(premium, encodePaymentSignatureHeader(payload)));
    expectReasonCode(reason);
    expect(reason).toMatch(/^invalid_exact_evm_/);
  });

  it('a signed authorization altered after signing (the signature no longer matches)', async () => {
    const payload = decodePaymentSignatureHeader(await signed(await challengeOf(premium))) as PaymentPayload & {
      payload: { authorization: { nonce: string } };
    };
    const nonce = payload.payload.authorization.nonce;
    payload.payload.authorization.nonce = nonce.slice(0, -1) + (nonce.endsWith('0') ? '1' : '0');
    const reason = await refused(() => withPayment(premium, encodePaymentSignatureHeader(payload)));
    expect(reason).toBe('invalid_exact_evm_payload_signature');
  });

  it('a replay of a settled payment: the same header twice, first 200 then 402', async () => {
    const expected = await gateOff(premium);
    const header = await signed(await challengeOf(premium));
    const before = ledger();
    const first = await withPayment(premium, header);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(expected.text);
    expect(ledger() - before).toBe(expectedAmount('/v1/premium'));
    const reason = await refused(() => withPayment(premium, header));
    expectReasonCode(reason);
    expect(ledger() - before).toBe(expectedAmount('/v1/premium'));
  });
});

describe('two concurrent requests carrying the same fresh payment', () => {
  it('get one answer between them, and the payee receives one price', async () => {
    const url = urlOf(PRICED[3]);
    const expected = await gateOff(url);
    const header = await signed(await challengeOf(url));
    const before = ledger();
    const settledBefore = facilitator.settled;
    const responses = await Promise.all([withPayment(url, header), withPayment(url, header)]);
    const texts = await Promise.all(responses.map((r) => r.text()));
    const statuses = responses.map((r) => r.status);
    expect([...statuses].sort()).toEqual([200, 402]);
    expect(texts[statuses.indexOf(200)]).toBe(expected.text);
    expect(texts[statuses.indexOf(402)]).toBe('{}');
    expect(ledger() - before).toBe(expectedAmount('/v1/compare'));
    expect(facilitator.settled).toBe(settledBefore + 1);
  });
});

describe('a payment the facilitator refuses to settle', () => {
  it('is a 402 with no data and a receipt that carries a reason code and nothing of the facilitator', async () => {
    const url = urlOf(PRICED[0]);
    const before = ledger();
    facilitator.mode = 'refuse-settle';
    let res: Response;
    try {
      res = await pay(url);
    } finally {
      facilitator.mode = 'up';
    }
    expect(res.status).toBe(402);
    expect(await res.text()).toBe('{}');
    expectCors(res);
    const header = res.headers.get('PAYMENT-RESPONSE')!;
    expect(header).toBeTruthy();
    const receipt = decodePaymentResponseHeader(header);
    expect(receipt.success).toBe(false);
    expectReasonCode(receipt.errorReason);
    expect(receipt).not.toHaveProperty('errorMessage');
    expect(getAddress(receipt.payer!)).toBe(PAYER.address);
    const raw = Buffer.from(header, 'base64').toString('utf8');
    const addresses = raw.match(/0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/g) ?? [];
    for (const a of addresses) expect(getAddress(a)).toBe(PAYER.address);
    expect(raw.toLowerCase()).not.toContain(FACILITATOR_ADDRESS.toLowerCase());
    expect(raw).not.toMatch(/\bat settle\b|facilitator\.ts|\.sol:|execution reverted|ECONNREFUSED|\/srv\//);
    expect(receipt.network).toBe(BASE);
    // The 402 carries the route's challenge too, its error the same reason code.
    const offer = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
    expect(offer.error).toBe(receipt.errorReason);
    expect(offer.accepts[0].amount).toBe(expectedAmount(PRICED[0].path).toString());
    expect(ledger()).toBe(before);
  });
});

describe('an unreachable facilitator', () => {
  async function expectUnavailable(res: Response) {
    expect(res.status).toBe(503);
    const body = errorBody.parse(await res.clone().json());
    expect(Object.keys(await res.json())).toEqual(['error']);
    expect(body.error.code).toBe('internal');
    expect(body.error.message).toMatch(/facilitator/i);
    expect(body.error.message).toMatch(/unavailable/i);
    expect(res.headers.get('Retry-After')).toBeTruthy();
    expectCors(res);
    expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
  }

  it('before the gate ever initialized: 503 for unpaid and paid requests; the same gate recovers once it is back', async () => {
    const url = urlOf(PRICED[0]);
    const expected = await gateOff(url);
    const signedElsewhere = await signed(await challengeOf(url));
    const down = verifyOnlyFacilitator(BASE);
    down.mode = 'down';
    const fresh = createGate(settingsOf(), down, ROUTE_CONTRACTS);
    const quiet = [
      vi.spyOn(console, 'warn').mockImplementation(() => {}),
      vi.spyOn(console, 'error').mockImplementation(() => {}),
    ];
    installGate(fresh);
    try {
      await expectUnavailable(await local(url));
      await expectUnavailable(await withPayment(url, signedElsewhere));
      expect(ledger(down)).toBe(0n);

      down.mode = 'up';
      const unpaid = await local(url);
      expect(unpaid.status).toBe(402);
      expect(await unpaid.text()).toBe('{}');
      expect(unpaid.headers.get('PAYMENT-REQUIRED')).toBeTruthy();
      const paid = await withPayment(url, signedElsewhere);
      expect(paid.status).toBe(200);
      expect(await paid.text()).toBe(expected.text);
      expect(ledger(down)).toBe(expectedAmount('/v1/premium'));
    } finally {
      quiet.forEach((s) => s.mockRestore());
      installGate(gate);
    }
  });

  it('after the gate initialized, down before verify: 503, nothing received; unpaid is 402 again once it is back', async () => {
    const url = urlOf(PRICED[3]);
    const flaky = verifyOnlyFacilitator(BASE);
    const initialized = createGate(settingsOf(), flaky, ROUTE_CONTRACTS);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    installGate(initialized);
    try {
      expect((await local(url)).status).toBe(402);
      flaky.mode = 'down';
      const res = await pay(url);
      await expectUnavailable(res);
      expect(flaky.settled).toBe(0);
      expect(ledger(flaky)).toBe(0n);

      flaky.mode = 'up';
      const unpaid = await local(url);
      expect(unpaid.status).toBe(402);
      expect(await unpaid.text()).toBe('{}');
      expect(unpaid.headers.get('PAYMENT-REQUIRED')).toBeTruthy();
    } finally {
      quiet.mockRestore();
      installGate(gate);
    }
  });

  it('down while settling: 503, no data, and a message that does not promise the payment was not taken', async () => {
    const url = urlOf(PRICED[0]);
    const flaky = verifyOnlyFacilitator(BASE);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    installGate(createGate(settingsOf(), flaky, ROUTE_CONTRACTS));
    try {
      flaky.mode = 'down-at-settle';
      const res = await pay(url);
      const text = await res.clone().text();
      await expectUnavailable(res);
      expect(text).not.toContain('not charged');
      expect(text).toMatch(/may still complete/);
      expect(flaky.settled).toBe(0);
    } finally {
      quiet.mockRestore();
      installGate(gate);
    }
  });
});

describe('an answer that fails to compute once paid', () => {
  let dir: string;
  let restore = () => {};
  beforeAll(() => {
    dir = buildInto(FIXTURE_DATA);
    // The series /v1/premium?state=FL reads; the index (state and line resolution) stays intact.
    writeFileSync(join(dir, 'private', 'series', 'FL', 'all', 'month.json'), '{"rows": [ not json');
    restore = serveShards(dir);
  });
  afterAll(() => {
    restore();
    rmSync(dirname(dir), { recursive: true, force: true });
  });

  it('is a 500 internal error, and the payment is not settled', async () => {
    const url = urlOf(PRICED[0]);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // Resolution passes (the unpaid request reaches the gate), computing does not (gate off: 500).
      expect((await local(url)).status).toBe(402);
      expect((await gateOff(url)).status).toBe(500);

      const before = ledger();
      const settledBefore = facilitator.settled;
      const res = await pay(url);
      expect(res.status).toBe(500);
      const body = errorBody.parse(await res.json());
      expect(body.error.code).toBe('internal');
      expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
      expect(ledger()).toBe(before);
      expect(facilitator.settled).toBe(settledBefore);
    } finally {
      quiet.mockRestore();
    }
  });
});

describe('no charge for nothing (docs/design.md §7)', () => {
  // Fixture periods, read off the fixture files: 1990 is none of them, so a 1990 range holds no figure.
  const fixturePeriods = readdirSync(join(FIXTURE_DATA, 'publications'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.csv'))
    .flatMap((e) => readFileSync(join(e.parentPath, e.name), 'utf8').split('\n'))
    .filter((l) => /^[A-Z]{2},/.test(l))
    .map((l) => l.split(',')[1]);
  const EMPTY = [
    { path: '/v1/premium', query: 'state=FL&from=1990-01&to=1990-12' },
    { path: '/v1/premium', query: 'state=FL&report_date=1990-01-01' },
    { path: '/v1/compare', query: 'states=FL,IL&from=1990-01&to=1990-12' },
    { path: '/v1/premium/summary', query: 'state=FL&year=1990' },
  ] as const;

  /** A fresh gate over a mock facilitator whose settle is watched. */
  function watchedGate() {
    const fac = verifyOnlyFacilitator(BASE);
    const settle = vi.spyOn(fac, 'settle');
    return { fac, settle, gate: createGate(settingsOf(), fac, ROUTE_CONTRACTS) };
  }

  it('the empty queries are about periods the fixture has no figure for', () => {
    expect(fixturePeriods.length).toBeGreaterThan(10);
    expect(fixturePeriods.filter((p) => p.startsWith('1990') || p.startsWith('1989'))).toEqual([]);
  });

  it.each(EMPTY)(
    'paid $path?$query: 200 with the gate-off answer (no figure, no publication), never settled',
    async (p) => {
      const { fac, settle, gate: watched } = watchedGate();
      installGate(watched);
      try {
        const url = urlOf(p);
        const expected = await gateOff(url);
        expect(expected.status).toBe(200);
        const body = JSON.parse(expected.text);
        expect(body.publications).toEqual([]);
        if ('data' in body) expect(body.data).toEqual([]);
        if ('series' in body) for (const rows of Object.values(body.series)) expect(rows).toEqual([]);
        if ('basis' in body) expect(body.basis).toBeNull();

        expect((await local(url)).status).toBe(402); // still asked to pay: the answer is not known before payment
        const res = await pay(url);
        expect(res.status).toBe(200);
        expect(await res.text()).toBe(expected.text);
        expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
        expect(settle).not.toHaveBeenCalled();
        expect(fac.settled).toBe(0);
        expect(ledger(fac)).toBe(0n);
      } finally {
        installGate(gate);
      }
    },
  );

  it.each(EMPTY)(
    'a forged payment for $path?$query (not what its payer signed): 402 with the challenge, not the empty answer',
    async (p) => {
      const { settle, gate: watched } = watchedGate();
      installGate(watched);
      try {
        const url = urlOf(p);
        const good = JSON.parse(Buffer.from(await signed(await challengeOf(url)), 'base64').toString('utf8'));
        // Another nonce under the same signature: well formed, but not what the payer signed.
        const authorization = { ...good.payload.authorization, nonce: `0x${'22'.repeat(32)}` };
        const forged = Buffer.from(JSON.stringify({ ...good, payload: { ...good.payload, authorization } })).toString(
          'base64',
        );
        await expectRefused(await withPayment(url, forged));
        expect(settle).not.toHaveBeenCalled();
      } finally {
        installGate(gate);
      }
    },
  );

  it('the authorization an empty answer left unspent still pays for an answer with figures, settled once', async () => {
    const { fac, settle, gate: watched } = watchedGate();
    installGate(watched);
    try {
      const empty = urlOf(EMPTY[0]);
      const full = urlOf(PRICED[0]);
      // Both are /v1/premium at the same price: one signature is good for either (x402 does not bind the resource).
      const header = await signed(await challengeOf(full));
      const first = await withPayment(empty, header);
      expect(first.status).toBe(200);
      expect(JSON.parse(await first.text()).data).toEqual([]);
      expect(settle).not.toHaveBeenCalled();

      const second = await withPayment(full, header);
      expect(second.status).toBe(200);
      expect(await second.text()).toBe((await gateOff(full)).text);
      expect(decodePaymentResponseHeader(second.headers.get('PAYMENT-RESPONSE')!).success).toBe(true);
      expect(settle).toHaveBeenCalledTimes(1);
      expect(ledger(fac)).toBe(expectedAmount('/v1/premium'));
    } finally {
      installGate(gate);
    }
  });

  describe('gate.charge, called directly', () => {
    const route = contractOf('/v1/premium');
    const url = urlOf(PRICED[0]);
    const answerOf = (hasFigures: boolean, text: string) => {
      const answer = vi.fn((): PricedAnswer => ({
        body: wireAnswer(200, { 'Content-Type': 'application/json' }, text),
        hasFigures,
      }));
      return answer;
    };
    async function paidRequest(): Promise<Request> {
      return new Request(url, { headers: { 'PAYMENT-SIGNATURE': await signed(await challengeOf(url)) } });
    }

    it('an answer without figures: returned as computed, settle never called, nothing received', async () => {
      const { fac, settle, gate: watched } = watchedGate();
      const answer = answerOf(false, '{"data":[],"publications":[]}');
      const res = responseOf(await watched.charge(await paidRequest(), route, answer, new URL(url)));
      expect(answer).toHaveBeenCalledTimes(1);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('{"data":[],"publications":[]}');
      expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
      expect(settle).not.toHaveBeenCalled();
      expect(ledger(fac)).toBe(0n);
    });

    it('an answer with figures: settle called once, the price received, the receipt on the answer', async () => {
      const { fac, settle, gate: watched } = watchedGate();
      const answer = answerOf(true, '{"data":[{"premium":1234567}]}');
      const res = responseOf(await watched.charge(await paidRequest(), route, answer, new URL(url)));
      expect(answer).toHaveBeenCalledTimes(1);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('{"data":[{"premium":1234567}]}');
      expect(decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!).success).toBe(true);
      expect(settle).toHaveBeenCalledTimes(1);
      expect(ledger(fac)).toBe(expectedAmount('/v1/premium'));
    });

    it('without a payment: 402 and the answer is never computed', async () => {
      const { settle, gate: watched } = watchedGate();
      const answer = answerOf(false, '{}');
      const res = responseOf(await watched.charge(new Request(url), route, answer, new URL(url)));
      expect(res.status).toBe(402);
      expect(answer).not.toHaveBeenCalled();
      expect(settle).not.toHaveBeenCalled();
    });
  });
});

describe('with the gate off', () => {
  it.each(PRICED)('$path: 200 without payment and no payment header', async (p) => {
    installGate(null);
    try {
      const res = await local(urlOf(p));
      expect(res.status).toBe(200);
      expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
      expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
      expectFigures(p.path, await res.text());
    } finally {
      installGate(gate);
    }
  });
});

describe('what a client can make the gate echo or log (issue 9)', () => {
  it('a valid compare 3,300 states long (duplicates fold) gets a small challenge naming the canonical query', async () => {
    const url = `${ORIGIN}/v1/compare?states=${'FL,'.repeat(3300)}IL`;
    const res = await local(url);
    expect(res.status).toBe(402);
    const header = res.headers.get('PAYMENT-REQUIRED')!;
    expect(header.length).toBeLessThan(8 * 1024);
    const challenge = decodePaymentRequiredHeader(header);
    expect(challenge.resource.url).toBe(`${ORIGIN}/v1/compare?states=FL,IL&line=all&granularity=month`);
    expect(JSON.stringify(challenge)).not.toContain('FL,FL');
  });

  it('the challenge names the parameters as parsed, whatever their spelling and order', async () => {
    const a = await challengeOf(`${ORIGIN}/v1/premium?granularity=year&state=fl&line=ALL&from=2023-01`);
    expect(a.resource.url).toBe(`${ORIGIN}/v1/premium?state=FL&line=ALL&from=2023-01&granularity=year`);
  });

  const junk = [
    'junk',
    '%%%',
    'x'.repeat(4000),
    Buffer.from('not json').toString('base64'),
    Buffer.from('{"x402Version":').toString('base64'),
    Buffer.from('[]').toString('base64'),
    Buffer.from('{}').toString('base64'),
    Buffer.from('{"x402Version":2,"accepted":"x","payload":null}').toString('base64'),
    Buffer.from(
      JSON.stringify({ x402Version: 2, resource: 7, accepted: { scheme: 'exact' }, payload: { signature: 1 } }),
    ).toString('base64'),
  ];
  it.each(junk.map((h) => [h.slice(0, 40), h]))(
    'junk PAYMENT-SIGNATURE %s: 402 {}, at most one log line, no stack trace',
    async (_, header) => {
      const calls: unknown[][] = [];
      const spies = (['error', 'warn', 'log', 'info'] as const).map((level) =>
        vi.spyOn(console, level).mockImplementation((...args) => void calls.push(args)),
      );
      try {
        const res = await withPayment(urlOf(PRICED[0]), header);
        expect(res.status).toBe(402);
        expect(await res.text()).toBe('{}');
        // A reason code, or one of the SDK's own two reasons ('No matching payment requirements').
        expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toMatch(
          /^([a-z][a-z0-9_]*|No matching payment requirements)$/,
        );
      } finally {
        spies.forEach((s) => s.mockRestore());
      }
      expect(calls.length).toBeLessThanOrEqual(1);
      for (const args of calls) {
        for (const arg of args) {
          expect(typeof arg).toBe('string');
          expect(arg as string).not.toContain('\n');
          expect((arg as string).length).toBeLessThan(200);
        }
      }
    },
  );

  it('a header that is not base64 JSON is refused with the reason invalid_payment_header', async () => {
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const res = await withPayment(urlOf(PRICED[0]), 'junk');
      expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toBe('invalid_payment_header');
    } finally {
      quiet.mockRestore();
    }
  });

  it("a payload with the route's own terms but no authorization is refused here (402), never passed on to fail as a 503", async () => {
    const challenge = await challengeOf(urlOf(PRICED[1]));
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const loud = vi.spyOn(console, 'error');
    try {
      for (const payload of [{}, { authorization: {} }, { signature: '0x12', authorization: { from: 'me' } }]) {
        const header = Buffer.from(
          JSON.stringify({ x402Version: 2, accepted: challenge.accepts[0], resource: challenge.resource, payload }),
        ).toString('base64');
        const res = await withPayment(urlOf(PRICED[1]), header);
        expect(res.status).toBe(402);
        expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toBe('invalid_payment_header');
      }
      expect(loud).not.toHaveBeenCalled();
    } finally {
      quiet.mockRestore();
      loud.mockRestore();
    }
  });
});

describe('conditional requests (docs/design.md §14): re-checking an answer held is free', () => {
  /** The answer's ETag and Last-Modified as the gate-off 200 gives them. */
  async function validatorsOf(url: string): Promise<{ etag: string; lastModified: string }> {
    installGate(null);
    try {
      const res = await local(url);
      expect(res.status).toBe(200);
      return { etag: res.headers.get('ETag')!, lastModified: res.headers.get('Last-Modified')! };
    } finally {
      installGate(gate);
    }
  }

  it.each(PRICED)(
    '$path: its ETag in If-None-Match is a 304 with no body, no challenge, no settlement, by GET and HEAD',
    async (p) => {
      const url = urlOf(p);
      const { etag, lastModified } = await validatorsOf(url);
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      const before = ledger();
      const settledBefore = facilitator.settled;
      for (const method of ['GET', 'HEAD']) {
        // A payment sent along is not taken: a 304 holds no figure.
        const signature = await signed(await challengeOf(url));
        const res = await local(url, { method, headers: { 'If-None-Match': etag, 'PAYMENT-SIGNATURE': signature } });
        expect(res.status, method).toBe(304);
        expect(await res.text()).toBe('');
        expect(res.headers.get('ETag')).toBe(etag);
        expect(res.headers.get('Last-Modified')).toBe(lastModified);
        expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
        expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
        expect(res.headers.get('Content-Type')).toBeNull();
      }
      expect(ledger()).toBe(before);
      expect(facilitator.settled).toBe(settledBefore);
    },
  );

  it('If-Modified-Since at or after Last-Modified is a 304 too; before it, or another ETag, is the 402', async () => {
    const url = urlOf(PRICED[0]);
    const { etag, lastModified } = await validatorsOf(url);
    const at = Date.parse(lastModified);
    expect((await local(url, { headers: { 'If-Modified-Since': new Date(at).toUTCString() } })).status).toBe(304);
    expect(
      (await local(url, { headers: { 'If-Modified-Since': new Date(at + 86_400_000).toUTCString() } })).status,
    ).toBe(304);
    expect((await local(url, { headers: { 'If-Modified-Since': new Date(at - 1000).toUTCString() } })).status).toBe(
      402,
    );
    expect((await local(url, { headers: { 'If-Modified-Since': 'not a date' } })).status).toBe(402);
    const other = `"${'0'.repeat(64)}"`;
    expect((await local(url, { headers: { 'If-None-Match': other } })).status).toBe(402);
    // If-None-Match decides when both are sent (RFC 9110 13.1.3): a stale tag with a recent date is not a 304.
    expect(
      (
        await local(url, {
          headers: { 'If-None-Match': other, 'If-Modified-Since': new Date(at + 86_400_000).toUTCString() },
        })
      ).status,
    ).toBe(402);
    expect((await local(url, { headers: { 'If-None-Match': `W/"x", W/${etag}` } })).status).toBe(304);
    expect((await local(url, { headers: { 'If-None-Match': '*' } })).status).toBe(304);
  });

  it('validation comes first: a bad query with a matching tag is still a 400, an unknown state a 404', async () => {
    const { etag } = await validatorsOf(urlOf(PRICED[0]));
    for (const [url, status] of [
      [`${ORIGIN}/v1/premium?state=FL&granularity=decade`, 400],
      [`${ORIGIN}/v1/premium?state=ZZ`, 404],
      [`${ORIGIN}/v1/bulk/premium.csv?state=FL`, 400],
    ] as const) {
      const res = await local(url, { headers: { 'If-None-Match': etag } });
      expect(res.status, url).toBe(status);
      expect((await res.json()).error.code).toBe(status === 400 ? 'invalid_request' : 'not_found');
    }
  });
});

describe('a changed answer gets a new ETag (docs/design.md §14)', () => {
  it('a figure restated in the data: the same query has another ETag, the old one is no longer a 304 but the 402, and the unchanged CSV of another state keeps its tag', async () => {
    const url = `${ORIGIN}/v1/premium?state=FL`;
    const other = `${ORIGIN}/v1/premium?state=IL&format=csv`;
    const tagOf = async (u: string) => {
      installGate(null);
      try {
        return (await local(u)).headers.get('ETag')!;
      } finally {
        installGate(gate);
      }
    };
    const before = [await tagOf(url), await tagOf(other)];
    // A copy of the fixture with FL's January premium printed otherwise (office/2024-01.csv).
    const data = join(mkdtempSync(join(tmpdir(), 'slmd-changed-')), 'data');
    cpSync(FIXTURE_DATA, data, { recursive: true });
    const file = join(data, 'publications', 'office', '2024-01.csv');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('FL,2024-01,all,,,premium,1111111.11', 'FL,2024-01,all,,,premium,1111112.11'),
    );
    const restore = serveShards(buildInto(data));
    try {
      const after = [await tagOf(url), await tagOf(other)];
      expect(after[0]).not.toBe(before[0]);
      expect(after[1]).toBe(before[1]);
      expect((await local(url, { headers: { 'If-None-Match': before[0] } })).status).toBe(402);
      expect((await local(url, { headers: { 'If-None-Match': after[0] } })).status).toBe(304);
    } finally {
      restore();
    }
  });
});

describe("ETAG_KEY: a priced answer's ETag keyed, so that a free 304 confirms no guess of its figures", () => {
  it("with ETAG_KEY set, a priced JSON or CSV answer's ETag is the HMAC-SHA256 of its body under the key, not its SHA-256, and still gets its 304; free answers and the bulk files keep their SHA-256", async () => {
    const sha = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('hex')}"`;
    const hmac = (bytes: Buffer) => `"${createHmac('sha256', 'a deployment secret').update(bytes).digest('hex')}"`;
    process.env.ETAG_KEY = 'a deployment secret';
    resetStore(); // answers computed before are forgotten with the store
    installGate(null);
    try {
      for (const [path, keyed] of [
        ['/v1/premium?state=FL', true],
        ['/v1/premium?state=FL&format=csv', true],
        ['/v1/bulk/premium.csv', false],
        ['/v1/coverage', false],
      ] as const) {
        const res = await local(`${ORIGIN}${path}`);
        const body = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('ETag'), path).toBe(keyed ? hmac(body) : sha(body));
        expect(res.headers.get('ETag'), path).not.toBe(keyed ? sha(body) : hmac(body));
        expect(
          (await local(`${ORIGIN}${path}`, { headers: { 'If-None-Match': res.headers.get('ETag')! } })).status,
          path,
        ).toBe(304);
      }
    } finally {
      delete process.env.ETAG_KEY;
      resetStore();
      installGate(gate);
    }
  });
});
