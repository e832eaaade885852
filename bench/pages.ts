// `npm run bench:pages`: builds the site from the embedded data into a private folder and prints the
// weight of every page for people: HTML plus the stylesheets it links, uncompressed (the budget:
// a month page under 150 KB). Not a test: it prints the sizes and names any page over the budget.
// With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers them).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface PagesResult {
  budget: number;
  home: number;
  index: number;
  months: { count: number; smallest: number; median: number; largest: number; largestPath: string };
  over: string[];
}

const BUDGET = 150 * 1024;
const out = resolve('.tmp', 'bench-pages');
execFileSync('npx', ['astro', 'build'], {
  env: { ...process.env, ASTRO_OUT_DIR: out, ASTRO_TELEMETRY_DISABLED: '1' },
  stdio: 'ignore',
});
const client = existsSync(join(out, 'client')) ? join(out, 'client') : out;

/**
 * Bytes of a page's HTML and of its CSS: the stylesheets it links (each counted on every page that links
 * it) and its inline <style> (Astro inlines a small stylesheet), which is then not counted as HTML.
 */
function weight(htmlPath: string): { html: number; css: number } {
  const html = readFileSync(htmlPath);
  const text = html.toString('utf8');
  const sheets = [...text.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const linked = sheets.reduce((n, href) => n + readFileSync(join(client, href.replace(/^\//, ''))).length, 0);
  const inline = [...text.matchAll(/<style[^>]*>[\s\S]*?<\/style>/g)].reduce((n, m) => n + Buffer.byteLength(m[0]), 0);
  return { html: html.length - inline, css: linked + inline };
}

const kb = (n: number) => (n / 1024).toFixed(1).padStart(6);
const pages = [
  ['/', 'index.html'],
  ['/snapshots/', 'snapshots/index.html'],
  ...readdirSync(join(client, 'snapshots'))
    .filter((d) => /^\d{4}-\d{2}$/.test(d))
    .sort()
    .map((d) => [`/snapshots/${d}/`, `snapshots/${d}/index.html`]),
];
const rows = pages.map(([path, file]) => ({ path, ...weight(join(client, file)) }));
console.log('page                    HTML KB  CSS KB  total KB');
for (const r of rows) console.log(`${r.path.padEnd(22)} ${kb(r.html)}  ${kb(r.css)}  ${kb(r.html + r.css)}`);
const months = rows
  .filter((r) => /\d{4}-\d{2}/.test(r.path))
  .map((r) => r.html + r.css)
  .sort((a, b) => a - b);
console.log(
  `\n${months.length} month pages: smallest ${kb(months[0])} KB, ` +
    `median ${kb(months[Math.floor(months.length / 2)])} KB, largest ${kb(months.at(-1)!)} KB ` +
    `(budget ${BUDGET / 1024} KB)`,
);
const over = rows.filter((r) => r.html + r.css >= BUDGET);
console.log(over.length ? `OVER BUDGET: ${over.map((r) => r.path).join(', ')}` : 'every page is under the budget');
if (process.env.BENCH_JSON) {
  const weightOf = (path: string) => rows.find((r) => r.path === path)!;
  const total = (r: { html: number; css: number }) => r.html + r.css;
  const largest = rows.filter((r) => /\d{4}-\d{2}/.test(r.path)).sort((a, b) => total(b) - total(a))[0];
  const report: PagesResult = {
    budget: BUDGET,
    home: total(weightOf('/')),
    index: total(weightOf('/snapshots/')),
    months: {
      count: months.length,
      smallest: months[0],
      median: months[Math.floor(months.length / 2)],
      largest: months.at(-1)!,
      largestPath: largest.path,
    },
    over: over.map((r) => r.path),
  };
  writeFileSync(process.env.BENCH_JSON, JSON.stringify(report));
}
