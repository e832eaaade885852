// `npm run bench:channels`: what a prepaid-channel payment (x402 `batch-settlement`) costs a caller, on the built
// Node server, and where that time goes. Two server processes on one build and the same REAL shards
// (built from data/): the gate ON (payee on a local chain, facilitator on loopback, channels in a fresh directory)
// and the gate OFF. Nothing touches a real network.
//  1. HTTP, one request at a time, in rounds whose order rotates so machine noise hits every target alike:
//       voucher   one payer's channel, opened by one real paid call through the official client (a deposit), then
//                 paid by the next cumulative voucher, signed beforehand (the client's signing is not timed): the
//                 server checks it locally and records it, no chain or facilitator call (counted, must stay 0)
//       gate off  the same URL on the gate-off server (its kept bytes, through the raw front)
//       exact     every few rounds, an `exact` payment signed beforehand: its paid request only (the facilitator
//                 settles on chain before the 200), as bench/x402.ts's paid leg
//     each timed to the response headers and the body read. A voucher answered otherwise than 200 with a
//     successful receipt for exactly the next charge, or with another body than the gate-off one, stops the run.
//     In the same rounds, in this process: the scheme's check alone and the whole paid request with its gate-off twin.
//     Goal: voucher-paid − gate off ≤ 2 ms, medians over HTTP, one run.
//  2. Step by step, in this process (no socket): each part of a voucher's paid path timed alone, on a gate built as
//     the server builds it (a channel journal in a temp dir, the chain's facilitator in process: vouchers call it
//     never, which is counted), down to the project's voucher check (api/payment/voucher-check.ts), which the scheme's
//     check calls in place of the package's own; beside them, no longer on the voucher path, what the package's check
//     would cost (viem's verifyTypedData, computeChannelId); then the whole paid request (api/dispatch.ts) against the
//     same with the gate off.
//  2b. The signature check timed alone: the project's voucher check on 1,000 vouchers signed beforehand for the
//     rig's channel, each call timed by itself, each on its own voucher, every one valid (else the run stops).
//     Goal: its median ≤ 0.2 ms.
//  3. 32 payers in parallel, each on its own channel, through the official client: errors, double charges, and,
//     once the gate-on server is stopped with SIGTERM (it claims what it holds), the payee's on-chain gain against
//     everything charged in this run.
// Not a test: it reports. A wrong answer in 1, 2 or 2b stops it with an error; the 32 payers' checks are reported as
// a goal. With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers them).
// The parts: ./channels-servers.ts (the chain, the facilitator, both servers, the payee's gain), ./channels-http.ts
// (1), ./channels-rig.ts and ./channels-steps.ts (2), ./channels-signature.ts (2b), ./channels-parallel.ts (3),
// ./channels-report.ts (what is printed).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { M, N, PAYERS, STEP_N, STEP_WARMUP } from './channels-config.ts';
import { httpRounds } from './channels-http.ts';
import { parallelPayers } from './channels-parallel.ts';
import {
  printHttpRounds,
  printParallel,
  printPayee,
  printSignatureCheck,
  printSteps,
  printWhereTimeGoes,
  resultOf,
} from './channels-report.ts';
import { openRig } from './channels-rig.ts';
import { payeeGain, startServers } from './channels-servers.ts';
import { signatureCheckAlone } from './channels-signature.ts';
import { stepByStep } from './channels-steps.ts';
import { benchRun, paidBenchStart } from './run.ts';

const { tmp, dist, stops, cleanup } = benchRun('channels');

try {
  if (!(Number.isInteger(N) && N >= 1))
    throw new Error(
      `BENCH_VOUCHERS must be a whole number of voucher-paid requests ≥ 1, got '${process.env.BENCH_VOUCHERS}'`,
    );
  if (!(Number.isInteger(M) && M >= 1))
    throw new Error(
      `BENCH_PARALLEL_CALLS must be a whole number of calls per payer ≥ 1, got '${process.env.BENCH_PARALLEL_CALLS}'`,
    );
  const { shards, entry } = paidBenchStart(tmp, dist);
  const servers = await startServers(entry, shards, join(tmp, 'server-channels'), stops);
  const { chain } = servers;

  // Everything the payee is owed from here on: each gate-on channel's charged total, and each exact payment.
  const payeeBefore = await chain.balanceOf(chain.payee);

  // The voucher path in this process, on a channel of its own: the scheme's check timed alone in the HTTP rounds, step
  // by step after, the signature check alone last.
  const rig = await openRig(chain, shards, servers.facilitatorUrl, join(tmp, 'in-process-channels'));
  stops.push(rig.close);

  // ---- 1. HTTP: voucher, gate off, exact; and the scheme's check alone ----
  const http = await httpRounds(servers, rig);
  printHttpRounds(http);

  // ---- 2. step by step, in process ----
  console.log(
    `\nstep by step, in this process (no socket; median of ${STEP_N} each after ${STEP_WARMUP} warm-up; a ` +
      `channel journal in a temp dir; the chain's facilitator in process, called by the deposit only):`,
  );
  const steps = await stepByStep(rig);
  if (steps.facilitatorCalls !== 0)
    throw new Error(`${steps.facilitatorCalls} facilitator call(s) during the in-process vouchers`);
  printSteps(steps);

  // ---- 2b. the signature check timed alone ----
  const signature = await signatureCheckAlone(rig);
  printSignatureCheck(signature);
  const goal = printWhereTimeGoes(http, steps);

  // ---- 3. 32 payers in parallel ----
  console.log(
    `\n${PAYERS} payers in parallel, each on its own channel, through the official client (@x402/fetch, ` +
      `globalThis.fetch): a deposit call each, then ${M} calls each`,
  );
  const parallel = await parallelPayers(servers);
  printParallel(parallel);
  const { errors, doubleCharges } = parallel.parallel;

  // ---- the payee's gain, once the gate-on server has claimed what it holds ----
  const gain = await payeeGain(servers, payeeBefore, http.charged + parallel.charged, http.exactPaid);
  printPayee(gain, chain.payee);
  const { payee } = gain;

  if (process.env.BENCH_JSON)
    writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify(resultOf(http, steps, signature, goal, parallel.parallel, payee), null, 1),
    );
  // Reported as a goal (bench/all.ts), not thrown: the run's other results stand either way.
  const parallelMet = errors === 0 && doubleCharges === 0 && payee.exact && payee.journalAgrees;
  console.log(
    `${PAYERS} payers: ${errors} errors, ${doubleCharges} double charges, the payee ` +
      `gained ${payee.exact ? 'exactly' : 'NOT exactly'} the charged total: ${parallelMet ? 'MET' : 'MISSED'}`,
  );
} catch (e) {
  await cleanup();
  throw e;
}
await cleanup();
