// The shape of the channel benchmark's results (bench/channels.ts), shared by the script and bench/all.ts.

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface ChannelsResult {
  /** Voucher-paid requests measured over HTTP (after the warm-up). */
  vouchers: number;
  /**
   * `serverCpuMs`: the answering server process's CPU time (user + system, /proc) per request, mean; null off Linux.
   */
  rows: { label: string; n: number; median: number; p99: number; mean: number; serverCpuMs: number | null }[];
  /** Medians' differences (ms): voucher − gate off, exact − gate off. */
  voucherMinusOff: number;
  exactMinusOff: number;
  /** The in-process table: each step's median (ms) over `stepN` runs. */
  stepN: number;
  steps: { step: string; median: number }[];
  /**
   * Step 4, the scheme's check alone (resourceServer.verifyPayment on a voucher, the project's voucher check in it);
   * step 4a, the project's voucher check (api/payment/voucher-check.ts) alone, in the same interleaved rounds.
   */
  checkAlone: number;
  voucherCheck: number;
  /**
   * Off the voucher path, what the package's own check spent on a voucher: viem's verifyTypedData, and one
   * computeChannelId (it made 3).
   */
  verifyTypedData: number;
  computeChannelId: number;
  /** The whole paid request in process, gate on (voucher) and off. */
  inProcess: { paid: number; off: number };
  /**
   * Medians of the in-process targets timed in the HTTP rounds: the scheme's check alone, the whole paid request and
   * its gate-off twin.
   */
  inRounds: { check: number; paid: number; off: number };
  /**
   * The signature check timed alone (the first goal): the project's voucher check, `n` calls each timed by
   * itself on a voucher of its own after `warmup`, every one valid; met when the median ≤ `goalMs`.
   */
  signatureCheck: { n: number; warmup: number; median: number; p99: number; goalMs: number; met: boolean };
  /** The second goal: voucher-paid − gate off over HTTP (medians of `vouchers`, one run) ≤ `bound` ms. */
  goal: { diff: number; bound: number; met: boolean };
  parallel: {
    payers: number;
    callsEach: number;
    calls: number;
    depositSeconds: number;
    seconds: number;
    reqPerSec: number;
    median: number;
    p99: number;
    errors: number;
    doubleCharges: number;
    /** Facilitator calls during the voucher calls (deposits excluded): 0 when every voucher was checked locally. */
    facilitatorCalls: number;
  };
  /**
   * The payee's on-chain gain from the first paid call to the gate-on server's exit (it claims at SIGTERM), against
   * every channel charge its receipts reported (deposit calls included) and every exact payment; and whether the
   * server's journal, read after it stopped, holds that charged total, all of it claimed.
   */
  payee: {
    vouchersCharged: number;
    exactPaid: number;
    expected: string;
    gained: string;
    exact: boolean;
    journalCharged: string;
    journalAgrees: boolean;
  };
}
