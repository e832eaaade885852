// The channel benchmark's parallel payers: PAYERS payers at once, each on its own channel, through the official
// client (@x402/fetch, globalThis.fetch): a deposit call each, then M voucher-paid calls each.
import type { SettleResponse } from '@x402/core/types';
import { parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DECIMALS, M, PARALLEL_DEPOSIT, PAYERS, PREMIUM, PRICE } from './channels-config.ts';
import { chargedOf, receiptOf } from './channels-payer.ts';
import type { ChannelsResult } from './channels-result.ts';
import type { Servers } from './channels-servers.ts';
import { median, p99 } from './stats.ts';
import { batchPayer } from '../tests/support/batch-client.ts';

export interface ParallelRun {
  parallel: ChannelsResult['parallel'];
  /** Up to five errors, as said. */
  errorSamples: string[];
  /** The payers' channels' charged totals, summed. */
  charged: bigint;
}

/** How many receipts are off (double charges), and the channels' charged totals summed. */
function chargesOf(receipts: (SettleResponse | null)[][]): { doubleCharges: number; charged: bigint } {
  let charged = 0n;
  // Each payer's receipts, in order, must read k × price for k = 1..M+1: none skipped, none counted twice.
  let doubleCharges = 0;
  for (const list of receipts) {
    list.forEach((receipt, k) => {
      if (chargedOf(receipt) !== BigInt(k + 1) * PRICE) doubleCharges++;
    });
    if (list.length !== M + 1) doubleCharges += Math.abs(M + 1 - list.length);
    const last = chargedOf(list.at(-1) ?? null);
    if (last > 0n) charged += last;
  }
  return { doubleCharges, charged };
}

/** Funds PAYERS fresh payers, then times their deposit calls, all at once, and then their M voucher calls each. */
export async function parallelPayers({ chain, on, reference, facilitatorCalls }: Servers): Promise<ParallelRun> {
  const keys = Array.from({ length: PAYERS }, () => generatePrivateKey());
  for (const key of keys)
    await chain.mint(privateKeyToAccount(key).address, PARALLEL_DEPOSIT + parseUnits('1', DECIMALS));
  const payers = keys.map((key) => batchPayer(key, chain.rpcUrl, globalThis.fetch, { deposit: PARALLEL_DEPOSIT }));
  let errors = 0;
  const errorSamples: string[] = [];
  const receipts: (SettleResponse | null)[][] = payers.map(() => []);
  const latencies: number[] = [];
  const call = async (p: number, deposit: boolean) => {
    const t = performance.now();
    try {
      const res = await payers[p].fetch(`${on.base}${PREMIUM}`);
      const text = await res.text();
      const elapsed = performance.now() - t;
      const receipt = receiptOf(res);
      receipts[p].push(receipt);
      const paid =
        res.status === 200 &&
        receipt?.success === true &&
        (deposit ? /^0x[0-9a-f]{64}$/i.test(receipt.transaction) : receipt.transaction === '');
      if (!paid || text !== reference) {
        errors++;
        if (errorSamples.length < 5)
          errorSamples.push(`payer ${p}: ${res.status} ${JSON.stringify(receipt)} ${text.slice(0, 120)}`);
      }
      if (!deposit) latencies.push(elapsed);
    } catch (e) {
      errors++;
      if (errorSamples.length < 5) errorSamples.push(`payer ${p}: ${(e as Error).message}`);
    }
  };
  const depositStart = performance.now();
  await Promise.all(payers.map((_, p) => call(p, true)));
  const depositSeconds = (performance.now() - depositStart) / 1000;
  const parallelCalls = facilitatorCalls();
  const start = performance.now();
  await Promise.all(
    payers.map(async (_, p) => {
      for (let i = 0; i < M; i++) await call(p, false);
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const parallelFacilitatorCalls = facilitatorCalls() - parallelCalls;
  const { doubleCharges, charged } = chargesOf(receipts);
  const parallel: ChannelsResult['parallel'] = {
    payers: PAYERS,
    callsEach: M,
    calls: PAYERS * M,
    depositSeconds,
    seconds,
    reqPerSec: (PAYERS * M) / seconds,
    median: median(latencies),
    p99: p99(latencies),
    errors,
    doubleCharges,
    facilitatorCalls: parallelFacilitatorCalls,
  };
  return { parallel, errorSamples, charged };
}
