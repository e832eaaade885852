// What the bridge benchmark (bench/bridge.ts) runs: the priced tool it calls and with what, how many calls it times,
// the warm-up, the goal, and the budget and deposit that let one deposit pay for every call.
import { parseUnits } from 'viem';
import { formatUsd } from '../bridge/usd.mjs';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';

/** Calls timed on each target (issue 40 asks the median of 100). */
export const N = Number(process.env.BENCH_BRIDGE_CALLS ?? 100);
/** Calls on every target before the timing: the paid bridge's first one reads the terms and opens the channel (a deposit). */
export const WARMUP = 10;
/** A priced tool whose answer both servers give identically, of moderate size (one year's statewide totals). */
export const TOOL = 'get_summary';
export const ARGS = { state: 'TX', year: 2021 };
/** Issue 40's goal: a voucher-paid call through the bridge at most this many ms above the same call with the gate off (medians). */
export const GOAL_MS = 3;
/** The in-process steps: runs of each after STEP_WARMUP, interleaved round by round. */
export const STEP_N = 300;
export const STEP_WARMUP = 30;
export const DECIMALS = 6; // USDC

/** The tool's price (its REST twin's), in atomic units. */
export const PRICE = (() => {
  const usd = ROUTE_CONTRACTS.find((r) => r.operationId === TOOL)?.priceUsd;
  if (!usd) throw new Error(`${TOOL} is not a priced tool`);
  return parseUnits(usd, DECIMALS);
})();

/** The bridge's note after a voucher-paid call's figures (bridge/tool-calls.mjs): the price, from the channel, no deposit. */
export const VOUCHER_NOTE = new RegExp(`^paid ${formatUsd(PRICE).replace('.', '\\.')} USD from the prepaid channel; \\d+\\.\\d{2} of the \\d+\\.\\d{2} USD budget spent$`);

/**
 * Each paying payer's budget and largest deposit, in USD: every call it makes at the tool's price (the direct payer
 * pays two targets a round; the warm-up, the timed calls and some room), so that its first call's deposit pays for
 * all the others and no deposit is timed.
 */
export const BUDGET_USD = formatUsd(BigInt(2 * (WARMUP + N) + 10) * PRICE);
/** What each paying payer is minted: its budget and one USDC more. */
export const FUNDING = parseUnits(BUDGET_USD, DECIMALS) + parseUnits('1', DECIMALS);
