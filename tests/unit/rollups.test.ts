// Roll-ups, category sums and vintages on small datasets: the fixture plus a few publications written
// here. Expected values are computed by hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeriesShard, appendLines, asOf, publication, readJson, readTree, replaceOnce, rowOf, tempRoot, writeData } from './helpers.ts';

const tmp = tempRoot('rollups');
afterAll(() => tmp.cleanup());

const months = (year: number, skip: number[], row: (m: string) => string[]) =>
  Array.from({ length: 12 }, (_, i) => i + 1)
    .filter((m) => !skip.includes(m))
    .flatMap((m) => row(`${year}-${String(m).padStart(2, '0')}`));

describe('roll-ups from months', () => {
  let out: string;
  const series = (rel: string) => readJson<SeriesShard>(out, `private/series/${rel}`);
  beforeAll(() => {
    const data = tmp.fixtureCopy();
    // Q2 2024: every month has both percentages and a count.
    writeData(data, 'publications/office/2024-q2.csv', publication({ title: 'Q2 months', report_date: '2024-07-01', data_as_of: '2024-06-30' }, [
      'FL,2024-04,all,,,premium,100000.10,,',
      'FL,2024-04,all,,,policies,1001,,',
      'FL,2024-04,all,,,new_business_policy_pct,10,,',
      'FL,2024-04,all,,,renewal_policy_pct,90,,',
      'FL,2024-04,all,,,new_business_premium,50000.05,,',
      'FL,2024-05,all,,,premium,200000.20,,',
      'FL,2024-05,all,,,policies,2002,,',
      'FL,2024-05,all,,,new_business_policy_pct,20,,',
      'FL,2024-05,all,,,renewal_policy_pct,80,,',
      'FL,2024-05,all,,,new_business_premium,50000.05,,',
      'FL,2024-06,all,,,premium,300000.30,,',
      'FL,2024-06,all,,,policies,3003,,',
      'FL,2024-06,all,,,new_business_policy_pct,30,,',
      'FL,2024-06,all,,,renewal_policy_pct,70,,',
    ]));
    // 2022: all twelve months, premium 1234.56 and 1001 policies each.
    writeData(data, 'publications/office/2022-months.csv', publication({ title: '2022 months', report_date: '2023-01-20', data_as_of: '2022-12-31' },
      months(2022, [], (m) => [`FL,${m},all,,,premium,1234.56,,`, `FL,${m},all,,,policies,1001,,`])));
    // 2021: every month but July, premium 2000.01 and 1001 policies each.
    writeData(data, 'publications/office/2021-months.csv', publication({ title: '2021 months', report_date: '2022-01-20', data_as_of: '2021-12-31' },
      months(2021, [7], (m) => [`FL,${m},all,,,premium,2000.01,,`, `FL,${m},all,,,policies,1001,,`])));
    // 2023-Q1: percentages in every month, but February has no count.
    writeData(data, 'publications/office/2023-q1.csv', publication({ title: '2023 Q1 months', report_date: '2023-04-20', data_as_of: '2023-03-31' }, [
      'FL,2023-01,all,,,premium,1000.01,,',
      'FL,2023-01,all,,,policies,1001,,',
      'FL,2023-01,all,,,new_business_policy_pct,10,,',
      'FL,2023-02,all,,,premium,1000.01,,',
      'FL,2023-02,all,,,new_business_policy_pct,20,,',
      'FL,2023-03,all,,,premium,1000.01,,',
      'FL,2023-03,all,,,policies,1003,,',
      'FL,2023-03,all,,,new_business_policy_pct,30,,',
    ]));
    out = tmp.build(data);
  });

  it('weights the percentages by policy count when every month has both', () => {
    const q2 = rowOf(series('FL/all/quarter.json'), '2024-Q2')!;
    // premium: 100000.10 + 200000.20 + 300000.30 = 600000.60 (to the cent; naive float gives 600000.6000000001)
    // policy_count: 1001 + 2002 + 3003 = 6006
    // new_business_premium: June has none → null
    // new: (10*1001 + 20*2002 + 30*3003) / 6006 = (10010 + 40040 + 90090) / 6006 = 140140 / 6006 = 23.333… → 23.33
    //      (the unweighted mean would be 20)
    // renewal: (90*1001 + 80*2002 + 70*3003) / 6006 = (90090 + 160160 + 210210) / 6006 = 460460 / 6006 = 76.666… → 76.67
    expect(q2.snapshots).toEqual([['2024-07-01', '2024-07-01', '2024-06-30', 600000.6, 6006, null, null, 23.33, 76.67, false]]);
  });

  it('leaves percentages and count null when a month lacks the count', () => {
    // 2023-Q1: premium 1000.01 * 3 = 3000.03; February has no policies → count null → both shares null
    expect(rowOf(series('FL/all/quarter.json'), '2023-Q1')!.snapshots).toEqual([
      ['2023-04-20', '2023-04-20', '2023-03-31', 3000.03, null, null, null, null, null, false],
    ]);
  });

  it('sums a year only from all twelve months', () => {
    const years = series('FL/all/year.json');
    // 2022: 12 * 1234.56 = 14814.72, 12 * 1001 = 12012. 2021 lacks July; 2023 and 2024 are incomplete.
    expect(years.rows).toEqual([{ period: '2022', snapshots: [['2023-01-20', '2023-01-20', '2022-12-31', 14814.72, 12012, null, null, null, null, false]] }]);
    expect(years.count_unit).toBe('policies');
  });

  it('sums each complete quarter and skips the one with a missing month', () => {
    const q = series('FL/all/quarter.json');
    // 2021-Q3 lacks July; 2023-Q4 is the source's own row; 2024-Q1 from the fixture months
    expect(q.rows.map((r) => r.period)).toEqual([
      '2021-Q1', '2021-Q2', '2021-Q4', '2022-Q1', '2022-Q2', '2022-Q3', '2022-Q4', '2023-Q1', '2023-Q4', '2024-Q1', '2024-Q2',
    ]);
    // 2021 quarters: 3 * 2000.01 = 6000.03, 3 * 1001 = 3003; 2022: 3 * 1234.56 = 3703.68, 3003
    for (const p of ['2021-Q1', '2021-Q2', '2021-Q4'])
      expect(rowOf(q, p)!.snapshots).toEqual([['2022-01-20', '2022-01-20', '2021-12-31', 6000.03, 3003, null, null, null, null, false]]);
    for (const p of ['2022-Q1', '2022-Q2', '2022-Q3', '2022-Q4'])
      expect(rowOf(q, p)!.snapshots).toEqual([['2023-01-20', '2023-01-20', '2022-12-31', 3703.68, 3003, null, null, null, null, false]]);
  });

  it('updates coverage to the new ranges', () => {
    const fl = readJson(out, 'free/coverage.json')[0]; // FL sorts first (FL, IL, NY, TX)
    expect(fl.state).toBe('FL');
    // months 2021-01 .. 2024-06 (last printed 2024-07-01); quarters 2021-Q1 .. 2024-Q2; years 2022 only
    expect(fl.period_types).toEqual({
      month: { from: '2021-01', to: '2024-06', latest_report_date: '2024-07-01', count_unit: 'policies' },
      quarter: { from: '2021-Q1', to: '2024-Q2', latest_report_date: '2024-07-01', count_unit: 'policies' },
      year: { from: '2022', to: '2022', latest_report_date: '2023-01-20', count_unit: 'policies' },
    });
  });

  it('samples the latest 13 months', () => {
    const sample = readJson(out, 'free/sample/FL.json');
    // months present: 2021 (11), 2022 (12), 2023-01..03, 2024-01..06 → the last 13 are 2022-09 .. 2024-06
    expect(sample.data.map((r: { period: string }) => r.period)).toEqual([
      '2022-09', '2022-10', '2022-11', '2022-12', '2023-01', '2023-02', '2023-03',
      '2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06',
    ]);
    expect(sample.report_date).toBe('2024-07-01');
    expect(sample.data_as_of).toBe('2024-06-30');
  });
});

describe('a source-published quarter', () => {
  it('replaces the sum from the day it is published', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/2024-q2.csv', publication({ title: 'Q2 months', report_date: '2024-07-01', data_as_of: '2024-06-30' }, [
      'FL,2024-04,all,,,premium,100000.10,,',
      'FL,2024-05,all,,,premium,200000.20,,',
      'FL,2024-06,all,,,premium,300000.30,,',
    ]));
    writeData(data, 'publications/office/2024-q2-report.csv', publication({ title: 'Q2 report', report_date: '2024-08-01', data_as_of: '2024-06-30' }, [
      'FL,2024-Q2,all,,,premium,600000.99,,',
      'FL,2024-Q2,all,,,policies,6011,,',
    ]));
    const out = tmp.build(data);
    const q2 = rowOf(readJson<SeriesShard>(out, 'private/series/FL/all/quarter.json'), '2024-Q2')!;
    expect(q2.snapshots).toEqual([
      // 100000.10 + 200000.20 + 300000.30 = 600000.60; no month has policies → null; summed here: published false
      ['2024-07-01', '2024-07-01', '2024-06-30', 600000.6, null, null, null, null, null, false],
      // the source's own Q2 row, as printed: published true
      ['2024-08-01', '2024-08-01', '2024-06-30', 600000.99, 6011, null, null, null, null, true],
    ]);
    // published flips from false (the sum) to true (the printed row) on the day the row is published
    expect(asOf(q2, '2024-06-30')).toBeUndefined();
    expect(asOf(q2, '2024-07-01')![9]).toBe(false);
    expect(asOf(q2, '2024-07-31')![9]).toBe(false);
    expect(asOf(q2, '2024-08-01')![9]).toBe(true);
    expect(asOf(q2, '2099-01-01')![9]).toBe(true);
    // the months themselves stay as printed
    const months = readJson<SeriesShard>(out, 'private/series/FL/all/month.json');
    for (const m of ['2024-04', '2024-05', '2024-06']) expect(rowOf(months, m)!.snapshots.map((x) => x[9]), m).toEqual([true]);
  });
});

describe('restatements flow through roll-ups, categories and insurers', () => {
  let out: string;
  const series = (rel: string) => readJson<SeriesShard>(out, `private/series/${rel}`);
  beforeAll(() => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/2024-04.csv', publication({ title: 'April 2024', report_date: '2024-05-01', data_as_of: '2024-04-30' }, [
      'FL,2024-01,all,,,premium,1111111.12,,restated',
      'FL,2024-03,10,,,premium,100000.30,,restated',
      'FL,2024-03,5000,,,policies,2345,about,"printed as about 2,345"',
      'FL,2024-01,all,,Gamma Insurance Co,insurer_premium,410000.00,,restated',
    ]));
    out = tmp.build(data);
  });

  it('adds a month vintage and keeps the earlier ones', () => {
    expect(rowOf(series('FL/all/month.json'), '2024-01')!.snapshots).toEqual([
      ['2024-02-01', '2024-02-01', '2024-01-31', 1111111.11, 1001, null, null, 40, 60, true],
      ['2024-03-01', '2024-03-01', '2024-02-29', 1111111.11, 1011, null, null, 40, 60, true],
      ['2024-05-01', '2024-05-01', '2024-04-30', 1111111.12, 1011, null, null, 40, 60, true],
    ]);
  });

  it('re-sums the quarter as of the restatement', () => {
    const q1 = rowOf(series('FL/all/quarter.json'), '2024-Q1')!;
    expect(q1.snapshots).toEqual([
      // 1111111.11 + 1222222.22 + 1333333.33 = 3666666.66; 1011 + 1101 + 1203 = 3315
      ['2024-04-01', '2024-04-01', '2024-03-31', 3666666.66, 3315, null, null, null, null, false],
      // 1111111.12 + 1222222.22 + 1333333.33 = 3666666.67
      ['2024-05-01', '2024-05-01', '2024-04-30', 3666666.67, 3315, null, null, null, null, false],
    ]);
    expect(asOf(q1, '2024-04-30')![3]).toBe(3666666.66);
  });

  it('re-sums the category vintage by vintage', () => {
    expect(rowOf(series('FL/category-commercial-property/month.json'), '2024-03')!.snapshots).toEqual([
      // 500000.50 + 100000.25 = 600000.75; 401 + 51 = 452
      ['2024-04-01', '2024-04-01', '2024-03-31', 600000.75, 452, null, null, null, null, false],
      // 500000.50 + 100000.30 = 600000.80
      ['2024-05-01', '2024-05-01', '2024-04-30', 600000.8, 452, null, null, null, null, false],
    ]);
  });

  it('never serves a figure qualified with a word, even one with many digits ("about 2345")', () => {
    const line = series('FL/line-3/month.json');
    expect(line.rows).toEqual([
      { period: '2024-03', snapshots: [['2024-04-01', '2024-04-01', '2024-03-31', 200000.75, null, null, null, null, null, true]] },
    ]);
    for (const [f, bytes] of readTree(out)) expect(bytes.toString('utf8'), f).not.toMatch(/(?<![\d.])2345(?![\d.])/);
  });

  it('serves the latest vintage of an insurer, field by field', () => {
    expect(readJson(out, 'private/insurers/FL.json').periods).toEqual([
      {
        period: '2024-01',
        reportDate: '2024-05-01',
        dataAsOf: '2024-04-30',
        insurers: [
          { name: 'Alpha Insurance Co', premium: 250000, policy_count: null },
          { name: 'Beta Insurance Co', premium: 250000, policy_count: null },
          // premium restated 400000.00 → 410000.00; the 321 policies of 2024-01.csv stay
          { name: 'Gamma Insurance Co', premium: 410000, policy_count: 321 },
        ],
      },
    ]);
  });
});

describe('insurer year rankings summed from months (IL 2023)', () => {
  // il-2023-12.csv (report_date 2024-01-20, data_as_of 2023-12-31) lists, in each month 2023-01..12,
  // Delta Specialty Insurance Co 50000.05 and Epsilon E&S Co 60000.00, with no policy counts.
  const IL_2023 = 'publications/office/il-2023-12.csv';
  interface InsurerPeriod {
    period: string;
    reportDate: string;
    dataAsOf: string;
    insurers: { name: string; premium: number | null; policy_count: number | null }[];
  }
  const build = (edit: (data: string) => void) => {
    const data = tmp.fixtureCopy();
    edit(data);
    return readJson<{ state: string; periods: InsurerPeriod[] }>(tmp.build(data), 'private/insurers/IL.json').periods;
  };
  const period = (periods: InsurerPeriod[], p: string) => periods.find((x) => x.period === p);
  const MONTHS_2023 = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((m) => `2023-${m}`);

  it('sums the year when all twelve lists name the same insurers with exact premiums', () => {
    const periods = build(() => {});
    // Delta 12 * 50000.05 = 600000.60 (to the cent), Epsilon 12 * 60000.00 = 720000.00; no counts → null
    expect(period(periods, '2023')).toEqual({
      period: '2023',
      reportDate: '2024-01-20',
      dataAsOf: '2023-12-31',
      insurers: [
        { name: 'Delta Specialty Insurance Co', premium: 600000.6, policy_count: null },
        { name: 'Epsilon E&S Co', premium: 720000, policy_count: null },
      ],
    });
    // 2024 has one monthly list (2024-01): no year
    expect(periods.map((p) => p.period)).toEqual(['2023', ...MONTHS_2023, '2024-01']);
  });

  it('makes no year when one month lacks an insurer (Epsilon not listed in July)', () => {
    const periods = build((data) => {
      replaceOnce(data, IL_2023, 'IL,2023-07,all,,Epsilon E&S Co,insurer_premium,60000.00,,\n', '');
      replaceOnce(data, IL_2023, '# rows: 48\n', '# rows: 47\n');
    });
    expect(periods.map((p) => p.period)).toEqual([...MONTHS_2023, '2024-01']);
    expect(period(periods, '2023-07')!.insurers).toEqual([{ name: 'Delta Specialty Insurance Co', premium: 50000.05, policy_count: null }]);
  });

  it('makes no year when one month lists an extra insurer (Zeta in June only)', () => {
    const periods = build((data) => appendLines(data, IL_2023, 'IL,2023-06,all,,Zeta Surplus Co,insurer_premium,12345.67,,'));
    expect(periods.map((p) => p.period)).toEqual([...MONTHS_2023, '2024-01']);
    expect(period(periods, '2023-06')!.insurers.map((i) => i.name)).toEqual(['Delta Specialty Insurance Co', 'Epsilon E&S Co', 'Zeta Surplus Co']);
  });

  it('makes no year when one month has a rounded premium (Delta in May printed as about 50000)', () => {
    const periods = build((data) =>
      replaceOnce(data, IL_2023, 'IL,2023-05,all,,Delta Specialty Insurance Co,insurer_premium,50000.05,,', 'IL,2023-05,all,,Delta Specialty Insurance Co,insurer_premium,50000,rounded,'),
    );
    expect(periods.map((p) => p.period)).toEqual([...MONTHS_2023, '2024-01']);
    // the rounded premium is kept in the file, never served: null
    expect(period(periods, '2023-05')!.insurers).toEqual([
      { name: 'Delta Specialty Insurance Co', premium: null, policy_count: null },
      { name: 'Epsilon E&S Co', premium: 60000, policy_count: null },
    ]);
  });

  it('serves the source’s own year ranking instead of a sum where it prints one', () => {
    const periods = build((data) => appendLines(data, IL_2023, 'IL,2023,all,,Delta Specialty Insurance Co,insurer_premium,612345.67,,year list printed by the source'));
    // the printed 2023 list names Delta only, 612345.67; no 600000.60 / 720000.00 sum beside it
    expect(periods.filter((p) => p.period === '2023')).toEqual([
      { period: '2023', reportDate: '2024-01-20', dataAsOf: '2023-12-31', insurers: [{ name: 'Delta Specialty Insurance Co', premium: 612345.67, policy_count: null }] },
    ]);
  });
});

describe('count units', () => {
  it('serves transactions where a state prints transactions and items but no policies', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/ny-2024-01.csv', publication({ publisher: 'ELANY', title: 'NY January', report_date: '2024-02-15', data_as_of: '2024-01-31' }, [
      'NY,2024-01,all,,,premium,2345678.91,,',
      'NY,2024-01,all,,,items,4321,,',
      'NY,2024-01,all,,,transactions,3211,,',
    ]));
    appendLines(data, 'publications/office/2024-01.csv', 'FL,2024-01,all,,,transactions,1999,,a third unit');
    const out = tmp.build(data);
    const ny = readJson<SeriesShard>(out, 'private/series/NY/all/month.json');
    expect(ny.count_unit).toBe('transactions'); // policies > transactions > items
    expect(ny.rows).toEqual([{ period: '2024-01', snapshots: [['2024-02-15', '2024-02-15', '2024-01-31', 2345678.91, 3211, null, null, null, null, true]] }]);
    // FL prints policies: transactions 1999 and items 1501 are kept in the file, not served
    const fl = readJson<SeriesShard>(out, 'private/series/FL/all/month.json');
    expect(fl.count_unit).toBe('policies');
    expect(asOf(rowOf(fl, '2024-01'), '2024-02-01')![4]).toBe(1001);
    const coverage = readJson<{ state: string; period_types: Record<string, unknown> }[]>(out, 'free/coverage.json');
    expect(coverage.find((c) => c.state === 'NY')!.period_types.month).toEqual({ from: '2024-01', to: '2024-01', latest_report_date: '2024-02-15', count_unit: 'transactions' });
  });
});
