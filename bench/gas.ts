// `npm run bench:gas`: what a paid answer costs in gas, on the local chain (anvil as Base, chain id 8453, with the
// project's EIP-3009 test token at the USDC address and its batch-settlement escrow and ERC-3009 deposit collector;
// tests/support/chain.ts). The gate is built in process as the server builds it (a channel journal in a temp dir;
// the chain's @x402/evm facilitator in process, paying gas as anvil account #0) and paid through the dispatcher, no
// socket; payers sign with the official client parts. Every transaction's gasUsed is read from its receipt
// (eth_getTransactionReceipt):
//   exact       a few paid answers, each settled on chain (ERC-3009 transferWithAuthorization)
//   deposit     each channel's first payment: the facilitator settles the deposit into the escrow
//   claim       channels opened (a deposit and some vouchers each) and claimed by the package's channel manager
//               (api/payment/claims.ts claimAndRefund) in one claim transaction of 1, of 10 and of 100 channels,
//               each followed by the settle that moves the claimed funds to the payee
//   refund      cooperative refunds of a channel's rest: one already claimed, one with its last voucher unclaimed
// Then the gas per paid answer of each scheme, its assumptions printed in words. Checked while measuring (a failure
// stops the run): every answer paid and the gate-off body; the payee gains exactly what each claim run claimed;
// each refund returns the payer's rest. Nothing touches a real network. With BENCH_JSON naming a file, the results
// are also written there (bench/all.ts gathers them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { type Hex, formatUnits } from 'viem';
import { DECIMALS, DEPOSIT, PREMIUM, PRICE, usdc } from './channels-config.ts';
import { type OpenChannel, expectVoucherPaid, openChannel, presign, receiptOf } from './channels-payer.ts';
import { type Tx, gasResult, printPerAnswer, printTransactions } from './gas-report.ts';
import { benchRun, paidShards } from './run.ts';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';
import { readShardsFrom } from '../api/store.ts';
import { ChannelJournal } from '../api/payment/channel-journal.ts';
import { claimGateChannels } from '../api/payment/claims.ts';
import { installGate } from '../api/payment/configured.ts';
import { type Gate, createGate } from '../api/payment/gate.ts';
import { type PaymentSettings, paymentSettings } from '../api/payment/settings.ts';
import { type LocalChain, NETWORK, signPayment, startLocalChain } from '../tests/support/chain.ts';
import { callHandler } from '../tests/support/handlers.ts';

const EXACT_N = 5;
const CLAIM_SIZES = [1, 10, 100] as const;
/** Vouchers each channel pays after its deposit call (a claim carries only the latest, so any number will do). */
const VOUCHERS = 3;
/** Answers per channel the per-answer figures are stated for. */
const ANSWERS = [10, 100] as const;
/** The EXAMPLE prices of the USD column (not measured): a Base-like L2 gas price, and ETH in USD. */
const EXAMPLE = { gwei: Number(process.env.BENCH_GAS_GWEI ?? 0.01), ethUsd: Number(process.env.BENCH_ETH_USD ?? 3000) };
const URL_PAID = `http://localhost${PREMIUM}`;

/** gasUsed from the transaction's receipt, and its calldata bytes; a reverted or missing transaction stops the run. */
async function gasOf(chain: LocalChain, hash: string): Promise<Tx> {
  const receipt = await chain.rpc<{ gasUsed: Hex; status: Hex } | null>('eth_getTransactionReceipt', [hash]);
  if (!receipt || receipt.status !== '0x1')
    throw new Error(`transaction ${hash}: ${receipt ? 'reverted' : 'no receipt'}`);
  const tx = await chain.rpc<{ input: Hex }>('eth_getTransactionByHash', [hash]);
  return { gas: Number(BigInt(receipt.gasUsed)), calldata: (tx.input.length - 2) / 2 };
}

/** `count` answers paid `exact` through the gate, each payment signed by the chain's payer; their settlements. */
async function exactSettlements(chain: LocalChain, reference: string, count: number): Promise<Tx[]> {
  const challenge = await callHandler(URL_PAID);
  const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED') ?? '');
  if (challenge.status !== 402 || required.accepts[0]?.scheme !== 'exact')
    throw new Error(`the 402 does not offer exact first: ${challenge.status}`);
  const txs: Tx[] = [];
  for (let i = 0; i < count; i++) {
    const res = await callHandler(URL_PAID, { headers: { 'PAYMENT-SIGNATURE': await signPayment(chain, required) } });
    const text = await res.text();
    const receipt = receiptOf(res);
    if (res.status !== 200 || !receipt?.success || !receipt.transaction)
      throw new Error(`exact payment answered ${res.status}: ${JSON.stringify(receipt)}`);
    if (text !== reference) throw new Error('exact payment: the body differs from the gate-off answer');
    txs.push(await gasOf(chain, receipt.transaction));
  }
  return txs;
}

/** A channel as this benchmark tracks it: opened (its deposit), and its charged total as its vouchers raise it. */
type Channel = OpenChannel & { paid: bigint };

async function payVouchers(channel: Channel, count: number, reference: string): Promise<void> {
  for (const header of await presign(channel, channel.paid, count)) {
    const res = await callHandler(URL_PAID, { headers: { 'PAYMENT-SIGNATURE': header } });
    expectVoucherPaid('voucher', res.status, await res.text(), receiptOf(res), channel.paid + PRICE, reference);
    channel.paid += PRICE;
  }
}

/**
 * `count` fresh payers, each opening a channel (a deposit, through the official client) and paying VOUCHERS vouchers.
 */
async function openChannels(chain: LocalChain, count: number, reference: string, deposits: Tx[]): Promise<Channel[]> {
  const channels: Channel[] = [];
  for (let i = 0; i < count; i++) {
    const open = await openChannel(chain, 'http://localhost', callHandler, reference);
    deposits.push(await gasOf(chain, open.deposit));
    const channel = { ...open, paid: open.charged };
    await payVouchers(channel, VOUCHERS, reference);
    channels.push(channel);
  }
  return channels;
}

/**
 * One run of the package's claims (claimAndRefund, as the server runs it): its one claim transaction and its settle;
 * the payee must gain what was charged.
 */
async function claimRun(
  chain: LocalChain,
  gate: Gate,
  settings: PaymentSettings,
  channels: Channel[],
): Promise<{ claim: Tx; settle: Tx }> {
  const payeeBefore = await chain.balanceOf(chain.payee);
  const run = await claimGateChannels(gate, settings);
  if (!run) throw new Error('the gate offers no batch-settlement');
  if (run.failures.length || run.refunds.length || !run.settled) throw new Error(`claim run: ${JSON.stringify(run)}`);
  if (run.claims.length !== 1 || run.claims[0].channels !== channels.length)
    throw new Error(
      `${channels.length} channels took ${run.claims.length} claim transaction(s) ` +
        `(${run.claims.map((c) => c.channels).join(', ')} channels)`,
    );
  const owed = channels.reduce((sum, c) => sum + c.paid, 0n);
  const gained = (await chain.balanceOf(chain.payee)) - payeeBefore;
  if (gained !== owed)
    throw new Error(
      `claim of ${channels.length}: the payee gained ${usdc(gained)}, the channels were charged ${usdc(owed)}`,
    );
  return { claim: await gasOf(chain, run.claims[0].transaction), settle: await gasOf(chain, run.settled.transaction) };
}

/** A cooperative refund of `channel`'s rest by the package's channel manager; the payer must get the rest back. */
async function refund(chain: LocalChain, gate: Gate, channel: Channel): Promise<Tx> {
  const { manager } = (await gate.channels())!;
  const payer = channel.channelConfig.payer;
  const before = await chain.balanceOf(payer);
  const [done] = await manager.refund([channel.channelId]);
  if (!done) throw new Error(`channel ${channel.channelId}: nothing refunded`);
  const rest = (await chain.balanceOf(payer)) - before;
  // openChannel deposits DEPOSIT (its receipt checked so).
  if (rest !== DEPOSIT - channel.paid)
    throw new Error(
      `refund of ${channel.channelId}: the payer got ${usdc(rest)} back, expected ${usdc(DEPOSIT - channel.paid)}`,
    );
  return gasOf(chain, done.transaction);
}

const { tmp, stops, cleanup } = benchRun('gas');

try {
  if (!(EXAMPLE.gwei > 0 && EXAMPLE.ethUsd > 0))
    throw new Error(
      `BENCH_GAS_GWEI and BENCH_ETH_USD must be positive numbers, got '${process.env.BENCH_GAS_GWEI}', ` +
        `'${process.env.BENCH_ETH_USD}'`,
    );
  const restore = readShardsFrom(paidShards(tmp));
  stops.push(restore);
  console.log('starting the local chain ...');
  const chain = await startLocalChain();
  stops.push(() => chain.stop());
  const journal = ChannelJournal.open(join(tmp, 'channels'));
  stops.push(() => journal.close());
  // The facilitator URL is never called: the gate is handed the chain's facilitator in process.
  const settings = paymentSettings({
    X402_PAY_TO: chain.payee,
    X402_NETWORK: NETWORK,
    X402_FACILITATOR_URL: 'http://127.0.0.1:9',
    X402_CHANNELS_DIR: join(tmp, 'channels'),
  })!;
  const gate = createGate(settings, chain.facilitator, ROUTE_CONTRACTS, { channels: journal });
  stops.push(() => installGate(undefined));
  installGate(null);
  const reference = await (await callHandler(URL_PAID)).text();
  installGate(gate);

  console.log(
    `measuring: ${EXACT_N} exact payments; channels claimed ${CLAIM_SIZES.join(', ')} at a time (a deposit ` +
      `and ${VOUCHERS} vouchers each); 2 refunds`,
  );
  const exact = await exactSettlements(chain, reference, EXACT_N);
  const deposits: Tx[] = [];
  const claims: Tx[] = [];
  const settles: Tx[] = [];
  const opened: Channel[][] = [];
  for (const size of CLAIM_SIZES) {
    const channels = await openChannels(chain, size, reference, deposits);
    const { claim, settle } = await claimRun(chain, gate, settings, channels);
    claims.push(claim);
    settles.push(settle);
    opened.push(channels);
  }
  // Refunds: a channel whose vouchers are all claimed, and one with a last voucher still unclaimed (the refund claims
  // it).
  const refundClaimed = await refund(chain, gate, opened[0][0]);
  const unclaimed = opened[1][0];
  await payVouchers(unclaimed, 1, reference);
  const refundUnclaimed = await refund(chain, gate, unclaimed);

  const measured = {
    exact,
    deposits,
    claims: CLAIM_SIZES.map((channels, i) => ({ channels, tx: claims[i] })),
    settles,
    refundClaimed,
    refundUnclaimed,
  };
  const result = gasResult(measured, {
    answers: ANSWERS,
    vouchersPerChannel: VOUCHERS,
    priceUsd: Number(formatUnits(PRICE, DECIMALS)).toFixed(2),
    example: EXAMPLE,
  });
  console.log(
    `\nchain: anvil, chain id ${chain.chainId} (${NETWORK}); the project's test contracts (tests/support/*.sol), ` +
      `not Base's deployed USDC or escrow`,
  );
  printTransactions(result);
  printPerAnswer(result);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(result, null, 1));
} catch (e) {
  await cleanup();
  throw e;
}
await cleanup();
