// What the channel benchmark prints: the HTTP rounds' table, the in-process steps, where a voucher's time goes and
// the goal it is held to, the parallel payers and the payee's gain; and the results as written to BENCH_JSON.
import { HTTP_GOAL_MS, M, N, PAYERS, PRICE, STEP_N, usdc } from './channels-config.ts';
import type { HttpRounds } from './channels-http.ts';
import type { ParallelRun } from './channels-parallel.ts';
import type { ChannelsResult } from './channels-result.ts';
import type { PayeeGain } from './channels-servers.ts';
import type { Steps } from './channels-steps.ts';

const ms = (x: number, digits = 1) => x.toFixed(digits);
const signed = (x: number) => `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(2)}`;

/** Voucher-paid − gate off and exact-paid − gate off over HTTP, medians' differences. */
function minusOff(rows: ChannelsResult['rows']): { voucherMinusOff: number; exactMinusOff: number } {
  const [voucherRow, offRow, , , , , exactRow] = rows;
  return { voucherMinusOff: voucherRow.median - offRow.median, exactMinusOff: exactRow.median - offRow.median };
}

/** The HTTP rounds' table, one row a target, with each request's median against the gate-off one. */
export function printHttpRounds({ rows, voucherFacilitatorCalls }: HttpRounds): void {
  const [, offRow, , checkRow, paidInProcessRow, offInProcessRow, exactRow] = rows;
  const overHttp = (r: (typeof rows)[number]) => r !== checkRow && r !== paidInProcessRow && r !== offInProcessRow;
  console.log(`\n${'request'.padEnd(52)} ${'n'.padStart(4)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(7)} ${'mean ms'.padStart(8)} ${'server CPU ms'.padStart(14)}  median − gate off`);
  for (const r of rows)
    console.log(
      `${r.label.padEnd(52)} ${String(r.n).padStart(4)} ${ms(r.median, 2).padStart(10)} ${ms(r.p99).padStart(7)} ${ms(r.mean, 2).padStart(8)} ${(r.serverCpuMs === null ? '-' : ms(r.serverCpuMs, 2)).padStart(14)}  ${(!overHttp(r) || r === offRow ? '' : `${signed(r.median - offRow.median)} ms`).padStart(10)}`,
    );
  console.log("server CPU ms: the answering server process's CPU time per request (user + system, all its threads, from /proc; a mean in 10 ms ticks): its own work, without the waits; garbage one request leaves may be collected in the next.");
  console.log(`p99 is the nearest rank${exactRow.n < 100 ? ` (with n < 100 it is the maximum: ${exactRow.n} exact-paid requests)` : ''}. Facilitator calls during voucher-paid requests: ${voucherFacilitatorCalls}.`);
}

/** The in-process steps' table. */
export function printSteps(steps: Steps): void {
  const width = Math.max(...steps.rows.map((r) => r.step.length));
  console.log(`${'step'.padEnd(width)}  median ms`);
  for (const r of steps.rows) console.log(`${r.step.padEnd(width)}  ${ms(r.median, 3).padStart(9)}`);
  console.log(`facilitator calls while measuring vouchers: ${steps.facilitatorCalls}`);
}

/** Where voucher-paid − gate off goes over HTTP, and the goal it is held to; returns the goal's verdict. */
export function printWhereTimeGoes({ rows }: HttpRounds, steps: Steps): ChannelsResult['goal'] {
  const [voucherRow, offRow, challengeRow, checkRow, paidInProcessRow, offInProcessRow] = rows;
  const { voucherMinusOff, exactMinusOff } = minusOff(rows);
  // The bound is the check alone as timed in the HTTP rounds: the same run, the same rhythm as the difference it bounds.
  const check = checkRow.median;
  const gatePart = paidInProcessRow.median - offInProcessRow.median;
  const bound = Math.max(HTTP_GOAL_MS, check + 1);
  const rule = check + 1 > HTTP_GOAL_MS ? 'check alone + 1 ms' : '5 ms';
  const goal = { diff: voucherMinusOff, checkAlone: check, checkAloneHot: steps.checkAlone, bound, rule, met: voucherMinusOff <= bound } as ChannelsResult['goal'];
  console.log(
    `\nthe package's own check alone (the scheme's local voucher verification, resourceServer.verifyPayment on a voucher, measured alone): ${ms(check, 3)} ms in the HTTP rounds (median of ${checkRow.n}), ` +
      `${ms(steps.checkAlone, 3)} ms in a tight loop (step 4)`,
  );
  console.log(`  of which viem's verifyTypedData ${ms(steps.verifyTypedData, 3)} ms and 3 × computeChannelId ${ms(3 * steps.computeChannelId, 3)} ms`);
  const cpuOf = (row: (typeof rows)[number]) => (row.serverCpuMs === null ? '-' : `${ms(row.serverCpuMs, 2)} ms`);
  const cpuDiff = (a: (typeof rows)[number], b: (typeof rows)[number]) => (a.serverCpuMs === null || b.serverCpuMs === null ? '-' : `${ms(a.serverCpuMs - b.serverCpuMs, 2)} ms`);
  console.log(`\nwhere voucher-paid − gate off over HTTP (${ms(voucherMinusOff, 2)} ms, medians of ${N}) goes (latency; the servers' own CPU per request beside it):`);
  console.log(`  402 only − gate off: the gate-on server's path for a guarded request (Node's HTTP, a Web Request,`);
  console.log(`    the kept challenge) against kept bytes through the raw front                       ${ms(challengeRow.median - offRow.median, 2).padStart(6)} ms   CPU ${cpuDiff(challengeRow, offRow)}`);
  console.log(`  voucher-paid − 402 only: the payment, and an 80 KB answer instead of {}               ${ms(voucherRow.median - challengeRow.median, 2).padStart(6)} ms   CPU ${cpuDiff(voucherRow, challengeRow)}`);
  console.log(`    in process, the gate's part of a voucher-paid request, in the same rounds           ${ms(gatePart, 2).padStart(6)} ms   (in a tight loop, step 9: ${ms(steps.paid - steps.off, 3)} ms)`);
  console.log(`    of which the package's own check alone, in the same rounds                          ${ms(check, 2).padStart(6)} ms   (step 4: ${ms(steps.checkAlone, 3)} ms)`);
  console.log(`    and the gate around the check, in the same rounds (no socket)                       ${ms(gatePart - check, 2).padStart(6)} ms   (step 9 − step 4: ${ms(steps.paid - steps.off - steps.checkAlone, 3)} ms)`);
  console.log(`  server CPU per request: voucher-paid ${cpuOf(voucherRow)}, 402 only ${cpuOf(challengeRow)}, gate off ${cpuOf(offRow)} (in 10 ms ticks, averaged over each n)`);
  console.log(
    `goal: voucher − gate off ≤ 5 ms, or, when the package's check alone makes that out of reach, ≤ the check alone + 1 ms = ${ms(check + 1, 2)} ms. ` +
      `In force: ${rule} (bound ${ms(bound, 2)} ms). ${goal.met ? 'MET' : 'MISSED'}: ${ms(voucherMinusOff, 2)} ms ${goal.met ? '≤' : '>'} ${ms(bound, 2)} ms`,
  );
  console.log(`exact-paid − gate off: ${ms(exactMinusOff, 2)} ms (the facilitator settles on chain before the answer)`);
  return goal;
}

/** The parallel payers: deposits, vouchers, errors and the receipts' charges. */
export function printParallel({ parallel, errorSamples }: ParallelRun): void {
  const { depositSeconds, seconds, errors, doubleCharges, facilitatorCalls: parallelFacilitatorCalls } = parallel;
  console.log(`  deposits: ${PAYERS} deposit calls in parallel in ${depositSeconds.toFixed(2)} s (each settled on chain by the facilitator)`);
  console.log(
    `  vouchers: ${parallel.calls} calls in ${seconds.toFixed(2)} s, ${parallel.reqPerSec.toFixed(0)} paid calls/s; per call (402, sign, paid request) median ${ms(parallel.median, 2)} ms, p99 ${ms(parallel.p99, 2)} ms; facilitator calls ${parallelFacilitatorCalls}`,
  );
  console.log(`  errors: ${errors}${errorSamples.length ? ` (${errorSamples.join('; ')})` : ''}`);
  console.log(`  each payer's receipts read k × ${usdc(PRICE)} for k = 1..${M + 1}: ${doubleCharges === 0 ? 'yes' : `NO, ${doubleCharges} receipt(s) off`} (double charges: ${doubleCharges})`);
}

/** The gate-on server's journal and the payee's gain against the charged total. */
export function printPayee({ exitCode, channels, journalCharged, unclaimed, vouchersCharged, expected, gained, payee }: PayeeGain, payeeAddress: string): void {
  console.log(
    `\ngate-on server stopped with SIGTERM (exit code ${exitCode}); its journal: ${channels} channels, ${usdc(journalCharged)} charged, ${unclaimed} not fully claimed: ` +
      `${payee.journalAgrees ? 'agrees with' : 'DISAGREES with'} the receipts (${usdc(vouchersCharged)})`,
  );
  console.log(
    `payee ${payeeAddress}: +${usdc(gained)}; expected ${payee.vouchersCharged} channel charges (the receipts' totals, deposit calls included) + ${payee.exactPaid} exact payments, × ${usdc(PRICE)} = ${usdc(expected)}: ${payee.exact ? 'exactly' : 'NOT equal'}`,
  );
}

/** The results as written to BENCH_JSON. */
export function resultOf(http: HttpRounds, steps: Steps, goal: ChannelsResult['goal'], parallel: ChannelsResult['parallel'], payee: ChannelsResult['payee']): ChannelsResult {
  const { rows } = http;
  const [, , , checkRow, paidInProcessRow, offInProcessRow] = rows;
  const { voucherMinusOff, exactMinusOff } = minusOff(rows);
  return {
    vouchers: N,
    rows,
    voucherMinusOff,
    exactMinusOff,
    stepN: STEP_N,
    steps: steps.rows,
    checkAlone: steps.checkAlone,
    verifyTypedData: steps.verifyTypedData,
    computeChannelId: steps.computeChannelId,
    inProcess: { paid: steps.paid, off: steps.off },
    inRounds: { check: checkRow.median, paid: paidInProcessRow.median, off: offInProcessRow.median },
    goal,
    parallel,
    payee,
  };
}
