// Compares two running servers byte for byte: the same corpus of raw requests (scripts/compare-corpus*.ts) is
// written to each over bare sockets, and their answers compared whole, status line, headers in order and body
// with its framing and coding, so that a refactor can show its behaviour unchanged (docs/design.md §21). Only the
// Date and each server's own host:port are taken out: the two listen on different ports. Both must serve the same
// data with the payment gate off (npm start's default). One line per differing case, then the counts; exits 1 when
// any differ.
//
//   npm run compare:servers -- --old http://127.0.0.1:4401 --new http://127.0.0.1:4402
//   [--only <text>]        only the cases whose name contains it
//   [--ignore-file-times]  two builds: the files served from disk carry their own build's times
//   [--list]               print every case, same or not
import { parseArgs } from 'node:util';
import { routeCases } from './compare-corpus.ts';
import { edgeCases } from './compare-corpus-edges.ts';
import { mcpCases } from './compare-corpus-mcp.ts';
import { type Case, type Normalise, type Target, clip, compareExchanges, exchange } from './compare-wire.ts';

const USAGE =
  'usage: compare-servers --old http://127.0.0.1:PORT --new http://127.0.0.1:PORT2 ' +
  '[--only text] [--ignore-file-times] [--list]';

function targetOf(base: string | undefined, what: string, before?: Map<string, Buffer>): Target {
  if (!base) throw new Error(`--${what} is missing\n${USAGE}`);
  const url = new URL(base);
  if (url.protocol !== 'http:') throw new Error(`--${what}: only http:// is compared (the bytes on a plain socket)`);
  const port = Number(url.port || 80);
  const answers = new Map<string, Buffer>();
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { hostname, port, host: url.host, answers, before: before ?? answers };
}

/** Every case, each name once: a conditional case finds the answer it echoes by name. */
function corpus(): Case[] {
  const cases = [...routeCases(), ...edgeCases(), ...mcpCases()];
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`two cases named ${c.name}`);
    seen.add(c.name);
  }
  return cases;
}

const oneLine = (text: string, max = 400) => clip(text.replace(/[\r\n]+/g, ' '), max);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      old: { type: 'string' },
      new: { type: 'string' },
      only: { type: 'string' },
      'ignore-file-times': { type: 'boolean' },
      list: { type: 'boolean' },
    },
  });
  const older = targetOf(values.old, 'old');
  const newer = targetOf(values.new, 'new', older.answers);
  const normalise: Normalise = { hosts: [older.host, newer.host], fileTimes: values['ignore-file-times'] ?? false };
  const cases = corpus().filter((c) => !values.only || c.name.includes(values.only));
  console.log(`old ${older.host}, new ${newer.host}: ${cases.length} cases, each on its own connection unless it is`);
  console.log('  about the connection.');
  console.log(`Ignored: the Date header. Each server is sent its own Host (${older.host}, ${newer.host}); where an`);
  console.log("  answer repeats it, the origin is normalised: the new server's read as the old's, or each read as one");
  console.log('  placeholder (headers and bodies, a compressed or chunked body decoded to do so). Both must be built');
  console.log('  with the same SITE_URL.');
  if (normalise.fileTimes)
    console.log('Ignored too (--ignore-file-times): Last-Modified and the time in the weak ETag of a file from disk.');
  let same = 0;
  let decoded = 0;
  let hostRead = 0;
  const differ: string[] = [];
  const statuses = new Map<string, number>();
  for (const c of cases) {
    // In turn, the old server first: what one server keeps after an answer (a priced answer, an MCP answer) the other
    // keeps at the same point of the corpus.
    const a = await exchange(older, c);
    const b = await exchange(newer, c);
    older.answers.set(c.name, a.answers[0] ?? a.rest);
    newer.answers.set(c.name, b.answers[0] ?? b.rest);
    for (const answer of a.answers) {
      const status = answer.toString('latin1', 9, 12);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const verdict = compareExchanges(a, b, normalise);
    if (verdict.same) {
      same++;
      if (verdict.decoded) decoded++;
      if (verdict.hostRead) hostRead++;
      if (values.list) console.log(`same    ${oneLine(c.name, 160)}`);
      continue;
    }
    differ.push(c.name);
    console.log(`differ  ${oneLine(c.name, 160)}: ${oneLine(verdict.diff ?? '')}`);
  }
  // What the corpus reached: a comparison of nothing but errors would prove little.
  const reached = [...statuses]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([s, k]) => `${s} ×${k}`)
    .join(', ');
  console.log(`The old server's answers by status: ${reached}`);
  console.log(`Same only once the origin was normalised: ${hostRead} case(s), ${decoded} in a compressed body.`);
  console.log(`${same} same, ${differ.length} differ`);
  return differ.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(e.message);
    process.exit(2);
  },
);
