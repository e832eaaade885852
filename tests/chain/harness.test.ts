// Proves tests/support/chain.ts against a real anvil: the official x402 server, client and facilitator code
// paths move test USDC on chain, refuse replays and tampered payments, and work over the facilitator REST API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  hashDomain,
  http as viemHttp,
  toFunctionSelector,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import {
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import {
  ANVIL_ACCOUNTS,
  MULTICALL3,
  NETWORK,
  PAYER_FUNDING,
  createPayment,
  payingFetch,
  serveFacilitator,
  signPayment,
  startLocalChain,
  type FacilitatorClient,
  type LocalChain,
} from '../support/chain.ts';

const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const TX_HASH = /^0x[0-9a-f]{64}$/;

let chain: LocalChain;
let startMs: number;

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: T }).result;
}

/** eth_call of a no-argument view function, raw return data. */
async function call(to: Address, signature: string): Promise<string> {
  return rpc<string>('eth_call', [{ to, data: toFunctionSelector(signature) }, 'latest']);
}

async function balances(): Promise<{ payer: bigint; payee: bigint; other: bigint }> {
  const [payer, payee, other] = await Promise.all([
    chain.balanceOf(chain.payer.address),
    chain.balanceOf(chain.payee),
    chain.balanceOf(chain.other),
  ]);
  return { payer, payee, other };
}

/** A resource server exactly as production builds one, on the given facilitator, with a $0.10 offer. */
async function resourceServer(
  facilitator: FacilitatorClient,
): Promise<{ server: x402ResourceServer; requirements: PaymentRequirements; paymentRequired: PaymentRequired }> {
  const server = new x402ResourceServer(facilitator).register(NETWORK, new ExactEvmServerScheme());
  await server.initialize();
  const [requirements] = await server.buildPaymentRequirements({
    scheme: 'exact',
    network: NETWORK,
    payTo: chain.payee,
    price: '$0.10',
  });
  if (!requirements) throw new Error('no requirements built');
  const paymentRequired = await server.createPaymentRequiredResponse([requirements], {
    url: 'http://localhost/api/cheap',
    description: 'cheap query',
    mimeType: 'application/json',
  });
  return { server, requirements, paymentRequired };
}

beforeAll(async () => {
  const t0 = performance.now();
  chain = await startLocalChain();
  startMs = performance.now() - t0;
});

afterAll(async () => {
  await chain?.stop();
});

describe('startLocalChain', () => {
  it('runs anvil as Base mainnet with the EIP-3009 token at the real USDC address and a funded payer', async () => {
    console.info(`startLocalChain took ${Math.round(startMs)} ms`);
    expect(Number(await rpc<string>('eth_chainId'))).toBe(8453);
    expect(chain.chainId).toBe(8453);
    expect(chain.usdc).toBe(BASE_USDC);
    expect((await rpc<string>('eth_getCode', [BASE_USDC, 'latest'])).length).toBeGreaterThan(1000);
    expect((await rpc<string>('eth_getCode', [MULTICALL3, 'latest'])).length).toBeGreaterThan(100);
    expect(chain.payer.address).toBe(ANVIL_ACCOUNTS[1].address);
    expect(chain.payee).toBe('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
    expect(chain.other).toBe(ANVIL_ACCOUNTS[3].address);

    // decimals 6, and the EIP-712 domain the SDK signs against (USD Coin / 2 / 8453 / the USDC address).
    expect(BigInt(await call(BASE_USDC, 'decimals()'))).toBe(6n);
    expect(await call(BASE_USDC, 'DOMAIN_SEPARATOR()')).toBe(
      hashDomain({
        domain: { name: 'USD Coin', version: '2', chainId: 8453n, verifyingContract: BASE_USDC },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    );
    expect(BigInt(await call(BASE_USDC, 'totalSupply()'))).toBeGreaterThanOrEqual(PAYER_FUNDING);
  });

  it('funds only the payer: payee and the bystander start with no USDC', async () => {
    const b = await balances();
    // Other tests in this file may already have paid; the sum is conserved either way.
    expect(b.payer + b.payee + b.other).toBe(PAYER_FUNDING);
    expect(b.other).toBe(0n);
  });
});

describe('EIP3009Token', () => {
  const abi = [
    {
      type: 'function',
      name: 'transferWithAuthorization',
      stateMutability: 'nonpayable',
      inputs: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
        { name: 'signature', type: 'bytes' },
      ],
      outputs: [],
    },
    {
      type: 'function',
      name: 'authorizationState',
      stateMutability: 'view',
      inputs: [
        { name: 'authorizer', type: 'address' },
        { name: 'nonce', type: 'bytes32' },
      ],
      outputs: [{ type: 'bool' }],
    },
    { type: 'function', name: 'name', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
    { type: 'function', name: 'version', stateMutability: 'view', inputs: [], outputs: [{ type: 'string' }] },
  ] as const;
  const types = {
    TransferWithAuthorization: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
    ],
  } as const;

  it('moves funds through the `bytes signature` overload and enforces the time window, nonce and signer', async () => {
    const local = defineChain({
      id: 8453,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    const reader = createPublicClient({ chain: local, transport: viemHttp(chain.rpcUrl) });
    // Submitted by the payee (any account may relay an EIP-3009 authorization); signed by the payer.
    const relayer = createWalletClient({
      account: privateKeyToAccount(ANVIL_ACCOUNTS[2].privateKey),
      chain: local,
      transport: viemHttp(chain.rpcUrl),
    });
    const payer = privateKeyToAccount(chain.payer.privateKey);
    const domain = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: BASE_USDC } as const;
    const now = BigInt(Math.floor(Date.now() / 1000));
    const authorize = async (
      over: { validAfter?: bigint; validBefore?: bigint; nonce?: Hex; signer?: typeof payer } = {},
    ) => {
      const message = {
        from: chain.payer.address,
        to: chain.other,
        value: 250n,
        validAfter: over.validAfter ?? 0n,
        validBefore: over.validBefore ?? now + 600n,
        nonce: over.nonce ?? `0x${crypto.randomUUID().replace(/-/g, '').padEnd(64, '0')}`,
      };
      const signature = await (over.signer ?? payer).signTypedData({
        domain,
        types,
        primaryType: 'TransferWithAuthorization',
        message,
      });
      return {
        args: [
          message.from,
          message.to,
          message.value,
          message.validAfter,
          message.validBefore,
          message.nonce,
          signature,
        ] as const,
        nonce: message.nonce,
      };
    };
    const simulate = async (a: Awaited<ReturnType<typeof authorize>>) =>
      reader
        .simulateContract({
          account: relayer.account,
          address: BASE_USDC,
          abi,
          functionName: 'transferWithAuthorization',
          args: a.args,
        })
        .then(
          () => 'ok',
          (e: Error) => e.message,
        );

    expect(await reader.readContract({ address: BASE_USDC, abi, functionName: 'name' })).toBe('USD Coin');
    expect(await reader.readContract({ address: BASE_USDC, abi, functionName: 'version' })).toBe('2');

    expect(await simulate(await authorize({ validBefore: now - 1n }))).toMatch(/authorization is expired/);
    expect(await simulate(await authorize({ validAfter: now + 600n }))).toMatch(/authorization is not yet valid/);
    expect(await simulate(await authorize({ signer: privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey) }))).toMatch(
      /invalid signature/,
    );

    const good = await authorize();
    const before = await balances();
    expect(
      await reader.readContract({
        address: BASE_USDC,
        abi,
        functionName: 'authorizationState',
        args: [chain.payer.address, good.nonce],
      }),
    ).toBe(false);
    const hash = await relayer.writeContract({
      address: BASE_USDC,
      abi,
      functionName: 'transferWithAuthorization',
      args: good.args,
    });
    expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('success');
    expect(
      await reader.readContract({
        address: BASE_USDC,
        abi,
        functionName: 'authorizationState',
        args: [chain.payer.address, good.nonce],
      }),
    ).toBe(true);
    const after = await balances();
    expect(after.other - before.other).toBe(250n);
    expect(before.payer - after.payer).toBe(250n);
    expect(await simulate(good)).toMatch(/authorization is used or canceled/);

    // Send the bystander's 250 back to the payer so the other tests' "other holds nothing" stays true.
    const bystander = createWalletClient({
      account: privateKeyToAccount(ANVIL_ACCOUNTS[3].privateKey),
      chain: local,
      transport: viemHttp(chain.rpcUrl),
    });
    const back = await bystander.writeContract({
      address: BASE_USDC,
      abi: [
        {
          type: 'function',
          name: 'transfer',
          stateMutability: 'nonpayable',
          inputs: [
            { name: 'to', type: 'address' },
            { name: 'value', type: 'uint256' },
          ],
          outputs: [{ type: 'bool' }],
        },
      ],
      functionName: 'transfer',
      args: [chain.payer.address, 250n],
    });
    expect((await reader.waitForTransactionReceipt({ hash: back })).status).toBe('success');
    expect(await chain.balanceOf(chain.other)).toBe(0n);
  });
});

describe('in-process facilitator', () => {
  it('verifies and settles a $0.10 payment on chain, then refuses the replay without moving funds', async () => {
    const { server, requirements, paymentRequired } = await resourceServer(chain.facilitator);
    expect(requirements).toMatchObject({
      scheme: 'exact',
      network: NETWORK,
      amount: '100000',
      asset: BASE_USDC,
      payTo: chain.payee,
      extra: { name: 'USD Coin', version: '2' },
    });

    const header = await signPayment(chain, paymentRequired);
    const payload = decodePaymentSignatureHeader(header);
    expect(server.findMatchingRequirements(paymentRequired.accepts, payload)).toEqual(requirements);

    const before = await balances();
    const verified = await server.verifyPayment(payload, requirements);
    expect(verified).toMatchObject({ isValid: true, payer: chain.payer.address });

    const settled = await server.settlePayment(payload, requirements);
    expect(settled).toMatchObject({ success: true, network: NETWORK, payer: chain.payer.address });
    expect(settled.transaction).toMatch(TX_HASH);
    const receipt = await rpc<{ status: string; to: string }>('eth_getTransactionReceipt', [settled.transaction]);
    expect(receipt.status).toBe('0x1');
    expect(receipt.to.toLowerCase()).toBe(BASE_USDC.toLowerCase());

    const after = await balances();
    expect(after.payee - before.payee).toBe(100000n);
    expect(before.payer - after.payer).toBe(100000n);

    // Replay: the EIP-3009 nonce is spent on chain. With Multicall3 installed the facilitator names the reason.
    const replayVerify = await server.verifyPayment(payload, requirements);
    expect(replayVerify.isValid).toBe(false);
    expect(replayVerify.invalidReason).toBe('invalid_exact_evm_nonce_already_used');
    const replaySettle = await server.settlePayment(payload, requirements);
    expect(replaySettle).toMatchObject({ success: false, errorReason: 'invalid_exact_evm_nonce_already_used' });
    expect(replaySettle.transaction).toBe('');
    expect(await balances()).toEqual(after);
  });

  it('rejects payments signed for tampered requirements, whatever the echoed `accepted` says', async () => {
    const { server, requirements, paymentRequired } = await resourceServer(chain.facilitator);
    const before = await balances();

    // An honest echo of tampered terms does not even match the offer.
    const lowball = await createPayment(chain, paymentRequired, { amount: '1' });
    expect(lowball.accepted.amount).toBe('1');
    expect(server.findMatchingRequirements(paymentRequired.accepts, lowball)).toBeUndefined();

    // A forged echo matches the offer, so it reaches the facilitator, which checks what was signed.
    const cases: [Partial<PaymentRequirements>, string][] = [
      [{ amount: '1' }, 'invalid_exact_evm_payload_authorization_value_mismatch'],
      [{ amount: '1000000' }, 'invalid_exact_evm_payload_authorization_value_mismatch'],
      [{ payTo: chain.other }, 'invalid_exact_evm_recipient_mismatch'],
      [{ network: 'eip155:84532' }, 'invalid_exact_evm_signature'], // signed over chain id 84532's domain
      [{ extra: { name: 'USDC', version: '2' } }, 'invalid_exact_evm_signature'], // Base Sepolia's domain name
    ];
    for (const [override, reason] of cases) {
      const forged = await createPayment(chain, paymentRequired, override, { accepted: 'offered' });
      expect(server.findMatchingRequirements(paymentRequired.accepts, forged)).toEqual(requirements);
      const v = await server.verifyPayment(forged, requirements);
      expect({ override, isValid: v.isValid, reason: v.invalidReason }).toEqual({ override, isValid: false, reason });
      const s = await server.settlePayment(forged, requirements);
      expect({ override, success: s.success, reason: s.errorReason }).toEqual({ override, success: false, reason });
    }

    // A valid signature from an account with no USDC: the simulation fails and the diagnosis says why.
    const broke = await createPayment(chain, paymentRequired, {}, { privateKey: ANVIL_ACCOUNTS[3].privateKey });
    expect(broke.payload.authorization).toMatchObject({ from: chain.other });
    const v = await server.verifyPayment(broke, requirements);
    expect(v).toMatchObject({ isValid: false, invalidReason: 'invalid_exact_evm_insufficient_balance' });

    expect(await balances()).toEqual(before);
  });

  it('settles concurrent payments without nonce collisions, and exactly one of two concurrent double spends', async () => {
    const { server, requirements, paymentRequired } = await resourceServer(chain.facilitator);
    const before = await balances();

    const payloads = await Promise.all(Array.from({ length: 6 }, () => createPayment(chain, paymentRequired)));
    const t0 = performance.now();
    const results = await Promise.all(payloads.map((p) => server.settlePayment(p, requirements)));
    expect(results.map((r) => r.success)).toEqual(Array(6).fill(true));
    expect(new Set(results.map((r) => r.transaction)).size).toBe(6);

    const spend = await createPayment(chain, paymentRequired);
    const race = await Promise.all([
      server.settlePayment(spend, requirements),
      server.settlePayment(spend, requirements),
    ]);
    expect(race.filter((r) => r.success)).toHaveLength(1);
    // The harness sends one transaction at a time, so the loser fails gas estimation ("authorization is used")
    // instead of being mined as a reverted transaction (which would read invalid_exact_evm_transaction_failed).
    expect(race.find((r) => !r.success)).toMatchObject({
      success: false,
      errorReason: 'invalid_exact_evm_nonce_already_used',
      transaction: '',
    });

    // A spent payload settled alongside fresh ones: the failed estimate must not leave a nonce gap that strands
    // the fresh settles in anvil's queue until the facilitator's 180 s receipt timeout.
    const fresh = await Promise.all([createPayment(chain, paymentRequired), createPayment(chain, paymentRequired)]);
    const mixed = await Promise.all([
      server.settlePayment(spend, requirements),
      ...fresh.map((p) => server.settlePayment(p, requirements)),
    ]);
    expect(mixed.map((r) => r.success)).toEqual([false, true, true]);
    expect(performance.now() - t0).toBeLessThan(10_000);

    const after = await balances();
    expect(after.payee - before.payee).toBe(9n * 100000n);
    expect(before.payer - after.payer).toBe(9n * 100000n);
  });
});

describe('payingFetch', () => {
  it('answers a 402 by paying through the official @x402/fetch client, and the payee is credited', async () => {
    const { server, paymentRequired } = await resourceServer(chain.facilitator);
    const seen: string[] = [];
    // A tiny gate: 402 + PAYMENT-REQUIRED without a signature, otherwise verify, run, settle, PAYMENT-RESPONSE.
    // @x402/fetch calls the wrapped fetch with a Request object (no init), so read headers off a Request.
    const gate: typeof fetch = async (input, init) => {
      const signature = new Request(input, init).headers.get('PAYMENT-SIGNATURE');
      seen.push(signature ? 'paid' : 'unpaid');
      if (!signature)
        return new Response('{}', {
          status: 402,
          headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(paymentRequired) },
        });
      const payload = decodePaymentSignatureHeader(signature);
      const requirements = server.findMatchingRequirements(paymentRequired.accepts, payload);
      if (!requirements) return new Response('{}', { status: 402 });
      const verified = await server.verifyPayment(payload, requirements);
      if (!verified.isValid) return new Response(JSON.stringify(verified), { status: 402 });
      const settled = await server.settlePayment(payload, requirements);
      return new Response(JSON.stringify({ ok: settled.success }), {
        status: settled.success ? 200 : 402,
        headers: { 'PAYMENT-RESPONSE': encodePaymentResponseHeader(settled) },
      });
    };
    const before = await balances();
    const res = await payingFetch(chain, { fetch: gate })('http://localhost/api/cheap');
    expect(res.status).toBe(200);
    expect(seen).toEqual(['unpaid', 'paid']);
    const settlement = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settlement).toMatchObject({ success: true, network: NETWORK, payer: chain.payer.address });
    const after = await balances();
    expect(after.payee - before.payee).toBe(100000n);
    expect(before.payer - after.payer).toBe(100000n);
  });

  it('keeps the SDK default spend cap: it will not sign a $5 offer', async () => {
    const { server } = await resourceServer(chain.facilitator);
    const [dear] = await server.buildPaymentRequirements({
      scheme: 'exact',
      network: NETWORK,
      payTo: chain.payee,
      price: '$5.00',
    });
    const offer = await server.createPaymentRequiredResponse([dear], { url: 'http://localhost/api/dear' });
    let paidAttempts = 0;
    const gate: typeof fetch = async (input, init) => {
      if (new Request(input, init).headers.has('PAYMENT-SIGNATURE')) paidAttempts++;
      return new Response('{}', { status: 402, headers: { 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(offer) } });
    };
    const before = await balances();
    await expect(payingFetch(chain, { fetch: gate })('http://localhost/api/dear')).rejects.toThrow(/spendControls/);
    expect(paidAttempts).toBe(0);
    expect(await balances()).toEqual(before);
  });
});

describe('serveFacilitator + HTTPFacilitatorClient', () => {
  let http: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    http = await serveFacilitator(chain.facilitator);
  });
  afterAll(async () => {
    await http?.stop();
  });

  it('lists eip155:8453 exact in /supported and verifies and settles over HTTP', async () => {
    const client = new HTTPFacilitatorClient({ url: http.url });
    const supported = await client.getSupported();
    expect(supported.kinds).toContainEqual({ x402Version: 2, scheme: 'exact', network: NETWORK });
    expect(supported.signers['eip155:*']).toEqual([ANVIL_ACCOUNTS[0].address]);

    const { server, requirements, paymentRequired } = await resourceServer(client);
    const payload = await createPayment(chain, paymentRequired);
    expect(await server.verifyPayment(payload, requirements)).toMatchObject({
      isValid: true,
      payer: chain.payer.address,
    });

    // An invalid payment is a 200 {isValid:false}: HTTPFacilitatorClient returns it rather than throwing.
    const forged = await createPayment(chain, paymentRequired, { payTo: chain.other }, { accepted: 'offered' });
    expect(await client.verify(forged, requirements)).toMatchObject({
      isValid: false,
      invalidReason: 'invalid_exact_evm_recipient_mismatch',
    });

    const before = await balances();
    const settled = await server.settlePayment(payload, requirements);
    expect(settled).toMatchObject({ success: true, network: NETWORK });
    expect(settled.transaction).toMatch(TX_HASH);
    const after = await balances();
    expect(after.payee - before.payee).toBe(100000n);
    expect(await client.settle(payload, requirements)).toMatchObject({ success: false, transaction: '' });
    expect(await balances()).toEqual(after);
  });

  it('answers malformed requests with 400/404/405 and facilitator exceptions with 500', async () => {
    const post = (path: string, body: string) =>
      fetch(`${http.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post('/verify', 'not json')).status).toBe(400);
    expect((await post('/settle', '{"x402Version":2}')).status).toBe(400);
    expect((await fetch(`${http.url}/verify`)).status).toBe(405);
    expect((await fetch(`${http.url}/nope`)).status).toBe(404);

    // The in-process facilitator throws for a network it does not serve; over HTTP that is a 500, which
    // HTTPFacilitatorClient reports as a plain Error (not VerifyError, not FacilitatorResponseError).
    const client = new HTTPFacilitatorClient({ url: http.url });
    const { requirements, paymentRequired } = await resourceServer(client);
    const payload = await createPayment(chain, paymentRequired, { network: 'eip155:1' });
    const res = await post(
      '/verify',
      JSON.stringify({
        x402Version: 2,
        paymentPayload: payload,
        paymentRequirements: { ...requirements, network: 'eip155:1' },
      }),
    );
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /No facilitator registered for scheme: exact and network: eip155:1/,
    );
    const err = await client.verify(payload, { ...requirements, network: 'eip155:1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('Error');
    expect((err as Error).message).toMatch(/^Facilitator verify failed \(500\): .*No facilitator registered/);
  });

  it('an unreachable facilitator surfaces as fetch TypeErrors, and initialize() refuses to start', async () => {
    const gone = await serveFacilitator(chain.facilitator);
    await gone.stop();
    const client = new HTTPFacilitatorClient({ url: gone.url });
    const { requirements, paymentRequired } = await resourceServer(chain.facilitator);
    const payload = await createPayment(chain, paymentRequired);
    for (const attempt of [
      () => client.verify(payload, requirements),
      () => client.settle(payload, requirements),
      () => client.getSupported(),
    ]) {
      const e = await attempt().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(TypeError);
      expect((e as Error).message).toBe('fetch failed');
    }
    const server = new x402ResourceServer(client).register(NETWORK, new ExactEvmServerScheme());
    const warn = console.warn;
    console.warn = () => {};
    try {
      await expect(server.initialize()).rejects.toThrow(/Failed to initialize: no supported payment kinds/);
    } finally {
      console.warn = warn;
    }
  });
});
