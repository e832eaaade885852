// `npm run bench:ingest`: times the ingest (parse, validate, vintages, roll-ups, shards, atomic write)
// on the real data and on a SYNTHETIC corpus generated at realistic scale: 15 states × 150 lines ×
// 20 years of months × 3 vintages. Each corpus runs in its own child process, so peak memory (max RSS)
// is that corpus's alone. Prints ms per 1,000 figures and peak memory. Not a test: it asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildShards } from '../ingest/build.ts';

const STATES = ['AZ', 'CA', 'FL', 'ID', 'IL', 'MN', 'MS', 'NC', 'NV', 'NY', 'OR', 'PA', 'TX', 'UT', 'WA'];
const LINES = 150;
const YEARS = 20;
const VINTAGES = 3;
const CATEGORIES = ['Commercial Property', 'Personal Property', 'General Liability', 'Excess & Umbrella', 'Cyber'];

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

/** Writes the synthetic corpus: every monthly report prints its month and restates the two before. */
function generate(dir: string): void {
  const synthetic = '# SYNTHETIC benchmark data: invented figures, never served or committed\n';
  mkdirSync(join(dir, 'lines'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), synthetic);
  writeFileSync(
    join(dir, 'states.csv'),
    'code,name,stamping_office,acronym,name_confirmed,website,office_source_url\n' +
      STATES.map((s) => `${s},Synthetic ${s},SYNTHETIC benchmark office ${s},,unconfirmed,,https://example.invalid/${s}`).join('\n') + '\n',
  );
  writeFileSync(join(dir, 'categories.csv'), 'category,description\n' + CATEGORIES.map((c) => `${c},synthetic`).join('\n') + '\n');
  const ids: string[] = ['id,state,source_code'];
  let id = 1;
  for (const s of STATES) {
    const rows = ['source_code,name,category,source_url,note'];
    for (let l = 0; l < LINES; l++) {
      rows.push(`${1000 + l},Synthetic line ${l},${CATEGORIES[l % CATEGORIES.length]},https://example.invalid,SYNTHETIC`);
      ids.push(`${id++},${s},${1000 + l}`);
    }
    writeFileSync(join(dir, 'lines', `${s}.csv`), rows.join('\n') + '\n');
  }
  writeFileSync(join(dir, 'line-ids.csv'), ids.join('\n') + '\n');
  const months: [number, number][] = [];
  for (let y = 2006; y < 2006 + YEARS; y++) for (let m = 1; m <= 12; m++) months.push([y, m]);
  const key = ([y, m]: [number, number]) => `${y}-${String(m).padStart(2, '0')}`;
  for (const s of STATES) {
    const pubDir = join(dir, 'publications', s.toLowerCase());
    mkdirSync(pubDir, { recursive: true });
    months.forEach((month, i) => {
      const [y, m] = month;
      const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
      const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
      const rows = [
        synthetic.trim(),
        `# publisher: SYNTHETIC`, `# source: SYNTHETIC ${s}`, `# title: SYNTHETIC ${key(month)}`,
        `# url: https://example.invalid/${s}/${key(month)}`, `# report_date: ${next}`,
        `# report_date_basis: estimated: synthetic`, `# data_as_of: ${last}`,
        'state,period,line,county,insurer,metric,value,qualifier,note',
      ];
      for (let v = 0; v < VINTAGES && i - v >= 0; v++) {
        const period = key(months[i - v]);
        const bump = 1 + v * 0.001; // each restatement moves the figures a little
        for (let l = 0; l < LINES; l++) {
          rows.push(`${s},${period},${1000 + l},,,premium,${(123456.78 * (l + 1) * bump + i).toFixed(2)},,`);
          rows.push(`${s},${period},${1000 + l},,,policies,${(Math.round(1001 * (l + 1) * bump) + i) * 10 + 7},,`); // printed to the unit
        }
      }
      writeFileSync(join(pubDir, `${key(month)}.csv`), rows.filter((r) => !r.startsWith('# SYNTHETIC')).join('\n') + '\n');
    });
  }
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
  generate(dir);
  console.log(`(generated the SYNTHETIC corpus in ${((performance.now() - t) / 1000).toFixed(1)} s: ${STATES.length} states × ${LINES} lines × ${YEARS * 12} months × ${VINTAGES} vintages)`);
  run('SYNTHETIC 15×150×240 months×3', dir, 1);
  rmSync(dir, { recursive: true, force: true });
}
