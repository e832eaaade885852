// Back to back: BACK_TO_BACK paid calls of the same tool in a row through the paid bridge, each sent as soon as the
// last one's answer came back, then as many through the gate-off bridge. A paid call answers before its bookkeeping
// (the receipt into the channel file, the spending written), which it does holding the state lock; the next paid
// call waits for that lock. The rounds (./bridge-rounds.ts) leave other calls between two calls of one bridge, time
// enough for the bookkeeping; here nothing does, so each paid call also waits for the previous call's bookkeeping
// before it signs its own voucher. Answers are checked after the run (no work between the calls); the chain and the
// facilitator must not move.
import { BACK_TO_BACK, SUMMARY } from './bridge-config.ts';
import type { BridgeResult } from './bridge-report.ts';
import type { CallResult, McpClient } from './bridge-rig.ts';
import type { ServerPair } from './channels-servers.ts';
import { check, type Reference, stillness, timedCall } from './bridge-rounds.ts';
import { mean, median, p99 } from './stats.ts';

/** The calls in a row through `client`, checked afterwards: per call median, p99 and mean, and the whole run's ms. */
async function inARow(client: McpClient, ref: Reference, paid: boolean): Promise<BridgeResult['backToBack']['paid']> {
  const results: CallResult[] = [];
  const times: number[] = [];
  const t = performance.now();
  for (let i = 0; i < BACK_TO_BACK; i++) {
    const { r, ms } = await timedCall(client.client, SUMMARY);
    results.push(r);
    times.push(ms);
  }
  const totalMs = performance.now() - t;
  results.forEach((r, i) =>
    check(`back to back, ${paid ? 'paid' : 'gate off'}, call ${i + 1}`, r, ref, paid ? SUMMARY : null, true),
  );
  return { median: median(times), p99: p99(times), mean: mean(times), totalMs };
}

/**
 * The paid bridge's calls in a row, then the gate-off bridge's (both idle before: 100 ms for the rounds' last
 * bookkeeping).
 */
export async function backToBack(
  servers: ServerPair,
  bridgePaid: McpClient,
  bridgeOff: McpClient,
  ref: Reference,
): Promise<BridgeResult['backToBack']> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const still = await stillness(servers);
  const paid = await inARow(bridgePaid, ref, true);
  const off = await inARow(bridgeOff, ref, false);
  await still();
  return { tool: SUMMARY.tool, calls: BACK_TO_BACK, paid, off };
}
