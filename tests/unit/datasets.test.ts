// The further datasets (data/README.md "Further datasets"): the ingest refuses a bad record naming file,
// line and column and leaves the previous build untouched; the free samples follow the rules of docs/design.md §18-20 on the
// fixture records (tests/fixtures/data/datasets, test data); the real records are traceable.
import { describe, expect, it } from 'vitest';
import type {
  RatesSampleResponse,
  SolvencySampleResponse,
  SyndicatesSampleResponse,
} from '../../domain/contract-datasets.ts';
import { normalizeName } from '../../domain/names.ts';
import { loadDataset } from '../../ingest/load.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, REAL_DATA, useShardsOf } from '../support/shards.ts';
import { expectOneProblem, refusals, replaceOnce } from './helpers.ts';

const { tmp, failingBuild, expectUntouched } = refusals('datasets');
const RECEIVERS = 'datasets/receiverships/receiver/2024-estates.csv';
const ACTIONS = 'datasets/enforcement/regulator/2023-actions.csv';
const FILINGS = 'datasets/rate-filings/department/2024-filings.csv';
const FORECASTS = 'datasets/syndicates/adviser/2024-forecasts.csv';
// Each file has 8 header lines (9 with `# edition`), its CSV header next, records after it.
const ACME = 'NY,"Acme Casualty Company, Inc.",12345,liquidation,property and casualty,2024-001,';
const column = (line: string, text: string) => line.indexOf(text) + 1;

describe('the ingest refuses a bad dataset record, naming file, line and column', () => {
  it('an unknown state', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, RECEIVERS, ACME, ACME.replace('NY,', 'ZZ,'));
    expectOneProblem(failingBuild(data), {
      file: RECEIVERS,
      line: 10,
      column: 1,
      says: ["unknown state 'ZZ'", 'two-letter U.S. state code'],
    });
    expectUntouched();
  });

  it('an impossible date, and a date after the publication', () => {
    const data = tmp.fixtureCopy();
    const row = `${ACME}NY Property/Casualty Insurance Security Fund;NJ PLIGA,NY,2023,2024-03-15`;
    replaceOnce(data, RECEIVERS, row, row.replace('2024-03-15', '2024-02-30'));
    expectOneProblem(failingBuild(data), {
      file: RECEIVERS,
      line: 10,
      column: column(row, '2024-03-15'),
      says: ["got '2024-02-30'", 'YYYY-MM-DD', 'bare year'],
    });
    const later = tmp.fixtureCopy();
    replaceOnce(later, RECEIVERS, row, row.replace('2024-03-15', '2024-08-01'));
    expectOneProblem(failingBuild(later), {
      file: RECEIVERS,
      line: 10,
      column: column(row, '2024-03-15'),
      says: ['2024-08-01 is after', 'report_date 2024-06-30'],
    });
    expectUntouched();
  });

  it('a number that is not one, and a fine on an examination', () => {
    const data = tmp.fixtureCopy();
    const filing = 'FL,ABCD-123456789,Acme Casualty Company,12345,04.0,Homeowners,property,Acme Home,12.5,';
    replaceOnce(data, FILINGS, filing, filing.replace('12.5', '12,5%'));
    // `12,5%` splits the row into one field more than the header: the reader names the row.
    expectOneProblem(failingBuild(data), {
      file: FILINGS,
      line: 10,
      column: 1,
      says: ['expected 17 fields', 'found 18'],
    });
    const pct = tmp.fixtureCopy();
    replaceOnce(pct, FILINGS, filing, filing.replace('12.5', 'twelve'));
    expectOneProblem(failingBuild(pct), {
      file: FILINGS,
      line: 10,
      column: column(filing, '12.5'),
      says: ["not a number: 'twelve'", 'rate change in percent'],
    });
    const exam = tmp.fixtureCopy();
    const examination = 'MA,"The Summit Life and Health Co., Inc.",,examination,,,';
    replaceOnce(exam, ACTIONS, examination, 'MA,"The Summit Life and Health Co., Inc.",,examination,,500,');
    expectOneProblem(failingBuild(exam), {
      file: ACTIONS,
      line: 12,
      column: column(examination, ',,,') + 2,
      says: ['a examination carries no fine'],
    });
    expectUntouched();
  });

  it('a forecast with one bound, or worst above best; a missing edition header', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, FORECASTS, '2023,80000,-5,0,', '2023,80000,-5,,');
    expectOneProblem(failingBuild(data), { file: FORECASTS, line: 14, says: ['a forecast is a range'] });
    const upside = tmp.fixtureCopy();
    replaceOnce(upside, FORECASTS, '2023,80000,-5,0,', '2023,80000,5,0,');
    expectOneProblem(failingBuild(upside), { file: FORECASTS, line: 14, says: ['worst case 5 is above best case 0'] });
    const noEdition = tmp.fixtureCopy();
    replaceOnce(noEdition, FORECASTS, '# edition: 30 September 2024\n', '');
    expectOneProblem(failingBuild(noEdition), { file: FORECASTS, line: 1, says: ["missing header '# edition: ...'"] });
    expectUntouched();
  });
});

describe('names are matched normalized (the sources publish no NAIC number)', () => {
  it('across case, punctuation, "&"/"and", a leading "the" and corporate suffixes', () => {
    expect(normalizeName('ACME CASUALTY CO')).toBe(normalizeName('Acme Casualty Company, Inc.'));
    expect(normalizeName('The Summit Life and Health Co., Inc.')).toBe(normalizeName('Summit Life & Health Company'));
    expect(normalizeName('Acme Casualty Company')).not.toBe(normalizeName('Acme Indemnity Company'));
  });
});

describe('the free samples on the fixture records', () => {
  useShardsOf(FIXTURE_DATA);
  const get = async <T>(path: string): Promise<T> => {
    const res = await callHandler(`http://localhost${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    return (await res.json()) as T;
  };

  it('/v1/solvency/sample: counts, active estates, bare-year dates, fines only, latest first', async () => {
    const s = await get<SolvencySampleResponse>('/v1/solvency/sample');
    expect([s.sample, s.receivership_count, s.active_receiverships]).toEqual([true, 3, 2]); // the closed estate is not active
    expect(s.enforcement_years).toEqual({ from: 2022, to: 2023 });
    // The closed estate (Prairie) is a receivership but not a liquidation now.
    expect(s.recent_liquidations.map((l) => [l.company_name, l.rehabilitation_date, l.guaranty_associations])).toEqual([
      ['Acme Casualty Company, Inc.', '2023', ['NY Property/Casualty Insurance Security Fund', 'NJ PLIGA']],
    ]);
    expect(s.recent_fines.map((f) => [f.company_name, f.fine_amount])).toEqual([
      ['ACME CASUALTY CO', 25000],
      ['Summit Life & Health Company', 7500.5],
    ]);
    expect(s.publications.map((p) => p.url)).toEqual([
      'https://example.org/regulator/2023',
      'https://example.org/receiver/estates',
    ]);
    expect([s.report_date, s.data_as_of]).toEqual(['2024-06-30', '2024-06-30']);
    expect(s.note).toContain('not a judgment about the carrier');
  });

  it('/v1/rates/sample: filings per state, received-date ranges (null where none is printed), increases only', async () => {
    const s = await get<RatesSampleResponse>('/v1/rates/sample');
    expect(s.states).toEqual([
      { state: 'CA', filing_count: 1, received_date_range: null },
      { state: 'FL', filing_count: 2, received_date_range: { from: '2024-01-10', to: '2024-02-05' } },
      { state: 'TX', filing_count: 2, received_date_range: null },
    ]);
    // A null rate change and a decrease are not increases.
    expect(s.recent_large_increases.map((f) => [f.state, f.rate_change_pct])).toEqual([
      ['FL', 12.5],
      ['CA', 6.1],
      ['TX', 4],
    ]);
    expect(s.coverage_note).toContain('Admitted-market rate filings only');
  });

  it('/v1/syndicates/sample: a current year of account with no forecast has null capacity and result', async () => {
    const s = await get<SyndicatesSampleResponse>('/v1/syndicates/sample');
    expect([s.syndicate_count, s.with_forecast_count, s.forecast_years, s.edition]).toEqual([
      2,
      2,
      { from: 2022, to: 2023 },
      '30 September 2024',
    ]);
    const first = s.examples[0];
    expect(first.syndicate_no).toBe('1234');
    expect(first.years).toEqual([
      { year_of_account: 2022, capacity_gbp_000: 250000, estimated_result_pct: { worst: 5, best: 10 } },
      { year_of_account: 2023, capacity_gbp_000: 300000, estimated_result_pct: { worst: 12.5, best: 17.5 } },
      { year_of_account: 2024, capacity_gbp_000: null, estimated_result_pct: null },
    ]);
  });
});

describe('the real records', () => {
  const dataset = loadDataset(REAL_DATA);

  it('every record comes from a publication with its URL and date', () => {
    const all = Object.values(dataset.records).flat();
    expect(all.length).toBeGreaterThan(100);
    for (const r of all) {
      expect(r.pub.url, r.pub.file).toMatch(/^https?:\/\//);
      expect(r.pub.reportDate, r.pub.file).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('spot check against the page: MAP syndicate 2791 capacity for 2023 and 2024 (Argenta, Q3 2025 forecasts)', () => {
    const rows = dataset.records.syndicates.filter(
      (r) => r.values.syndicate_no === '2791' && r.pub.url.includes('MAPQ32025updatedforecasts'),
    );
    expect(rows.map((r) => [r.values.year_of_account, r.values.capacity_gbp_000])).toEqual([
      ['2023', 473906],
      ['2024', 650000],
    ]);
  });
});
