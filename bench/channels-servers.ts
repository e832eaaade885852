// The channel benchmark's world: the local chain, its facilitator on loopback, and two server processes on one build
// and the same shards, the gate on (channels in a directory of their own) and off; at the end, the gate-on server
// stopped with SIGTERM and what the payee gained, read on chain and in that server's journal.
import type { ChildProcess } from 'node:child_process';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { PREMIUM, PRICE, usdc } from './channels-config.ts';
import type { ChannelsResult } from './channels-result.ts';
import { ChannelJournal } from '../api/payment/channel-journal.ts';
import { type LocalChain, serveFacilitator, startLocalChain } from '../tests/support/chain.ts';
import { startServer } from '../tests/support/server.ts';

type ServerProcess = Awaited<ReturnType<typeof startServer>>;

/** The chain, its facilitator and two servers over one build and the same shards, the gate on and off. */
export interface ServerPair {
  chain: LocalChain;
  facilitatorUrl: string;
  /** The facilitator's verify and settle calls so far. */
  facilitatorCalls(): number;
  on: ServerProcess;
  off: ServerProcess;
}

export interface Servers extends ServerPair {
  /** Where the gate-on server keeps its channels. */
  channelsDir: string;
  /** The gate-off answer: the body every paid answer must have. */
  reference: string;
  /** What the gate-on server's 402 offers. */
  challenge: PaymentRequired;
}

/**
 * Starts the chain, the facilitator and both servers, the gate-on one's channels in `channelsDir`, each pushed to
 * `stops`; one after the other, so that a server that fails to start leaves no other one running.
 */
export async function startServerPair(
  entry: string,
  shards: string,
  channelsDir: string,
  stops: (() => unknown)[],
): Promise<ServerPair> {
  const chain = await startLocalChain();
  stops.push(() => chain.stop());
  const facilitator = await serveFacilitator(chain.facilitator);
  stops.push(() => facilitator.stop());
  const facilitatorCalls = () => (facilitator.calls.get('/verify') ?? 0) + (facilitator.calls.get('/settle') ?? 0);

  const on = await startServer(entry, {
    SHARDS_DIR: shards,
    X402_PAY_TO: chain.payee,
    X402_FACILITATOR_URL: facilitator.url,
    X402_CHANNELS_DIR: channelsDir,
  });
  stops.push(on.stop);
  const off = await startServer(entry, { SHARDS_DIR: shards });
  stops.push(off.stop);
  return { chain, facilitatorUrl: facilitator.url, facilitatorCalls, on, off };
}

/** Starts the pair (startServerPair) and checks the two answers against each other. */
export async function startServers(
  entry: string,
  shards: string,
  channelsDir: string,
  stops: (() => unknown)[],
): Promise<Servers> {
  const pair = await startServerPair(entry, shards, channelsDir, stops);
  const { chain, on, off } = pair;

  const referenceRes = await fetch(`${off.base}${PREMIUM}`);
  const reference = await referenceRes.text();
  if (referenceRes.status !== 200 || !(JSON.parse(reference) as { data?: unknown[] }).data?.length)
    throw new Error(`gate-off ${PREMIUM} answered ${referenceRes.status} with no data`);
  const challenge = decodePaymentRequiredHeader(
    (await fetch(`${on.base}${PREMIUM}`)).headers.get('PAYMENT-REQUIRED') ?? '',
  );
  if (
    challenge.accepts.map((a) => a.scheme).join(',') !== 'exact,batch-settlement' ||
    challenge.accepts.some((a) => BigInt(a.amount) !== PRICE || a.payTo !== chain.payee)
  )
    throw new Error(`gate-on ${PREMIUM}: unexpected offer ${JSON.stringify(challenge.accepts)}`);
  console.log(
    `${PREMIUM}: ${Buffer.byteLength(reference)} bytes, ${usdc(PRICE)}; the gate-on 402 offers exact and ` +
      `batch-settlement`,
  );
  return { ...pair, channelsDir, reference, challenge };
}

/** Stops a server process with SIGTERM and waits for it to exit (the gate-on server claims its vouchers first). */
function stopWithSigterm(child: ChildProcess, timeoutMs = 60_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the gate-on server did not exit within ${timeoutMs} ms of SIGTERM`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

/** What the payee gained, once the gate-on server claimed what it holds, against what the run charged. */
export interface PayeeGain {
  exitCode: number | null;
  /**
   * The gate-on server's journal, read after it stopped: its channels, their charged total, how many are not fully
   * claimed.
   */
  channels: number;
  journalCharged: bigint;
  unclaimed: number;
  /** The receipts' channel charges (deposit calls included) and the exact payments. */
  vouchersCharged: bigint;
  expected: bigint;
  gained: bigint;
  payee: ChannelsResult['payee'];
}

/** Stops the gate-on server with SIGTERM, then reads its journal and the payee's balance against `payeeBefore`. */
export async function payeeGain(
  servers: Servers,
  payeeBefore: bigint,
  vouchersCharged: bigint,
  exactPaid: bigint,
): Promise<PayeeGain> {
  const { chain } = servers;
  const exitCode = await stopWithSigterm(servers.on.child);
  const journal = ChannelJournal.open(servers.channelsDir);
  let journalCharged = 0n;
  let unclaimed = 0;
  let channels: Channel[];
  try {
    channels = await journal.list();
    for (const c of channels) {
      journalCharged += BigInt(c.chargedCumulativeAmount);
      if (c.totalClaimed !== c.chargedCumulativeAmount) unclaimed++;
    }
  } finally {
    journal.close();
  }
  const expected = vouchersCharged + exactPaid;
  const gained = (await chain.balanceOf(chain.payee)) - payeeBefore;
  const payee: ChannelsResult['payee'] = {
    vouchersCharged: Number(vouchersCharged / PRICE),
    exactPaid: Number(exactPaid / PRICE),
    expected: usdc(expected),
    gained: usdc(gained),
    exact: gained === expected,
    journalCharged: usdc(journalCharged),
    journalAgrees: journalCharged === vouchersCharged && unclaimed === 0,
  };
  return { exitCode, channels: channels.length, journalCharged, unclaimed, vouchersCharged, expected, gained, payee };
}
