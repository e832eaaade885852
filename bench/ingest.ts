// `npm run bench:ingest`: times the ingest (parse, validate, vintages, roll-ups, shards, atomic write)
// on the real data and on a SYNTHETIC corpus generated at realistic scale: 15 states × 150 lines ×
// 20 years of months × 3 vintages. Each corpus runs in its own child process, so peak memory (max RSS)
// is that corpus's alone. Prints ms per 1,000 figures and peak memory. Not a test: it asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildShards } from '../ingest/build.ts';
import { generateSynthetic } from './synthetic.ts';

const STATES = ['AZ', 'CA', 'FL', 'ID', 'IL', 'MN', 'MS', 'NC', 'NV', 'NY', 'OR', 'PA', 'TX', 'UT', 'WA'];
const LINES = 150;
const YEARS = 20;
const VINTAGES = 3;

/** One child run: build `dataDir` `runs` times, report the median time and this process's peak RSS. */
function child(dataDir: string, runs: number): void {
  const out = join(mkdtempSync(join(tmpdir(), 'slmd-bench-out-')), 'shards');
  const times: number[] = [];
  // A warm-up build first, except for a single-run corpus (the synthetic one is large enough).
  let result = runs > 1 ? buildShards(dataDir, out) : undefined;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = buildShards(dataDir, out);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  rmSync(out, { recursive: true, force: true });
  console.log(JSON.stringify({ ...result, medianMs: times[Math.floor(times.length / 2)], maxRssKiB: process.resourceUsage().maxRSS }));
}

function run(label: string, dataDir: string, runs: number) {
  const out = execFileSync(process.execPath, [import.meta.filename, '--child', dataDir, String(runs)], { maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  const r = JSON.parse(out.toString().trim().split('\n').at(-1)!);
  const perK = r.medianMs / (r.figures / 1000);
  console.log(
    `${label.padEnd(34)} ${String(r.figures).padStart(9)} figures  ${r.medianMs.toFixed(0).padStart(7)} ms  ` +
      `${perK.toFixed(3).padStart(7)} ms/1k figures  peak RSS ${(r.maxRssKiB / 1024).toFixed(0).padStart(5)} MiB  ` +
      `${r.files} shard files, ${(r.bytes / 1048576).toFixed(1)} MiB`,
  );
}

if (process.argv[2] === '--child') {
  child(process.argv[3], Number(process.argv[4]));
} else {
  console.log(`ingest benchmark (real data: median of 5 builds after a warm-up; synthetic: one build; node ${process.version})`);
  run('real data (data/)', resolve('data'), 5);
  const dir = mkdtempSync(join(tmpdir(), 'slmd-synthetic-'));
  const t = performance.now();
  generateSynthetic(dir, { states: STATES, lines: LINES, years: YEARS, vintages: VINTAGES });
  console.log(`(generated the SYNTHETIC corpus in ${((performance.now() - t) / 1000).toFixed(1)} s: ${STATES.length} states × ${LINES} lines × ${YEARS * 12} months × ${VINTAGES} vintages)`);
  run('SYNTHETIC 15×150×240 months×3', dir, 1);
  rmSync(dir, { recursive: true, force: true });
}
