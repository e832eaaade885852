// What the bridge benchmark (bench/bridge.ts) runs: the priced tools it calls and with what, how many calls it times,
// the warm-up, the goal, and the budget and deposit that let one deposit pay for every call of each payer.
import { parseUnits } from 'viem';
import { formatUsd } from '../bridge/usd.mjs';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';

/** Calls timed on each target: the goal is a median of 100. */
export const N = Number(process.env.BENCH_BRIDGE_CALLS ?? 100);
/**
 * Calls on every target before the timing: the paid bridge's first one reads the terms and opens the channel (a
 * deposit).
 */
export const WARMUP = 10;
/** Paid calls in a row with no gap, then as many gate off (each paid one waits for the last one's bookkeeping). */
export const BACK_TO_BACK = 50;
/**
 * The goal: a voucher-paid call through the bridge at most this many ms above the same call with the gate off
 * (medians).
 */
export const GOAL_MS = 3;
/** The in-process steps: runs of each after STEP_WARMUP, interleaved round by round. */
export const STEP_N = 300;
export const STEP_WARMUP = 30;
const DECIMALS = 6; // USDC

/** A priced tool's price (its REST twin's), in atomic units. */
function priceOf(tool: string): bigint {
  const usd = ROUTE_CONTRACTS.find((r) => r.operationId === tool)?.priceUsd;
  if (!usd) throw new Error(`${tool} is not a priced tool`);
  return parseUnits(usd, DECIMALS);
}

/** A priced tool call the benchmark makes, and its price. */
export interface Call {
  tool: string;
  args: Record<string, unknown>;
  price: bigint;
}

/** A priced tool whose answer both servers give identically, of moderate size (one year's statewide totals). */
const TOOL = 'get_summary';
const ARGS = { state: 'TX', year: 2021 };
const PRICE = priceOf(TOOL);
export const SUMMARY: Call = { tool: TOOL, args: ARGS, price: PRICE };
/**
 * A priced tool of another price, alternated with SUMMARY: two offers paid from one channel, each call's voucher for
 * another amount than the last one's (signed in the call, as every paid call's is).
 */
export const OTHER: Call = {
  tool: 'compare_states',
  args: { states: 'FL,TX', granularity: 'year' },
  price: priceOf('compare_states'),
};
if (OTHER.price === PRICE)
  throw new Error(`${OTHER.tool} and ${TOOL} have the same price: alternating them would not alternate prices`);
/** The alternating calls, in the order each bridge makes them. */
export const ALTERNATING: readonly Call[] = [SUMMARY, OTHER];

/**
 * The bridge's note after a voucher-paid call's figures (bridge/tool-calls.mjs): the price, from the channel, no
 * deposit.
 */
export const voucherNote = (price: bigint) =>
  new RegExp(
    `^paid ${formatUsd(price).replace('.', '\\.')} USD from the prepaid channel; \\d+\\.\\d{2} of the ` +
      `\\d+\\.\\d{2} USD budget spent$`,
  );

/**
 * Every paying payer's budget and largest deposit, in USD: the most any of them spends (so that its first call's
 * deposit pays for all its others and no deposit is timed), and some room: the paid bridge repeating SUMMARY (its
 * channel's opening call, the warm-up and the timed rounds, the calls back to back), the paid bridge alternating
 * (twice a round, SUMMARY then OTHER, and its opening calls), and the direct payer (two targets a round, SUMMARY;
 * its deposit call and the recorded one).
 */
const spends = [
  BigInt(1 + WARMUP + N + BACK_TO_BACK) * PRICE,
  BigInt(WARMUP + N + 1) * (PRICE + OTHER.price),
  BigInt(2 * (WARMUP + N) + 2) * PRICE,
];
const BUDGET_USD = formatUsd(spends.reduce((a, b) => (a > b ? a : b)) + 10n * OTHER.price);

/** The bridge's flags for one run: the remote, the chain, its own state folder, and one cap for budget and deposit. */
export const bridgeFlags = (url: string, rpcUrl: string, stateDir: string, capUsd: string = BUDGET_USD) => [
  '--url',
  url,
  '--rpc-url',
  rpcUrl,
  '--state-dir',
  stateDir,
  '--budget-usd',
  capUsd,
  '--max-deposit-usd',
  capUsd,
];
/** What each paying payer is minted: its budget and one USDC more. */
export const FUNDING = parseUnits(BUDGET_USD, DECIMALS) + parseUnits('1', DECIMALS);
