// What the gas benchmark (bench/gas.ts) prints and writes: each kind of transaction's gas, a claim's share per
// channel, and the gas per paid answer of each scheme under assumptions stated in words; USD only at an EXAMPLE gas
// price and ETH price, labelled so (neither is measured here).
import { median } from './stats.ts';

/** A mined transaction: its gasUsed (receipt) and calldata bytes. */
export interface Tx {
  gas: number;
  calldata: number;
}

/**
 * One kind of transaction: gas of the first sent, and typical gas (the median of the later ones; the first's when
 * alone).
 */
interface TxGas {
  label: string;
  n: number;
  first: number;
  typical: number;
  /** Calldata bytes of the first: what an L2's L1 data fee is charged on (not included in gas). */
  calldata: number;
}

interface PerAnswer {
  scheme: 'exact' | 'batch-settlement';
  channelsPerClaim: number | null;
  answersPerChannel: number | null;
  /** Gas per paid answer; `withRefund` adds a cooperative refund of each channel's rest. */
  gas: number;
  withRefund: number | null;
}

/** The results as written to BENCH_JSON (bench/all.ts reads them). */
export interface GasResult {
  transactions: TxGas[];
  /** One claim transaction each: its gas, and its share and the settle's per channel. */
  claims: { channels: number; gas: number; perChannel: number; settlePerChannel: number }[];
  perAnswer: PerAnswer[];
  /** The EXAMPLE prices the USD figures use. */
  example: { gwei: number; ethUsd: number };
  /** Vouchers each channel paid after its deposit call, before its claim (a claim's gas does not depend on it). */
  vouchersPerChannel: number;
  /** The price of the answer paid for, in USD. */
  priceUsd: string;
}

/** What bench/gas.ts measured, one list of transactions a kind. */
export interface Measured {
  exact: Tx[];
  deposits: Tx[];
  claims: { channels: number; tx: Tx }[];
  settles: Tx[];
  refundClaimed: Tx;
  refundUnclaimed: Tx;
}

const kind = (label: string, txs: Tx[]): TxGas => ({
  label,
  n: txs.length,
  first: txs[0].gas,
  typical: txs.length > 1 ? median(txs.slice(1).map((t) => t.gas)) : txs[0].gas,
  calldata: txs[0].calldata,
});

/** The results: each kind's gas, the claims' shares, and the gas per answer for `answers` answers a channel. */
export function gasResult(
  m: Measured,
  stated: Pick<GasResult, 'vouchersPerChannel' | 'priceUsd' | 'example'> & { answers: readonly number[] },
): GasResult {
  const settle = kind('settle', m.settles).typical;
  const transactions = [
    kind('exact: settlement (ERC-3009 transferWithAuthorization)', m.exact),
    kind("batch-settlement: deposit (a channel's first payment)", m.deposits),
    ...m.claims.map(({ channels: n, tx }) => kind(`batch-settlement: claim of ${n} channel${n > 1 ? 's' : ''}`, [tx])),
    kind('batch-settlement: settle (claimed funds to the payee)', m.settles),
    kind('batch-settlement: refund, channel already claimed', [m.refundClaimed]),
    kind('batch-settlement: refund claiming its last voucher', [m.refundUnclaimed]),
  ];
  const claims = m.claims.map(({ channels, tx }) => ({
    channels,
    gas: tx.gas,
    perChannel: tx.gas / channels,
    settlePerChannel: settle / channels,
  }));
  const { answers, ...rest } = stated;
  return {
    transactions,
    claims,
    perAnswer: perAnswer(transactions[0].typical, transactions[1].typical, claims, m.refundClaimed.gas, answers),
    ...rest,
  };
}

/**
 * Gas per paid answer: exact settles once an answer; a channel pays its deposit, its share of a claim and of the settle
 * that follows it, spread over its answers.
 */
function perAnswer(
  exact: number,
  deposit: number,
  claims: GasResult['claims'],
  refund: number,
  answers: readonly number[],
): PerAnswer[] {
  const rows: PerAnswer[] = [
    { scheme: 'exact', channelsPerClaim: null, answersPerChannel: null, gas: exact, withRefund: null },
  ];
  for (const a of answers)
    for (const c of claims) {
      const channel = deposit + c.perChannel + c.settlePerChannel;
      rows.push({
        scheme: 'batch-settlement',
        channelsPerClaim: c.channels,
        answersPerChannel: a,
        gas: channel / a,
        withRefund: (channel + refund) / a,
      });
    }
  return rows;
}

const int = (x: number) => Math.round(x).toLocaleString('en-US');
const usdOf = (gas: number, { gwei, ethUsd }: GasResult['example']) => gas * gwei * 1e-9 * ethUsd;
const usd = (x: number) => `$${x < 0.0001 ? x.toExponential(1) : x.toFixed(5)}`;
const pad = (s: string | number, n: number) => String(s).padStart(n);

export function printTransactions(r: GasResult): void {
  console.log(
    `\n${'transaction'.padEnd(58)} ${pad('n', 4)} ${pad('gas, first', 11)} ${pad('gas, typical', 13)} ` +
      `${pad('calldata bytes', 15)} ${pad('USD, typical*', 14)}`,
  );
  for (const t of r.transactions)
    console.log(
      `${t.label.padEnd(58)} ${pad(t.n, 4)} ${pad(int(t.first), 11)} ${pad(int(t.typical), 13)} ` +
        `${pad(t.calldata, 15)} ${pad(usd(usdOf(t.typical, r.example)), 14)}`,
    );
  console.log(
    'typical: the median of the later transactions of a kind (the first may pay once-only storage, such as the ' +
      "payee's or the escrow's first balance); the first's when there is one. gasUsed from " +
      'eth_getTransactionReceipt, the 21,000 base included.',
  );
  console.log(
    `\n${'claim transaction'.padEnd(24)} ${pad('gas', 10)} ${pad('per channel', 12)} ${pad('+ settle share', 15)}`,
  );
  for (const c of r.claims)
    console.log(
      `${`${c.channels} channel(s)`.padEnd(24)} ${pad(int(c.gas), 10)} ${pad(int(c.perChannel), 12)} ` +
        `${pad(int(c.settlePerChannel), 15)}`,
    );
  console.log(
    'settle share: the settle transaction that follows each claim run (moving the claimed funds to the payee), ' +
      "shared by that claim's channels.",
  );
}

export function printPerAnswer(r: GasResult): void {
  const exact = r.perAnswer[0].gas;
  console.log(
    `\n${'gas per paid answer'.padEnd(20)} ${pad('channels/claim', 15)} ${pad('answers/channel', 16)} ` +
      `${pad('gas', 8)} ${pad('vs exact', 9)} ${pad('+ refund', 9)} ${pad('USD*', 10)} ` +
      `${pad(`% of $${r.priceUsd}*`, 12)}`,
  );
  for (const p of r.perAnswer) {
    const cost = usdOf(p.gas, r.example);
    console.log(
      `${p.scheme.padEnd(20)} ${pad(p.channelsPerClaim ?? '-', 15)} ${pad(p.answersPerChannel ?? '-', 16)} ` +
        `${pad(int(p.gas), 8)} ${pad(`${(p.gas / exact).toFixed(3)}×`, 9)} ` +
        `${pad(p.withRefund === null ? '-' : int(p.withRefund), 9)} ${pad(usd(cost), 10)} ` +
        `${pad(`${((100 * cost) / Number(r.priceUsd)).toFixed(4)}%`, 12)}`,
    );
  }
  console.log(
    [
      '',
      'Assumptions, in words:',
      "  exact: every answer is one settlement transaction (the facilitator sends the payer's ERC-3009 " +
        'transferWithAuthorization); its typical gas.',
      '  batch-settlement: a channel pays its answers as one deposit (the first payment, which also pays the ' +
        'first answer), then vouchers that',
      "  cost no gas; its gas is the deposit + its share of one claim transaction (the claim's gas ÷ the " +
        'channels it claims) + its share of the',
      '  settle that follows that claim, divided by the answers the channel paid (10 or 100 here, the deposit ' +
        "call's answer counted).",
      '  "+ refund" adds a cooperative refund of each channel\'s rest (one transaction a channel, after its ' +
        'claim); without it the payer spends the',
      '  deposit out, or withdraws the rest itself later (not measured).',
      `  Measured on channels that paid ${r.vouchersPerChannel} vouchers each after the deposit: a claim carries ` +
        `only a channel's latest voucher, so its gas does not`,
      '  grow with the answers a channel paid.',
      `* USD at an EXAMPLE price, not measured: ${r.example.gwei} gwei a gas unit and ` +
        `$${r.example.ethUsd.toLocaleString('en-US')} an ETH (BENCH_GAS_GWEI, BENCH_ETH_USD); an L2's L1 data`,
      '  fee (on Base, charged on calldata bytes) comes on top and is not included.',
    ].join('\n'),
  );
}
