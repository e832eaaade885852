// What the channel benchmark (bench/channels.ts) runs: how many requests of each kind it times, the priced URL it
// pays for and that URL's price, and the deposits that pay for them.
import { parseUnits } from 'viem';
import { DECIMALS, PREMIUM, priceOf } from './x402-config.ts';

export { DECIMALS, PREMIUM, usdc } from './x402-config.ts';

export const N = Number(process.env.BENCH_VOUCHERS ?? 200);
export const M = Number(process.env.BENCH_PARALLEL_CALLS ?? 20);
export const PAYERS = 32;
export const WARMUP = 20;
/** An exact paid call every this many rounds: it settles on chain (~10 ms), so fewer of them keep the run short. */
export const EXACT_EVERY = 4;
/** Runs of each in-process step (after STEP_WARMUP): ≥ 200, as the issue asks. */
export const STEP_N = 300;
export const STEP_WARMUP = 30;
/** Room for every voucher of a phase: 100 USDC is 1000 answers at $0.10. */
export const DEPOSIT = parseUnits('100', DECIMALS);
/** Each parallel payer's deposit: its M + 1 answers and some room. */
export const PARALLEL_DEPOSIT = parseUnits('5', DECIMALS);
/**
 * The goal: a voucher-paid answer at most this many ms above the same answer with the gate off (medians over
 * HTTP).
 */
export const HTTP_GOAL_MS = 2;
/**
 * The signature check timed alone (the project's voucher check, api/payment/voucher-check.ts): calls timed, each on its
 * own voucher.
 */
export const SIGNATURE_N = 1000;
export const SIGNATURE_WARMUP = 100;
/** The goal: the signature check's median at most this many ms. */
export const SIGNATURE_GOAL_MS = 0.2;

export const PRICE = priceOf(PREMIUM).atomic;
