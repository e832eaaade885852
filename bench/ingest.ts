// `npm run bench:ingest`: times the ingest (read and check, vintages, roll-ups, shards, atomic write) on
// the real data and on SYNTHETIC corpora at 1×, 2× and 4× a realistic scale. 1× is 15 states × 150 lines
// × 20 years of months × 3 vintages (3.2 M figures); a larger corpus has more states of that same size,
// so its largest state, which bounds the ingest's memory (it builds one state at a time), is the same:
// peak memory should stay flat and time per 1,000 figures stay the same. Each corpus is built in its own
// child process, so peak memory (max RSS) is that corpus's alone, and is deleted after. Not a test: it
// asserts nothing.
//   BENCH_INGEST_SCALES  the scales to run, e.g. `1` for a quick run (default `1,2,4`)
//   BENCH_JSON a file to write the results to, as { corpora: [{ label, figures, ms, msPer1k, peakRssMiB, files, bytes
//   }] }
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildShards } from '../ingest/build.ts';
import { generateSynthetic, syntheticStates } from './synthetic.ts';

const STATES = 15;
const LINES = 150;
const YEARS = 20;
const VINTAGES = 3;
const SCALES = (process.env.BENCH_INGEST_SCALES ?? '1,2,4').split(',').map(Number);
if (!SCALES.length || SCALES.some((s) => !Number.isInteger(s) || s < 1))
  throw new Error(
    `BENCH_INGEST_SCALES: expected whole numbers from 1, such as 1,2,4; got '${process.env.BENCH_INGEST_SCALES}'`,
  );

/** One corpus's result, as printed and as written to BENCH_JSON (bench/all.ts reads it). */
export interface Corpus {
  label: string;
  figures: number;
  ms: number;
  msPer1k: number;
  peakRssMiB: number;
  files: number;
  bytes: number;
}

/** One child run: build `dataDir` `runs` times, report the median time and this process's peak RSS. */
function child(dataDir: string, runs: number): void {
  const out = join(mkdtempSync(join(tmpdir(), 'slmd-bench-out-')), 'shards');
  const times: number[] = [];
  // A warm-up build first, except for a single-run corpus (the synthetic ones are large enough).
  let result = runs > 1 ? buildShards(dataDir, out) : undefined;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = buildShards(dataDir, out);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  rmSync(join(out, '..'), { recursive: true, force: true });
  console.log(
    JSON.stringify({
      ...result,
      medianMs: times[Math.floor(times.length / 2)],
      maxRssKiB: process.resourceUsage().maxRSS,
    }),
  );
}

function run(label: string, dataDir: string, runs: number): Corpus {
  const out = execFileSync(process.execPath, [import.meta.filename, '--child', dataDir, String(runs)], {
    maxBuffer: 1 << 26,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const r = JSON.parse(out.toString().trim().split('\n').at(-1)!) as {
    figures: number;
    medianMs: number;
    maxRssKiB: number;
    files: number;
    bytes: number;
  };
  const corpus = {
    label,
    figures: r.figures,
    ms: Math.round(r.medianMs),
    msPer1k: r.medianMs / (r.figures / 1000),
    peakRssMiB: Math.round(r.maxRssKiB / 1024),
    files: r.files,
    bytes: r.bytes,
  };
  console.log(
    `${label.padEnd(38)} ${String(corpus.figures).padStart(9)} figures  ${String(corpus.ms).padStart(7)} ms  ` +
      `${corpus.msPer1k.toFixed(3).padStart(7)} ms/1k figures  peak RSS ${String(corpus.peakRssMiB).padStart(5)} ` +
      `MiB  ` +
      `${corpus.files} shard files, ${(corpus.bytes / 1048576).toFixed(1)} MiB`,
  );
  return corpus;
}

function synthetic(scale: number): Corpus {
  const states = syntheticStates(STATES * scale);
  const dir = mkdtempSync(join(tmpdir(), 'slmd-synthetic-'));
  try {
    const t = performance.now();
    generateSynthetic(dir, { states, lines: LINES, years: YEARS, vintages: VINTAGES });
    console.log(
      `(generated the ${scale}× SYNTHETIC corpus in ${((performance.now() - t) / 1000).toFixed(1)} ` +
        `s: ${states.length} states × ${LINES} lines × ${YEARS * 12} months × ${VINTAGES} vintages)`,
    );
    return run(`SYNTHETIC ${scale}×: ${states.length}×${LINES}×${YEARS * 12} months×${VINTAGES}`, dir, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3], Number(process.argv[4]));
} else {
  console.log(
    `ingest benchmark (real data: median of 5 builds after a warm-up; synthetic: one build each; ` +
      `node ${process.version})`,
  );
  const corpora = [run('real data (data/)', resolve('data'), 5), ...SCALES.map(synthetic)];
  const base = corpora.find((c) => c.label.startsWith('SYNTHETIC 1×'));
  if (base)
    for (const c of corpora.filter((c) => c.label.startsWith('SYNTHETIC') && c !== base))
      console.log(
        `${c.label.split(':')[0]} against 1×: ${(c.figures / base.figures).toFixed(1)}× the ` +
          `figures, ${(c.msPer1k / base.msPer1k).toFixed(2)}× the time per ` +
          `figure, ${(c.peakRssMiB / base.peakRssMiB).toFixed(2)}× the peak memory`,
      );
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify({ corpora }, null, 2) + '\n');
}
