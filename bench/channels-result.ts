// The shape of the channel benchmark's results (bench/channels.ts), shared by the script and bench/all.ts.

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface ChannelsResult {
  /** Voucher-paid requests measured over HTTP (after the warm-up). */
  vouchers: number;
  /** `serverCpuMs`: the answering server process's CPU time (user + system, /proc) per request, mean; null off Linux. */
  rows: { label: string; n: number; median: number; p99: number; mean: number; serverCpuMs: number | null }[];
  /** Medians' differences (ms): voucher − gate off, exact − gate off. */
  voucherMinusOff: number;
  exactMinusOff: number;
  /** The in-process table: each step's median (ms) over `stepN` runs. */
  stepN: number;
  steps: { step: string; median: number }[];
  /** The package's own check alone (resourceServer.verifyPayment on a voucher), and the two parts of it timed alone. */
  checkAlone: number;
  verifyTypedData: number;
  computeChannelId: number;
  /** The whole paid request in process, gate on (voucher) and off. */
  inProcess: { paid: number; off: number };
  /** Medians of the in-process targets timed in the HTTP rounds: the check alone, the whole paid request and its gate-off twin. */
  inRounds: { check: number; paid: number; off: number };
  /** voucher − gate off against max(5 ms, the check alone + 1 ms); `rule` says which bound is the larger. */
  /** `checkAlone`: the check timed alone in the HTTP rounds (the bound's); `checkAloneHot`: in a tight loop (step 4). */
  goal: { diff: number; checkAlone: number; checkAloneHot: number; bound: number; rule: '5 ms' | 'check alone + 1 ms'; met: boolean };
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
  payee: { vouchersCharged: number; exactPaid: number; expected: string; gained: string; exact: boolean; journalCharged: string; journalAgrees: boolean };
}
