// The channel benchmark's HTTP rounds, one request at a time, in an order that rotates round by round: a voucher-paid
// request, the same URL with the gate off, the gate-on 402, an exact payment every few rounds, and in this process
// the scheme's check alone (the project's voucher check in it) and the whole paid request with its gate-off twin
// (./channels-rig.ts).
import { EXACT_EVERY, N, PREMIUM, PRICE, WARMUP } from './channels-config.ts';
import { expectVoucherPaid, openChannel, presign, receiptOf } from './channels-payer.ts';
import type { ChannelsResult } from './channels-result.ts';
import type { Rig } from './channels-rig.ts';
import type { Servers } from './channels-servers.ts';
import { cpuMs } from './run.ts';
import { mean, median, p99 } from './stats.ts';
import { signPayment } from '../tests/support/chain.ts';

interface Target {
  label: string;
  /** The server process that answers it. */
  pid: number | undefined;
  run(): Promise<number>;
}

export interface HttpRounds {
  /**
   * One a target, in this order: voucher-paid, gate off, 402 only, the check alone, voucher-paid and gate off in
   * process, exact-paid.
   */
  rows: ChannelsResult['rows'];
  voucherFacilitatorCalls: number;
  /** The HTTP payer's channel's charged total at the end. */
  charged: bigint;
  exactPaid: bigint;
}

const timedFetch = async (url: string, init?: RequestInit) => {
  const t = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  return { res, text, ms: performance.now() - t };
};

/** The targets, the voucher-paid one on a channel opened for it, and the totals they have paid so far. */
async function targetsOf(servers: Servers, rig: Rig) {
  const { chain, on, off, reference, challenge, facilitatorCalls } = servers;
  const main = await openChannel(chain, on.base, globalThis.fetch, reference);
  const headers = await presign(main, main.charged, WARMUP + N);
  let mainCharged = main.charged;
  let nextVoucher = 0;
  let voucherFacilitatorCalls = 0;
  let exactPaid = 0n;
  const transactions = new Set<string>();

  const voucher: Target = {
    label: `voucher-paid ${PREMIUM}`,
    pid: on.child.pid,
    async run() {
      const calls = facilitatorCalls();
      const { res, text, ms } = await timedFetch(`${on.base}${PREMIUM}`, {
        headers: { 'PAYMENT-SIGNATURE': headers[nextVoucher++] },
      });
      voucherFacilitatorCalls += facilitatorCalls() - calls;
      expectVoucherPaid(`voucher ${nextVoucher}`, res.status, text, receiptOf(res), (mainCharged += PRICE), reference);
      return ms;
    },
  };
  const gateOff: Target = {
    label: `gate off ${PREMIUM}`,
    pid: off.child.pid,
    async run() {
      const { res, text, ms } = await timedFetch(`${off.base}${PREMIUM}`);
      if (res.status !== 200 || text !== reference) throw new Error(`gate off answered ${res.status}, or another body`);
      return ms;
    },
  };
  const exact: Target = {
    label: `exact-paid ${PREMIUM} (paid leg only)`,
    pid: on.child.pid,
    async run() {
      const signature = await signPayment(chain, challenge); // the 402's first offer: exact
      const { res, text, ms } = await timedFetch(`${on.base}${PREMIUM}`, {
        headers: { 'PAYMENT-SIGNATURE': signature },
      });
      const receipt = receiptOf(res);
      if (
        res.status !== 200 ||
        receipt?.success !== true ||
        !/^0x[0-9a-f]{64}$/i.test(receipt.transaction) ||
        transactions.has(receipt.transaction)
      )
        throw new Error(`exact paid answered ${res.status} with receipt ${JSON.stringify(receipt)}`);
      if (text !== reference) throw new Error('exact paid: the body differs from the gate-off answer');
      transactions.add(receipt.transaction);
      exactPaid += PRICE;
      return ms;
    },
  };
  // The gate-on server's path for a guarded request without the payment's work: Node's HTTP, a Web Request, the
  // gate's kept challenge (the gate-off server answers kept bytes through its raw front instead).
  const challengeOnly: Target = {
    label: `402 only ${PREMIUM} (gate on, no payment)`,
    pid: on.child.pid,
    async run() {
      const { res, text, ms } = await timedFetch(`${on.base}${PREMIUM}`);
      if (res.status !== 402 || text !== '{}' || !res.headers.get('PAYMENT-REQUIRED'))
        throw new Error(`402 only answered ${res.status}, or without the challenge`);
      return ms;
    },
  };
  // The scheme's check alone (resourceServer.verifyPayment on a voucher, the project's voucher check in it), in this
  // process, in the same rounds: on this machine code that runs between waits (as a server's does, one request at a
  // time) is slower than in a tight loop, so the check is timed here as the requests are.
  // The same, for the whole paid request and its gate-off twin in process (no socket): what the gate costs around the
  // check.
  const checkAlone: Target = {
    label: "in process: the scheme's check alone",
    pid: undefined,
    run: () => rig.checkAlone(),
  };
  const paidInProcess: Target = {
    label: 'in process: voucher-paid request (no socket)',
    pid: undefined,
    run: () => rig.request(true),
  };
  const offInProcess: Target = {
    label: 'in process: the same request, gate off',
    pid: undefined,
    run: () => rig.request(false),
  };
  return {
    targets: [voucher, gateOff, challengeOnly, checkAlone, paidInProcess, offInProcess, exact],
    paid: () => ({ charged: mainCharged, exactPaid, voucherFacilitatorCalls }),
  };
}

/** Opens the HTTP payer's channel, then times every target over WARMUP + N rounds; a wrong answer stops the run. */
export async function httpRounds(servers: Servers, rig: Rig): Promise<HttpRounds> {
  const { targets, paid } = await targetsOf(servers, rig);
  const times = new Map<Target, number[]>(targets.map((t) => [t, []]));
  const cpu = new Map<Target, (number | null)[]>(targets.map((t) => [t, []]));
  console.log(
    `measuring over HTTP: ${WARMUP} warm-up rounds, then ${N} rounds of a voucher-paid, a gate-off and a ` +
      `402-only request, and in this process the scheme's check alone, ` +
      `a voucher-paid request and its gate-off twin; an exact-paid one every ${EXACT_EVERY} rounds (one at a ` +
      `time, order rotating), node ${process.version}`,
  );
  for (let r = 0; r < WARMUP + N; r++) {
    const round = r % EXACT_EVERY === 0 ? targets : targets.slice(0, -1);
    for (let k = 0; k < round.length; k++) {
      const target = round[(r + k) % round.length];
      const cpuBefore = cpuMs(target.pid);
      const elapsed = await target.run();
      const cpuAfter = cpuMs(target.pid);
      if (r >= WARMUP) {
        times.get(target)!.push(elapsed);
        cpu.get(target)!.push(cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore);
      }
    }
  }
  const { charged, exactPaid, voucherFacilitatorCalls } = paid();
  if (voucherFacilitatorCalls !== 0)
    throw new Error(
      `${voucherFacilitatorCalls} facilitator call(s) during voucher-paid requests: a voucher was not checked locally`,
    );
  const rows = targets.map((t) => {
    const xs = times.get(t)!;
    const cpus = cpu.get(t)!;
    const serverCpuMs = cpus.every((c) => c !== null) ? mean(cpus) : null;
    return { label: t.label, n: xs.length, median: median(xs), p99: p99(xs), mean: mean(xs), serverCpuMs };
  });
  return { rows, voucherFacilitatorCalls, charged, exactPaid };
}
