// Claims that one channel cannot hold back (docs/design.md §13). An older version kept vouchers in a form the escrow
// refuses; one such voucher made every claim batch revert, so no payer's vouchers were collected, and the refunds
// and settlement of the same run never ran. Here one channel holds such a voucher (planted in the store as that
// version kept it) beside ten honest ones: one run collects the ten exactly, refunds and settles, and sets the bad
// one aside, logged once; it then takes no voucher until an operator clears it. A payer who asks the escrow to
// withdraw stops its channel taking vouchers, and what it owes is claimed in the next run.
import { HTTPFacilitatorClient } from '@x402/core/server';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { type Hex, encodeFunctionData, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimAndRefund } from '../../api/payment/claims.ts';
import { installGate } from '../../api/payment/configured.ts';
import { type Gate, createGate } from '../../api/payment/gate.ts';
import type { GateChannels } from '../../api/payment/offers.ts';
import { type SetAsideStore, memorySetAside } from '../../api/payment/set-aside.ts';
import { type PaymentSettings, paymentSettings } from '../../api/payment/settings.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { type BatchPayer, batchPayer } from '../support/batch-client.ts';
import { BATCH_SETTLEMENT_ADDRESS as ESCROW, type LocalChain, serveFacilitator, startLocalChain } from '../support/chain.ts';
import { capturedConsole } from '../support/console.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);
const logged = capturedConsole([/^x402: payment refused on \/v1\/[a-z/]+: [\w .]+$/, /^x402 claim: channel 0x[0-9a-f]{64} set aside/]);

const PREMIUM = 'http://127.0.0.1/v1/premium?state=TX';
const PRICE = 100_000n;
const DEPOSIT = 2_000_000n;
const FUNDS = 5_000_000n;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const DAY_MS = 86_400_000;

let chain: LocalChain;
let facilitator: Awaited<ReturnType<typeof serveFacilitator>>;
let settings: PaymentSettings;
let storage: InMemoryChannelStorage;
let setAside: SetAsideStore;
let gate: Gate;
let channels: GateChannels;

beforeAll(async () => {
  chain = await startLocalChain();
  facilitator = await serveFacilitator(chain.facilitator);
  settings = paymentSettings({ X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url })!;
  storage = new InMemoryChannelStorage();
  setAside = memorySetAside();
  gate = createGate(settings, new HTTPFacilitatorClient({ url: facilitator.url }), ROUTE_CONTRACTS, { channels: storage, setAside });
  installGate(gate);
  channels = (await gate.channels())!;
});
afterAll(async () => {
  installGate(undefined);
  await facilitator?.stop();
  await chain?.stop();
});

async function payer(answers: number): Promise<BatchPayer & { key: Hex }> {
  const key = generatePrivateKey();
  await chain.mint(privateKeyToAccount(key).address, FUNDS);
  const p = batchPayer(key, chain.rpcUrl, callHandler, { deposit: DEPOSIT });
  for (let i = 0; i < answers; i++) expect((await p.fetch(PREMIUM)).status).toBe(200);
  return { ...p, key };
}
const channelOf = async (p: BatchPayer) => (await storage.list()).find((c) => c.channelConfig.payer.toLowerCase() === p.address.toLowerCase());
/** The same signature in the form the escrow refuses (n - s, v flipped): what an older version kept. */
const highS = (signature: string) => {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${signature.slice(130) === '1b' ? '1c' : '1b'}`;
};
const quietly = async <T,>(run: () => Promise<T>): Promise<T> => {
  const log = console.log;
  console.log = () => {};
  try {
    return await run();
  } finally {
    console.log = log;
  }
};
const refusalOf = async (p: BatchPayer) => {
  const payment = await p.client.createPaymentPayload(decodePaymentRequiredHeader((await callHandler(PREMIUM)).headers.get('PAYMENT-REQUIRED')!));
  const res = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) } });
  expect(await res.text()).toBe(res.status === 402 ? '{}' : expect.any(String));
  return { status: res.status, reason: res.status === 402 ? decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error : undefined };
};

describe('one unclaimable channel beside ten honest ones', () => {
  it('one run claims the ten exactly, refunds and settles; the bad one is set aside, logged once, takes no voucher until cleared', async () => {
    const honest = await Promise.all(Array.from({ length: 10 }, () => payer(3)));
    const bad = await payer(3);
    const badChannel = (await channelOf(bad))!;
    await storage.updateChannel(badChannel.channelId, (c) => c && { ...c, signature: highS(c.signature) });
    const payeeBefore = await chain.balanceOf(chain.payee);
    const paidBefore = await Promise.all(honest.map((p) => chain.balanceOf(p.address)));

    // Every channel idle by now: the honest ones are also refunded their rest in this run.
    const run = await quietly(() => claimAndRefund(channels, settings, Date.now() + (settings.channels.idleDays + 1) * DAY_MS));
    expect(run.failures).toEqual([]);
    expect(run.claims.reduce((n, c) => n + c.channels, 0)).toBe(10);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + 10n * 3n * PRICE);
    expect(run.settled?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(run.refunds).toHaveLength(10);
    for (const [i, p] of honest.entries()) expect(await chain.balanceOf(p.address)).toBe(paidBefore[i] + DEPOSIT - 3n * PRICE);
    expect(run.setAside).toEqual([{ channel: badChannel.channelId.toLowerCase(), reason: expect.stringMatching(/claim_simulation_failed/) }]);
    const setAsideLines = () => logged.lines().filter((l) => l.includes('set aside'));
    expect(setAsideLines()).toHaveLength(1);
    expect(setAsideLines()[0]).toContain(`0.3 USDC owed by ${bad.address}`);
    // The bad channel's deposit stays in the escrow: nothing was refunded or claimed on it.
    expect((await channelOf(bad))!.totalClaimed).toBe('0');

    // The next run: nothing to claim, the set-aside channel not tried or logged again.
    const again = await quietly(() => claimAndRefund(channels, settings));
    expect(again).toMatchObject({ claims: [], refunds: [], setAside: [], failures: [] });
    expect(setAsideLines()).toHaveLength(1);

    // It takes no voucher, and says why.
    expect(await refusalOf(bad)).toEqual({ status: 402, reason: 'channel_set_aside' });
    expect((await channelOf(bad))!.chargedCumulativeAmount).toBe(String(3n * PRICE));

    // Cleared by an operator: the payer's next good voucher replaces the bad one, and the next run collects it all.
    expect(await setAside.clear(badChannel.channelId)).toBe(true);
    expect((await bad.fetch(PREMIUM)).status).toBe(200);
    const payeeMid = await chain.balanceOf(chain.payee);
    const cleared = await quietly(() => claimAndRefund(channels, settings));
    expect(cleared.setAside).toEqual([]);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeMid + 4n * PRICE);
  });
});

describe("a payer's withdrawal requested on chain", () => {
  const escrowAbi = parseAbi([
    'struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }',
    'function initiateWithdraw(ChannelConfig config, uint128 amount)',
  ]);

  it('stops the channel taking vouchers once the scheme reads the chain again, and what it owes is claimed in the next run', async () => {
    const p = await payer(2);
    const channel = (await channelOf(p))!;
    const config = { ...channel.channelConfig, withdrawDelay: channel.channelConfig.withdrawDelay } as never;
    await chain.rpc('anvil_setBalance', [p.address, '0xde0b6b3a7640000']);
    await chain.rpc('anvil_impersonateAccount', [p.address]);
    const data = encodeFunctionData({ abi: escrowAbi, functionName: 'initiateWithdraw', args: [config, DEPOSIT - 2n * PRICE] });
    const tx = await chain.rpc<string>('eth_sendTransaction', [{ from: p.address, to: ESCROW, data }]);
    expect(tx).toMatch(/^0x[0-9a-f]{64}$/);
    await chain.rpc('anvil_stopImpersonatingAccount', [p.address]);

    // The scheme trusts the chain state it read for a few minutes; past that, the facilitator reads it again.
    await storage.updateChannel(channel.channelId, (c) => c && { ...c, onchainSyncedAt: Date.now() - 10 * 60_000 });
    expect(await refusalOf(p)).toEqual({ status: 402, reason: 'channel_withdrawal_pending' });
    const after = (await channelOf(p))!;
    expect(after.withdrawRequestedAt).toBeGreaterThan(0);
    expect(after.chargedCumulativeAmount).toBe(String(2n * PRICE));
    expect(after.pendingRequest).toBeUndefined();
    // Now refused without asking anyone.
    const verifies = facilitator.calls.get('/verify') ?? 0;
    expect(await refusalOf(p)).toEqual({ status: 402, reason: 'channel_withdrawal_pending' });
    expect(facilitator.calls.get('/verify') ?? 0).toBe(verifies);

    const payeeBefore = await chain.balanceOf(chain.payee);
    const run = await quietly(() => claimAndRefund(channels, settings));
    expect(run.failures).toEqual([]);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + 2n * PRICE);
    expect((await channelOf(p))!.totalClaimed).toBe(String(2n * PRICE));
  });
});
