// Claims that one channel cannot hold back (docs/design.md §13). An older version kept vouchers the escrow refuses;
// one such voucher made every claim batch revert, so no payer's vouchers were collected, and the refunds and
// settlement of the same run never ran. Here two channels hold such vouchers (planted in the store as that version
// kept them: a signature in the form the escrow refuses, and a charge beyond the voucher, which only the chain's
// refusal reveals) beside ten honest ones: one run collects the ten exactly, refunds and settles, and sets the bad
// ones aside, each logged once; they take no voucher until an operator clears them. A facilitator that cannot reach
// its chain sets nothing aside. A payer who asks the escrow to withdraw stops its channel taking vouchers, what it
// owes is claimed in the next run, and once the withdrawal is final the chain's state, not the old record, decides.
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
import {
  BATCH_SETTLEMENT_ADDRESS as ESCROW,
  type LocalChain,
  serveFacilitator,
  startLocalChain,
} from '../support/chain.ts';
import { capturedConsole } from '../support/console.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);
const logged = capturedConsole([
  /^x402: payment refused on \/v1\/[a-z/]+: [\w .]+$/,
  /^x402 claim: channel 0x[0-9a-f]{64} set aside/,
  /^x402 claim failed: \d+ channel\(s\): Claim failed: invalid_batch_settlement_evm_claim_simulation_failed — HTTP request failed/,
]);

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
/** While set, the facilitator answers every claim as one that could not reach its chain (a MOCK of that outage). */
let chainUnreachable = false;

beforeAll(async () => {
  chain = await startLocalChain();
  facilitator = await serveFacilitator({
    getSupported: () => chain.facilitator.getSupported(),
    verify: (p, r) => chain.facilitator.verify(p, r),
    settle: async (p, r) =>
      chainUnreachable && (p.payload as { type?: string }).type === 'claim'
        ? {
            success: false,
            errorReason: 'invalid_batch_settlement_evm_claim_simulation_failed',
            errorMessage: 'HTTP request failed. Status: 503',
            transaction: '',
            network: r.network,
          }
        : chain.facilitator.settle(p, r),
  });
  settings = paymentSettings({ X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url })!;
  storage = new InMemoryChannelStorage();
  setAside = memorySetAside();
  gate = createGate(settings, new HTTPFacilitatorClient({ url: facilitator.url }), ROUTE_CONTRACTS, {
    channels: storage,
    setAside,
  });
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
const channelOf = async (p: BatchPayer) =>
  (await storage.list()).find((c) => c.channelConfig.payer.toLowerCase() === p.address.toLowerCase());
/** The same signature in the form the escrow refuses (n - s, v flipped): what an older version kept. */
const highS = (signature: string) => {
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  return `${signature.slice(0, 66)}${(N - s).toString(16).padStart(64, '0')}${signature.slice(130) === '1b' ? '1c' : '1b'}`;
};
const quietly = async <T>(run: () => Promise<T>): Promise<T> => {
  const log = console.log;
  console.log = () => {};
  try {
    return await run();
  } finally {
    console.log = log;
  }
};
const refusalOf = async (p: BatchPayer) => {
  const payment = await p.client.createPaymentPayload(
    decodePaymentRequiredHeader((await callHandler(PREMIUM)).headers.get('PAYMENT-REQUIRED')!),
  );
  const res = await callHandler(PREMIUM, { headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payment) } });
  expect(await res.text()).toBe(res.status === 402 ? '{}' : expect.any(String));
  return {
    status: res.status,
    reason: res.status === 402 ? decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!).error : undefined,
  };
};

describe('two unclaimable channels beside ten honest ones', () => {
  it('one run claims the ten exactly, refunds and settles; the bad ones are set aside, each logged once, and take no voucher until cleared', async () => {
    const honest = await Promise.all(Array.from({ length: 10 }, () => payer(3)));
    const [badForm, badCharge] = [await payer(3), await payer(3)];
    const [formChannel, chargeChannel] = [(await channelOf(badForm))!, (await channelOf(badCharge))!];
    await storage.updateChannel(formChannel.channelId, (c) => c && { ...c, signature: highS(c.signature) });
    await storage.updateChannel(
      chargeChannel.channelId,
      (c) => c && { ...c, chargedCumulativeAmount: String(BigInt(c.signedMaxClaimable) + PRICE) },
    );
    const payeeBefore = await chain.balanceOf(chain.payee);
    const paidBefore = await Promise.all(honest.map((p) => chain.balanceOf(p.address)));

    // Every channel idle by now: the honest ones are also refunded their rest in this run.
    const run = await quietly(() =>
      claimAndRefund(channels, settings, Date.now() + (settings.channels.idleDays + 1) * DAY_MS),
    );
    expect(run.failures).toEqual([]);
    expect(run.claims.reduce((n, c) => n + c.channels, 0)).toBe(10);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + 10n * 3n * PRICE);
    expect(run.settled?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(run.refunds).toHaveLength(10);
    for (const [i, p] of honest.entries())
      expect(await chain.balanceOf(p.address)).toBe(paidBefore[i] + DEPOSIT - 3n * PRICE);
    expect(run.setAside).toEqual([
      {
        channel: formChannel.channelId.toLowerCase(),
        reason: 'its kept voucher is one the escrow refuses (invalid_batch_settlement_evm_voucher_signature)',
      },
      {
        channel: chargeChannel.channelId.toLowerCase(),
        reason:
          'the chain refused its claim (invalid_batch_settlement_evm_claim_simulation_failed: x402BatchSettlement: claim exceeds voucher)',
      },
    ]);
    const setAsideLines = () => logged.lines().filter((l) => l.includes('set aside'));
    expect(setAsideLines()).toHaveLength(2);
    expect(setAsideLines()[0]).toContain(`0.3 USDC owed by ${badForm.address}`);
    // Their deposits stay in the escrow: nothing was refunded or claimed on them.
    expect((await channelOf(badForm))!.totalClaimed).toBe('0');
    expect((await channelOf(badCharge))!.totalClaimed).toBe('0');

    // The next run: nothing to claim, the set-aside channels not tried or logged again.
    const again = await quietly(() => claimAndRefund(channels, settings));
    expect(again).toMatchObject({ claims: [], refunds: [], setAside: [], failures: [] });
    expect(setAsideLines()).toHaveLength(2);

    // They take no voucher, and say why.
    expect(await refusalOf(badForm)).toEqual({ status: 402, reason: 'channel_set_aside' });
    expect((await channelOf(badForm))!.chargedCumulativeAmount).toBe(String(3n * PRICE));

    // Cleared by an operator with the bad voucher still kept: the next run sets it aside again, and says so again.
    expect(await setAside.clear(formChannel.channelId)).toBe(true);
    expect((await quietly(() => claimAndRefund(channels, settings))).setAside.map((e) => e.channel)).toEqual([
      formChannel.channelId.toLowerCase(),
    ]);
    expect(setAsideLines()).toHaveLength(3);
    // Cleared, and the payer's next good voucher replaces the bad one: the next run collects it all.
    expect(await setAside.clear(formChannel.channelId)).toBe(true);
    expect((await badForm.fetch(PREMIUM)).status).toBe(200);
    const payeeMid = await chain.balanceOf(chain.payee);
    const cleared = await quietly(() => claimAndRefund(channels, settings));
    expect(cleared.setAside).toEqual([]);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeMid + 4n * PRICE);
  });
});

describe('a facilitator that cannot reach its chain', () => {
  it('sets nothing aside and splits nothing: the failure is reported, and the next run claims everything', async () => {
    const payers = await Promise.all(Array.from({ length: 3 }, () => payer(2)));
    const settles = () => facilitator.calls.get('/settle') ?? 0;
    const asideBefore = await setAside.list();
    chainUnreachable = true;
    let run;
    const before = settles();
    try {
      run = await quietly(() => claimAndRefund(channels, settings));
    } finally {
      chainUnreachable = false;
    }
    expect(run.setAside).toEqual([]);
    expect(run.claims).toEqual([]);
    expect(run.failures).toEqual([
      expect.stringMatching(
        /^claim of 3 channel\(s\): Claim failed: invalid_batch_settlement_evm_claim_simulation_failed — HTTP request failed/,
      ),
    ]);
    expect(settles() - before).toBe(2); // one claim, not split; the settlement still ran (nothing to settle)
    expect(await setAside.list()).toEqual(asideBefore);
    const payeeBefore = await chain.balanceOf(chain.payee);
    const next = await quietly(() => claimAndRefund(channels, settings));
    expect(next.failures).toEqual([]);
    expect(await chain.balanceOf(chain.payee)).toBe(payeeBefore + 3n * 2n * PRICE);
    for (const p of payers) expect((await channelOf(p))!.totalClaimed).toBe(String(2n * PRICE));
  });
});

describe("a payer's withdrawal requested on chain", () => {
  const escrowAbi = parseAbi([
    'struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }',
    'function initiateWithdraw(ChannelConfig config, uint128 amount)',
    'function finalizeWithdraw(ChannelConfig config)',
  ]);
  let p: BatchPayer & { key: Hex };
  let config: never;
  /** The payer's own transaction to the escrow (sent as the payer: anvil impersonates it). */
  async function asPayer(data: Hex): Promise<void> {
    await chain.rpc('anvil_setBalance', [p.address, '0xde0b6b3a7640000']);
    await chain.rpc('anvil_impersonateAccount', [p.address]);
    expect(await chain.rpc<string>('eth_sendTransaction', [{ from: p.address, to: ESCROW, data }])).toMatch(
      /^0x[0-9a-f]{64}$/,
    );
    await chain.rpc('anvil_stopImpersonatingAccount', [p.address]);
  }

  it('stops the channel taking vouchers once the scheme reads the chain again, and what it owes is claimed in the next run', async () => {
    p = await payer(2);
    const channel = (await channelOf(p))!;
    config = { ...channel.channelConfig } as never;
    await asPayer(
      encodeFunctionData({ abi: escrowAbi, functionName: 'initiateWithdraw', args: [config, DEPOSIT - 2n * PRICE] }),
    );

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

  // Last in this file: it moves the chain's clock a day ahead of the wall clock, which a later deposit would trip on.
  it('once the withdrawal is final, the chain decides again: the old record no longer stops the channel', async () => {
    await chain.increaseTime(settings.channels.withdrawDelayS + 1);
    await asPayer(encodeFunctionData({ abi: escrowAbi, functionName: 'finalizeWithdraw', args: [config] }));
    const channel = (await channelOf(p))!;
    expect(channel.withdrawRequestedAt).toBeGreaterThan(0); // as last read
    // Within the scheme's refresh the record stands; past it, the facilitator reads the chain: no withdrawal pending, and
    // a deposit that is now what was claimed, so the next voucher is above it (the payer must deposit again).
    expect(await refusalOf(p)).toEqual({ status: 402, reason: 'channel_withdrawal_pending' });
    await storage.updateChannel(channel.channelId, (c) => c && { ...c, onchainSyncedAt: Date.now() - 10 * 60_000 });
    const after = await refusalOf(p);
    expect(after.status).toBe(402);
    expect(after.reason).toMatch(/exceeds_balance|insufficient_balance/);
  });
});
