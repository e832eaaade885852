// The report step of `npm run bench` (bench/all.ts): docs/benchmarks.md's sections, one for each benchmark, each
// written from the results its benchmark wrote to BENCH_JSON, with the goal lines it adds to the page's last section.
import { cpus, release, totalmem, type as osType } from 'node:os';
import type { ApiReport, ApiResult } from './api.ts';
import type { ChannelsResult } from './channels-result.ts';
import type { ColdResult } from './cold.ts';
import type { GasResult } from './gas-report.ts';
import type { Corpus } from './ingest.ts';
import type { PagesResult } from './pages.ts';
import type { X402Result } from './x402-report.ts';

/** A section of docs/benchmarks.md, and the lines it adds to the list of goals met or missed. */
export interface Section {
  md: string[];
  goals: string[];
}

/** Total bytes and number of files under a folder. */
export interface Size {
  bytes: number;
  files: number;
}

/** The builds on the real data, timed: what `npm run build` and `npm run build:vercel` do. */
export interface Builds {
  ingestMs: number;
  nodeBuildMs: number;
  vercelBuildMs: number;
  /** The Vercel function and the static files the CDN serves. */
  fn: Size;
  staticFiles: Size;
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The page's title and what it was measured on: the date, the commit, the machine. */
export function header(started: Date, commit: string, dirty: boolean): string[] {
  const md: string[] = [];
  md.push('# Benchmarks', '');
  md.push(
    `Written by \`npm run bench\` (bench/all.ts) on ${started.toISOString().slice(0, 10)}; do not edit by hand.`,
    '',
  );
  md.push(
    `- **Commit:** \`${commit}\`${dirty ? ' **with uncommitted changes**' : ' (clean working tree)'}`,
    `- **Machine:** ${cpus().length} ` +
      `× ${cpus()[0]?.model ?? 'unknown CPU'}, ${mib(totalmem()).replace(' MiB', '')} MiB ` +
      `RAM, ${osType()} ${release()}`,
    `- **Node:** ${process.version}`,
    `- **Started:** ${started.toISOString()}; finished ${new Date().toISOString()}`,
    '',
  );
  return md;
}

/**
 * A throughput goal's line; for a miss, what was measured about its cause: the spread of the rounds'
 * ratios, how much the ceiling itself varied from round to round (the host slowing the machine), and
 * each server's CPU time per request (its own work, whatever the bottleneck).
 */
function apiGoal(r: ApiResult, goal: number): string {
  const line =
    `${r.label} at ${r.connections} connections: ${r.ratio.toFixed(2)}× the ceiling (goal ≥ ${goal.toFixed(2)}×), ` +
    `p99 ${r.p99} ms against the ceiling's ${r.ceilingP99} ms${r.p99Goal === false ? '' : ' (goal ≤ 2×)'}.`;
  if (r.met) return `Met: ${line}`;
  const [low, high] = [Math.min(...r.rounds), Math.max(...r.rounds)];
  const [slow, fast] = [Math.min(...r.ceilingRounds), Math.max(...r.ceilingRounds)];
  const cpu =
    r.cpuUsPerRequest !== null && r.ceilingCpuUsPerRequest !== null
      ? ` CPU per request: ${r.cpuUsPerRequest.toFixed(0)} µs against the ` +
        `ceiling's ${r.ceilingCpuUsPerRequest.toFixed(0)} µs ` +
        `(${(r.cpuUsPerRequest / r.ceilingCpuUsPerRequest).toFixed(2)}×).`
      : '';
  return (
    `**Missed**: ${line} Measured: the rounds' ratios ran from ${low.toFixed(2)} ` +
    `to ${high.toFixed(2)}${high >= goal ? ', on both sides of the goal' : ''}; ` +
    `the ceiling itself answered from ${slow.toFixed(0)} to ${fast.toFixed(0)} req/s from round to round ` +
    `(${(fast / slow).toFixed(2)}× apart on identical work).${cpu}`
  );
}

export function apiSection(api: ApiReport): Section {
  const md: string[] = [];
  const goals: string[] = [];
  md.push('## API against the ceiling', '');
  md.push(
    `Each route of the built Node server (\`server.ts\`) against the ceiling, the raw limit: a \`node:net\` ` +
      `server that only finds where each request ends and writes the very bytes the built server wrote for it, ` +
      `status line and headers included (bench/ceiling-server.ts), in the same run, rounds alternating ` +
      `(${api.rounds} rounds of ${api.seconds} s, medians). Corpus: ${api.corpus}. Payment gate off. The load ` +
      `generator (autocannon) runs on the same 2-core machine, so when it, not the server, is the bottleneck the ` +
      `ratio nears 1; the CPU time each server process spent per request answered (from /proc) shows the server's ` +
      `own work whatever the bottleneck. Latencies in ms.`,
    '',
    '| connections | request | bytes | req/s | ceiling req/s | ratio | p50 | p99 | ceiling p99 | CPU µs a ' +
      'request | ceiling CPU µs | ratio per round | goal |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  );
  for (const r of api.results) {
    const goal =
      r.goal === null
        ? 'none set'
        : `≥ ${r.goal.toFixed(2)}×${r.p99Goal === false ? '' : ', p99 ≤ 2× ceiling'}: **${r.met ? 'met' : 'missed'}**`;
    md.push(
      `| ${r.connections} | ${r.label} | ${r.bytes} | ${r.reqs.toFixed(0)} | ${r.ceilingReqs.toFixed(0)} ` +
        `| ${r.ratio.toFixed(2)}× | ${r.p50} | ${r.p99} | ${r.ceilingP99} ` +
        `| ${r.cpuUsPerRequest?.toFixed(0) ?? '-'} | ${r.ceilingCpuUsPerRequest?.toFixed(0) ?? '-'} ` +
        `| ${r.rounds.map((x) => x.toFixed(2)).join(', ')} | ${goal} |`,
    );
    if (r.goal !== null) goals.push(apiGoal(r, r.goal));
  }
  md.push('');
  return { md, goals };
}

export function x402Section(x402: X402Result): Section {
  const md: string[] = [];
  const goals: string[] = [];
  md.push('## Paid round trip (x402, local chain)', '');
  md.push(
    `The official client (@x402/fetch) against the built server with the gate on, a facilitator on loopback ` +
      `settling on anvil (Base's chain id, an EIP-3009 test token at the USDC address); ${x402.payments} paid ` +
      `requests per route, one at a time. Times in ms.`,
    '',
    '| request | n | median | p99 | mean |',
    '|---|---:|---:|---:|---:|',
  );
  for (const r of x402.rows)
    md.push(`| ${r.label} | ${r.n} | ${r.median.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.mean.toFixed(1)} |`);
  const routes = Object.keys(x402.parts);
  md.push(
    '',
    `Parts of a paid request (median ms of each part; medians need not add up):`,
    '',
    `| part | ${routes.join(' | ')} |`,
    `|---|${routes.map(() => '---:').join('|')}|`,
  );
  for (const part of Object.keys(x402.parts[routes[0]]))
    md.push(`| ${part} | ${routes.map((r) => x402.parts[r][part].toFixed(1)).join(' | ')} |`);
  md.push(
    '',
    `The gate's own work, in process (no socket, median of 500): a 402 ` +
      `challenge ${x402.own.challenge.toFixed(3)} ms; a paid request with a MOCK facilitator answering at ` +
      `once ${x402.own.paid.toFixed(3)} ms, against ${x402.own.off.toFixed(3)} ms for the same answer with the ` +
      `gate off (priced answers are kept once computed, api/priced.ts): the gate's own part of a paid request ` +
      `is ${(x402.own.paid - x402.own.off).toFixed(3)} ms. The paid path makes no separate verify call: the rest ` +
      `of "paid request → 200 headers", beyond settle, is the facilitator's one HTTP call and the sockets.`,
    '',
  );
  const { paidLeg, directSettle } = x402.settleFloor;
  const settleGap = paidLeg - directSettle;
  goals.push(
    `${settleGap <= 3 ? 'Met' : '**Missed**'}: a paid request → 200 headers ${paidLeg.toFixed(1)} ms against the ` +
      `facilitator's own settle called directly ${directSettle.toFixed(1)} ms in the same run: the server ` +
      `adds ${settleGap.toFixed(1)} ms (goal: within 3 ms).`,
  );
  return { md, goals };
}

/** The channel benchmark's requests, over HTTP and in process, and where a voucher's time goes. */
function channelsRequests(c: ChannelsResult): string[] {
  const md: string[] = [];
  const [voucher, off, challenge] = c.rows;
  const rounds = c.inRounds;
  md.push(
    `\`npm run bench:channels\` (bench/channels.ts): the built server with the gate on (channels in a journal ` +
      `directory) and with it off, on the same shards and the local chain. One payer opens its channel with one ` +
      `paid call through the official client (its deposit), then pays each answer with the next cumulative ` +
      `voucher, signed beforehand; the server checks it locally and records it, no chain or facilitator ` +
      `call. ${c.vouchers} rounds, one request at a time: a voucher-paid request, the same URL with the gate off ` +
      `(kept bytes, through the raw front), an unpaid request to the gate-on server (its 402: the server's path ` +
      `for a guarded request without the payment's work), and every few rounds an \`exact\` payment's paid ` +
      `request (settled on chain before the answer); in the same rounds, in the benchmark's own process (no ` +
      `socket), the scheme's check alone (the project's voucher check in it) and the whole voucher-paid request ` +
      `with its gate-off twin. Times in ms, to the body read; server CPU is the answering process's own CPU time ` +
      `per request (from /proc).`,
    '',
    '| request | n | median | p99 | mean | server CPU a request |',
    '|---|---:|---:|---:|---:|---:|',
    ...c.rows.map(
      (r) =>
        `| ${r.label} | ${r.n} | ${r.median.toFixed(2)} | ${r.p99.toFixed(1)} | ${r.mean.toFixed(2)} ` +
        `| ${r.serverCpuMs === null ? '-' : r.serverCpuMs.toFixed(2)} |`,
    ),
    '',
    `Voucher-paid − gate off: ${c.voucherMinusOff.toFixed(2)} ms, of ` +
      `which ${(challenge.median - off.median).toFixed(2)} ms is the gate-on server's path for a guarded request ` +
      `against the raw front's kept bytes (402 only − gate off) ` +
      `and ${(voucher.median - challenge.median).toFixed(2)} ms the payment and the answer (voucher-paid − 402 ` +
      `only). Exact-paid − gate off: ${c.exactMinusOff.toFixed(2)} ms.`,
    '',
    `Where a voucher's time goes, step by step, in process (no socket; median of ${c.stepN} each, the steps ` +
      `interleaved round by round; a channel journal in a temp dir; the chain's facilitator in process, which no ` +
      `voucher called). Step 4 is the scheme's check alone: @x402/core's resourceServer.verifyPayment on a ` +
      `voucher, which @x402/evm's batch-settlement scheme answers locally with the project's voucher check in ` +
      `its verify hook (api/payment/voucher-hooks.ts): step 4a, the project's check ` +
      `(api/payment/voucher-check.ts: the channel id, computed once per channel config; the signature's form, 65 ` +
      `bytes, low s, v 27 or 28; the EIP-712 digest; native secp256k1 recovery of the signer), then the ` +
      `channel's terms, its balance and its reservation. Steps 4c and 4d are no longer on the voucher path: what ` +
      `the package's own check would cost a voucher in its place (viem's verifyTypedData, and computeChannelId, ` +
      `which it called 3 times a voucher).`,
    '',
    '| step | median ms |',
    '|---|---:|',
    ...c.steps.map((s) => `| ${s.step.trim()} | ${s.median.toFixed(3)} |`),
    '',
    `In the same rounds as the HTTP requests, in process: the scheme's check alone ${rounds.check.toFixed(2)} ` +
      `ms, the whole voucher-paid request ${rounds.paid.toFixed(2)} ms against ${rounds.off.toFixed(2)} ms with ` +
      `the gate off, so the gate around the check costs ${(rounds.paid - rounds.off - rounds.check).toFixed(2)} ` +
      `ms there (timed in the rhythm of the requests: on this machine code run between waits is slower than in ` +
      `the tight loop of the table above).`,
    '',
    `In the tight loop: the scheme's check alone ${c.checkAlone.toFixed(3)} ms, of which the project's voucher ` +
      `check ${c.voucherCheck.toFixed(3)} ms (the package's check in its place would cost viem's ` +
      `verifyTypedData ${c.verifyTypedData.toFixed(3)} ms and three computeChannelId ` +
      `calls ${(3 * c.computeChannelId).toFixed(3)} ms); the whole paid request in ` +
      `process ${c.inProcess.paid.toFixed(3)} ms against ${c.inProcess.off.toFixed(3)} ms with the gate off, so ` +
      `the gate's part is ${(c.inProcess.paid - c.inProcess.off).toFixed(3)} ` +
      `ms, ${(c.inProcess.paid - c.inProcess.off - c.checkAlone).toFixed(3)} ms beyond the check. Over HTTP the ` +
      `difference is ${c.voucherMinusOff.toFixed(2)} ms: the rest is the gate-on server around the ` +
      'gate' +
      (voucher.serverCpuMs !== null
        ? ` (its CPU per voucher-paid request: ${voucher.serverCpuMs.toFixed(2)} ms, a mean, against the ` +
          `in-process request's ${c.inProcess.paid.toFixed(2)} ms median)`
        : '') +
      '.',
    '',
  );
  return md;
}

export function channelsSection(c: ChannelsResult): Section {
  const md: string[] = [];
  const goals: string[] = [];
  md.push('## Prepaid channels (x402 batch-settlement)', '');
  const [voucher, off] = c.rows;
  md.push(...channelsRequests(c));
  const sig = c.signatureCheck;
  md.push(
    `The voucher's signature check timed alone: the project's voucher check ` +
      `(\`voucherCheck(network).problem(config, voucher)\`, built once as the server builds ` +
      `it), ${sig.n.toLocaleString('en-US')} calls after ${sig.warmup} warm-up, each timed by itself ` +
      `(performance.now around one call) on a voucher of its own, signed beforehand for one channel with its ` +
      `key; every call found its voucher valid (the run stops otherwise), and a voucher whose amount was changed ` +
      `after signing was refused: median ${sig.median.toFixed(4)} ms, p99 ${sig.p99.toFixed(4)} ms.`,
    '',
  );
  const p = c.parallel;
  md.push(
    `${p.payers} payers in parallel, each on its own channel, through the official client (@x402/fetch over ` +
      `globalThis.fetch; each call is a 402, a voucher signed, the paid request): their ${p.payers} deposit ` +
      `calls together in ${p.depositSeconds.toFixed(2)} s, then ${p.callsEach} calls each, every payer's calls ` +
      `in turn and the payers at once.`,
    '',
    '| paid calls | time | paid calls/s | median ms | p99 ms | errors | double charges | facilitator calls |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${p.calls} | ${p.seconds.toFixed(2)} s | ${p.reqPerSec.toFixed(0)} | ${p.median.toFixed(1)} ` +
      `| ${p.p99.toFixed(1)} | ${p.errors} | ${p.doubleCharges} | ${p.facilitatorCalls} |`,
    '',
    `The gate-on server stopped with SIGTERM claims what it holds: the payee gained ${c.payee.gained} on ` +
      `chain, against ${c.payee.expected} charged in the run (${c.payee.vouchersCharged} channel charges, ` +
      `deposit calls included, and ${c.payee.exactPaid} exact payments); the server's journal, read after it ` +
      `stopped, holds ${c.payee.journalCharged} ` +
      'charged' +
      (c.payee.journalAgrees ? ', all of it claimed' : ", NOT all of it claimed or not the receipts' total") +
      '.',
    '',
  );
  const g = c.goal;
  goals.push(
    `${sig.met ? 'Met' : '**Missed**'}: the voucher's signature check (the project's voucher check, timed ` +
      `alone) ${sig.median.toFixed(4)} ms, median of ${sig.n.toLocaleString('en-US')} calls each on its own ` +
      `voucher (p99 ${sig.p99.toFixed(4)} ms; goal ≤ ${sig.goalMs} ms).`,
    `${g.met ? 'Met' : '**Missed**'}: a voucher-paid request ${voucher.median.toFixed(2)} ms ` +
      `against ${off.median.toFixed(2)} ms for the same request with the gate off (median of ${c.vouchers}, over ` +
      `HTTP, one run): ${g.diff < 0 ? '−' : '+'}${Math.abs(g.diff).toFixed(2)} ms (goal ≤ ${g.bound} ms).`,
    `${p.errors === 0 && p.doubleCharges === 0 && c.payee.exact && c.payee.journalAgrees ? 'Met' : '**Missed**'}: ` +
      `${p.payers} ` +
      `payers in parallel on their own channels, ${p.callsEach} calls each after their deposits: ${p.errors} ` +
      `errors, ${p.doubleCharges} double charges; the payee gained ${c.payee.gained} on ` +
      `chain, ${c.payee.exact ? 'exactly' : 'NOT'} the ${c.payee.expected} charged in the ` +
      `run${c.payee.journalAgrees ? '' : " (the server's journal disagrees with the receipts)"}.`,
  );
  return { md, goals };
}

export function gasSection(gas: GasResult): Section {
  const md: string[] = [];
  md.push('## Gas per paid answer (local chain)', '');
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  const { gwei, ethUsd } = gas.example;
  const usd = (g: number) => `$${((g * gwei * ethUsd) / 1e9).toPrecision(2)}`;
  md.push(
    `\`npm run bench:gas\` (bench/gas.ts): gasUsed from each transaction's receipt on the local chain (anvil ` +
      `as Base, the project's test token, escrow and deposit collector, the @x402/evm facilitator in process), ` +
      `paid through the gate in process. Typical: the median of a kind's later transactions (the first may pay ` +
      `once-only storage). USD at an EXAMPLE price, not measured: ${gwei} gwei a gas unit, ` +
      `$${ethUsd.toLocaleString('en-US')} an ETH, without an L2's L1 data fee.`,
    '',
    '| transaction | n | gas, first | gas, typical | calldata bytes | USD, typical (example) |',
    '|---|---:|---:|---:|---:|---:|',
    ...gas.transactions.map(
      (t) => `| ${t.label} | ${t.n} | ${int(t.first)} | ${int(t.typical)} | ${t.calldata} | ${usd(t.typical)} |`,
    ),
    '',
    `Gas per paid answer: exact is one settlement an answer; a channel is its deposit + its share of one claim ` +
      `transaction of 1, 10 or 100 channels + its share of the settle after that claim, over the answers it paid ` +
      `(the deposit call's answer counted); "+ refund" adds a cooperative refund of each channel's rest. Claims ` +
      `measured on channels with ${gas.vouchersPerChannel} vouchers each (a claim carries a channel's latest ` +
      `voucher only).`,
    '',
    `| scheme | channels a claim | answers a channel | gas an answer | vs exact | + refund | USD (example) | ` +
      `share of the $${gas.priceUsd} price |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...gas.perAnswer.map(
      (p) =>
        `| ${p.scheme} | ${p.channelsPerClaim ?? '-'} | ${p.answersPerChannel ?? '-'} | ${int(p.gas)} ` +
        `| ${(p.gas / gas.perAnswer[0].gas).toFixed(3)}× | ${p.withRefund === null ? '-' : int(p.withRefund)} ` +
        `| ${usd(p.gas)} | ${((100 * (p.gas * gwei * ethUsd)) / 1e9 / Number(gas.priceUsd)).toFixed(3)}% |`,
    ),
    '',
  );
  return { md, goals: [] };
}

export function ingestSection(corpora: Corpus[]): Section {
  const md: string[] = [];
  const goals: string[] = [];
  md.push('## Ingest', '');
  md.push(
    "Each corpus built in its own process (peak memory is that corpus's alone). SYNTHETIC corpora are generated " +
      'for the benchmark and labelled so.',
    '',
    '| corpus | figures | time | ms per 1,000 figures | peak RSS | shard files | shard bytes |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const c of corpora)
    md.push(
      `| ${c.label} | ${c.figures.toLocaleString('en-US')} | ${seconds(c.ms)} | ${c.msPer1k.toFixed(3)} ` +
        `| ${c.peakRssMiB.toFixed(0)} MiB | ${c.files} | ${mib(c.bytes)} |`,
    );
  const synthetic = corpora.filter((c) => /SYNTHETIC/.test(c.label));
  if (synthetic.length >= 2) {
    const [small, large] = [synthetic[0], synthetic.at(-1)!];
    const scale = large.figures / small.figures;
    const memory = large.peakRssMiB / small.peakRssMiB;
    const time = large.msPer1k / small.msPer1k;
    goals.push(
      `${memory <= 1.25 ? 'Met' : '**Missed**'}: ingest memory flat in the corpus size: ${scale.toFixed(1)}× the ` +
        `figures took ${memory.toFixed(2)}× the peak memory (${small.peakRssMiB.toFixed(0)} ` +
        `→ ${large.peakRssMiB.toFixed(0)} MiB; counted as flat within 1.25×).`,
      `${time <= 1.25 ? 'Met' : '**Missed**'}: ingest time linear: ms per 1,000 ` +
        `figures ${small.msPer1k.toFixed(3)} at ${small.figures.toLocaleString('en-US')} ` +
        `figures, ${large.msPer1k.toFixed(3)} at ${large.figures.toLocaleString('en-US')} (${time.toFixed(2)}×; ` +
        `counted as linear within 1.25×).`,
    );
  }
  md.push('');
  return { md, goals };
}

export function buildsSection({ ingestMs, nodeBuildMs, vercelBuildMs, fn, staticFiles }: Builds): Section {
  const md: string[] = [];
  md.push('## Builds and deployment', '');
  md.push(
    '| step (real data) | time |',
    '|---|---:|',
    `| ingest (data/ → shards) | ${seconds(ingestMs)} |`,
    `| astro build, Node server | ${seconds(nodeBuildMs)} |`,
    `| astro build, Vercel output | ${seconds(vercelBuildMs)} |`,
    '',
    `Vercel function (\`.vercel/output/functions/_render.func\`): ${mib(fn.bytes)} in ${fn.files} files (shards ` +
      `included). Static files served by the CDN: ${staticFiles.files}, ${mib(staticFiles.bytes)}.`,
    '',
  );
  return { md, goals: [] };
}

export function coldSection(cold: ColdResult): Section {
  const md: string[] = [];
  const goals: string[] = [];
  md.push('## Cold start (Vercel function)', '');
  md.push(
    `\`npm run bench:cold\` (bench/cold.ts): the function's entry (\`${cold.entry}\`) imported with \`await ` +
      `import()\` in ${cold.runs} fresh Node processes, one at a time, from the function's own folder as Vercel ` +
      `runs it; then, in each, one first request of each kind. Times in ms. The payment stack (viem, @x402/*) ` +
      `loads on the first priced request with the gate on, the MCP SDK on the first /mcp request ` +
      `(api/payment/configured.ts, api/mcp/lazy-handler.ts).`,
    '',
    '| what | median | min | max |',
    '|---|---:|---:|---:|',
    ...(
      [
        ['import of the entry', cold.importMs],
        ['fresh process, spawn to exit', cold.processMs],
        ['first answer: free route (`/v1/coverage`)', cold.firstMs.free],
        ['first answer: priced route, gate off (`/v1/premium?state=TX`)', cold.firstMs.priced],
        ['first answer: MCP `tools/list` (loads the MCP SDK)', cold.firstMs.mcp],
      ] as const
    ).map(([what, s]) => `| ${what} | ${s.median.toFixed(1)} | ${s.min.toFixed(1)} | ${s.max.toFixed(1)} |`),
    '',
    `Function size: ${cold.size.bytes.toLocaleString('en-US')} bytes (${mib(cold.size.bytes)}) ` +
      `in ${cold.size.files} files, of which node_modules ${mib(cold.size.nodeModulesBytes)} ` +
      `in ${cold.size.nodeModulesFiles} files and shards ${mib(cold.size.shardsBytes)}.`,
    '',
  );
  goals.push(
    `${cold.met ? 'Met' : '**Missed**'}: the Vercel function's entry imported ` +
      `in ${cold.importMs.median.toFixed(1)} ms (median of ${cold.runs} fresh processes; goal ≤ ${cold.goalMs} ms).`,
  );
  return { md, goals };
}

export function pagesSection(pages: PagesResult): Section {
  const md: string[] = [];
  const goals: string[] = [];
  md.push('## Snapshot pages', '');
  md.push(
    `HTML plus CSS, uncompressed (budget ${kib(pages.budget)} a page): \`/\` ${kib(pages.home)}, ` +
      `\`/snapshots/\` ${kib(pages.index)}; ${pages.months.count} month pages: ` +
      `smallest ${kib(pages.months.smallest)}, median ${kib(pages.months.median)}, ` +
      `largest ${kib(pages.months.largest)} (\`${pages.months.largestPath}\`).`,
    '',
  );
  goals.push(
    pages.over.length
      ? `**Missed**: page weight budget, over it: ${pages.over.join(', ')}.`
      : `Met: every snapshot page under ${kib(pages.budget)}.`,
  );
  return { md, goals };
}
