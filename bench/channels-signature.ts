// The voucher's signature check timed alone (the first goal): the project's voucher check
// (api/payment/voucher-check.ts), built once as the server builds it, on vouchers signed beforehand for the rig's
// channel with its key (the official client's signVoucher), SIGNATURE_N calls after SIGNATURE_WARMUP, each call timed
// by itself and each on a voucher of its own. Every call must find its voucher valid, and a voucher whose amount was
// changed after signing must be refused: a check that refuses, or that passes anything, cannot report a fast time.
import { SIGNATURE_GOAL_MS, SIGNATURE_N, SIGNATURE_WARMUP } from './channels-config.ts';
import { signVouchers } from './channels-payer.ts';
import type { ChannelsResult } from './channels-result.ts';
import type { Rig } from './channels-rig.ts';
import { median, p99 } from './stats.ts';
import { VOUCHER_SIGNATURE, voucherCheck } from '../api/payment/voucher-check.ts';
import { NETWORK } from '../tests/support/chain.ts';

export async function signatureCheckAlone({ channel }: Rig): Promise<ChannelsResult['signatureCheck']> {
  // Cumulative amounts k × the price: the check reads no channel state, so any amounts do; each voucher is distinct.
  const vouchers = await signVouchers(channel, 0n, SIGNATURE_WARMUP + SIGNATURE_N);
  const config = channel.channelConfig;
  const check = voucherCheck(NETWORK);
  const times: number[] = [];
  for (let i = 0; i < vouchers.length; i++) {
    const voucher = vouchers[i];
    const t = performance.now();
    const problem = check.problem(config, voucher);
    const elapsed = performance.now() - t;
    if (problem !== undefined)
      throw new Error(
        `the project's voucher check refused voucher ${i + 1} (${voucher.maxClaimableAmount}): ${problem}`,
      );
    if (i >= SIGNATURE_WARMUP) times.push(elapsed);
  }
  const altered = { ...vouchers[0], maxClaimableAmount: vouchers[1].maxClaimableAmount };
  const refused = check.problem(config, altered);
  if (refused !== VOUCHER_SIGNATURE)
    throw new Error(
      `the project's voucher check answered ${refused} for a voucher whose amount was changed after signing`,
    );
  const m = median(times);
  return {
    n: times.length,
    warmup: SIGNATURE_WARMUP,
    median: m,
    p99: p99(times),
    goalMs: SIGNATURE_GOAL_MS,
    met: m <= SIGNATURE_GOAL_MS,
  };
}
