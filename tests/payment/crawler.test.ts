// x402 discovery as a crawler does it: read /openapi.json (generated with the gate's settings), build
// each priced operation's request from its parameters' examples (required ones only, then every one),
// send it unpaid to the gated service in process, and check the 402 challenge states the terms the
// document's x-payment-info announced. On the fixture data every example resolves; on the real data
// the probes the data cannot answer (no insurer lists, no county data) are 404, checked against the
// coverage, so this fails when such data lands and the examples need a look.
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoverageItem } from '../../domain/contract.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { installGate } from '../../api/payment/configured.ts';
import { createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, REAL_DATA, buildInto, serveShards } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';

const ORIGIN = 'http://service.test';
const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const settings = paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!;

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  example?: unknown;
}
interface X402Terms {
  version: number;
  scheme: string;
  network: string;
  asset: string;
  amount: string;
  payTo?: string;
}
interface Operation {
  operationId: string;
  parameters: Parameter[];
  'x-price-usd'?: string;
  'x-payment-info'?: { price: { mode: string; currency: string; amount: string }; protocols: { x402: X402Terms }[] };
  security?: unknown[];
}

const doc = openApiDocument(settings) as { paths: Record<string, { get: Operation }> };
const operations = Object.entries(doc.paths).map(([path, { get }]) => ({ path, op: get }));
const priced = operations.filter((o) => o.op['x-payment-info']);
const free = operations.filter((o) => !o.op['x-payment-info']);

type Probe = 'required' | 'all';
const PROBES: Probe[] = ['required', 'all'];

/** The request a crawler builds from the examples: the required query parameters, or every one. */
function requestOf(path: string, op: Operation, probe: Probe): string {
  const query = new URLSearchParams();
  for (const p of op.parameters.filter((p) => p.in === 'query' && (probe === 'all' || p.required)))
    query.set(p.name, String(p.example));
  const q = query.toString();
  return `${ORIGIN}${path}${q ? `?${q}` : ''}`;
}

/** Serves shards built from `dataDir`, with the gate on, for one describe block. */
function gatedOver(dataDir: string): void {
  let restore = () => {};
  beforeAll(() => {
    restore = serveShards(buildInto(dataDir));
    installGate(createGate(settings, verifyOnlyFacilitator(settings.network), ROUTE_CONTRACTS));
  });
  afterAll(() => {
    installGate(undefined);
    restore();
  });
}

/** An unpaid probe's challenge, checked against what the document announced. */
async function expectChallengeAsAnnounced(url: string, op: Operation): Promise<void> {
  const res = await callHandler(url);
  expect(res.status, url).toBe(402);
  expect(await res.text()).toBe('{}');
  const challenge = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
  const announced = op['x-payment-info']!.protocols[0].x402;
  const [accept] = challenge.accepts;
  expect(challenge.x402Version, url).toBe(announced.version);
  expect(
    {
      scheme: accept.scheme,
      network: accept.network,
      amount: accept.amount,
      asset: getAddress(accept.asset),
      payTo: getAddress(accept.payTo),
    },
    url,
  ).toEqual({
    scheme: announced.scheme,
    network: announced.network,
    amount: announced.amount,
    asset: announced.asset,
    payTo: announced.payTo,
  });
}

describe('the document a crawler reads', () => {
  it('announces every priced route with x-payment-info (with the payee, built with the gate on), and every free one with security: []', () => {
    expect(priced.map((o) => o.path).sort()).toEqual(
      ROUTE_CONTRACTS.filter((r) => r.priceUsd)
        .map((r) => r.path)
        .sort(),
    );
    for (const { path, op } of priced) {
      const usd = ROUTE_CONTRACTS.find((r) => r.path === path)!.priceUsd!;
      const terms = {
        version: 2,
        network: 'eip155:8453',
        asset: BASE_USDC,
        amount: String(Math.round(Number(usd) * 1e6)),
        payTo: PAYEE,
      };
      expect(op['x-payment-info'], path).toEqual({
        price: { mode: 'fixed', currency: 'USD', amount: usd },
        // A channel's least first deposit: the 1.00 USD default, or the price when that is more.
        protocols: [
          { x402: { ...terms, scheme: 'exact' } },
          { x402: { ...terms, scheme: 'batch-settlement', minDeposit: String(Math.max(1, Number(usd)) * 1e6) } },
        ],
      });
      expect(op.security, path).toBeUndefined();
    }
    for (const { path, op } of free) expect(op.security, path).toEqual([]);
  });

  it('gives every query parameter an example to build a request from', () => {
    for (const { path, op } of operations)
      for (const p of op.parameters.filter((p) => p.in === 'query'))
        expect(p.example, `${path} ${p.name}`).toBeDefined();
  });
});

describe('probing the gated service built from the fixture data', () => {
  gatedOver(FIXTURE_DATA);

  for (const probe of PROBES)
    it(`every priced operation, ${probe} parameters from their examples: 402 with the announced terms`, async () => {
      for (const { path, op } of priced) await expectChallengeAsAnnounced(requestOf(path, op, probe), op);
    });

  it('every free operation, probed with its examples: 200', async () => {
    for (const { path, op } of free)
      for (const probe of PROBES)
        expect((await callHandler(requestOf(path, op, probe))).status, `${path} ${probe}`).toBe(200);
  });
});

describe('probing the gated service built from the real data', () => {
  gatedOver(REAL_DATA);
  let coverage: CoverageItem[];
  beforeAll(async () => {
    coverage = (await (await callHandler(`${ORIGIN}/v1/coverage`)).json()) as CoverageItem[];
  });

  /** Why the data cannot answer a probe (a 404 before any payment), from the coverage; null when it can. */
  function unanswerable(url: string): string | null {
    const { pathname, searchParams } = new URL(url);
    const state = coverage.find((c) => c.state === searchParams.get('state'));
    if (pathname === '/v1/insurers' && !state?.insurer_periods.includes(searchParams.get('period')!))
      return `${state?.state} ranks no insurers for ${searchParams.get('period')}`;
    if (searchParams.has('county') && !state?.capabilities.has_county_data) return `${state?.state} has no county data`;
    return null;
  }

  it('reaches 402 with the announced terms wherever the data can answer; the rest is 404, for the reason the coverage gives', async () => {
    const refused: string[] = [];
    for (const { path, op } of priced)
      for (const probe of PROBES) {
        const url = requestOf(path, op, probe);
        const reason = unanswerable(url);
        if (reason === null) await expectChallengeAsAnnounced(url, op);
        else {
          const res = await callHandler(url);
          expect(res.status, url).toBe(404);
          expect(res.headers.get('PAYMENT-REQUIRED'), url).toBeNull();
          expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
          refused.push(`${path} ${probe}: ${reason}`);
        }
      }
    // Exactly this today: no state of the real data has county data (the insurers example, TX 2021, is a
    // ranking the data holds). When county data lands, this fails: check the contract's examples reach it.
    expect(coverage.find((c) => c.state === 'TX')!.insurer_periods).toContain('2021');
    expect(coverage.find((c) => c.state === 'FL')!.capabilities.has_county_data).toBe(false);
    expect(refused).toEqual(['/v1/premium all: FL has no county data']);
  });

  it('every free operation, probed with its examples: 200', async () => {
    for (const { path, op } of free)
      for (const probe of PROBES)
        expect((await callHandler(requestOf(path, op, probe))).status, `${path} ${probe}`).toBe(200);
  });
});
