// What the channel benchmark prints: the HTTP rounds' table, the in-process steps, the signature check timed alone
// and where a voucher's time goes, each against its goal, the parallel payers and the payee's gain; and the results
// as written to BENCH_JSON.
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
  console.log(
    `\n${'request'.padEnd(52)} ${'n'.padStart(4)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(7)} ` +
      `${'mean ms'.padStart(8)} ${'server CPU ms'.padStart(14)}  ` +
      `median − gate off`,
  );
  for (const r of rows)
    console.log(
      `${r.label.padEnd(52)} ${String(r.n).padStart(4)} ${ms(r.median, 2).padStart(10)} ${ms(r.p99).padStart(7)} ` +
        `${ms(r.mean, 2).padStart(8)} ${(r.serverCpuMs === null ? '-' : ms(r.serverCpuMs, 2)).padStart(14)}  ` +
        `${(!overHttp(r) || r === offRow ? '' : `${signed(r.median - offRow.median)} ms`).padStart(10)}`,
    );
  console.log(
    "server CPU ms: the answering server process's CPU time per request (user + system, all its threads, from " +
      '/proc; a mean in 10 ms ticks): its own work, without the waits; garbage one request leaves may be collected ' +
      'in the next.',
  );
  console.log(
    `p99 is the nearest ` +
      `rank${exactRow.n < 100 ? ` (with n < 100 it is the maximum: ${exactRow.n} exact-paid requests)` : ''}. ` +
      `Facilitator calls during voucher-paid requests: ${voucherFacilitatorCalls}.`,
  );
}

/** The in-process steps' table. */
export function printSteps(steps: Steps): void {
  const width = Math.max(...steps.rows.map((r) => r.step.length));
  console.log(`${'step'.padEnd(width)}  median ms`);
  for (const r of steps.rows) console.log(`${r.step.padEnd(width)}  ${ms(r.median, 3).padStart(9)}`);
  console.log(`facilitator calls while measuring vouchers: ${steps.facilitatorCalls}`);
}

/** The signature check timed alone, against its goal. */
export function printSignatureCheck(sig: ChannelsResult['signatureCheck']): void {
  console.log(
    `\nthe signature check timed alone (the project's voucher check, voucherCheck(NETWORK).problem(config, ` +
      `voucher), built once as the server builds it; ` +
      `${sig.n} calls after ${sig.warmup} warm-up, each timed by itself, each on a voucher of its own signed ` +
      `beforehand, every one valid): median ${ms(sig.median, 4)} ms, p99 ${ms(sig.p99, 4)} ms`,
  );
  console.log(
    `goal: the voucher's signature check ≤ ${sig.goalMs} ms (median of ${sig.n}, timed ` +
      `alone): ${sig.met ? 'MET' : 'MISSED'}: ${ms(sig.median, 4)} ms ${sig.met ? '≤' : '>'} ${sig.goalMs} ms`,
  );
}

/** Where voucher-paid − gate off goes over HTTP, and the goal it is held to; returns the goal's verdict. */
export function printWhereTimeGoes({ rows }: HttpRounds, steps: Steps): ChannelsResult['goal'] {
  const [voucherRow, offRow, challengeRow, checkRow, paidInProcessRow, offInProcessRow] = rows;
  const { voucherMinusOff, exactMinusOff } = minusOff(rows);
  const check = checkRow.median;
  const gatePart = paidInProcessRow.median - offInProcessRow.median;
  const goal = { diff: voucherMinusOff, bound: HTTP_GOAL_MS, met: voucherMinusOff <= HTTP_GOAL_MS };
  console.log(
    `\nthe scheme's check alone (resourceServer.verifyPayment on a voucher, checked locally, channel reserved; ` +
      `the project's voucher check in it): ` +
      `${ms(check, 3)} ms in the HTTP rounds (median of ${checkRow.n}), ${ms(steps.checkAlone, 3)} ms in a tight ` +
      `loop (step 4)`,
  );
  console.log(
    `  of which the project's voucher check ${ms(steps.voucherCheck, 3)} ms (step 4a) and the rest of the ` +
      `check ${ms(steps.checkAlone - steps.voucherCheck, 3)} ms (step 4b)`,
  );
  console.log(
    `  not on the voucher path: the package's own check, which the project's replaced there, would cost viem's ` +
      `verifyTypedData ${ms(steps.verifyTypedData, 3)} ms + 3 × computeChannelId ` +
      `${ms(3 * steps.computeChannelId, 3)} ms = ${ms(steps.verifyTypedData + 3 * steps.computeChannelId, 3)} ms ` +
      `a voucher`,
  );
  const cpuOf = (row: (typeof rows)[number]) => (row.serverCpuMs === null ? '-' : `${ms(row.serverCpuMs, 2)} ms`);
  const cpuDiff = (a: (typeof rows)[number], b: (typeof rows)[number]) =>
    a.serverCpuMs === null || b.serverCpuMs === null ? '-' : `${ms(a.serverCpuMs - b.serverCpuMs, 2)} ms`;
  console.log(
    `\nwhere voucher-paid − gate off over HTTP (${ms(voucherMinusOff, 2)} ms, medians of ${N}) goes (latency; ` +
      `the servers' own CPU per request beside it):`,
  );
  console.log(`  402 only − gate off: the gate-on server's path for a guarded request (Node's HTTP, a Web Request,`);
  console.log(
    `    the kept challenge) against kept bytes through the raw ` +
      `front                       ${ms(challengeRow.median - offRow.median, 2).padStart(6)} ms   ` +
      `CPU ${cpuDiff(challengeRow, offRow)}`,
  );
  console.log(
    `  voucher-paid − 402 only: the payment, and an 80 KB answer instead of ` +
      `{}               ${ms(voucherRow.median - challengeRow.median, 2).padStart(6)} ms   ` +
      `CPU ${cpuDiff(voucherRow, challengeRow)}`,
  );
  console.log(
    `    in process, the gate's part of a voucher-paid request, in the same ` +
      `rounds           ${ms(gatePart, 2).padStart(6)} ms   (in a tight loop, step ` +
      `9: ${ms(steps.paid - steps.off, 3)} ms)`,
  );
  console.log(
    `    of which the scheme's check alone, in the same ` +
      `rounds                               ${ms(check, 2).padStart(6)} ms   (step 4: ${ms(steps.checkAlone, 3)} ` +
      `ms)`,
  );
  console.log(
    `    and the gate around the check, in the same rounds (no ` +
      `socket)                       ${ms(gatePart - check, 2).padStart(6)} ms   (step 9 − step ` +
      `4: ${ms(steps.paid - steps.off - steps.checkAlone, 3)} ms)`,
  );
  console.log(
    `  server CPU per request: voucher-paid ${cpuOf(voucherRow)}, 402 only ${cpuOf(challengeRow)}, gate ` +
      `off ${cpuOf(offRow)} (in 10 ms ticks, averaged over each n)`,
  );
  console.log(
    `goal: a voucher-paid answer ≤ ${HTTP_GOAL_MS} ms above the same answer gate off (medians of ${N}, over ` +
      `HTTP, one run): ` +
      `${goal.met ? 'MET' : 'MISSED'}: ${ms(voucherMinusOff, 2)} ms ${goal.met ? '≤' : '>'} ${HTTP_GOAL_MS} ms`,
  );
  console.log(`exact-paid − gate off: ${ms(exactMinusOff, 2)} ms (the facilitator settles on chain before the answer)`);
  return goal;
}

/** The parallel payers: deposits, vouchers, errors and the receipts' charges. */
export function printParallel({ parallel, errorSamples }: ParallelRun): void {
  const { depositSeconds, seconds, errors, doubleCharges, facilitatorCalls: parallelFacilitatorCalls } = parallel;
  console.log(
    `  deposits: ${PAYERS} deposit calls in parallel in ${depositSeconds.toFixed(2)} s (each settled on chain by ` +
      `the facilitator)`,
  );
  console.log(
    `  vouchers: ${parallel.calls} calls in ${seconds.toFixed(2)} s, ${parallel.reqPerSec.toFixed(0)} paid ` +
      `calls/s; per call (402, sign, paid request) median ${ms(parallel.median, 2)} ms, p99 ${ms(parallel.p99, 2)} ` +
      `ms; facilitator calls ${parallelFacilitatorCalls}`,
  );
  console.log(`  errors: ${errors}${errorSamples.length ? ` (${errorSamples.join('; ')})` : ''}`);
  console.log(
    `  each payer's receipts read k × ${usdc(PRICE)} for k = ` +
      `1..${M + 1}: ${doubleCharges === 0 ? 'yes' : `NO, ${doubleCharges} receipt(s) off`} (double ` +
      `charges: ${doubleCharges})`,
  );
}

/** The gate-on server's journal and the payee's gain against the charged total. */
export function printPayee(
  { exitCode, channels, journalCharged, unclaimed, vouchersCharged, expected, gained, payee }: PayeeGain,
  payeeAddress: string,
): void {
  console.log(
    `\ngate-on server stopped with SIGTERM (exit code ${exitCode}); its journal: ${channels} ` +
      `channels, ${usdc(journalCharged)} charged, ${unclaimed} not fully claimed: ` +
      `${payee.journalAgrees ? 'agrees with' : 'DISAGREES with'} the receipts (${usdc(vouchersCharged)})`,
  );
  console.log(
    `payee ${payeeAddress}: +${usdc(gained)}; expected ${payee.vouchersCharged} channel charges (the receipts' ` +
      `totals, deposit calls included) + ${payee.exactPaid} exact payments, × ${usdc(PRICE)} ` +
      `= ${usdc(expected)}: ${payee.exact ? 'exactly' : 'NOT equal'}`,
  );
}

/** The results as written to BENCH_JSON. */
export function resultOf(
  http: HttpRounds,
  steps: Steps,
  signatureCheck: ChannelsResult['signatureCheck'],
  goal: ChannelsResult['goal'],
  parallel: ChannelsResult['parallel'],
  payee: ChannelsResult['payee'],
): ChannelsResult {
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
    voucherCheck: steps.voucherCheck,
    verifyTypedData: steps.verifyTypedData,
    computeChannelId: steps.computeChannelId,
    inProcess: { paid: steps.paid, off: steps.off },
    inRounds: { check: checkRow.median, paid: paidInProcessRow.median, off: offInProcessRow.median },
    signatureCheck,
    goal,
    parallel,
    payee,
  };
}
