// The snapshot pages' rules, checked against the API in process on the real data: each snapshot's date
// is the first day all its month's figures were published; a state without the month shows the latest
// period that had ended by the month and been published by that date; a revision is a change beyond the
// precision of the less precise printing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { PremiumResponse } from '../../domain/contract.ts';
import { GRANULARITIES, lastDay, parsePeriod } from '../../domain/periods.ts';
import { installGate } from '../../api/payment/configured.ts';
import { type Snapshot, buildSnapshots, sameAtCommonPrecision } from '../../src/snapshots/model.ts';
import { countWord } from '../../src/snapshots/figures.ts';
import { buildCoverage } from '../../src/llms-coverage.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

let snapshots: Snapshot[];
beforeAll(async () => {
  installGate(null);
  snapshots = buildSnapshots(await buildCoverage());
  return () => installGate(undefined);
});

async function periods(state: string, granularity: string, reportDate: string): Promise<string[]> {
  const res = await callHandler(
    `http://localhost/v1/premium?state=${state}&granularity=${granularity}&report_date=${reportDate}`,
  );
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  return ((await res.json()) as PremiumResponse).data.map((r) => r.period);
}

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const end = (period: string) => lastDay(parsePeriod(period)!);

describe('snapshots on the real data', () => {
  it('one per month that a state has monthly figures for, newest first', async () => {
    const months = new Set<string>();
    for (const state of ['CA', 'FL', 'NY', 'TX'])
      for (const p of await periods(state, 'month', '9999-12-31')) months.add(p);
    expect(snapshots.map((s) => s.month)).toEqual([...months].sort().reverse());
  });

  it("is dated the first day every state's figures for its month were published", async () => {
    for (const s of snapshots) {
      const current = s.states.filter((b) => b.current);
      expect(current.length, s.month).toBeGreaterThan(0);
      for (const b of current)
        expect(await periods(b.state, 'month', s.asOf), `${s.month} ${b.state}`).toContain(s.month);
      const knownTheDayBefore = await Promise.all(
        current.map(async (b) => (await periods(b.state, 'month', dayBefore(s.asOf))).includes(s.month)),
      );
      expect(knownTheDayBefore.every(Boolean), s.month).toBe(false);
    }
  });

  it('shows for every other state the latest period ended by the month and published by the date, nothing later', async () => {
    let checked = 0;
    for (const s of snapshots.filter((_, i) => i % 5 === 0)) {
      const monthEnd = end(s.month);
      for (const b of s.states.filter((x) => !x.current)) {
        expect(end(b.period) <= monthEnd, `${s.month} ${b.state} shows ${b.period}, which ends after the month`).toBe(
          true,
        );
        for (const g of GRANULARITIES) {
          const later = (await periods(b.state, g, s.asOf)).filter((p) => end(p) <= monthEnd && end(p) > end(b.period));
          expect(later, `${s.month} ${b.state} shows ${b.period}, but ${g} has`).toEqual([]);
        }
        expect(await periods(b.state, b.granularity, s.asOf)).toContain(b.period);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('names a count by its unit once: after its figure, unless the words as printed end in their own (FSLSO: "exceeding 173,000 filings")', () => {
    const fl = snapshots.find((s) => s.month === '2025-06')!.states.find((b) => b.state === 'FL')!;
    expect(fl.count!.asPrinted).toBe('exceeding 173,000 filings');
    expect(`${fl.count!.text} ${countWord(fl.count!)}`.trim()).toBe('exceeding 173,000 filings');
    const exact = snapshots.flatMap((s) => s.states).filter((b) => b.count?.exact);
    expect(exact.length).toBeGreaterThan(10);
    for (const b of exact) expect(countWord(b.count!), `${b.state} ${b.count!.covers}`).toMatch(/^[a-z][a-z -]*[a-z]$/);
  });

  it('lists a revision with both values (TX March 2022 premium, restated on 2022-04-11) and not a rounder reprint', () => {
    const april = snapshots.find((s) => s.month === '2022-04')!;
    expect(
      april.restatements.map((r) => [r.state, r.before.field, r.before.value, r.before.asOf, r.after.value]),
    ).toEqual([['TX', 'premium', 970200000, '2022-04-01', 970300000]]);
    // 2021-10: September's +14.97% and -2.38% were reprinted as +15% and -2.4%: the same figures, rounder.
    expect(snapshots.find((s) => s.month === '2021-10')!.restatements).toEqual([]);
  });

  it('treats two printings as one figure only when they agree to the precision of the less precise', () => {
    expect(sameAtCommonPrecision(14.97, 15)).toBe(true);
    expect(sameAtCommonPrecision(-2.38, -2.4)).toBe(true);
    expect(sameAtCommonPrecision(6.3, 6.3)).toBe(true);
    expect(sameAtCommonPrecision(2.8, 3)).toBe(true);
    expect(sameAtCommonPrecision(970200000, 970300000)).toBe(false);
    expect(sameAtCommonPrecision(1020000000, 1010000000)).toBe(false);
    expect(sameAtCommonPrecision(14.97, 14)).toBe(false);
  });
});
