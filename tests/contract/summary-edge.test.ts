// /v1/premium/summary on edited copies of the fixture: the basis and year-over-year cases the
// fixture itself does not reach. Expected values are read off the fixture files (tests/fixtures/data).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { summaryResponse } from '../../domain/contract.ts';
import { serveShards } from '../support/shards.ts';
import { replaceOnce, tempRoot } from '../unit/helpers.ts';
import { callHandler } from '../support/handlers.ts';

const tmp = tempRoot('summary-edge');
let restore = () => {};
afterEach(() => restore());
afterAll(() => tmp.cleanup());

/** Builds a fixture copy with `edits` (file, printed row, replacement) and asks for a summary. */
async function summaryAfter(edits: [string, string, string][], query: string) {
  const data = tmp.fixtureCopy();
  for (const [file, from, to] of edits) replaceOnce(data, `publications/office/${file}`, from, to);
  restore = serveShards(tmp.build(data));
  const res = await callHandler(`http://service.test/v1/premium/summary?${query}`);
  expect(res.status).toBe(200);
  return summaryResponse.parse(await res.json());
}

const yoyPct = (current: number, prior: number) => Math.round((current / prior - 1) * 10000) / 100;
const IL_2023_POLICIES = 12948; // Σ (1001 + 12m), m = 1..12, il-2023-12.csv

describe('summary basis and prior year, beyond the fixture', () => {
  it('12 published months, one printed only rounded, no year row: still a monthly_sum, with premium null', async () => {
    // docs/design.md §5: partial_monthly_sum means fewer than 12 months. May 2023 printed "rounded": its premium is null.
    const body = await summaryAfter(
      [
        [
          'il-2023-12.csv',
          'IL,2023-05,all,,,premium,1005000.25,,,',
          'IL,2023-05,all,,,premium,1005000.25,rounded,fixture words,',
        ],
        [
          'il-2022-annual.csv',
          'IL,2022,all,,,premium,11234567.89,,,year printed by the source',
          'IL,2022,all,,,premium,11234567.89,rounded,fixture words,',
        ],
      ],
      'state=IL&year=2023',
    );
    expect(body).toMatchObject({
      basis: 'monthly_sum',
      months_available: 12,
      premium: null,
      policy_count: IL_2023_POLICIES,
    });
    // The prior year keeps its own basis: 2022 has its printed year row (policies 12345, premium now rounded).
    expect(body.prior_year).toEqual({ year: 2022, premium: null, policy_count: 12345, months_available: 1 });
    // a full year on each side: the policy change is published; the premium one has no premium to compare
    expect(body.yoy_basis).toBe('full_years');
    expect(body.yoy_premium_pct).toBeNull();
    expect(body.yoy_policy_count_pct).toBe(yoyPct(IL_2023_POLICIES, 12345));
  });

  it('a full year whose prior year is only a partial sum: the prior on its own basis, and no change across unequal spans (docs/design.md §5)', async () => {
    // Without the 2022 year row, 2022 is December alone: 987654.32 and 1234 policies.
    const body = await summaryAfter(
      [
        [
          'il-2022-annual.csv',
          'IL,2022,all,,,premium,11234567.89,,,year printed by the source',
          'IL,2022,all,,,premium,11234567.89,rounded,fixture words,',
        ],
        [
          'il-2022-annual.csv',
          'IL,2022,all,,,policies,12345,,,',
          'IL,2022,all,,,policies,12345,rounded,fixture words,',
        ],
      ],
      'state=IL&year=2023',
    );
    expect(body.basis).toBe('monthly_sum');
    expect(body.prior_year).toEqual({ year: 2022, premium: 987654.32, policy_count: 1234, months_available: 1 });
    // twelve months against one: both sides are given, the growth rate is not
    expect(body.yoy_basis).toBe('unequal_spans');
    expect(body.yoy_premium_pct).toBeNull();
    expect(body.yoy_policy_count_pct).toBeNull();
  });

  it('a partial year whose prior year lacks one of its months: the months it has, counted, and no change across unequal spans', async () => {
    // 2024 has Jan and Feb; with February 2023 printed rounded only, 2023 has January alone for the comparison.
    const body = await summaryAfter(
      [
        [
          'il-2023-12.csv',
          'IL,2023-02,all,,,premium,1002000.25,,,',
          'IL,2023-02,all,,,premium,1002000.25,rounded,fixture words,',
        ],
        [
          'il-2023-12.csv',
          'IL,2023-02,all,,,policies,1025,,,',
          'IL,2023-02,all,,,policies,1025,rounded,fixture words,',
        ],
      ],
      'state=IL&year=2024',
    );
    expect(body).toMatchObject({ basis: 'partial_monthly_sum', months_available: 2, premium: 2300000.33 });
    expect(body.prior_year).toEqual({ year: 2023, premium: 1001000.25, policy_count: 1013, months_available: 1 });
    // January and February against January alone
    expect(body.yoy_basis).toBe('unequal_spans');
    expect(body.yoy_premium_pct).toBeNull();
    expect(body.yoy_policy_count_pct).toBeNull();
  });
});
