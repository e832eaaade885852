// The two habits prettier cannot keep, checked over the served and run code (api/, domain/, ingest/,
// server/, src/, bench/, scripts/, server.ts, astro.config.mjs): no line over 120 characters (prettier wraps
// code, not comments or strings), and no comment citing an issue number (an issue is closed and forgotten
// long before the code is: a comment gives the reason instead). Prints each offending line as
// file:line: what; exits 1 if there is any. `npm run lint` runs it.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const MAX = 120;
const PLACES = ['api', 'domain', 'ingest', 'server', 'src', 'bench', 'scripts', 'server.ts', 'astro.config.mjs'];
const TEXT = /\.(ts|mjs|js|astro|css|sh|md|txt)$/;
const ISSUE = /\bissues? \d+/i;

function filesOf(place) {
  const path = join(ROOT, place);
  try {
    return readdirSync(path, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && TEXT.test(e.name))
      .map((e) => relative(ROOT, join(e.parentPath, e.name)));
  } catch {
    return TEXT.test(place) ? [place] : [];
  }
}

const found = [];
for (const file of PLACES.flatMap(filesOf)) {
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const length = [...line].length;
      if (length > MAX) found.push(`${file}:${i + 1}: ${length} characters (at most ${MAX})`);
      if (ISSUE.test(line)) found.push(`${file}:${i + 1}: cites an issue number: ${line.trim()}`);
    });
}
for (const line of found) console.log(line);
if (found.length) {
  console.log(`check-line-length: ${found.length} line(s) to fix`);
  process.exit(1);
}
