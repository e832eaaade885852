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
// answer. With BENCH_JSON naming a file, the results are also written there (bench/all.ts gathers them). The
// steps' parts: ./x402-config.ts (what it runs), ./x402-timing.ts (the instruments), ./x402-own-work.ts (the gate
// in process), ./x402-report.ts (what it prints and writes).
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { type Address, createPublicClient, http } from 'viem';
import { benchRun, paidBenchStart } from './run.ts';
import { COMPARE, N, PREMIUM, WARMUP, priceOf, usdc } from './x402-config.ts';
import { gateOwnWork } from './x402-own-work.ts';
import { paidIndexes, printOwnWork, printRounds, writeResult } from './x402-report.ts';
import {
  type Parts,
  type RoundRecord,
  type Target,
  startParts,
  takeParts,
  timedFacilitator,
  timedFetch,
} from './x402-timing.ts';
import {
  NETWORK,
  PAYER_FUNDING,
  payerClient,
  payingFetch,
  serveFacilitator,
  startLocalChain,
} from '../tests/support/chain.ts';
import { startServer } from '../tests/support/server.ts';

const blockNumber = (rpcUrl: string) => createPublicClient({ transport: http(rpcUrl) }).getBlockNumber();

async function expectBody(url: string, status: number): Promise<{ res: Response; text: string }> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== status)
    throw new Error(`GET ${url} answered ${res.status}, expected ${status}: ${text.slice(0, 200)}`);
  return { res, text };
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

  const paid = (path: string): Target => ({
    label: `paid ${path} ($${priceOf(path).usd})`,
    path,
    async run() {
      startParts();
      const t = performance.now();
      const res = await pay(`${on.base}${path}`);
      const headers = performance.now();
      const text = await res.text();
      const elapsed = performance.now() - t;
      const parts = takeParts();
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

  const round = async (r: number, record?: RoundRecord) => {
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
  const record: RoundRecord = { ms: targets.map(() => [] as number[]), parts: targets.map(() => [] as Parts[]) };
  const started = performance.now();
  for (let r = 0; r < N; r++) await round(r, record);
  const seconds = (performance.now() - started) / 1000;
  const payeeDelta = (await chain.balanceOf(chain.payee)) - payeeBefore;
  const payerDelta = (await chain.balanceOf(payer)) - payerBefore;
  const blocks = (await blockNumber(chain.rpcUrl)) - blockBefore;

  const rounds = { targets, record, settleDirect };
  const settleFloor = printRounds(rounds);

  const expected = BigInt(N) * perRound;
  const paidCount = paidIndexes(targets).reduce((a, i) => a + record.ms[i].length, 0);
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
  printOwnWork(own);
  writeResult(rounds, own, settleFloor);
  if (payeeDelta !== expected || payerDelta !== -expected)
    throw new Error(`on-chain balances: payee +${payeeDelta}, payer ${payerDelta}; expected ±${expected} atomic units`);
  if (transactions.size !== settledCount)
    throw new Error(`${transactions.size} settlement transactions for ${settledCount} settlements`);
} catch (e) {
  await cleanup();
  throw e;
}
await cleanup();
