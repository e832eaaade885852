// The payment schemes are one list (api/payment/schemes.ts) that every part of the payment code iterates: a scheme
// registered beside the listed ones, here in the test and nowhere else, is offered in every 402 (HTTP and MCP), its
// payments are held to its own payload shape and paid by its own part, and /openapi.json states its terms, in the
// registry's order. No module of the gate is replaced: the test scheme is the SDK's exact server under another
// name, and the facilitator is the MOCK of tests/support/verify-only-facilitator.ts, told to serve that name too.
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload } from '@x402/core/types';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTE_CONTRACTS, type RouteContract } from '../../domain/route-contracts.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { createGate } from '../../api/payment/gate.ts';
import { paymentPrice } from '../../api/payment/prices.ts';
import type { PaymentScheme } from '../../api/payment/scheme-registry.ts';
import { registerSchemes, registeredSchemes } from '../../api/payment/scheme-registry.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { responseOf, wireAnswer } from '../../api/wire-answer.ts';
import { X402_SCHEMES } from '../../api/payment/terms.ts';
import { verifyOnlyFacilitator } from '../support/verify-only-facilitator.ts';
import { capturedConsole } from '../support/console.ts';

const PAYEE = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const settings = paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })!;
const premium = ROUTE_CONTRACTS.find((r) => r.path === '/v1/premium')!;
const resource = new URL('http://service.test/v1/premium?state=FL&line=all');
const TEST_SCHEME = 'test-only';

capturedConsole([/^x402: payment refused on \/v1\/premium: invalid_payment_header$/]);

/** The SDK's exact server, under the test scheme's name: a real scheme server the resource server registers. */
class TestOnlyServer extends ExactEvmScheme {
  constructor() {
    super();
    (this as { scheme: string }).scheme = TEST_SCHEME;
  }
}

/** A third scheme, described as a scheme's module describes itself; its part answers any payment of its shape. */
function testScheme(paid: string[]): PaymentScheme {
  return {
    name: TEST_SCHEME,
    payload: z.object({ note: z.literal('paid by the test scheme') }),
    part: (gateSettings) => ({
      scheme: TEST_SCHEME,
      server: new TestOnlyServer(),
      option: (route: RouteContract) => ({
        scheme: TEST_SCHEME,
        network: gateSettings.network,
        payTo: gateSettings.payTo,
        price: paymentPrice(route.priceUsd!, gateSettings.asset),
      }),
      async pay(step) {
        paid.push(step.matching.scheme);
        return { kind: 'answered', answer: await step.answer() };
      },
      payerOf: async () => ({ reason: 'invalid_payment' }),
    }),
    paymentInfo: () => ({ testOnly: true }),
  };
}

/** The MOCK facilitator, serving the test scheme beside the exact and batch-settlement schemes it serves. */
function facilitatorServingTestScheme(): FacilitatorClient {
  const mock = verifyOnlyFacilitator(settings.network);
  return {
    verify: (payload, requirements) => mock.verify(payload, requirements),
    settle: (payload, requirements) => mock.settle(payload, requirements),
    async getSupported() {
      const supported = await mock.getSupported();
      const kind = { x402Version: 2, scheme: TEST_SCHEME, network: settings.network };
      return { ...supported, kinds: [...supported.kinds, kind] };
    },
  };
}

const answer = () => ({ body: wireAnswer(200, {}, '{"data":[1]}'), hasFigures: true });

/** The schemes a gate offers in its 402 for /v1/premium, in order, and the challenge itself. */
async function challengeOf(gate: ReturnType<typeof createGate>) {
  const response = responseOf(await gate.charge(new Request(resource), premium, answer, resource));
  expect(response.status).toBe(402);
  return decodePaymentRequiredHeader(response.headers.get('payment-required')!);
}

/** The x402 terms /openapi.json states for /v1/premium, one a scheme. */
const openApiSchemes = () => {
  const paths = openApiDocument(null).paths as Record<string, { get: Record<string, unknown> }>;
  const info = paths['/v1/premium'].get['x-payment-info'] as { protocols: { x402: Record<string, unknown> }[] };
  return info.protocols.map((p) => p.x402);
};
const withChannels = (facilitator: FacilitatorClient) =>
  createGate(settings, facilitator, ROUTE_CONTRACTS, { channels: new InMemoryChannelStorage() });

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
});

describe('the registry of payment schemes', () => {
  it('lists the schemes in the order every 402 offers them and /openapi.json and the terms state them', async () => {
    const names = registeredSchemes().map((s) => s.name);
    expect(names).toEqual(['exact', 'batch-settlement']);
    expect(X402_SCHEMES).toEqual(names);
    expect(openApiSchemes().map((terms) => terms.scheme)).toEqual(names);
    const gate = withChannels(verifyOnlyFacilitator(settings.network));
    expect((await challengeOf(gate)).accepts.map((a) => a.scheme)).toEqual(names);
  });

  it('offers a scheme registered beside them in every 402 and /openapi.json, and pays with it', async () => {
    const paid: string[] = [];
    unregister = registerSchemes(testScheme(paid));
    const gate = withChannels(facilitatorServingTestScheme());
    const threeSchemes = ['exact', 'batch-settlement', TEST_SCHEME];

    const challenge = await challengeOf(gate);
    expect(challenge.accepts.map((a) => a.scheme)).toEqual(threeSchemes);
    const offer = challenge.accepts[2];
    expect(offer).toMatchObject({ network: settings.network, payTo: PAYEE, amount: '100000' });
    const sold = { url: resource.href, description: 'premium', mimeType: 'application/json' };
    const call = await gate.chargeCall(premium, sold, 'get_premium', undefined, answer);
    expect(call.kind === 'payment_required' && call.paymentRequired.accepts.map((a) => a.scheme)).toEqual(threeSchemes);

    // /openapi.json states its terms after the others', with what the scheme adds to them.
    const terms = openApiSchemes();
    expect(terms.map((t) => t.scheme)).toEqual(threeSchemes);
    expect(terms[2]).toMatchObject({ scheme: TEST_SCHEME, amount: '100000', testOnly: true });

    // A payment made with it is held to its payload's shape, then paid by its own part.
    const payment = (payload: Record<string, unknown>): PaymentPayload => ({
      x402Version: 2,
      resource: challenge.resource,
      accepted: offer,
      payload,
    });
    const pay = (payload: Record<string, unknown>) => {
      const headers = { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment(payload)) };
      return gate.charge(new Request(resource, { headers }), premium, answer, resource).then(responseOf);
    };
    const malformed = await pay({ note: 'another shape' });
    expect(malformed.status).toBe(402);
    const refusal = decodePaymentRequiredHeader(malformed.headers.get('payment-required')!);
    expect(refusal.error).toBe('invalid_payment_header');
    expect(paid).toEqual([]);
    const answered = await pay({ note: 'paid by the test scheme' });
    expect([answered.status, await answered.text()]).toEqual([200, '{"data":[1]}']);
    expect(paid).toEqual([TEST_SCHEME]);
  });

  it('refuses a second scheme of a name already registered: a payment naming it would be ambiguous', () => {
    expect(() => registerSchemes({ ...registeredSchemes()[0] })).toThrow('payment scheme exact registered twice');
    expect(registeredSchemes().map((s) => s.name)).toEqual(['exact', 'batch-settlement']);
  });
});
