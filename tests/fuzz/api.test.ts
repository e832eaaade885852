// Property-based tests of the API in process (issue 9): generated requests, well-formed and far beyond,
// through the dispatcher every /v1 request takes, on the fixture shards, with the payment gate off and
// on (the mock facilitator of tests/support). Whatever a client sends, the answer is one docs/design.md
// allows, in the shape it gives, soon, and nothing of it reaches the log as a stack trace.
import { format } from 'node:util';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { BULK_COLUMNS } from '../../domain/contract-shared.ts';
import { installGate } from '../../api/payment/configured.ts';
import { type Gate, createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, useShardsOf } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';
import {
  ANSWER_MS,
  FC_OPTIONS,
  FREE_CACHE,
  type FuzzRequest,
  ORIGIN,
  PRICED_CACHE,
  RUNS,
  allowedStatuses,
  apiRequest,
  expectErrorBody,
  expectErrorHeaders,
  initOf,
  junkPaymentHeader,
  normalizedMethod,
  routeOf,
  targetFor,
  timeoutFor,
  within,
} from './requests.ts';

/** docs/design.md §11, written out. */
/** The header line of each route's CSV: the series routes' figures, /v1/insurers' one line per insurer. */
const SERIES_CSV_HEADER =
  'state,line,granularity,period,field,value,kind,as_printed,qualifier,measures,unit,report_date,publication_url';
const CSV_HEADERS: Record<string, string> = {
  '/v1/insurers':
    'state,period,rank,name,premium,market_share_pct,as_printed,qualifier,note,entity,basis,report_date,publication_url',
};
/** The 402 challenge is a header: it must stay far below what proxies and clients accept. */
const MAX_CHALLENGE_BYTES = 8_192;
const PRICED = ROUTE_CONTRACTS.filter((r) => r.priceUsd);
const SETTINGS = paymentSettings({
  X402_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  X402_FACILITATOR_URL: 'http://127.0.0.1:9',
})!;

let gate: Gate;
const useGate = (on: boolean) => installGate(on ? gate : null);

useShardsOf(FIXTURE_DATA);
beforeAll(() => {
  // With a channel store: the challenges offer batch-settlement too, and junk channel payments are fuzzed.
  gate = createGate(SETTINGS, verifyOnlyFacilitator(SETTINGS.network), ROUTE_CONTRACTS, {
    channels: new InMemoryChannelStorage(),
  });
});
afterAll(() => installGate(undefined));

/** What the service logs at warn and error level, as the console would print it; kept out of the test output. */
const logged: string[] = [];
beforeAll(() => {
  for (const level of ['warn', 'error'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(format(...args)));
});
afterAll(() => vi.restoreAllMocks());
/** Lines of a stack trace in the log since the last call: what a client's request must never put there. */
function takeStackLines(): string[] {
  const lines = logged.flatMap((entry) => entry.split('\n')).filter((line) => line.startsWith('    at '));
  logged.length = 0;
  return lines;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The dispatcher's answer to a generated request, or a failure when none comes within ANSWER_MS. */
const send = (r: FuzzRequest): Promise<Answer> =>
  within(
    ANSWER_MS,
    `${r.method.slice(0, 20)} ${r.target.slice(0, 200)}`,
    (async () => {
      const res = await callHandler(`${ORIGIN}${r.target}`, initOf(r));
      return { status: res.status, headers: res.headers, text: await res.text() };
    })(),
  );

/** A 402: body {} (none for HEAD), never stored, and a challenge that decodes and stays small. */
function expectChallenge(a: Answer, head: boolean): void {
  expect(a.text).toBe(head ? '' : '{}');
  expect(a.headers.get('cache-control')).toBe(PRICED_CACHE);
  const challenge = a.headers.get('payment-required');
  expect(challenge).toBeTruthy();
  expect(challenge!.length).toBeLessThan(MAX_CHALLENGE_BYTES);
  expect(decodePaymentRequiredHeader(challenge!).accepts.length).toBeGreaterThan(0);
}

/**
 * Everything docs/design.md fixes about an answer: an allowed status; CORS; a 200 body the
 * route's strict schema parses, with the route's Cache-Control; 204 and HEAD without a body; the
 * 402 challenge; the error body of docs/design.md §4, bounded and never stored. (HEAD's missing body is checked
 * apart, below.)
 */
function expectAllowed(r: FuzzRequest, a: Answer, gateOn: boolean): void {
  const url = new URL(`${ORIGIN}${r.target}`);
  expect(allowedStatuses(r, url, gateOn)).toContain(a.status);
  expect(a.headers.get('access-control-allow-origin')).toBe('*');
  const head = normalizedMethod(r.method) === 'HEAD';
  if (a.status === 200) {
    const route = routeOf(url.pathname)!;
    expect(a.headers.get('cache-control')).toBe(route.priceUsd ? PRICED_CACHE : FREE_CACHE);
    // format=csv (docs/design.md §11), on a route that takes it: CSV lines under the route's header; else the
    // route's JSON (a route without parameters ignores a query string).
    // Every 200 carries its validators (docs/design.md §14).
    expect(a.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Date.parse(a.headers.get('last-modified')!)).not.toBeNaN();
    if (url.searchParams.get('format') === 'csv' && route.params && 'format' in route.params.shape) {
      expect(a.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      if (!head) expect(a.text.split('\r\n')[0]).toBe(CSV_HEADERS[route.path] ?? SERIES_CSV_HEADER);
    } else if (route.download && route.download.mediaType !== 'application/json') {
      // A bulk file: its own type; the CSV under its header, the Parquet file a Parquet file.
      expect(a.headers.get('content-type')).toBe(route.download.mediaType);
      if (!head)
        expect(route.path.endsWith('.csv') ? a.text.split('\r\n')[0] : a.text.slice(0, 4)).toBe(
          route.path.endsWith('.csv') ? BULK_COLUMNS.join(',') : 'PAR1',
        );
    } else if (!head) route.response.parse(JSON.parse(a.text));
  } else if (a.status === 304) {
    // Not modified: no body, the validators of the answer held.
    expect(a.text).toBe('');
    expect(a.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
  } else if (a.status === 204) {
    expect(a.text).toBe('');
  } else if (a.status === 402) {
    expectChallenge(a, head);
  } else {
    expectErrorHeaders(a.status, a.headers);
    if (!head) expectErrorBody(a.status, a.text);
  }
}

describe('any request under /v1, gate off and on', () => {
  it(
    'gets an allowed status and the body and headers docs/design.md §4 gives it, within 5 s',
    async () => {
      await fc.assert(
        fc.asyncProperty(apiRequest, fc.boolean(), async (r, gateOn) => {
          useGate(gateOn);
          takeStackLines();
          expectAllowed(r, await send(r), gateOn);
          expect(takeStackLines()).toEqual([]);
        }),
        { ...FC_OPTIONS, numRuns: RUNS },
      );
    },
    timeoutFor(RUNS, 20),
  );

  const HEAD_RUNS = Math.ceil(RUNS / 4);
  it(
    'HEAD: the status and headers of GET, and no body',
    async () => {
      const heads = apiRequest.map((r): FuzzRequest => ({ ...r, method: 'HEAD', body: undefined }));
      await fc.assert(
        fc.asyncProperty(heads, fc.boolean(), async (r, gateOn) => {
          useGate(gateOn);
          const head = await send(r);
          const get = await send({ ...r, method: 'GET' });
          expect(head.status).toBe(get.status);
          for (const name of ['content-type', 'content-length', 'cache-control', 'allow'])
            expect(head.headers.get(name), name).toBe(get.headers.get(name));
          expect(head.text).toBe('');
        }),
        { ...FC_OPTIONS, numRuns: HEAD_RUNS },
      );
    },
    timeoutFor(HEAD_RUNS, 40),
  );
});

// ---- junk payments, gate on -----------------------------------------------------------------------

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null', 'utf8').toString('base64');
const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
const anyJson = fc.jsonValue({ maxDepth: 2 });
/** A field of the right type, or any JSON value in its place. */
const orWrongType = (right: fc.Arbitrary<unknown>) => fc.oneof(right, anyJson);
const uintText = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String);

/** An x402 payment payload (v1 or v2) in shape, any field missing or of a wrong type, for the terms given or for junk terms. */
function paymentPayload(terms: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const authorization = fc.record(
    {
      from: orWrongType(hex(20)),
      to: orWrongType(hex(20)),
      value: orWrongType(uintText),
      validAfter: orWrongType(uintText),
      validBefore: orWrongType(uintText),
      nonce: orWrongType(hex(32)),
    },
    { requiredKeys: [] },
  );
  const exact = fc.record(
    { signature: orWrongType(hex(65)), authorization: orWrongType(authorization) },
    { requiredKeys: [] },
  );
  // batch-settlement's payloads: a voucher, a deposit or a refund of a channel, any field missing or mistyped.
  const channelConfig = fc.record(
    {
      payer: orWrongType(hex(20)),
      payerAuthorizer: orWrongType(hex(20)),
      receiver: orWrongType(hex(20)),
      receiverAuthorizer: orWrongType(hex(20)),
      token: orWrongType(hex(20)),
      withdrawDelay: orWrongType(fc.integer({ min: -1, max: 2 ** 41 })),
      salt: orWrongType(hex(32)),
    },
    { requiredKeys: [] },
  );
  const voucher = fc.record(
    { channelId: orWrongType(hex(32)), maxClaimableAmount: orWrongType(uintText), signature: orWrongType(hex(65)) },
    { requiredKeys: [] },
  );
  const deposit = fc.record(
    {
      amount: orWrongType(uintText),
      authorization: orWrongType(
        fc.record({
          erc3009Authorization: orWrongType(
            fc.record({ validAfter: uintText, validBefore: uintText, salt: hex(32), signature: hex(65) }),
          ),
        }),
      ),
    },
    { requiredKeys: [] },
  );
  const channel = fc.record(
    {
      type: orWrongType(fc.constantFrom('voucher', 'deposit', 'refund', 'claim', 'settle')),
      channelConfig: orWrongType(channelConfig),
      voucher: orWrongType(voucher),
      deposit: orWrongType(deposit),
      amount: orWrongType(uintText),
    },
    { requiredKeys: ['type'] },
  );
  return fc
    .record(
      {
        x402Version: orWrongType(fc.constantFrom(1, 2)),
        resource: orWrongType(fc.record({ url: fc.webUrl() })),
        accepted: orWrongType(terms),
        payload: orWrongType(fc.oneof(exact, channel)),
      },
      { requiredKeys: [] },
    )
    .map(b64);
}

/** Terms in the shape of the challenge's, with any field of a wrong type. */
const junkTerms = fc.record(
  {
    scheme: orWrongType(fc.constantFrom('exact', 'batch-settlement')),
    network: orWrongType(fc.constantFrom('eip155:8453', 'eip155:84532')),
    amount: orWrongType(uintText),
    asset: orWrongType(hex(20)),
    payTo: orWrongType(hex(20)),
    maxTimeoutSeconds: orWrongType(fc.nat()),
    extra: orWrongType(fc.record({ name: fc.string(), version: fc.string() })),
  },
  { requiredKeys: [] },
);

/** A priced route's request, GET or HEAD, carrying `payment` as its PAYMENT-SIGNATURE header. */
const paying = (payment: fc.Arbitrary<string>) =>
  fc
    .tuple(targetFor(PRICED), fc.oneof({ weight: 4, arbitrary: fc.constant('GET') }, fc.constant('HEAD')), payment)
    .map(([{ target, meant }, method, header]): FuzzRequest => ({
      method,
      target,
      meant,
      headers: [['PAYMENT-SIGNATURE', header]],
    }));

/**
 * With the gate on, a payment that is no payment gets the challenge (or the 400/404 of a bad query):
 * never data, never a 5xx, and no stack trace in the log.
 */
async function expectRefused(r: FuzzRequest): Promise<void> {
  takeStackLines();
  const a = await send(r);
  expect(a.status).not.toBe(200);
  expectAllowed(r, a, true);
  expect(takeStackLines()).toEqual([]);
}

describe('junk PAYMENT-SIGNATURE headers on priced routes, gate on', () => {
  const GATE_RUNS = Math.ceil(RUNS / 4);
  beforeAll(() => useGate(true));

  it(
    'random strings, base64, base64 of any JSON and of {}: refused with the challenge',
    async () => {
      await fc.assert(fc.asyncProperty(paying(junkPaymentHeader), expectRefused), {
        ...FC_OPTIONS,
        numRuns: GATE_RUNS,
      });
    },
    timeoutFor(GATE_RUNS, 40),
  );

  /** Each priced route's terms, as its challenge states them. */
  const terms: unknown[] = [];
  beforeAll(async () => {
    const query: Record<string, string> = {
      '/v1/premium': 'state=FL',
      '/v1/premium/summary': 'state=FL&year=2024',
      '/v1/insurers': 'state=FL&period=2024-01',
      '/v1/compare': 'states=FL,IL',
      '/v1/solvency': 'insurer=Acme',
      '/v1/enforcement': 'state=MA',
      '/v1/rates': 'state=FL',
      '/v1/rates/activity': 'states=FL',
      '/v1/syndicates': 'syndicate=1234',
      '/v1/eligibility': 'syndicate=1234',
      '/v1/bulk/premium.csv': '',
      '/v1/bulk/premium.parquet': '',
    };
    for (const route of PRICED) {
      const res = await callHandler(`${ORIGIN}${route.path}?${query[route.path]}`);
      expect(res.status, route.path).toBe(402);
      terms.push(...decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts);
    }
  });

  it(
    "payment payloads with missing fields and wrong types, for the routes' own terms or junk ones: refused with the challenge",
    async () => {
      const payments = paymentPayload(fc.oneof(fc.constantFrom(...terms), junkTerms));
      await fc.assert(fc.asyncProperty(paying(payments), expectRefused), { ...FC_OPTIONS, numRuns: GATE_RUNS });
    },
    timeoutFor(GATE_RUNS, 40),
  );
});
