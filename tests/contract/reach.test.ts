// Issue 10's "done when", on the real dataset (data/): every state answers, the 15 offices compare at
// half_year, the FL sample shows what FSLSO printed, the TX 2024 summary publishes no growth across
// unequal spans, and has_insurer_data agrees with /v1/insurers.
import { describe, expect, it } from 'vitest';
import { compareResponse, premiumResponse, sampleResponse, summaryResponse } from '../../domain/contract.ts';
import { coverageResponse } from '../../domain/contract.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

const get = async (path: string) => {
  const res = await callHandler(`http://service.test${path}`);
  return { status: res.status, body: await res.json() };
};
const GRANULARITIES = ['month', 'quarter', 'half_year', 'year'] as const;

describe('the real dataset reaches every state', () => {
  it('every state of /v1/coverage answers /v1/premium with rows at some granularity it lists', async () => {
    const coverage = coverageResponse.parse((await get('/v1/coverage')).body);
    expect(coverage.map((c) => c.state)).toHaveLength(15);
    for (const state of coverage) {
      const listed = GRANULARITIES.filter((g) => state.period_types[g]);
      let rows = 0;
      for (const g of listed) {
        const { status, body } = await get(`/v1/premium?state=${state.state}&granularity=${g}`);
        expect(status).toBe(200);
        const answer = premiumResponse.parse(body);
        // A listed period type has rows: coverage never lists an empty one.
        expect(answer.data.length, `${state.state} ${g}`).toBeGreaterThan(0);
        rows += answer.data.length;
      }
      expect(rows, state.state).toBeGreaterThan(0);
    }
  });

  it('compare of all 15 states at half_year: 15 series, none empty, the WSIA 2025-H1 premium in each', async () => {
    const coverage = coverageResponse.parse((await get('/v1/coverage')).body);
    const states = coverage.map((c) => c.state).join(',');
    const { status, body } = await get(`/v1/compare?states=${states}&granularity=half_year&from=2025-01&to=2025-01`);
    expect(status).toBe(200);
    const answer = compareResponse.parse(body);
    expect(Object.keys(answer.series)).toHaveLength(15);
    for (const [state, rows] of Object.entries(answer.series)) {
      expect(
        rows.map((r) => r.period),
        state,
      ).toEqual(['2025-H1']);
      expect(rows[0].premium, state).not.toBeNull();
    }
    // From the WSIA 2025 midyear table (https://www.slacal.com/industry-reports/stamping-office-stats).
    expect(answer.series.AZ[0].premium).toBe(984372831);
    expect(answer.series.CA[0].premium).toBe(10999934347);
    expect(answer.series.FL[0].premium).toBe(9918215077);
    expect(answer.publications.map((p) => p.url)).toContain(
      'https://www.slacal.com/industry-reports/stamping-office-stats',
    );
  });

  it('the default free sample (FL) shows the premium FSLSO printed for its months, marked as printed', async () => {
    const sample = sampleResponse.parse((await get('/v1/premium/sample')).body);
    expect(sample.state).toBe('FL');
    expect(sample.data.length).toBeGreaterThan(0);
    const printedPremium = sample.data.filter((r) => r.printed?.premium);
    expect(printedPremium.length).toBeGreaterThanOrEqual(sample.data.length - 1);
    for (const r of printedPremium) {
      // FSLSO prints its monthly premium rounded: never an exact figure, so the series field stays null.
      expect(r.premium).toBeNull();
      expect(r.printed!.premium).not.toHaveProperty('period'); // the row's own
      expect(r.printed!.premium.as_printed).toMatch(/\$/);
      expect(r.printed!.premium.qualifier).toEqual(expect.any(String));
    }
    // FSLSO's July 2025 newsletter: "$1.6B"; its October 2025 issue prints July's 174,117 policies exactly.
    const july = sample.data.find((r) => r.period === '2025-07')!;
    expect(july.printed!.premium).toMatchObject({ value: 1600000000, as_printed: '$1.6B', qualifier: 'rounded' });
    expect(july.policy_count).toBe(174117);
    expect(sample.publications.length).toBeGreaterThan(0);
  });

  it('TX 2024 summary: twelve months against a printed 2023, and no growth rate where a side is null', async () => {
    const summary = summaryResponse.parse((await get('/v1/premium/summary?state=TX&year=2024')).body);
    expect(summary.months_available).toBe(12);
    expect(summary.basis).toBe('monthly_sum');
    // SLTX prints most monthly premiums rounded ("$1.51B"): no exact year sum, so no premium growth either.
    expect(summary.premium).toBeNull();
    expect(summary.yoy_premium_pct).toBeNull();
    expect(summary.yoy_policy_count_pct).toBeNull();
  });

  it('a partial year never compares with a prior year of other months: growth is withheld across unequal spans', async () => {
    const summary = async (year: number) =>
      summaryResponse.parse((await get(`/v1/premium/summary?state=TX&year=${year}`)).body);
    // TX 2020-2022 are partial years whose prior years lack some of their months; 2023 is SLTX's printed
    // year against a 10-month 2022.
    for (const year of [2020, 2021, 2022, 2023]) {
      const s = await summary(year);
      expect(s.yoy_basis, `TX ${year}`).toBe('unequal_spans');
      expect([s.yoy_premium_pct, s.yoy_policy_count_pct], `TX ${year}`).toEqual([null, null]);
    }
    // 2025 (January-August, less April): the same seven months of 2024 exist, so the change is published.
    const s2025 = await summary(2025);
    expect(s2025).toMatchObject({ basis: 'partial_monthly_sum', yoy_basis: 'same_months' });
    expect(s2025.prior_year.months_available).toBe(s2025.months_available);
    expect(s2025.yoy_policy_count_pct).toBe(
      Math.round((s2025.policy_count! / s2025.prior_year.policy_count! - 1) * 10000) / 100,
    );
  });

  it('has_insurer_data is true exactly when /v1/insurers answers 200 for a period coverage lists', async () => {
    const coverage = coverageResponse.parse((await get('/v1/coverage')).body);
    for (const state of coverage) {
      expect(state.capabilities.has_insurer_data, state.state).toBe(state.insurer_periods.length > 0);
      for (const period of state.insurer_periods)
        expect((await get(`/v1/insurers?state=${state.state}&period=${period}`)).status).toBe(200);
      // A state without a listed period answers 404 for every period it publishes any figure for.
      if (!state.insurer_periods.length) {
        const to = state.period_types.month?.to ?? state.period_types.year?.to;
        if (to) expect((await get(`/v1/insurers?state=${state.state}&period=${to}`)).status).toBe(404);
      }
    }
  });
});

describe('the real dataset says where a line mapping is ours', () => {
  it('/v1/lines notes the interpretations: FL 1000 from a WSIA aggregate, CA Personal Property, TX Excess/Umbrella Liability', async () => {
    const note = async (state: string, code: string) =>
      ((await get(`/v1/lines?state=${state}`)).body as { source_code: string; note: string | null }[]).find(
        (l) => l.source_code === code,
      )?.note;
    expect(await note('FL', '1000')).toMatch(/not mapped here/);
    expect(await note('FL', 'Commercial property (non-admitted market)')).toMatch(/interpretation/);
    expect(await note('FL', 'Windstorm/Hail - Commercial')).toMatch(/interpretation/);
    expect(await note('CA', 'Personal Property')).toMatch(/interpretation/);
    expect(await note('TX', 'Excess/Umbrella Liability')).toMatch(/interpretation/);
  });
});
