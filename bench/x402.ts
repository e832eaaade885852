// `npm run bench:x402`: what the x402 payment gate costs a caller, end to end, on the built Node server.
// Two server processes on one build and the same REAL shards (built from data/): one with the gate ON
// (payee on a local chain, facilitator on loopback), one with it OFF (no X402_* env). Per round, one at a
// time (a payment round trip is latency-bound, so no concurrency), in a rotating order so machine noise
// hits every target alike:
//   paid      the official client (@x402/fetch): unpaid request → 402 → sign (EIP-3009, EIP-712) → retry with
//             PAYMENT-SIGNATURE → server computes → settles through the facilitator (tx sent, mined, receipt
//             awaited; no separate verify) → 200 with PAYMENT-RESPONSE; timed around the client call and the body read
//   settle    the facilitator's own settle, called directly by this process over the same loopback HTTP
//             (@x402/core's HTTPFacilitatorClient) with a payment signed beforehand: the floor of a paid request
//   gate off  a plain fetch of the same URL on the gate-off server → 200
//   402 only  a plain fetch on the gate-on server, no payment → 402 with the challenge (what every agent pays first)
// Chain: anvil (chain id 8453) with an EIP-3009 TEST token at the Base USDC address; the facilitator runs in this
// process (anvil account #0 pays gas) behind a loopback HTTP server. Nothing touches a real network.
// Checked while measuring (a failure stops the run): every paid answer is 200 with a successful receipt and the
// gate-off body; the payee gains exactly N × price on chain. Not a test otherwise: it reports, and exits 0.
// Then the gate's own work, in process (dispatch, no socket): a 402, a paid request whose facilitator
// is a MOCK answering at once (to isolate this service's code from the facilitator's), and the gate-off
// answer. With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers them).
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { type Address, createPublicClient, formatUnits, http, parseUnits } from 'viem';
import { benchRun, paidBenchStart } from './run.ts';
import { mean, median, p99 } from './stats.ts';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';
import {
  type FacilitatorClient,
  NETWORK,
  PAYER_FUNDING,
  payerClient,
  payingFetch,
  serveFacilitator,
  startLocalChain,
} from '../tests/support/chain.ts';
import { startServer } from '../tests/support/server.ts';
import { readShardsFrom } from '../api/store.ts';
import { dispatch } from '../api/dispatch.ts';
import { installGate } from '../api/payment/configured.ts';
import { createGate } from '../api/payment/gate.ts';
import { paymentSettings } from '../api/payment/settings.ts';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import { writeFileSync } from 'node:fs';

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

const N = Number(process.env.BENCH_PAYMENTS ?? 200);
const WARMUP = 10;
const PREMIUM = '/v1/premium?state=TX';
const COMPARE = '/v1/compare?states=FL,TX';
const DECIMALS = 6; // USDC

const priceOf = (path: string): { usd: string; atomic: bigint } => {
  const pathname = new URL(path, 'http://x').pathname;
  const usd = ROUTE_CONTRACTS.find((r) => r.path === pathname)?.priceUsd;
  if (!usd) throw new Error(`${pathname} is not a priced route`);
  return { usd, atomic: parseUnits(usd, DECIMALS) };
};
const usdc = (atomic: bigint) => `${formatUnits(atomic, DECIMALS)} USDC`;

// ---------------------------------------------------------------------------------------------------------------
// Timing parts of a paid round trip

/** One paid request's parts, in ms. The client's two HTTP legs are timed to their response headers. */
interface Parts {
  challengeLeg: number; // unpaid request → 402 headers
  sign: number; // 402 headers → paid request sent: read the 402, choose, sign
  paidLeg: number; // paid request → 200 headers: compute + settle on the server
  verify: number; // facilitator.verify, in process (no HTTP): none on the paid path
  settle: number; // facilitator.settle, in process: simulate, send, mine, receipt
  body: number; // 200 headers → body read
  fetches: number;
  verifies: number;
  settles: number;
}
let current: Parts | null = null;
const newParts = (): Parts => ({
  challengeLeg: 0,
  sign: 0,
  paidLeg: 0,
  verify: 0,
  settle: 0,
  body: 0,
  fetches: 0,
  verifies: 0,
  settles: 0,
});

/** The chain's facilitator, timing its verify and settle into the request being measured (requests are sequential). */
function timedFacilitator(inner: FacilitatorClient): FacilitatorClient {
  type Args = Parameters<FacilitatorClient['verify']>;
  const timed =
    <R>(part: 'verify' | 'settle', count: 'verifies' | 'settles', call: (...args: Args) => Promise<R>) =>
    async (...args: Args): Promise<R> => {
      const t = performance.now();
      try {
        return await call(...args);
      } finally {
        if (current) {
          current[part] += performance.now() - t;
          current[count]++;
        }
      }
    };
  return {
    getSupported: () => inner.getSupported(),
    verify: timed('verify', 'verifies', (p, r) => inner.verify(p, r)),
    settle: timed('settle', 'settles', (p, r) => inner.settle(p, r)),
  };
}

/** globalThis.fetch for the paying client, timing its two legs (and the gap between them: the client's signing). */
let legEnd = 0;
const timedFetch: typeof fetch = async (input, init) => {
  const t = performance.now();
  const res = await fetch(input, init);
  const end = performance.now();
  if (current) {
    current.fetches++;
    if (current.fetches === 1) current.challengeLeg = end - t;
    else {
      current.sign += t - legEnd;
      current.paidLeg += end - t;
    }
  }
  legEnd = end;
  return res;
};

const ms = (x: number) => x.toFixed(1);

// ---------------------------------------------------------------------------------------------------------------

const blockNumber = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl) }).getBlockNumber();

async function expectBody(url: string, status: number): Promise<{ res: Response; text: string }> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== status)
    throw new Error(`GET ${url} answered ${res.status}, expected ${status}: ${text.slice(0, 200)}`);
  return { res, text };
}

const OWN_N = 500;

/**
 * Median ms of the gate's own work on PREMIUM, in this process: 402, paid (MOCK facilitator answering at once), gate
 * off.
 */
async function gateOwnWork(shards: string, payTo: string): Promise<{ challenge: number; paid: number; off: number }> {
  const restore = readShardsFrom(shards);
  const settings = paymentSettings({
    X402_PAY_TO: payTo,
    X402_NETWORK: NETWORK,
    X402_FACILITATOR_URL: 'http://127.0.0.1:9',
  })!;
  const payer = (p: { payload: { authorization: { from: string } } }) => p.payload.authorization.from;
  const instantMock = {
    getSupported: async () => ({
      kinds: [{ x402Version: 2, scheme: 'exact', network: NETWORK }],
      extensions: ['bazaar'],
      signers: {},
    }),
    verify: async (p: never) => ({ isValid: true, payer: payer(p) }),
    settle: async (p: never) => ({
      success: true,
      transaction: `0x${'1'.repeat(64)}`,
      network: NETWORK,
      payer: payer(p),
    }),
  };
  const url = `http://localhost${PREMIUM}`;
  const timeEach = async (status: number, request: (i: number) => Request): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < OWN_N + 50; i++) {
      const t = performance.now();
      const res = await dispatch(request(i));
      await res.arrayBuffer();
      if (i >= 50) times.push(performance.now() - t);
      if (res.status !== status) throw new Error(`in process: ${res.status}, expected ${status}`);
    }
    return median(times);
  };
  try {
    installGate(createGate(settings, instantMock, ROUTE_CONTRACTS));
    const challenge = await timeEach(402, () => new Request(url));
    const required = decodePaymentRequiredHeader((await dispatch(new Request(url))).headers.get('PAYMENT-REQUIRED')!);
    const client = payerClient('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const signatures: string[] = [];
    for (let i = 0; i < OWN_N + 50; i++)
      signatures.push(encodePaymentSignatureHeader(await client.createPaymentPayload(required)));
    const paid = await timeEach(200, (i) => new Request(url, { headers: { 'PAYMENT-SIGNATURE': signatures[i] } }));
    installGate(null);
    const off = await timeEach(200, () => new Request(url));
    return { challenge, paid, off };
  } finally {
    installGate(undefined);
    restore();
  }
}

const { tmp, dist, stops, cleanup } = benchRun('x402');

try {
  if (!(Number.isInteger(N) && N >= 1))
    throw new Error(`BENCH_PAYMENTS must be a whole number of paid requests ≥ 1, got '${process.env.BENCH_PAYMENTS}'`);
  const { shards, entry } = paidBenchStart(tmp, dist);
  const chain = await startLocalChain();
  stops.push(() => chain.stop());
  const facilitator = await serveFacilitator(timedFacilitator(chain.facilitator));
  stops.push(() => facilitator.stop());

  const [on, off] = await Promise.all([
    startServer(entry, { SHARDS_DIR: shards, X402_PAY_TO: chain.payee, X402_FACILITATOR_URL: facilitator.url }),
    startServer(entry, { SHARDS_DIR: shards }),
  ]);
  stops.push(on.stop, off.stop);

  // References: the gate-off answers, with data; the gate-on challenge names this chain's payee and the price.
  const reference = new Map<string, string>();
  for (const path of [PREMIUM, COMPARE]) {
    const { text } = await expectBody(`${off.base}${path}`, 200);
    // /v1/premium answers {data: [...]}; /v1/compare {series: {state: [...]}}.
    const answer = JSON.parse(text) as { data?: unknown[]; series?: Record<string, unknown[]> };
    const rows = answer.data?.length ?? Object.values(answer.series ?? {}).reduce((n, xs) => n + xs.length, 0);
    if (!rows) throw new Error(`gate-off ${path} answered 200 with no data rows`);
    reference.set(path, text);
    const { res } = await expectBody(`${on.base}${path}`, 402);
    const offer = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED') ?? '').accepts[0];
    if (
      offer?.payTo !== chain.payee ||
      offer.network !== NETWORK ||
      BigInt(offer.amount) !== priceOf(path).atomic ||
      offer.asset !== chain.usdc
    )
      throw new Error(`gate-on ${path}: unexpected offer ${JSON.stringify(offer)}`);
    console.log(`${path}: ${rows} data rows, ${Buffer.byteLength(text)} bytes, $${priceOf(path).usd}`);
  }

  // Funds: the payer starts with 100 USDC; mint what warm-up and N rounds of both paid routes need beyond that.
  // paid and direct settle of PREMIUM, paid COMPARE
  const perRound = 2n * priceOf(PREMIUM).atomic + priceOf(COMPARE).atomic;
  const needed = BigInt(N + WARMUP) * perRound;
  const payerHas = await chain.balanceOf(chain.payer.address);
  if (needed > payerHas) await chain.mint(chain.payer.address, needed - payerHas);
  const minted = needed > payerHas ? needed - payerHas : 0n;

  const pay = payingFetch(chain, { fetch: timedFetch });
  const payer: Address = chain.payer.address;
  const transactions = new Set<string>();

  interface Target {
    label: string;
    path: string;
    run(): Promise<{ ms: number; parts?: Parts }>;
  }
  const paid = (path: string): Target => ({
    label: `paid ${path} ($${priceOf(path).usd})`,
    path,
    async run() {
      current = newParts();
      const t = performance.now();
      const res = await pay(`${on.base}${path}`);
      const headers = performance.now();
      const text = await res.text();
      const elapsed = performance.now() - t;
      const parts = current;
      current = null;
      parts.body = performance.now() - headers;
      if (res.status !== 200)
        throw new Error(
          `paid ${path} answered ${res.status}: ${text.slice(0, 200)} ${res.headers.get('PAYMENT-RESPONSE') ?? ''}`,
        );
      const receipt = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE') ?? '');
      if (
        receipt.success !== true ||
        receipt.network !== NETWORK ||
        receipt.payer !== payer ||
        !/^0x[0-9a-f]{64}$/i.test(receipt.transaction)
      )
        throw new Error(`paid ${path}: unexpected receipt ${JSON.stringify(receipt)}`);
      if (transactions.has(receipt.transaction))
        throw new Error(`paid ${path}: transaction ${receipt.transaction} reported twice`);
      transactions.add(receipt.transaction);
      if (text !== reference.get(path)) throw new Error(`paid ${path}: the body differs from the gate-off answer`);
      if (parts.fetches !== 2 || parts.verifies !== 0 || parts.settles !== 1)
        throw new Error(
          `paid ${path}: expected 2 client fetches, no verify, 1 settle; ` +
            `got ${parts.fetches}, ${parts.verifies}, ${parts.settles}`,
        );
      return { ms: elapsed, parts };
    },
  });
  const plain = (label: string, base: string, path: string, status: number): Target => ({
    label,
    path,
    async run() {
      const t = performance.now();
      const res = await fetch(`${base}${path}`);
      const text = await res.text();
      const elapsed = performance.now() - t;
      if (res.status !== status)
        throw new Error(`${label} answered ${res.status}, expected ${status}: ${text.slice(0, 200)}`);
      if (status === 200 && text !== reference.get(path))
        throw new Error(`${label}: the body differs from the first gate-off answer`);
      if (status === 402 && (text !== '{}' || !res.headers.get('PAYMENT-REQUIRED')))
        throw new Error(`${label}: a 402 without the challenge, or with a body`);
      return { ms: elapsed };
    },
  });
  // The facilitator's own settle, over the same loopback HTTP as the server's, for a payment signed beforehand.
  const direct = new HTTPFacilitatorClient({ url: facilitator.url });
  const premiumTerms = decodePaymentRequiredHeader(
    (await fetch(`${on.base}${PREMIUM}`)).headers.get('PAYMENT-REQUIRED')!,
  );
  const signer = payerClient(chain.payer.privateKey);
  const settleDirect: Target = {
    label: `facilitator settle, called directly ($${priceOf(PREMIUM).usd})`,
    path: PREMIUM,
    async run() {
      const payload = await signer.createPaymentPayload(premiumTerms);
      const t = performance.now();
      const settled = await direct.settle(payload, premiumTerms.accepts[0]);
      const elapsed = performance.now() - t;
      if (!settled.success) throw new Error(`direct settle failed: ${settled.errorReason}`);
      if (transactions.has(settled.transaction))
        throw new Error(`direct settle: transaction ${settled.transaction} reported twice`);
      transactions.add(settled.transaction);
      return { ms: elapsed };
    },
  };
  const targets: Target[] = [
    paid(PREMIUM),
    settleDirect,
    plain(`gate off ${PREMIUM}`, off.base, PREMIUM, 200),
    plain(`402 only ${PREMIUM}`, on.base, PREMIUM, 402),
    paid(COMPARE),
    plain(`gate off ${COMPARE}`, off.base, COMPARE, 200),
  ];

  const round = async (r: number, record?: { ms: number[][]; parts: Parts[][] }) => {
    for (let k = 0; k < targets.length; k++) {
      const i = (r + k) % targets.length; // rotating order
      const { ms, parts } = await targets[i].run();
      record?.ms[i].push(ms);
      if (parts) record?.parts[i].push(parts);
    }
  };

  console.log(
    `measuring: ${WARMUP} warm-up rounds, then ${N} rounds of ${targets.length} sequential requests (rotating ` +
      `order), node ${process.version}` +
      (minted ? `; minted ${usdc(minted)} (test token) to the payer, beyond its ${usdc(PAYER_FUNDING)}` : ''),
  );
  for (let r = 0; r < WARMUP; r++) await round(r);

  const payeeBefore = await chain.balanceOf(chain.payee);
  const payerBefore = await chain.balanceOf(payer);
  const blockBefore = await blockNumber(chain.rpcUrl);
  transactions.clear();
  const record = { ms: targets.map(() => [] as number[]), parts: targets.map(() => [] as Parts[]) };
  const started = performance.now();
  for (let r = 0; r < N; r++) await round(r, record);
  const seconds = (performance.now() - started) / 1000;
  const payeeDelta = (await chain.balanceOf(chain.payee)) - payeeBefore;
  const payerDelta = (await chain.balanceOf(payer)) - payerBefore;
  const blocks = (await blockNumber(chain.rpcUrl)) - blockBefore;

  // The table.
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
  const partRows: [string, (p: Parts) => number][] = [
    ['1. unpaid request → 402 headers', (p) => p.challengeLeg],
    ['2. client: read 402, sign EIP-3009', (p) => p.sign],
    ['3. paid request → 200 headers', (p) => p.paidLeg],
    ['   of which facilitator settle', (p) => p.settle],
    ['   the rest: server, facilitator HTTP', (p) => p.paidLeg - p.settle],
    ['4. read the 200 body', (p) => p.body],
  ];
  const paidIdx = targets.flatMap((t, i) => (t.label.startsWith('paid') ? [i] : []));
  console.log(`${'part'.padEnd(40)} ${paidIdx.map((i) => targets[i].path.padStart(26)).join('')}`);
  for (const [label, part] of partRows)
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

  const expected = BigInt(N) * perRound;
  const paidCount = paidIdx.reduce((a, i) => a + record.ms[i].length, 0);
  console.log(
    `\nchain: anvil, chain id ${chain.chainId} (${NETWORK}), EIP-3009 TEST token at ${chain.usdc} (the Base USDC ` +
      `address)`,
  );
  const settledCount = paidCount + record.ms[targets.indexOf(settleDirect)].length;
  console.log(
    `blocks mined while measuring: ${blocks} (${paidCount} paid requests and ${settledCount - paidCount} direct ` +
      `settles, ${transactions.size} distinct settlement transactions)`,
  );
  console.log(
    `payee ${chain.payee}: +${usdc(payeeDelta)} (expected ${N} × (2 × $${priceOf(PREMIUM).usd} + ` +
      `$${priceOf(COMPARE).usd}) = ${usdc(expected)})`,
  );
  console.log(`payer ${payer}: ${payerDelta < 0n ? '−' : '+'}${usdc(payerDelta < 0n ? -payerDelta : payerDelta)}`);
  console.log(`measured phase: ${seconds.toFixed(1)} s`);
  const own = await gateOwnWork(shards, chain.payee);
  console.log(`\nthe gate's own work, in process (dispatch, no socket; median of ${OWN_N} of each, ${PREMIUM}):`);
  console.log(`  402 challenge                                ${own.challenge.toFixed(3)} ms`);
  console.log(`  paid, facilitator a MOCK answering at once   ${own.paid.toFixed(3)} ms`);
  console.log(`  gate off (the answer, kept once computed)    ${own.off.toFixed(3)} ms`);
  console.log(
    `  so the gate's own part of a paid request: ${(own.paid - own.off).toFixed(3)} ms; the rest of part 3 is ` +
      `the facilitator's HTTP and the sockets`,
  );
  if (process.env.BENCH_JSON) {
    const byPart = Object.fromEntries(
      paidIdx.map((i) => [
        targets[i].path,
        Object.fromEntries(partRows.map(([label, part]) => [label.trim(), median(record.parts[i].map(part))])),
      ]),
    );
    const rows = targets.map((t, i) => ({
      label: t.label,
      n: record.ms[i].length,
      median: median(record.ms[i]),
      p99: p99(record.ms[i]),
      mean: mean(record.ms[i]),
    }));
    const report: X402Result = { payments: N, rows, parts: byPart, own, settleFloor: { paidLeg, directSettle } };
    writeFileSync(process.env.BENCH_JSON, JSON.stringify(report, null, 1));
  }
  if (payeeDelta !== expected || payerDelta !== -expected)
    throw new Error(`on-chain balances: payee +${payeeDelta}, payer ${payerDelta}; expected ±${expected} atomic units`);
  if (transactions.size !== settledCount)
    throw new Error(`${transactions.size} settlement transactions for ${settledCount} settlements`);
} catch (e) {
  await cleanup();
  throw e;
}
await cleanup();
