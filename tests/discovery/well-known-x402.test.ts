// The x402 discovery document (/.well-known/x402), in process: read as x402scan's readers read it (the
// shape of Merit-Systems/x402scan docs/DISCOVERY.md, checked by a reader written here), checked against the
// contract (exactly the priced routes, each with its method and price, absolute on the site, no free route),
// and each resource probed unpaid against the payment gate over the fixture data: the 402 challenge states the
// amount, network, asset and payee the document announced. The page's answer is the free routes' answer.
import { createHash } from 'node:crypto';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { installGate } from '../../api/payment/configured.ts';
import { createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { type PaymentTerms, paymentTerms } from '../../api/payment/terms.ts';
import { wellKnownX402, wellKnownX402Text } from '../../api/well-known-x402.ts';
import { ALL } from '../../src/pages/.well-known/x402.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, useShardsOf } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';

const SITE = 'https://surplus-lines.example';
const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const settings = paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!;

const PRICED = ROUTE_CONTRACTS.filter((r) => r.priceUsd);
const FREE = ROUTE_CONTRACTS.filter((r) => !r.priceUsd);
/** A USD price in USDC's atomic units (6 decimals), worked out here, not with the code under test. */
const usdcUnits = (usd: string) => String(Math.round(Number(usd) * 1_000_000));

// ---- a reader of the document, written from x402scan's spec and independent of api/well-known-x402.ts -----

interface Listed {
  url: string;
  method: string;
  usd: string;
  atomic: string;
}

/** A resource's line in `instructions`: `- METHOD URL: 0.10 USD (100000 atomic units). Summary.` */
const LINE = /^- ([A-Z]+) (\S+): (\d+\.\d+) USD \((\d+) atomic units\)\. \S/;

/** The document's resources and their lines, or the first way it breaks the spec's shape. */
function read(text: string): { resources: string[]; listed: Map<string, Listed>; instructions: string } {
  const doc = JSON.parse(text) as Record<string, unknown>;
  const extra = Object.keys(doc).filter(
    (k) => !['version', 'resources', 'ownershipProofs', 'instructions'].includes(k),
  );
  if (extra.length) throw new Error(`fields the spec does not have: ${extra.join(', ')}`);
  if (doc.version !== 1) throw new Error(`version ${JSON.stringify(doc.version)} is not 1`);
  const { resources, instructions } = doc;
  if (!Array.isArray(resources) || !resources.every((r) => typeof r === 'string' && URL.canParse(r)))
    throw new Error('resources is not a list of URLs');
  if (typeof instructions !== 'string') throw new Error('no instructions');
  const listed = new Map<string, Listed>();
  for (const line of instructions.split('\n')) {
    const m = LINE.exec(line);
    if (m) listed.set(m[2], { method: m[1], url: m[2], usd: m[3], atomic: m[4] });
  }
  return { resources: resources as string[], listed, instructions };
}

/** What the document misses or gets wrong against the contract and the site; empty when it is right. */
function problemsOf(text: string, site = SITE): string[] {
  let doc: ReturnType<typeof read>;
  try {
    doc = read(text);
  } catch (e) {
    return [`shape: ${(e as Error).message}`];
  }
  const problems: string[] = [];
  const paths = doc.resources.map((r) => new URL(r).pathname);
  for (const r of doc.resources)
    if (new URL(r).origin !== new URL(site).origin) problems.push(`${r} is not absolute on ${site}`);
  for (const route of FREE) if (paths.includes(route.path)) problems.push(`free route ${route.path} listed`);
  for (const route of PRICED) {
    const at = paths.filter((p) => p === route.path).length;
    if (at !== 1) problems.push(`route ${route.path} listed ${at} times`);
  }
  if (doc.resources.length !== PRICED.length)
    problems.push(`${doc.resources.length} resources for ${PRICED.length} priced routes`);
  for (const url of doc.resources) {
    const route = PRICED.find((r) => r.path === new URL(url).pathname);
    const line = doc.listed.get(url);
    if (!route) continue;
    if (!line) problems.push(`${url} has no line in instructions`);
    else if (line.method !== 'GET' || line.usd !== route.priceUsd || line.atomic !== usdcUnits(route.priceUsd))
      problems.push(
        `${url} is listed as ${line.method} ${line.usd} USD (${line.atomic}), not GET ${route.priceUsd} USD (${usdcUnits(route.priceUsd!)})`,
      );
  }
  if (doc.listed.size !== doc.resources.length)
    problems.push(`instructions list ${doc.listed.size} resources, not ${doc.resources.length}`);
  return problems;
}

// ---- the tests ----------------------------------------------------------------------------------------

useShardsOf(FIXTURE_DATA);

const gated = paymentTerms(settings);
const text = wellKnownX402Text(SITE, gated);

describe('the /.well-known/x402 document (x402scan docs/DISCOVERY.md)', () => {
  it("is the spec's shape: version 1, resources as absolute URLs, instructions as text, nothing else", () => {
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['version', 'resources', 'instructions']);
    expect(doc.version).toBe(1);
    expect(
      doc.resources.every(
        (r: unknown) => typeof r === 'string' && /^https:\/\/surplus-lines\.example\/v1\/\S+$/.test(r),
      ),
    ).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(wellKnownX402(SITE, gated));
  });

  it('lists exactly the priced routes of the contract, each once, each with GET and its price in USD and atomic units, and no free route', () => {
    expect(PRICED.length).toBeGreaterThan(5);
    expect(FREE.length).toBeGreaterThan(3);
    expect(problemsOf(text)).toEqual([]);
    const { resources, listed } = read(text);
    expect(resources.map((r) => new URL(r).pathname)).toEqual(PRICED.map((r) => r.path));
    expect([...listed.values()].map((l) => `${l.method} ${new URL(l.url).pathname} ${l.usd} ${l.atomic}`)).toEqual(
      PRICED.map((r) => `GET ${r.path} ${r.priceUsd} ${usdcUnits(r.priceUsd!)}`),
    );
    expect(listed.get(`${SITE}/v1/compare?states=FL,TX`)).toMatchObject({ usd: '0.50', atomic: '500000' });
  });

  it('states the x402 terms: version 2, schemes exact and batch-settlement, the network and asset, and the payee only when the gate is on', () => {
    const { instructions } = read(text);
    for (const fact of [
      'x402 version 2',
      'schemes exact and batch-settlement',
      'minDeposit',
      'eip155:8453',
      BASE_USDC,
      `paid to ${PAYEE}`,
      'PAYMENT-REQUIRED',
      'PAYMENT-SIGNATURE',
      'PAYMENT-RESPONSE',
    ])
      expect(instructions, fact).toContain(fact);
    const off = wellKnownX402Text(SITE, paymentTerms(null));
    expect(problemsOf(off)).toEqual([]);
    expect(off).toContain(BASE_USDC);
    expect(off).not.toContain('paid to');
  });

  it('puts every URL on the site it is given (SITE_URL), resources and links alike', () => {
    for (const site of ['http://127.0.0.1:4321', 'https://api.sl.example:8443/']) {
      const other = wellKnownX402Text(site, gated);
      expect(problemsOf(other, site)).toEqual([]);
      const urls = other.match(/https?:\/\/[^\s",)]+/g)!;
      expect(urls.length).toBeGreaterThan(PRICED.length * 2);
      for (const url of urls) expect(new URL(url).origin, url).toBe(new URL(site).origin);
    }
  });

  it("the check fails when a route is missing, a free route is listed, a price or method is wrong, a URL is relative, or the shape is not the spec's", () => {
    const doc = wellKnownX402(SITE, gated);
    const edit = (change: (d: Record<string, unknown> & typeof doc) => void) => {
      const copy = structuredClone(doc) as Record<string, unknown> & typeof doc;
      change(copy);
      return JSON.stringify(copy);
    };
    expect(problemsOf(edit((d) => d.resources.splice(2, 1)))).toContain('route /v1/compare listed 0 times');
    expect(problemsOf(edit((d) => d.resources.push(`${SITE}/v1/coverage`)))).toContain(
      'free route /v1/coverage listed',
    );
    expect(
      problemsOf(edit((d) => (d.instructions = d.instructions.replace('0.50 USD (500000', '0.10 USD (100000')))),
    ).toEqual([`${SITE}/v1/compare?states=FL,TX is listed as GET 0.10 USD (100000), not GET 0.50 USD (500000)`]);
    expect(
      problemsOf(
        edit((d) => (d.instructions = d.instructions.replace(`- GET ${SITE}/v1/rates:`, `- POST ${SITE}/v1/rates:`))),
      ),
    ).toEqual([`${SITE}/v1/rates is listed as POST 0.10 USD (100000), not GET 0.10 USD (100000)`]);
    expect(problemsOf(edit((d) => (d.resources[0] = 'https://elsewhere.example/v1/premium?state=FL')))).toContain(
      `https://elsewhere.example/v1/premium?state=FL is not absolute on ${SITE}`,
    );
    expect(problemsOf(edit((d) => (d.resources[0] = '/v1/premium?state=FL')))).toEqual([
      'shape: resources is not a list of URLs',
    ]);
    expect(problemsOf(edit((d) => ((d as Record<string, unknown>).version = '1')))).toEqual([
      'shape: version "1" is not 1',
    ]);
    expect(problemsOf(edit((d) => ((d as Record<string, unknown>).prices = {})))).toEqual([
      'shape: fields the spec does not have: prices',
    ]);
  });
});

describe('each resource, probed unpaid against the payment gate (fixture data)', () => {
  beforeAll(() => installGate(createGate(settings, verifyOnlyFacilitator(settings.network), ROUTE_CONTRACTS)));
  afterAll(() => installGate(undefined));

  it('answers 402, and the challenge charges what the document says: amount, network, asset and payee, for that route', async () => {
    const { resources, listed } = read(text);
    for (const url of resources) {
      const res = await callHandler(url);
      expect(res.status, url).toBe(402);
      const challenge = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
      const [accept] = challenge.accepts;
      expect(accept.amount, url).toBe(listed.get(url)!.atomic);
      expect({ network: accept.network, asset: accept.asset, payTo: accept.payTo }, url).toEqual({
        network: gated.network,
        asset: gated.asset.address,
        payTo: PAYEE,
      });
      expect(new URL(challenge.resource.url).pathname, url).toBe(new URL(url).pathname);
    }
  });

  it('a document made with other terms would not match the challenges (the probe above can fail)', async () => {
    const other: PaymentTerms = { ...gated, asset: { ...gated.asset, decimals: 18 } };
    const { resources, listed } = read(wellKnownX402Text(SITE, other));
    const challenge = decodePaymentRequiredHeader((await callHandler(resources[0])).headers.get('PAYMENT-REQUIRED')!);
    expect(listed.get(resources[0])!.atomic).not.toBe(challenge.accepts[0].amount);
  });
});

describe('the page (src/pages/.well-known/x402.ts), as both servers run it', () => {
  const call = (method: string) =>
    ALL({ request: new Request(`${SITE}/.well-known/x402`, { method }), site: new URL(SITE) } as Parameters<
      typeof ALL
    >[0]) as Promise<Response>;

  it("answers GET with the document for the site Astro gives and the environment's terms, and the free routes' headers", async () => {
    const res = await call('GET');
    const body = await res.text();
    expect(res.status).toBe(200);
    expect(body).toBe(wellKnownX402Text(SITE, paymentTerms()));
    const headers = Object.fromEntries(res.headers);
    expect(headers).toEqual({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'PAYMENT-REQUIRED, PAYMENT-RESPONSE',
      'cache-control': 'public, max-age=3600',
      'cdn-cache-control': 'public, max-age=3600',
      'content-length': String(Buffer.byteLength(body)),
      'content-type': 'application/json; charset=utf-8',
      // docs/design.md §14: its body's SHA-256, and the build's newest report_date (it cites none), as /v1/coverage's
      etag: `"${createHash('sha256').update(body).digest('hex')}"`,
      'last-modified': expect.stringMatching(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} 00:00:00 GMT$/),
    });
    // The free routes' very headers, the length and the ETag aside.
    const free = Object.fromEntries((await callHandler(`${SITE}/v1/coverage`)).headers);
    expect({ ...headers, 'content-length': undefined, etag: undefined }).toEqual({
      ...free,
      'content-length': undefined,
      etag: undefined,
    });
  });

  it('answers HEAD with the same headers and no body, OPTIONS with the CORS preflight, and any other method 405', async () => {
    const get = await call('GET');
    const head = await call('HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(Object.fromEntries(head.headers)).toEqual(Object.fromEntries(get.headers));
    const options = await call('OPTIONS');
    expect(options.status).toBe(204);
    expect(options.headers.get('Access-Control-Allow-Methods')).toBe('GET, HEAD, OPTIONS');
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await call(method);
      expect(res.status, method).toBe(405);
      expect(res.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
      expect(JSON.parse(await res.text()).error.code).toBe('invalid_request');
    }
  });
});
