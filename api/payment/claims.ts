// Collecting what prepaid channels owe (docs/design.md §13): the vouchers the server holds are claimed on chain, many
// channels in one transaction, and the claimed funds settled to the payee; channels idle for X402_CHANNEL_IDLE_DAYS
// are claimed and their remainder refunded to the payer. The Node server runs this every X402_CLAIM_INTERVAL_S and
// once more when it stops; on Vercel a cron route does (src/pages/cron/claims.ts). One log line per claim, refund and
// settlement, with what moved and the transaction.
import type { BatchSettlementChannelManager, Channel, ChannelStorage } from '@x402/evm/batch-settlement/server';
import { formatUnits } from 'viem';
import type { Gate } from './gate.ts';
import type { PaymentSettings } from './settings.ts';

/** Vouchers per claim transaction (the package's default). */
const CLAIMS_PER_TRANSACTION = 100;
const NOTHING_TO_SETTLE = 'invalid_batch_settlement_evm_nothing_to_settle';

export interface ClaimRun {
  claims: { channels: number; amount: string; transaction: string }[];
  refunds: { channel: string; amount: string; transaction: string }[];
  /** The settlement that moved the claimed funds to the payee, if any were waiting. */
  settled?: { transaction: string };
  /** What failed (a refund, the settlement), each said once in the log; a failed claim ends the run with an error. */
  failures: string[];
}

const owed = (c: Channel) => BigInt(c.chargedCumulativeAmount) - BigInt(c.totalClaimed);
const rest = (c: Channel) => BigInt(c.balance) - BigInt(c.chargedCumulativeAmount);

/** One run over the gate's prepaid channels (claimAndRefund); null when the gate offers no batch-settlement. */
export async function claimGateChannels(gate: Gate, settings: PaymentSettings): Promise<ClaimRun | null> {
  const channels = await gate.channels();
  return channels && claimAndRefund(channels.manager, channels.storage, settings);
}

/** One run: claim every voucher not yet claimed, refund idle channels' rest, settle what was claimed. */
export async function claimAndRefund(manager: BatchSettlementChannelManager, storage: ChannelStorage, settings: PaymentSettings, now = Date.now()): Promise<ClaimRun> {
  const usd = (atomic: bigint) => `${formatUnits(atomic, settings.asset.decimals)} ${settings.asset.name === 'USD Coin' ? 'USDC' : settings.asset.name}`;
  const run: ClaimRun = { claims: [], refunds: [], failures: [] };

  let selected: Channel[] = [];
  const claimed = await manager.claim({ maxClaimsPerBatch: CLAIMS_PER_TRANSACTION, selectClaimChannels: (channels) => (selected = channels) });
  // The manager claims the selected channels that owe something, in order, CLAIMS_PER_TRANSACTION at a time.
  const owing = selected.filter((c) => owed(c) > 0n);
  claimed.forEach((result, i) => {
    const batch = owing.slice(i * CLAIMS_PER_TRANSACTION, (i + 1) * CLAIMS_PER_TRANSACTION);
    const amount = usd(batch.reduce((sum, c) => sum + owed(c), 0n));
    run.claims.push({ channels: result.vouchers, amount, transaction: result.transaction });
    console.log(`x402 claim: ${result.vouchers} channel(s), ${amount}, transaction ${result.transaction}`);
  });

  // Idle channels chosen here, one refund at a time: the manager's refundIdleChannels stops at the first refund
  // that fails, and would also ask to refund a channel that has nothing left.
  const idleMs = settings.channels.idleDays * 86_400_000;
  const idle = (await storage.list()).filter((c) => now - c.lastRequestTimestamp >= idleMs && rest(c) > 0n && !(c.pendingRequest && c.pendingRequest.expiresAt > now));
  for (const channel of idle) {
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
