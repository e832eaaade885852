// What the x402 benchmark (bench/x402.ts) runs: how many paid requests it times, the two priced URLs it pays for and
// their prices (in USDC, for the channel benchmark too), and how many times the gate's own work is timed in process.
import { formatUnits, parseUnits } from 'viem';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';

export const N = Number(process.env.BENCH_PAYMENTS ?? 200);
export const WARMUP = 10;
export const PREMIUM = '/v1/premium?state=TX';
export const COMPARE = '/v1/compare?states=FL,TX';
export const DECIMALS = 6; // USDC

export const priceOf = (path: string): { usd: string; atomic: bigint } => {
  const pathname = new URL(path, 'http://x').pathname;
  const usd = ROUTE_CONTRACTS.find((r) => r.path === pathname)?.priceUsd;
  if (!usd) throw new Error(`${pathname} is not a priced route`);
  return { usd, atomic: parseUnits(usd, DECIMALS) };
};
export const usdc = (atomic: bigint) => `${formatUnits(atomic, DECIMALS)} USDC`;
/** The gate's own work, in process: requests of each kind timed (after 50 untimed). */
export const OWN_N = 500;
