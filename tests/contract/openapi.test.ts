// The OpenAPI document: valid OpenAPI 3.1 by a standard validator, and true to the routes it
// describes (every route, its parameters as the handler accepts them, its price and errors). That
// the served copy is not stale is checked over HTTP (http.test.ts).
import { Validator } from '@seriousme/openapi-schema-validator';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { HANDLERS } from '../../api/dispatch.ts';
import { callHandler } from '../support/handlers.ts';
import { paymentSettings } from '../../api/payment/settings.ts';

// docs/design.md §15: the routes, their prices and their parameters, written out independently; and
// /v1/publications, the free REST twin of the MCP tool list_publications (issue 11; without state, every state's,
// and since: issue 24); format (json or csv) on the series routes (docs/design.md §11).
const DOCUMENTED_ROUTES = {
  '/v1/premium': {
    price: '0.10',
    params: ['state', 'line', 'county', 'from', 'to', 'granularity', 'report_date', 'format'],
    required: ['state'],
  },
  '/v1/premium/summary': { price: '0.10', params: ['state', 'year'], required: ['state', 'year'] },
  '/v1/compare': {
    price: '0.50',
    params: ['states', 'line', 'from', 'to', 'granularity', 'report_date', 'format'],
    required: ['states'],
  },
  '/v1/insurers': { price: '0.10', params: ['state', 'period', 'format'], required: ['state', 'period'] },
  '/v1/premium/sample': { price: null, params: ['state', 'format'], required: [] },
  '/v1/lines': { price: null, params: ['state'], required: ['state'] },
  '/v1/coverage': { price: null, params: [], required: [] },
  '/v1/publications': { price: null, params: ['state', 'since'], required: [] },
  '/v1/solvency/sample': { price: null, params: [], required: [] },
  '/v1/rates/sample': { price: null, params: [], required: [] },
  '/v1/syndicates/sample': { price: null, params: [], required: [] },
  '/v1/solvency': { price: '0.10', params: ['insurer'], required: ['insurer'] },
  '/v1/enforcement': { price: '0.10', params: ['action_type', 'state', 'year', 'insurer'], required: [] },
  '/v1/rates': {
    price: '0.10',
    params: ['state', 'company', 'toi', 'coverage_category', 'from', 'to', 'status'],
    required: [],
  },
  '/v1/rates/activity': { price: '0.10', params: ['states', 'from', 'to', 'granularity'], required: [] },
  '/v1/syndicates': { price: '0.10', params: ['syndicate', 'managing_agent'], required: [] },
  '/v1/eligibility': { price: '0.10', params: ['syndicate', 'insurer'], required: [] },
  // docs/design.md §14: the bulk files, 5.00 USD each, and their free descriptor
  '/v1/bulk/premium.csv': { price: '5.00', params: [], required: [] },
  '/v1/bulk/premium.parquet': { price: '5.00', params: [], required: [] },
  '/v1/bulk/datapackage.json': { price: null, params: [], required: [] },
} as const;

type Doc = {
  openapi: string;
  info: { description: string };
  paths: Record<
    string,
    {
      get: {
        operationId: string;
        parameters: {
          name: string;
          in: string;
          required: boolean;
          example?: unknown;
          schema: Record<string, unknown>;
        }[];
        responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
        'x-price-usd'?: string;
        'x-payment-info'?: { price: unknown; protocols: { x402: Record<string, unknown> }[] };
        security?: unknown[];
      };
    }
  >;
  components: { schemas: Record<string, unknown> };
};
const doc = openApiDocument() as Doc;

describe('GET /openapi.json (generated from api/contract.ts)', () => {
  it('is a valid OpenAPI 3.1 document by @seriousme/openapi-schema-validator', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes exactly the routes of docs/design.md §15, with their prices and parameters', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(DOCUMENTED_ROUTES).sort());
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(DOCUMENTED_ROUTES).sort());
    for (const [path, spec] of Object.entries(DOCUMENTED_ROUTES)) {
      const op = doc.paths[path].get;
      expect(op['x-price-usd'] ?? null, path).toBe(spec.price);
      const query = op.parameters.filter((p) => p.in === 'query');
      expect(query.map((p) => p.name).sort(), path).toEqual([...spec.params].sort());
      expect(
        query
          .filter((p) => p.required)
          .map((p) => p.name)
          .sort(),
        path,
      ).toEqual([...spec.required].sort());
      expect('402' in op.responses, path).toBe(spec.price !== null);
      // Every route takes the conditional headers (docs/design.md §14); the x402 payment travels in a request header: priced routes say which.
      const headers = op.parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.required]);
      const conditional = [
        ['If-None-Match', false],
        ['If-Modified-Since', false],
      ];
      expect(headers, path).toEqual(spec.price === null ? conditional : [...conditional, ['PAYMENT-SIGNATURE', false]]);
      // Every 200 says its validators, and a 304 is described.
      expect(Object.keys(op.responses['200'].headers!), path).toEqual(
        expect.arrayContaining(['ETag', 'Last-Modified']),
      );
      expect(op.responses['304'], path).toBeDefined();
    }
    // The downloads are described by their own media types.
    expect(Object.keys(doc.paths['/v1/bulk/premium.csv'].get.responses['200'].content!)).toEqual(['text/csv']);
    expect(Object.keys(doc.paths['/v1/bulk/premium.parquet'].get.responses['200'].content!)).toEqual([
      'application/vnd.apache.parquet',
    ]);
  });

  it('keeps the patterns of docs/design.md §15 for from, to, report_date, year and period', () => {
    const schemaOf = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p) => p.name === name)!.schema;
    expect(schemaOf('/v1/premium', 'from').pattern).toBe('^\\d{4}-(0[1-9]|1[0-2])$');
    expect(schemaOf('/v1/compare', 'to').pattern).toBe('^\\d{4}-(0[1-9]|1[0-2])$');
    expect(schemaOf('/v1/premium', 'report_date').pattern).toBe('^\\d{4}-\\d{2}-\\d{2}$');
    expect(schemaOf('/v1/premium/summary', 'year').pattern).toBe('^\\d{4}$');
    // month, quarter, year and half_year (docs/design.md §3)
    expect(schemaOf('/v1/premium', 'granularity').enum).toEqual(['month', 'quarter', 'half_year', 'year']);
    expect(schemaOf('/v1/compare', 'granularity').enum).toEqual(['month', 'quarter', 'half_year', 'year']);
    expect(schemaOf('/v1/premium', 'line').default).toBe('all');
    expect(schemaOf('/v1/premium/sample', 'state').default).toBe('FL');
  });

  it('lists, for every route, the parameters its handler accepts', async () => {
    for (const route of ROUTE_CONTRACTS) {
      if (!route.params) continue;
      const res = await callHandler(`http://service.test${route.path}?not_a_parameter=1`);
      expect(res.status, route.path).toBe(400);
      const { error } = (await res.json()) as { error: { message: string } };
      const accepted = [...error.message.matchAll(/'([a-z_]+)'/g)]
        .map((m) => m[1])
        .filter((n) => n !== 'not_a_parameter');
      const query = doc.paths[route.path].get.parameters.filter((p) => p.in === 'query');
      expect(accepted.sort(), route.path).toEqual(query.map((p) => p.name).sort());
    }
  });

  it('documents the rules users need: vintages, nulls, basis, categories and prices', () => {
    const text = JSON.stringify(doc);
    for (const rule of [
      'report_date',
      'back-filled',
      'partial_monthly_sum',
      'annual_report',
      'monthly_sum',
      'category:<name>',
      'x402',
      'like-for-like',
      'count_unit',
    ])
      expect(text, rule).toContain(rule);
  });

  it('names every response schema it references', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([A-Za-z]+)"/g)].map((m) => m[1]);
    for (const name of new Set(refs)) expect(doc.components.schemas, name).toHaveProperty(name);
  });

  it("gives every query parameter an example, compare's granularity (a default around the shared parameter) included", () => {
    for (const [path, item] of Object.entries(doc.paths))
      for (const p of item.get.parameters.filter((p) => p.in === 'query'))
        expect(p.example, `${path} ${p.name}`).toBeDefined();
    const granularity = doc.paths['/v1/compare'].get.parameters.find((p) => p.name === 'granularity')!;
    expect(granularity.example).toBe('year');
    expect(granularity.schema.default).toBe('month');
  });
});

describe('x402 discovery in the document', () => {
  const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
  /** The price in USDC atomic units (6 decimals), worked out here. */
  const atomic = (usd: string) => String(Math.round(Number(usd) * 1_000_000));

  it('built with the gate off: x-payment-info on every priced operation, Base mainnet USDC by default, no payee', () => {
    const off = openApiDocument(null) as Doc;
    for (const [path, spec] of Object.entries(DOCUMENTED_ROUTES)) {
      const op = off.paths[path].get;
      if (!spec.price) {
        expect(op['x-payment-info'], path).toBeUndefined();
        expect(op.security, path).toEqual([]);
        continue;
      }
      expect(op['x-price-usd'], path).toBe(spec.price);
      const terms = {
        version: 2,
        network: 'eip155:8453',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        amount: atomic(spec.price),
      };
      // A channel's least deposit: 1.00 USD by default, or the price when that is more.
      const minDeposit = atomic(String(Math.max(1, Number(spec.price))));
      expect(op['x-payment-info'], path).toEqual({
        price: { mode: 'fixed', currency: 'USD', amount: spec.price },
        protocols: [
          { x402: { ...terms, scheme: 'exact' } },
          { x402: { ...terms, scheme: 'batch-settlement', minDeposit } },
        ],
      });
      expect('402' in op.responses, path).toBe(true);
    }
  });

  it('built with the gate on: the configured network, asset and payee', async () => {
    const sepolia = openApiDocument(
      paymentSettings({ X402_PAY_TO: PAYEE, X402_NETWORK: 'eip155:84532', X402_MIN_DEPOSIT_USD: '2.50' }),
    ) as Doc;
    const terms = {
      version: 2,
      network: 'eip155:84532',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      amount: '500000',
      payTo: PAYEE,
    };
    expect(sepolia.paths['/v1/compare'].get['x-payment-info']!.protocols).toEqual([
      { x402: { ...terms, scheme: 'exact' } },
      { x402: { ...terms, scheme: 'batch-settlement', minDeposit: '2500000' } },
    ]);
    const result = await new Validator().validate(structuredClone(sepolia));
    expect(result.errors ?? []).toEqual([]);
  });

  it('says where the authoritative terms are, and when payTo is there', () => {
    expect(doc.info.description).toContain('`x-payment-info`');
    expect(doc.info.description).toContain(
      '`payTo` is there only when the deployment was built with the payment gate on',
    );
    expect(doc.info.description).toContain("The authoritative terms are always the 402 challenge's");
  });
});
