// What the x402 benchmark (bench/x402.ts) reports once its rounds are run: each target's times against the gate off,
// the parts of a paid round trip and the settle floor, the gate's own work in process; and the results as written to
// BENCH_JSON (bench/all.ts reads them).
import { writeFileSync } from 'node:fs';
import { N, OWN_N, PREMIUM } from './x402-config.ts';
import type { Parts, RoundRecord, Target } from './x402-timing.ts';
import { mean, median, p99 } from './stats.ts';

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface X402Result {
  payments: number;
  rows: { label: string; n: number; median: number; p99: number; mean: number }[];
  parts: Record<string, Record<string, number>>;
  own: { challenge: number; paid: number; off: number };
  /**
   * Medians (ms) of the paid request → 200 headers leg and of the facilitator's settle called directly, in the same
   * run.
   */
  settleFloor: { paidLeg: number; directSettle: number };
}

/** The rounds measured: the targets, what each recorded, and which one is the facilitator's settle called directly. */
export interface Rounds {
  targets: Target[];
  record: RoundRecord;
  settleDirect: Target;
}

const ms = (x: number) => x.toFixed(1);

const PART_ROWS: [string, (p: Parts) => number][] = [
  ['1. unpaid request → 402 headers', (p) => p.challengeLeg],
  ['2. client: read 402, sign EIP-3009', (p) => p.sign],
  ['3. paid request → 200 headers', (p) => p.paidLeg],
  ['   of which facilitator settle', (p) => p.settle],
  ['   the rest: server, facilitator HTTP', (p) => p.paidLeg - p.settle],
  ['4. read the 200 body', (p) => p.body],
];

/** The indexes of the paid requests among the targets. */
export const paidIndexes = (targets: Target[]) => targets.flatMap((t, i) => (t.label.startsWith('paid') ? [i] : []));

/**
 * Prints each target's times against the gate off and the paid round trip by part, then the settle floor, which it
 * returns.
 */
export function printRounds({ targets, record, settleDirect }: Rounds): X402Result['settleFloor'] {
  const offMedian = (path: string) => median(record.ms[targets.findIndex((t) => t.label === `gate off ${path}`)]);
  console.log(
    `\n${'target'.padEnd(40)} ${'n'.padStart(5)} ${'median ms'.padStart(10)} ${'p99 ms'.padStart(8)} ` +
      `${'mean ms'.padStart(8)}  ` +
      `median vs gate off`,
  );
  for (const [i, t] of targets.entries()) {
    const xs = record.ms[i];
    console.log(
      `${t.label.padEnd(40)} ${String(xs.length).padStart(5)} ${ms(median(xs)).padStart(10)} ` +
        `${ms(p99(xs)).padStart(8)} ${ms(mean(xs)).padStart(8)}  ` +
        `${(median(xs) / offMedian(t.path)).toFixed(1).padStart(6)}×`,
    );
  }
  console.log(`p99 is the nearest rank${N < 100 ? ` (with n = ${N} < 100 it is the maximum)` : ''}.`);

  console.log(
    "\npaid round trip, by part (median ms of each part; the parts' medians need not add up to the total's):",
  );
  const paidIdx = paidIndexes(targets);
  console.log(`${'part'.padEnd(40)} ${paidIdx.map((i) => targets[i].path.padStart(26)).join('')}`);
  for (const [label, part] of PART_ROWS)
    console.log(
      `${label.padEnd(40)} ${paidIdx.map((i) => ms(median(record.parts[i].map(part))).padStart(26)).join('')}`,
    );
  console.log('settle is timed inside the facilitator (this process), without its loopback HTTP.');
  const paidLeg = median(record.parts[0].map((p) => p.paidLeg));
  const directSettle = median(record.ms[targets.indexOf(settleDirect)]);
  console.log(
    `\npaid request → 200 headers ${ms(paidLeg)} ms against the facilitator's own settle called ` +
      `directly ${ms(directSettle)} ms (same run, same loopback HTTP): ` +
      `the server adds ${ms(paidLeg - directSettle)} ms (goal: within 3 ms)`,
  );
  return { paidLeg, directSettle };
}

/** Prints the gate's own work, in process. */
export function printOwnWork(own: X402Result['own']): void {
  console.log(`\nthe gate's own work, in process (dispatch, no socket; median of ${OWN_N} of each, ${PREMIUM}):`);
  console.log(`  402 challenge                                ${own.challenge.toFixed(3)} ms`);
  console.log(`  paid, facilitator a MOCK answering at once   ${own.paid.toFixed(3)} ms`);
  console.log(`  gate off (the answer, kept once computed)    ${own.off.toFixed(3)} ms`);
  console.log(
    `  so the gate's own part of a paid request: ${(own.paid - own.off).toFixed(3)} ms; the rest of part 3 is ` +
      `the facilitator's HTTP and the sockets`,
  );
}

/** Writes the results to the file BENCH_JSON names, if it names one. */
export function writeResult(
  { targets, record }: Rounds,
  own: X402Result['own'],
  settleFloor: X402Result['settleFloor'],
): void {
  if (process.env.BENCH_JSON) {
    const byPart = Object.fromEntries(
      paidIndexes(targets).map((i) => [
        targets[i].path,
        Object.fromEntries(PART_ROWS.map(([label, part]) => [label.trim(), median(record.parts[i].map(part))])),
      ]),
    );
    const rows = targets.map((t, i) => ({
      label: t.label,
      n: record.ms[i].length,
      median: median(record.ms[i]),
      p99: p99(record.ms[i]),
      mean: mean(record.ms[i]),
    }));
    const report: X402Result = { payments: N, rows, parts: byPart, own, settleFloor };
    writeFileSync(process.env.BENCH_JSON, JSON.stringify(report, null, 1));
  }
}
