// The further datasets' priced routes, in process with the gate off: every rule of docs/design.md §18-20 and the
// contract on the fixture records (tests/fixtures/data/datasets, test data), then spot checks of the
// real records against the pages they were transcribed from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EligibilityResponse,
  EnforcementResponse,
  RateActivityResponse,
  RatesResponse,
  SolvencyResponse,
  SyndicatesResponse,
} from '../../domain/contract-datasets.ts';
import { errorBody } from '../../domain/contract.ts';
import { installGate } from '../../api/payment/configured.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

async function get<T>(path: string): Promise<T> {
  const res = await callHandler(`http://localhost${path}`);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  return (await res.json()) as T;
}

async function refused(path: string, ...says: string[]): Promise<void> {
  const res = await callHandler(`http://localhost${path}`);
  expect(res.status, path).toBe(400);
  const { error } = errorBody.parse(await res.json());
  for (const s of says) expect(error.message).toContain(s);
}

beforeAll(() => installGate(null));
afterAll(() => installGate(undefined));

describe('on the fixture records', () => {
  let restore = () => {};
  beforeAll(() => {
    restore = serveShards(buildInto(FIXTURE_DATA));
  });
  afterAll(() => restore());

  it('/v1/solvency matches a carrier across spellings, in receivership and in enforcement', async () => {
    const s = await get<SolvencyResponse>('/v1/solvency?insurer=ACME%20Casualty%20Company');
    expect(s.normalized_name).toBe('acme casualty');
    expect(s.receiverships.map((r) => [r.company_name, r.status, r.liquidation_date])).toEqual([
      ['Acme Casualty Company, Inc.', 'liquidation', '2024-03-15'],
    ]);
    expect(s.enforcement_actions.map((a) => [a.company_name, a.action_type, a.fine_amount])).toEqual([
      ['ACME CASUALTY CO', 'fine', 25000],
    ]);
    expect(s.publications.map((p) => p.url).sort()).toEqual([
      'https://example.org/receiver/estates',
      'https://example.org/regulator/2023',
    ]);
    expect(s.report_date).toBe('2024-06-30');
  });

  it('/v1/solvency with no match: 200, empty lists, "no record in the covered states", no publication (so not charged)', async () => {
    const s = await get<SolvencyResponse>('/v1/solvency?insurer=Nonesuch%20Indemnity');
    expect([s.receiverships, s.enforcement_actions, s.publications, s.report_date]).toEqual([[], [], [], null]);
    expect(s.note).toContain('no record there, not a judgment about the carrier');
  });

  it('/v1/enforcement filters by action_type, state, year and insurer; examinations carry no fine', async () => {
    const exams = await get<EnforcementResponse>('/v1/enforcement?action_type=examination');
    expect(exams.data.map((a) => [a.company_name, a.fine_amount])).toEqual([
      ['The Summit Life and Health Co., Inc.', null],
    ]);
    const summit = await get<EnforcementResponse>('/v1/enforcement?insurer=summit%20life%20%26%20health');
    expect(summit.data.map((a) => a.action_type).sort()).toEqual(['examination', 'fine']);
    const y2022 = await get<EnforcementResponse>('/v1/enforcement?year=2022&state=ma');
    expect(y2022.data.map((a) => [a.company_name, a.action_type, a.license_type])).toEqual([
      ['Harbor Mutual Insurance Co', 'license_suspension', 'producer'],
    ]);
    const none = await get<EnforcementResponse>('/v1/enforcement?state=NY');
    expect([none.data, none.publications]).toEqual([[], []]);
  });

  it('/v1/rates buckets by received date, else closed date, else the publication date, and filters on it', async () => {
    const all = await get<RatesResponse>('/v1/rates');
    const byKey = Object.fromEntries(all.data.map((f) => [`${f.state} ${f.toi_name}`, [f.bucket_date, f.record_kind]]));
    expect(byKey).toEqual({
      'FL Homeowners': ['2024-01-10', 'filing'],
      'FL Private Passenger Auto': ['2024-02-05', 'filing'],
      'TX Homeowners': ['2024-05-15', 'filing'], // no received date: its closed date
      'TX Private Passenger Auto': ['2024-07-10', 'filing'], // no date at all: the publication's
      'CA Private Passenger Auto': ['2024-07-10', 'annual_disclosure'],
    });
    expect(all.data.map((f) => f.bucket_date)).toEqual([...all.data.map((f) => f.bucket_date)].sort().reverse());
    const may = await get<RatesResponse>('/v1/rates?from=2024-05&to=2024-05');
    expect(may.data.map((f) => f.state)).toEqual(['TX']);
    const homes = await get<RatesResponse>('/v1/rates?toi=homeowners&status=closed');
    expect(homes.data.map((f) => f.state).sort()).toEqual(['FL', 'TX']);
    const acme = await get<RatesResponse>('/v1/rates?company=acme%20casualty&coverage_category=auto');
    expect(acme.data.map((f) => [f.serff_tracking, f.rate_change_pct])).toEqual([['ABCD-123456790', null]]);
  });

  it('/v1/rates/activity: a filing with no overall change counts, but not in the average or the shares', async () => {
    const a = await get<RateActivityResponse>('/v1/rates/activity');
    expect(a.granularity).toBe('quarter');
    expect(a.data).toEqual([
      {
        state: 'CA',
        period: '2024-Q3',
        filing_count: 1,
        avg_rate_change_pct: 6.1,
        share_increasing: 1,
        share_decreasing: 0,
      },
      {
        state: 'FL',
        period: '2024-Q1',
        filing_count: 2,
        avg_rate_change_pct: 12.5,
        share_increasing: 1,
        share_decreasing: 0,
      },
      {
        state: 'TX',
        period: '2024-Q2',
        filing_count: 1,
        avg_rate_change_pct: -3.2,
        share_increasing: 0,
        share_decreasing: 1,
      },
      {
        state: 'TX',
        period: '2024-Q3',
        filing_count: 1,
        avg_rate_change_pct: 4,
        share_increasing: 1,
        share_decreasing: 0,
      },
    ]);
    const months = await get<RateActivityResponse>('/v1/rates/activity?states=fl&granularity=month&from=2024-02');
    expect(months.data).toEqual([
      {
        state: 'FL',
        period: '2024-02',
        filing_count: 1,
        avg_rate_change_pct: null,
        share_increasing: null,
        share_decreasing: null,
      },
    ]);
  });

  it('/v1/syndicates: a dossier with its years (the current one with no forecast yet) and its eligibility, joined by number', async () => {
    const s = await get<SyndicatesResponse>('/v1/syndicates?syndicate=01234');
    expect(s.data).toHaveLength(1);
    expect(s.data[0].years.at(-1)).toEqual({
      year_of_account: 2024,
      capacity_gbp_000: null,
      estimated_result_pct: null,
    });
    expect(s.data[0].eligibility.map((e) => [e.state, e.list, e.alien_id])).toEqual([
      ['TX', 'Eligible Surplus Lines Insurers', 'AA-1120337'],
    ]);
    const byAgent = await get<SyndicatesResponse>('/v1/syndicates?managing_agent=other%20agency');
    expect(byAgent.data.map((d) => d.syndicate_no)).toEqual(['5678']);
  });

  it('/v1/eligibility by syndicate number or insurer name', async () => {
    const bySyndicate = await get<EligibilityResponse>('/v1/eligibility?syndicate=1234');
    expect(bySyndicate.data.map((e) => e.company_name)).toEqual(["Lloyd's Syndicate 1234"]);
    const byName = await get<EligibilityResponse>('/v1/eligibility?insurer=harbor%20excess');
    expect(byName.data.map((e) => [e.naic_code, e.eligible_since])).toEqual([['67890', '2018-03-01']]);
  });

  it('bad parameters: 400 naming the parameter and what was expected', async () => {
    await refused('/v1/solvency', "missing required parameter 'insurer'");
    await refused('/v1/solvency?insurer=x', "invalid 'insurer'", 'at least 2 characters');
    await refused('/v1/enforcement?action_type=penalty', "invalid 'action_type'");
    await refused('/v1/rates?from=2024-06&to=2024-05', "'from' 2024-06 is after 'to' 2024-05");
    await refused('/v1/rates?from=2024-13', "invalid 'from'", 'YYYY-MM');
    await refused('/v1/rates/activity?granularity=week', "invalid 'granularity'");
    await refused('/v1/syndicates?syndicate=twenty', "invalid 'syndicate'", 'syndicate number');
  });
});

describe('on the real records: spot checks against the pages', () => {
  let restore = () => {};
  beforeAll(() => {
    restore = serveShards(buildInto(REAL_DATA));
  });
  afterAll(() => restore());

  it("Maidstone: the New York liquidation order of 2020-02-13 (PIA's insolvency list) and the 2016 examination report", async () => {
    const s = await get<SolvencyResponse>('/v1/solvency?insurer=Maidstone%20Insurance%20Company');
    expect(s.receiverships.map((r) => [r.state, r.status, r.liquidation_date])).toEqual([
      ['NY', 'liquidation', '2020-02-13'],
    ]);
    expect(s.enforcement_actions.map((a) => [a.state, a.action_type, a.period, a.fine_amount])).toEqual([
      ['NY', 'examination', '2016', null],
    ]);
    expect(s.publications.map((p) => p.url)).toContain('http://www.pia.org/GIA/ct/company-insolvencies.php');
  });

  it('MAP syndicate 2791: capacity £473,906k for 2023 and £650,000k for 2024 (Argenta, Q3 2025 forecasts)', async () => {
    const s = await get<SyndicatesResponse>('/v1/syndicates?syndicate=2791');
    const years = Object.fromEntries(s.data[0].years.map((y) => [y.year_of_account, y.capacity_gbp_000]));
    expect([years[2023], years[2024]]).toEqual([473906, 650000]);
    expect(s.publications.some((p) => p.url.includes('MAPQ32025updatedforecasts'))).toBe(true);
  });

  it("Starr Surplus Lines: on Texas's eligible insurers list from 2018-01-01 (SLTX bulletin of 2018-01-03)", async () => {
    const e = await get<EligibilityResponse>('/v1/eligibility?insurer=starr%20surplus%20lines');
    expect(e.data.map((d) => [d.state, d.eligible_since, d.status])).toEqual([['TX', '2018-01-01', 'approved']]);
    expect(e.publications.map((p) => [p.url, p.report_date])).toEqual([
      ['https://www.sltx.org/news/historic-bulletins/texas-approves-first-dsli/', '2018-01-03'],
    ]);
  });

  it('every priced dataset route answers with real records', async () => {
    for (const path of [
      '/v1/enforcement?action_type=fine',
      '/v1/rates?state=FL',
      '/v1/rates/activity?states=FL',
      '/v1/syndicates?managing_agent=hiscox',
      '/v1/eligibility',
    ]) {
      const body = await get<{ data: unknown[]; publications: unknown[] }>(path);
      expect(body.data.length, path).toBeGreaterThan(0);
      expect(body.publications.length, path).toBeGreaterThan(0);
    }
  });
});
