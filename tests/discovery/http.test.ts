// /.well-known/x402 on the built Node server (server.ts over the Astro build, as `npm start` runs it), over
// HTTP: the document's bytes, the free routes' headers, HEAD, other methods; and, with the payment gate on,
// the document names the payee and every resource it lists answers that server's 402 with the amount it
// states. One build (the fixture data), two server processes.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { WELL_KNOWN_X402_PATH, wellKnownX402Text } from '../../api/well-known-x402.ts';
import { serveFacilitator } from '../support/chain.ts';
import { ROOT, astroBuild, rawRequest, startServer } from '../support/server.ts';
import { FIXTURE_DATA, buildInto } from '../support/shards.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-discovery');
const ENTRY = join(OUT, 'server', 'entry.mjs');
const PAYEE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
/** The site the build puts in every URL (astro.config.mjs: SITE_URL, else this). */
const SITE = process.env.SITE_URL ?? 'http://127.0.0.1:4321';

let shards: string;
let server: { base: string; stop: () => void };
let gated: { base: string; stop: () => void };
let facilitator: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  shards = buildInto(FIXTURE_DATA);
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
  facilitator = await serveFacilitator(verifyOnlyFacilitator()); // a MOCK facilitator: only the challenges are needed here
  [server, gated] = await Promise.all([
    startServer(ENTRY, { SHARDS_DIR: shards }),
    startServer(ENTRY, { SHARDS_DIR: shards, X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: facilitator.url }),
  ]);
});
afterAll(async () => {
  server?.stop();
  gated?.stop();
  await facilitator?.stop();
});

/** The headers every free route answers with, the length aside: read from /v1/coverage on the same server. */
async function freeHeaders(base: string): Promise<Record<string, string | string[] | undefined>> {
  const { headers } = await rawRequest(base, 'GET', '/v1/coverage');
  return withoutTransport(headers);
}
/** Headers that belong to the connection or the moment, not to the answer; and Vary, which /v1's answers carry because the Node server also gives them compressed (this page it does not). */
const withoutTransport = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'vary'].includes(name),
    ),
  );

describe('GET /.well-known/x402 on the Node server', () => {
  it("answers 200 with the document for the build's site, byte for byte, with the free routes' headers", async () => {
    const res = await rawRequest(server.base, 'GET', WELL_KNOWN_X402_PATH);
    expect(res.status).toBe(200);
    expect(res.body).toBe(wellKnownX402Text(SITE, paymentTerms())); // the server's terms: the environment's (the gate off here)
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      'cdn-cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
      'content-length': String(Buffer.byteLength(res.body)),
    });
    // Its own ETag, the SHA-256 of its bytes (docs/design.md §14); every other header the free routes'.
    expect(res.headers.etag).toBe(`"${createHash('sha256').update(res.body).digest('hex')}"`);
    expect({ ...withoutTransport(res.headers), etag: undefined }).toEqual({
      ...(await freeHeaders(server.base)),
      etag: undefined,
    });
  });

  it('answers HEAD with the same status and headers and no body; OPTIONS with the CORS preflight; another method 405 in the JSON error body', async () => {
    const get = await rawRequest(server.base, 'GET', WELL_KNOWN_X402_PATH);
    const head = await rawRequest(server.base, 'HEAD', WELL_KNOWN_X402_PATH);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect({ ...head.headers, date: undefined }).toEqual({ ...get.headers, date: undefined });
    const options = await rawRequest(server.base, 'OPTIONS', WELL_KNOWN_X402_PATH);
    expect([options.status, options.headers['access-control-allow-methods']]).toEqual([204, 'GET, HEAD, OPTIONS']);
    for (const method of ['POST', 'DELETE']) {
      const res = await rawRequest(server.base, method, WELL_KNOWN_X402_PATH);
      expect([res.status, res.headers.allow, res.headers['content-type']], method).toEqual([
        405,
        'GET, HEAD, OPTIONS',
        'application/json; charset=utf-8',
      ]);
      expect(JSON.parse(res.body).error.code).toBe('invalid_request');
    }
  });

  it('with the payment gate on, names the payee, and each resource it lists answers this server 402 for the amount it states', async () => {
    const res = await rawRequest(gated.base, 'GET', WELL_KNOWN_X402_PATH);
    expect(res.status).toBe(200);
    const terms = paymentTerms(paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: facilitator.url }));
    expect(res.body).toBe(wellKnownX402Text(SITE, terms));
    const doc = JSON.parse(res.body) as { resources: string[]; instructions: string };
    expect(doc.instructions).toContain(`paid to ${PAYEE}`);
    expect(doc.resources.map((r) => new URL(r).pathname)).toEqual(
      ROUTE_CONTRACTS.filter((r) => r.priceUsd).map((r) => r.path),
    );
    for (const resource of doc.resources) {
      // The resource is on the build's site; this server listens elsewhere: the same path and query, here.
      const { pathname, search } = new URL(resource);
      const probe = await rawRequest(gated.base, 'GET', `${pathname}${search}`);
      expect(probe.status, resource).toBe(402);
      const [accept] = decodePaymentRequiredHeader(String(probe.headers['payment-required'])).accepts;
      expect(doc.instructions, resource).toContain(
        `- GET ${resource}: ${ROUTE_CONTRACTS.find((r) => r.path === pathname)!.priceUsd} USD (${accept.amount} atomic units).`,
      );
      expect([accept.payTo, accept.network, accept.asset], resource).toEqual([
        PAYEE,
        terms.network,
        terms.asset.address,
      ]);
    }
  });
});
