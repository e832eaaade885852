// Collecting what prepaid channels owe (docs/design.md §13): the vouchers the server holds are claimed on chain, many
// channels in one transaction, and the claimed funds settled to the payee; channels idle for X402_CHANNEL_IDLE_DAYS
// are claimed and their remainder refunded to the payer. The Node server runs this every X402_CLAIM_INTERVAL_S and
// once more when it stops; on Vercel a cron route does (src/pages/cron/claims.ts). One log line per claim, refund and
// settlement, with what moved and the transaction.
import type { Channel } from '@x402/evm/batch-settlement/server';
import { formatUnits } from 'viem';
import type { Gate } from './gate.ts';
import type { GateChannels } from './offers.ts';
import type { PaymentSettings } from './settings.ts';

/** Vouchers per claim transaction (the package's default). */
const CLAIMS_PER_TRANSACTION = 100;
const NOTHING_TO_SETTLE = 'invalid_batch_settlement_evm_nothing_to_settle';
/** The facilitator's word for a claim the chain refused (simulated or sent): split, since one voucher may be to blame. */
const CLAIM_REFUSED = /^Claim failed: invalid_batch_settlement_evm_claim_(simulation|transaction)_failed\b/;

export interface ClaimRun {
  claims: { channels: number; amount: string; transaction: string }[];
  refunds: { channel: string; amount: string; transaction: string }[];
  /** The settlement that moved the claimed funds to the payee, if any were waiting. */
  settled?: { transaction: string };
  /** Channels set aside by this run: a claim of their voucher alone failed. */
  setAside: { channel: string; reason: string }[];
  /** What failed (a claim the facilitator could not make, a refund, the settlement), each said once in the log. */
  failures: string[];
}

const owed = (c: Channel) => BigInt(c.chargedCumulativeAmount) - BigInt(c.totalClaimed);
const rest = (c: Channel) => BigInt(c.balance) - BigInt(c.chargedCumulativeAmount);

/** One run over the gate's prepaid channels (claimAndRefund); null when the gate offers no batch-settlement. */
export async function claimGateChannels(gate: Gate, settings: PaymentSettings): Promise<ClaimRun | null> {
  const channels = await gate.channels();
  return channels && claimAndRefund(channels, settings);
}

/**
 * One run: claim every voucher not yet claimed (a channel set aside excepted), refund idle channels' rest, settle
 * what was claimed. Whatever the claims did, the refunds and the settlement run.
 */
export async function claimAndRefund(channels: GateChannels, settings: PaymentSettings, now = Date.now()): Promise<ClaimRun> {
  const usd = (atomic: bigint) => `${formatUnits(atomic, settings.asset.decimals)} ${settings.asset.name === 'USD Coin' ? 'USDC' : settings.asset.name}`;
  const run: ClaimRun = { claims: [], refunds: [], setAside: [], failures: [] };
  const { manager, storage } = channels;

  const aside = new Set((await channels.setAside.list()).map((e) => e.channelId));
  const claimable = (await storage.list()).filter((c) => !aside.has(c.channelId.toLowerCase()));
  const owing = claimable.filter((c) => owed(c) > 0n);
  for (let i = 0; i < owing.length; i += CLAIMS_PER_TRANSACTION) await claimSplitting(channels, owing.slice(i, i + CLAIMS_PER_TRANSACTION), run, usd);

  // Idle channels chosen here, one refund at a time: the manager's refundIdleChannels stops at the first refund
  // that fails, and would also ask to refund a channel that has nothing left.
  const idleMs = settings.channels.idleDays * 86_400_000;
  const idle = claimable.filter((c) => now - c.lastRequestTimestamp >= idleMs && rest(c) > 0n && !(c.pendingRequest && c.pendingRequest.expiresAt > now));
  for (const channel of idle) {
    if (run.setAside.some((e) => e.channel === channel.channelId.toLowerCase())) continue;
    try {
      const [refund] = await manager.refund([channel.channelId]);
      if (!refund) continue; // a request reserved it meanwhile: no longer idle
      const amount = usd(rest(channel));
      run.refunds.push({ channel: channel.channelId, amount, transaction: refund.transaction });
      console.log(`x402 refund: channel ${channel.channelId} idle ${settings.channels.idleDays} days, ${amount} to ${channel.channelConfig.payer}, transaction ${refund.transaction}`);
    } catch (e) {
      run.failures.push(`refund of ${channel.channelId}: ${oneLine(e)}`);
      console.error(`x402 refund failed: channel ${channel.channelId}: ${oneLine(e)}`);
    }
  }

  // Claimed funds, now or by an earlier run that stopped before settling, go to the payee in one transfer.
  try {
    run.settled = await manager.settle();
    console.log(`x402 settle: claimed funds to ${settings.payTo}, transaction ${run.settled.transaction}`);
  } catch (e) {
    if (!oneLine(e).includes(NOTHING_TO_SETTLE)) {
      run.failures.push(`settle: ${oneLine(e)}`);
      console.error(`x402 settle failed: ${oneLine(e)}`);
    }
  }
  return run;
}

/**
 * Claims `batch` in one transaction; one the chain refuses is split in halves, and so on, until every channel that
 * can be claimed is, and a channel that cannot be claimed alone is set aside (logged once: it is left out of every
 * later run until an operator clears it). A failure that is not the chain's refusal (the facilitator unreachable)
 * says nothing of any channel: it is reported, and the next run tries again.
 */
async function claimSplitting(channels: GateChannels, batch: Channel[], run: ClaimRun, usd: (atomic: bigint) => string): Promise<void> {
  const ids = new Set(batch.map((c) => c.channelId.toLowerCase()));
  try {
    const claimed = await channels.manager.claim({ maxClaimsPerBatch: batch.length, selectClaimChannels: (all) => all.filter((c) => ids.has(c.channelId.toLowerCase())) });
    for (const result of claimed) {
      const amount = usd(batch.reduce((sum, c) => sum + owed(c), 0n));
      run.claims.push({ channels: result.vouchers, amount, transaction: result.transaction });
      console.log(`x402 claim: ${result.vouchers} channel(s), ${amount}, transaction ${result.transaction}`);
    }
  } catch (e) {
    const reason = oneLine(e);
    if (!CLAIM_REFUSED.test(reason)) {
      run.failures.push(`claim of ${batch.length} channel(s): ${reason}`);
      console.error(`x402 claim failed: ${batch.length} channel(s): ${reason}`);
      return;
    }
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await claimSplitting(channels, batch.slice(0, half), run, usd);
      await claimSplitting(channels, batch.slice(half), run, usd);
      return;
    }
    const channel = batch[0].channelId.toLowerCase();
    run.setAside.push({ channel, reason });
    if (await channels.setAside.add({ channelId: channel, reason, at: new Date().toISOString() }))
      console.error(`x402 claim: channel ${channel} set aside, it takes no more vouchers until an operator clears it (npm run channels -- --clear ${channel}): ${reason}; ${usd(owed(batch[0]))} owed by ${batch[0].channelConfig.payer}`);
  }
}

const oneLine = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0].slice(0, 300);

/**
 * Runs `claimAndRefund` every `intervalS` seconds, one run at a time; `stop` waits for a run under way, then runs
 * once more, so nothing held is left unclaimed when the process exits.
 */
export function claimSchedule(run: () => Promise<unknown>, intervalS: number): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const once = () => (running = running.then(run).catch((e: unknown) => console.error(`x402 claim run failed: ${oneLine(e)}`)));
  const timer = setInterval(once, intervalS * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await once();
    },
  };
}
