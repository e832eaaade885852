// An attacker's vouchers (docs/design.md §13): a signature has a second form that recovers the same key (`s` replaced
// by n - s with `v` flipped, or `v` written 0/1; a 64-byte compact form), and a voucher can be signed by another key,
// for another channel, chain or escrow. viem's recovery, which the package's own check uses, accepts the second
// forms; the escrow does not, and one such voucher kept by the server makes every claim batch that holds it revert.
// Each is tried as a voucher payment and inside a deposit, against the gate and against the project's escrow on the
// local chain: the gate answers 402 with the reason, answers nothing, charges nothing, settles no deposit; the
// escrow's claim of the same voucher reverts. The good voucher is the control on both sides.
import { HTTPFacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { BATCH_SETTLEMENT_DOMAIN, voucherTypes } from '@x402/evm';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { type Address, type Hex, encodeFunctionData, getAddress, parseAbi, verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleMcp } from '../../api/mcp/lazy-handler.ts';
import { installGate } from '../../api/payment/configured.ts';
import { createGate } from '../../api/payment/gate.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { type BatchPayer, batchPayer } from '../support/batch-client.ts';
import {
  BATCH_SETTLEMENT_ADDRESS as ESCROW,
  CHAIN_ID,
  type LocalChain,
  serveFacilitator,
  startLocalChain,
} from '../support/chain.ts';
import { capturedConsole } from '../support/console.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);
capturedConsole([/^x402: payment refused on \/v1\/[a-z/]+: [\w .]+$/]);

const PREMIUM = 'http://127.0.0.1/v1/premium?state=TX';
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const escrowAbi = parseAbi([
  'struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }',
  'struct Voucher { ChannelConfig channel; uint128 maxClaimableAmount; }',
  'struct VoucherClaim { Voucher voucher; bytes signature; uint128 totalClaimed; }',
  'function claim(VoucherClaim[] voucherClaims)',
]);

interface ChannelPayload {
  type: 'voucher' | 'deposit';
  channelConfig: {
    payer: Address;
    payerAuthorizer: Address;
    receiver: Address;
    receiverAuthorizer: Address;
    token: Address;
    withdrawDelay: number;
    salt: Hex;
  };
  voucher: { channelId: Hex; maxClaimableAmount: string; signature: Hex };
}

let chain: LocalChain;
let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
let storage: InMemoryChannelStorage;

beforeAll(async () => {
  chain = await startLocalChain();
  facilitator = await serveFacilitator(chain.facilitator);
  const settings = paymentSettings({ X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url })!;
  storage = new InMemoryChannelStorage();
  installGate(
    createGate(settings, new HTTPFacilitatorClient({ url: facilitator.url }), ROUTE_CONTRACTS, { channels: storage }),
  );
});
afterAll(async () => {
  installGate(undefined);
  await facilitator?.stop();
  await chain?.stop();
});

/** A payer with 20 USDC of its own and its key, depositing 5 on its first payment. */
async function fundedPayer(): Promise<{ key: Hex; payer: BatchPayer }> {
  const key = generatePrivateKey();
  await chain.mint(privateKeyToAccount(key).address, 20_000_000n);
  return { key, payer: batchPayer(key, chain.rpcUrl, callHandler, { deposit: 5_000_000n }) };
}
const required = async (): Promise<PaymentRequired> =>
  decodePaymentRequiredHeader((await callHandler(PREMIUM)).headers.get('PAYMENT-REQUIRED')!);
const channelPayload = (payment: PaymentPayload) => payment.payload as unknown as ChannelPayload;
const withPayload = (payment: PaymentPayload, change: (p: ChannelPayload) => void): PaymentPayload => {
  const copy = structuredClone(channelPayload(payment));
  change(copy);
  return { ...payment, payload: copy as never };
};

// The same signature's other encodings, from (r, s, v).
const parts = (signature: Hex) => ({
  r: signature.slice(2, 66),
  s: BigInt(`0x${signature.slice(66, 130)}`),
  v: Number.parseInt(signature.slice(130), 16),
});
/** The checksummed address with its first letter's case flipped: the same 20 bytes, no longer a valid EIP-55 spelling. */
const caseFlipped = (a: Address): Address => {
  const i = a.slice(2).search(/[a-fA-F]/) + 2;
  const c = a[i];
  return `${a.slice(0, i)}${c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()}${a.slice(i + 1)}` as Address;
};
const hex64 = (n: bigint) => n.toString(16).padStart(64, '0');
const highS = (signature: Hex): Hex => {
  const { r, s, v } = parts(signature);
  return `0x${r}${hex64(N - s)}${v === 27 ? '1c' : '1b'}`;
};
const vAsParity = (signature: Hex): Hex => `0x${signature.slice(2, 130)}0${parts(signature).v - 27}`;
/** EIP-2098: r, then s with the parity in its top bit (64 bytes). */
const compact = (signature: Hex): Hex => {
  const { r, s, v } = parts(signature);
  return `0x${r}${hex64(s | (BigInt(v - 27) << 255n))}`;
};
const typedVoucher = (v: ChannelPayload['voucher'], domain: { chainId: number; verifyingContract: Address }) => ({
  domain: { ...BATCH_SETTLEMENT_DOMAIN, ...domain },
  types: voucherTypes,
  primaryType: 'Voucher' as const,
  message: { channelId: v.channelId, maxClaimableAmount: BigInt(v.maxClaimableAmount) },
});
const THIS_ESCROW = { chainId: CHAIN_ID, verifyingContract: getAddress(ESCROW) };

/** The escrow's claim of this voucher, simulated from the payee (the channel's receiver): null when it would succeed, else the revert. */
async function escrowClaim(p: ChannelPayload): Promise<string | null> {
  const data = encodeFunctionData({
    abi: escrowAbi,
    functionName: 'claim',
    args: [
      [
        {
          voucher: {
            channel: { ...p.channelConfig, withdrawDelay: p.channelConfig.withdrawDelay },
            maxClaimableAmount: BigInt(p.voucher.maxClaimableAmount),
          },
          signature: p.voucher.signature,
          totalClaimed: BigInt(p.voucher.maxClaimableAmount),
        },
      ],
    ],
  });
  try {
    await chain.rpc('eth_call', [{ from: chain.payee, to: ESCROW, data }, 'latest']);
    return null;
  } catch (e) {
    return String((e as Error).message);
  }
}

/** Each attacker's form of `good` (label, payment, the reason the gate gives); `ownerKey` signs the forms that need the payer's key. */
async function forgeries(good: PaymentPayload, ownerKey: Hex): Promise<[string, PaymentPayload, RegExp][]> {
  const { voucher } = channelPayload(good);
  const owner = privateKeyToAccount(ownerKey);
  const attacker = privateKeyToAccount(generatePrivateKey());
  const anotherChannelId: Hex = `0x${'5a'.repeat(32)}`;
  const signed = (account: typeof owner, domain = THIS_ESCROW, channelId = voucher.channelId) =>
    account.signTypedData(typedVoucher({ ...voucher, channelId }, domain));
  const signature = (s: Hex) => withPayload(good, (q) => (q.voucher.signature = s));
  return [
    ['high s, v flipped', signature(highS(voucher.signature)), /voucher_signature/],
    ['v as 0/1', signature(vAsParity(voucher.signature)), /voucher_signature/],
    ['64-byte compact', signature(compact(voucher.signature)), /voucher_signature/],
    ['another key', signature(await signed(attacker)), /voucher_signature/],
    [
      'signed for another chain id',
      signature(await signed(owner, { chainId: 84532, verifyingContract: THIS_ESCROW.verifyingContract })),
      /voucher_signature/,
    ],
    [
      'signed for another escrow',
      signature(await signed(owner, { chainId: CHAIN_ID, verifyingContract: getAddress(chain.other) })),
      /voucher_signature/,
    ],
    ['signed for another channel', signature(await signed(owner, THIS_ESCROW, anotherChannelId)), /voucher_signature/],
    // The escrow derives the channel from its config and never reads this id: the server must not key a record by it.
    ["another channel's id", withPayload(good, (q) => (q.voucher.channelId = anotherChannelId)), /channel_id_mismatch/],
    // An address whose mixed case is not its checksum: a config with no channel id (refused, not a 503 of the store).
    [
      'a bad address checksum',
      withPayload(good, (q) => (q.channelConfig.payer = caseFlipped(q.channelConfig.payer))),
      /channel_id_mismatch/,
    ],
  ];
}

async function expectRefused(payment: PaymentPayload, reason: RegExp): Promise<void> {
  const settlesBefore = facilitator.calls.get('/settle') ?? 0;
  const escrowBefore = await chain.balanceOf(ESCROW);
  const res = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) } });
  expect(res.status).toBe(402);
  expect(await res.text()).toBe('{}');
  expect(res.headers.get('PAYMENT-RESPONSE')).toBeNull();
  expect(decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error).toMatch(reason);
  expect(facilitator.calls.get('/settle') ?? 0).toBe(settlesBefore);
  expect(await chain.balanceOf(ESCROW)).toBe(escrowBefore);
}

describe('a voucher payment in a form the escrow refuses', () => {
  let payer: BatchPayer;
  let key: Hex;
  beforeAll(async () => {
    ({ key, payer } = await fundedPayer());
    expect((await payer.fetch(PREMIUM)).status).toBe(200); // the deposit
    expect((await payer.fetch(PREMIUM)).status).toBe(200); // a first voucher
  });

  it('the package check (viem) accepts the second forms of a good signature; the gate and the escrow refuse each attack, nothing answered or charged', async () => {
    const good = await payer.client.createPaymentPayload(await required());
    const p = channelPayload(good);
    expect(p.type).toBe('voucher');
    const signer = getAddress(p.channelConfig.payerAuthorizer);
    // What made the attack possible: viem's check says yes to the forms the escrow refuses.
    expect(
      await verifyTypedData({
        address: signer,
        ...typedVoucher(p.voucher, THIS_ESCROW),
        signature: highS(p.voucher.signature),
      }),
    ).toBe(true);
    expect(
      await verifyTypedData({
        address: signer,
        ...typedVoucher(p.voucher, THIS_ESCROW),
        signature: vAsParity(p.voucher.signature),
      }),
    ).toBe(true);

    const before = (await storage.get(p.voucher.channelId))!;
    const cases = await forgeries(good, key);
    expect(cases).toHaveLength(9);
    for (const [label, payment, reason] of cases) {
      await expectRefused(payment, reason);
      const after = (await storage.get(p.voucher.channelId))!;
      expect(after.chargedCumulativeAmount, label).toBe(before.chargedCumulativeAmount);
      expect(after.signature, label).toBe(before.signature);
      expect(after.pendingRequest, label).toBeUndefined();
      if (!/channel_id/.test(reason.source))
        expect(await escrowClaim(channelPayload(payment)), label).toMatch(/invalid voucher signature/);
    }
    // The control, on both sides: the good voucher claims on chain and pays for the answer.
    expect(await escrowClaim(p)).toBeNull();
    const res = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(good) } });
    expect(res.status).toBe(200);
    expect(BigInt((await storage.get(p.voucher.channelId))!.chargedCumulativeAmount)).toBe(
      BigInt(before.chargedCumulativeAmount) + 100_000n,
    );
  });
});

describe('an MCP tool call paid with a voucher in a form the escrow refuses', () => {
  it('gets the payment-required result with the reason, no figures, nothing charged; the good voucher pays', async () => {
    const { key, payer } = await fundedPayer();
    expect((await payer.fetch(PREMIUM)).status).toBe(200); // the deposit
    const mcp = new Client({ name: 'voucher-forms', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input: string | URL, init?: RequestInit) => handleMcp(new Request(input, init)),
      }),
    );
    try {
      const call = (payment?: PaymentPayload) =>
        mcp.callTool({
          name: 'get_premium',
          arguments: { state: 'TX' },
          ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
        }) as Promise<CallToolResult>;
      const offer = (await call()).structuredContent as unknown as PaymentRequired;
      const good = await payer.client.createPaymentPayload(offer);
      const { voucher } = channelPayload(good);
      const before = (await storage.get(voucher.channelId))!.chargedCumulativeAmount;
      for (const [label, payment, reason] of await forgeries(good, key)) {
        const refused = await call(payment);
        expect(refused.isError, label).toBe(true);
        expect((refused.structuredContent as unknown as PaymentRequired).error, label).toMatch(reason);
        // The terms again, and nothing of the answer.
        expect(
          Object.keys(refused.structuredContent!).filter(
            (k) => !['x402Version', 'error', 'resource', 'accepts', 'extensions'].includes(k),
          ),
          label,
        ).toEqual([]);
        expect((await storage.get(voucher.channelId))!.chargedCumulativeAmount, label).toBe(before);
      }
      const paid = await call(good);
      expect(paid.isError).toBeFalsy();
      expect(BigInt((await storage.get(voucher.channelId))!.chargedCumulativeAmount)).toBe(BigInt(before) + 100_000n);
    } finally {
      await mcp.close();
    }
  });
});

describe("a payment-identifier retry's voucher", () => {
  it("in a form the escrow refuses, it is refused like a payment; the payer's own retry gets the answer again", async () => {
    const { key, payer } = await fundedPayer();
    expect((await payer.fetch(PREMIUM)).status).toBe(200); // the deposit
    const offer = await required();
    appendPaymentIdentifierToExtensions((offer.extensions ??= {}), 'retry-forms-0001');
    const paid = await payer.client.createPaymentPayload(offer);
    const first = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(paid) } });
    expect(first.status).toBe(200);
    const charged = (await storage.get(channelPayload(paid).voucher.channelId))!.chargedCumulativeAmount;
    for (const [label, payment, reason] of await forgeries(paid, key)) {
      await expectRefused(payment, reason);
      expect((await storage.get(channelPayload(paid).voucher.channelId))!.chargedCumulativeAmount, label).toBe(charged);
    }
    const retry = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(paid) } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('PAYMENT-RESPONSE')).toBe(first.headers.get('PAYMENT-RESPONSE'));
  });
});

describe('a deposit whose voucher is in a form the escrow refuses', () => {
  it('is refused before the facilitator is asked to settle it: no deposit on chain, no channel kept, nothing answered', async () => {
    const { key, payer } = await fundedPayer();
    const good = await payer.client.createPaymentPayload(await required());
    const p = channelPayload(good);
    expect(p.type).toBe('deposit');
    for (const [label, payment, reason] of await forgeries(good, key)) {
      await expectRefused(payment, reason);
      expect(await storage.get(p.voucher.channelId), label).toBeUndefined();
    }
    expect(await chain.balanceOf(payer.address)).toBe(20_000_000n);
    // The control: the same deposit as signed is settled and answered.
    const res = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(good) } });
    expect(res.status).toBe(200);
    expect(await chain.balanceOf(payer.address)).toBe(15_000_000n);
  });
});
