// Collecting what prepaid channels owe (docs/design.md §13): the vouchers the server holds are claimed on chain, many
// channels in one transaction, and the claimed funds settled to the payee; channels idle for X402_CHANNEL_IDLE_DAYS
// are claimed and their remainder refunded to the payer. The Node server runs this every X402_CLAIM_INTERVAL_S and
// once more when it stops; on Vercel a cron route does (src/pages/cron/claims.ts). One log line per claim, refund and
// settlement, with what moved and the transaction.
import type { Channel } from '@x402/evm/batch-settlement/server';
import { formatUnits } from 'viem';
import { errorLine } from './error-line.ts';
import type { Gate } from './gate.ts';
import type { GateChannels } from './offers.ts';
import { type PaymentSettings, assetSymbol } from './settings.ts';

/** Vouchers per claim transaction (the package's default). */
const CLAIMS_PER_TRANSACTION = 100;
const NOTHING_TO_SETTLE = 'invalid_batch_settlement_evm_nothing_to_settle';
export interface ClaimRun {
  claims: { channels: number; amount: string; transaction: string }[];
  refunds: { channel: string; amount: string; transaction: string }[];
  /** The settlement that moved the claimed funds to the payee, if any were waiting. */
  settled?: { transaction: string };
  /**
   * Channels set aside by this run: their kept voucher is one the escrow refuses, or the chain refused a claim of it
   * alone.
   */
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
export async function claimAndRefund(
  channels: GateChannels,
  settings: PaymentSettings,
  now = Date.now(),
): Promise<ClaimRun> {
  const usd = (atomic: bigint) => `${formatUnits(atomic, settings.asset.decimals)} ${assetSymbol(settings.asset)}`;
  const run: ClaimRun = { claims: [], refunds: [], setAside: [], failures: [] };
  const { manager, storage } = channels;

  const aside = new Set((await channels.setAside.list()).map((e) => e.channelId));
  const claimable = (await storage.list()).filter((c) => !aside.has(c.channelId.toLowerCase()));
  // A voucher kept before every kept voucher was checked as the escrow checks it (an older version) is set aside
  // without asking the chain: a claim batch holding it would revert whole.
  const owing: Channel[] = [];
  for (const c of claimable.filter((c) => owed(c) > 0n)) {
    const problem = channels.check.problem(c.channelConfig, {
      channelId: c.channelId,
      maxClaimableAmount: c.signedMaxClaimable,
      signature: c.signature,
    });
    if (problem)
      await setChannelAside(channels, c, `its kept voucher is one the escrow refuses (${problem})`, run, usd);
    else owing.push(c);
  }
  for (let i = 0; i < owing.length; i += CLAIMS_PER_TRANSACTION)
    await claimSplitting(channels, owing.slice(i, i + CLAIMS_PER_TRANSACTION), run, usd);

  // Idle channels chosen here, one refund at a time: the manager's refundIdleChannels stops at the first refund
  // that fails, and would also ask to refund a channel that has nothing left.
  const idleMs = settings.channels.idleDays * 86_400_000;
  const idle = claimable.filter(
    (c) =>
      now - c.lastRequestTimestamp >= idleMs && rest(c) > 0n && !(c.pendingRequest && c.pendingRequest.expiresAt > now),
  );
  const setAsideNow = new Set(run.setAside.map((e) => e.channel));
  for (const channel of idle.filter((c) => !setAsideNow.has(c.channelId.toLowerCase()))) {
    try {
      const [refund] = await manager.refund([channel.channelId]);
      if (!refund) continue; // a request reserved it meanwhile: no longer idle
      const amount = usd(rest(channel));
      run.refunds.push({ channel: channel.channelId, amount, transaction: refund.transaction });
      console.log(
        `x402 refund: channel ${channel.channelId} idle ${settings.channels.idleDays} days, ${amount} to ` +
          `${channel.channelConfig.payer}, transaction ${refund.transaction}`,
      );
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
 * Claims `batch` in one transaction; one the chain refuses (the contract reverted, in simulation or on chain) is split
 * in halves, and so on, until every channel that can be claimed is, and a channel the chain refuses alone is set
 * aside. Any other failure (the facilitator or its chain unreachable, out of gas money) says nothing of any channel:
 * it is reported, the batch is not split, and the next run tries again.
 */
async function claimSplitting(
  channels: GateChannels,
  batch: Channel[],
  run: ClaimRun,
  usd: (atomic: bigint) => string,
): Promise<void> {
  const ids = new Set(batch.map((c) => c.channelId.toLowerCase()));
  let selected: Channel[] = [];
  try {
    const claimed = await channels.manager.claim({
      maxClaimsPerBatch: batch.length,
      selectClaimChannels: (all) => (selected = all.filter((c) => ids.has(c.channelId.toLowerCase()))),
    });
    // What this claim collected: the selected channels as the manager read them, what they owed then.
    const amount = usd(selected.reduce((sum, c) => sum + (owed(c) > 0n ? owed(c) : 0n), 0n));
    for (const result of claimed) {
      run.claims.push({ channels: result.vouchers, amount, transaction: result.transaction });
      console.log(`x402 claim: ${result.vouchers} channel(s), ${amount}, transaction ${result.transaction}`);
    }
  } catch (e) {
    const refusal = chainRefusal(e);
    if (!refusal) {
      run.failures.push(`claim of ${batch.length} channel(s): ${oneLine(e)}`);
      console.error(`x402 claim failed: ${batch.length} channel(s): ${oneLine(e)}`);
    } else if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await claimSplitting(channels, batch.slice(0, half), run, usd);
      await claimSplitting(channels, batch.slice(half), run, usd);
    } else await setChannelAside(channels, batch[0], `the chain refused its claim (${refusal})`, run, usd);
  }
}

/** Sets a channel aside, logging it once (a channel already set aside, by another instance, is not logged again). */
async function setChannelAside(
  channels: GateChannels,
  channel: Channel,
  reason: string,
  run: ClaimRun,
  usd: (atomic: bigint) => string,
): Promise<void> {
  const id = channel.channelId.toLowerCase();
  run.setAside.push({ channel: id, reason });
  if (await channels.setAside.add({ channelId: id, reason, at: new Date().toISOString() }))
    console.error(
      `x402 claim: channel ${id} set aside, it takes no more vouchers until an operator clears it (npm ` +
        `run channels -- --clear ${id}): ${reason}; ${usd(owed(channel))} owed by ` +
        `${channel.channelConfig.payer}`,
    );
}

/**
 * The chain's refusal of a claim, as the facilitator reports it (its claim reason, and the contract's revert in its
 * message: in a settle response, or a SettleError for a facilitator that answers failures with an HTTP error), with
 * the contract's reason; null for any other failure.
 */
function chainRefusal(e: unknown): string | null {
  const { errorReason, errorMessage, message } = e as { errorReason?: string; errorMessage?: string; message?: string };
  const text = [errorReason, errorMessage, message].filter(Boolean).join('\n');
  const reason = /invalid_batch_settlement_evm_claim_(simulation|transaction)_failed/.exec(text)?.[0];
  if (!reason || !/revert/i.test(text)) return null;
  const why =
    /reverted with the following reason:\s*([^\n]+)/.exec(text)?.[1] ??
    /execution reverted[^\n]*/i.exec(text)?.[0] ??
    'reverted';
  return `${reason}: ${why.trim()}`;
}

const oneLine = (e: unknown) => errorLine(e).slice(0, 300);

/**
 * Runs `claimAndRefund` every `intervalS` seconds, one run at a time; `stop` waits for a run under way, then runs
 * once more, so nothing held is left unclaimed when the process exits.
 */
export function claimSchedule(run: () => Promise<unknown>, intervalS: number): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const once = () =>
    (running = running.then(run).catch((e: unknown) => console.error(`x402 claim run failed: ${oneLine(e)}`)));
  const timer = setInterval(() => void once(), intervalS * 1000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await once();
    },
  };
}
