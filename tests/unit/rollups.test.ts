// Roll-ups, category sums and vintages on small datasets: the fixture plus a few publications written
// here. Expected values are computed by hand in the comments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SeriesShard,
  appendLines,
  asOf,
  cited,
  numberPaths,
  publication,
  readJson,
  replaceOnce,
  rowOf,
  tempRoot,
  writeData,
} from './helpers.ts';

const tmp = tempRoot('rollups');
afterAll(() => tmp.cleanup());

const months = (year: number, skip: number[], row: (m: string) => string[]) =>
  Array.from({ length: 12 }, (_, i) => i + 1)
    .filter((m) => !skip.includes(m))
    .flatMap((m) => row(`${year}-${String(m).padStart(2, '0')}`));

describe('roll-ups from months', () => {
  // index.json lists the publications by id (their path under publications/, in name order), and a snapshot's
  // sources column gives, for each figure shown, positions in that list: 0 2021-months, 1 2022-months,
  // 2 2023-q1, 3 2023-q4, 4 2024-01, 5 2024-02, 6 2024-03, 7 2024-q2 (then the IL and TX files); a sum
  // cites every part's. Summed rows carry no printed figure.
  let out: string;
  const series = (rel: string) => readJson<SeriesShard>(out, `private/series/${rel}`);
  beforeAll(() => {
    const data = tmp.fixtureCopy();
    // Q2 2024: every month has both percentages and a count.
    writeData(
      data,
      'publications/office/2024-q2.csv',
      publication({ title: 'Q2 months', report_date: '2024-07-01', data_as_of: '2024-06-30' }, [
        'FL,2024-04,all,,,premium,100000.10,,,',
        'FL,2024-04,all,,,policies,1001,,,',
        'FL,2024-04,all,,,new_business_policy_pct,10,,,',
        'FL,2024-04,all,,,renewal_policy_pct,90,,,',
        'FL,2024-04,all,,,new_business_premium,50000.05,,,',
        'FL,2024-05,all,,,premium,200000.20,,,',
        'FL,2024-05,all,,,policies,2002,,,',
        'FL,2024-05,all,,,new_business_policy_pct,20,,,',
        'FL,2024-05,all,,,renewal_policy_pct,80,,,',
        'FL,2024-05,all,,,new_business_premium,50000.05,,,',
        'FL,2024-06,all,,,premium,300000.30,,,',
        'FL,2024-06,all,,,policies,3003,,,',
        'FL,2024-06,all,,,new_business_policy_pct,30,,,',
        'FL,2024-06,all,,,renewal_policy_pct,70,,,',
      ]),
    );
    // 2022: all twelve months, premium 1234.56 and 1001 policies each.
    writeData(
      data,
      'publications/office/2022-months.csv',
      publication(
        { title: '2022 months', report_date: '2023-01-20', data_as_of: '2022-12-31' },
        months(2022, [], (m) => [`FL,${m},all,,,premium,1234.56,,,`, `FL,${m},all,,,policies,1001,,,`]),
      ),
    );
    // 2021: every month but July, premium 2000.01 and 1001 policies each.
    writeData(
      data,
      'publications/office/2021-months.csv',
      publication(
        { title: '2021 months', report_date: '2022-01-20', data_as_of: '2021-12-31' },
        months(2021, [7], (m) => [`FL,${m},all,,,premium,2000.01,,,`, `FL,${m},all,,,policies,1001,,,`]),
      ),
    );
    // 2023-Q1: percentages in every month, but February has no count.
    writeData(
      data,
      'publications/office/2023-q1.csv',
      publication({ title: '2023 Q1 months', report_date: '2023-04-20', data_as_of: '2023-03-31' }, [
        'FL,2023-01,all,,,premium,1000.01,,,',
        'FL,2023-01,all,,,policies,1001,,,',
        'FL,2023-01,all,,,new_business_policy_pct,10,,,',
        'FL,2023-02,all,,,premium,1000.01,,,',
        'FL,2023-02,all,,,new_business_policy_pct,20,,,',
        'FL,2023-03,all,,,premium,1000.01,,,',
        'FL,2023-03,all,,,policies,1003,,,',
        'FL,2023-03,all,,,new_business_policy_pct,30,,,',
      ]),
    );
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
    expect(q2.snapshots).toEqual([
      [
        '2024-07-01',
        '2024-07-01',
        '2024-06-30',
        600000.6,
        6006,
        null,
        null,
        23.33,
        76.67,
        false,
        cited([7], 'premium', 'policy_count', 'new_business_policy_pct', 'renewal_policy_pct'),
        null,
      ],
    ]);
  });

  it('leaves percentages and count null when a month lacks the count', () => {
    // 2023-Q1: premium 1000.01 * 3 = 3000.03; February has no policies → count null → both shares null
    expect(rowOf(series('FL/all/quarter.json'), '2023-Q1')!.snapshots).toEqual([
      [
        '2023-04-20',
        '2023-04-20',
        '2023-03-31',
        3000.03,
        null,
        null,
        null,
        null,
        null,
        false,
        cited([2], 'premium'),
        null,
      ],
    ]);
  });

  it('sums a year only from all twelve months', () => {
    const years = series('FL/all/year.json');
    // 2022: 12 * 1234.56 = 14814.72, 12 * 1001 = 12012. 2021 lacks July; 2023 and 2024 are incomplete.
    // Summed here (from months, or from the two half-years summed from them): published false.
    expect(years.rows).toEqual([
      {
        period: '2022',
        snapshots: [
          [
            '2023-01-20',
            '2023-01-20',
            '2022-12-31',
            14814.72,
            12012,
            null,
            null,
            null,
            null,
            false,
            cited([1], 'premium', 'policy_count'),
            null,
          ],
        ],
      },
    ]);
    expect(years.count_unit).toBe('policies');
  });

  it('sums a half-year only from its six months', () => {
    const h = series('FL/all/half_year.json');
    // 2021-H2 lacks July; 2023-H1 has January-March only; 2024-H2 has no month
    expect(h.rows.map((r) => r.period)).toEqual(['2021-H1', '2022-H1', '2022-H2', '2024-H1']);
    // 2021-H1: 6 * 2000.01 = 12000.06, 6 * 1001 = 6006; 2022 halves: 6 * 1234.56 = 7407.36, 6006
    expect(rowOf(h, '2021-H1')!.snapshots).toEqual([
      [
        '2022-01-20',
        '2022-01-20',
        '2021-12-31',
        12000.06,
        6006,
        null,
        null,
        null,
        null,
        false,
        cited([0], 'premium', 'policy_count'),
        null,
      ],
    ]);
    for (const p of ['2022-H1', '2022-H2'])
      expect(rowOf(h, p)!.snapshots).toEqual([
        [
          '2023-01-20',
          '2023-01-20',
          '2022-12-31',
          7407.36,
          6006,
          null,
          null,
          null,
          null,
          false,
          cited([1], 'premium', 'policy_count'),
          null,
        ],
      ]);
    // 2024-H1, complete once 2024-q2.csv is out: the fixture's 3666666.66 / 3315 (as in its 2024-Q1) plus
    // Q2's 600000.60 / 6006 = 4266667.26 / 9321. March prints no shares and the fixture months no
    // new-business premium: null. Premium: January's from 2024-01.csv, February's and March's from 2024-03.csv,
    // Q2's from 2024-q2.csv; policies: January's (restated) and February's from 2024-02.csv, March's, Q2's.
    expect(rowOf(h, '2024-H1')!.snapshots).toEqual([
      [
        '2024-07-01',
        '2024-07-01',
        '2024-06-30',
        4266667.26,
        9321,
        null,
        null,
        null,
        null,
        false,
        { premium: [4, 6, 7], policy_count: [5, 6, 7] },
        null,
      ],
    ]);
  });

  it('sums each complete quarter and skips the one with a missing month', () => {
    const q = series('FL/all/quarter.json');
    // 2021-Q3 lacks July; 2023-Q4 is the source's own row; 2024-Q1 from the fixture months
    expect(q.rows.map((r) => r.period)).toEqual([
      '2021-Q1',
      '2021-Q2',
      '2021-Q4',
      '2022-Q1',
      '2022-Q2',
      '2022-Q3',
      '2022-Q4',
      '2023-Q1',
      '2023-Q4',
      '2024-Q1',
      '2024-Q2',
    ]);
    // 2021 quarters: 3 * 2000.01 = 6000.03, 3 * 1001 = 3003; 2022: 3 * 1234.56 = 3703.68, 3003
    for (const p of ['2021-Q1', '2021-Q2', '2021-Q4'])
      expect(rowOf(q, p)!.snapshots).toEqual([
        [
          '2022-01-20',
          '2022-01-20',
          '2021-12-31',
          6000.03,
          3003,
          null,
          null,
          null,
          null,
          false,
          cited([0], 'premium', 'policy_count'),
          null,
        ],
      ]);
    for (const p of ['2022-Q1', '2022-Q2', '2022-Q3', '2022-Q4'])
      expect(rowOf(q, p)!.snapshots).toEqual([
        [
          '2023-01-20',
          '2023-01-20',
          '2022-12-31',
          3703.68,
          3003,
          null,
          null,
          null,
          null,
          false,
          cited([1], 'premium', 'policy_count'),
          null,
        ],
      ]);
  });

  it('updates coverage to the new ranges', () => {
    const fl = readJson(out, 'free/coverage.json')[0]; // FL sorts first (FL, IL, NY, TX)
    expect(fl.state).toBe('FL');
    // months 2021-01 .. 2024-06 (last printed 2024-07-01); quarters 2021-Q1 .. 2024-Q2; years 2022 only;
    // half-years from six complete months: 2021-H1, 2022-H1, 2022-H2 and 2024-H1 (2021-H2 lacks July,
    // 2023-H1 has Q1 only). Every one on FL's basis in bases.csv: the month, quarter and year rows there
    // say the same, so months may be summed into each.
    const basis = 'premium reported to the fixture office';
    // periods: the rows each granularity answers: months 11 + 12 + 3 + 6, the 11 quarters summed or printed above, 4 half-years, 1 year
    expect(fl.period_types).toEqual({
      month: {
        from: '2021-01',
        to: '2024-06',
        periods: 32,
        latest_report_date: '2024-07-01',
        count_unit: 'policies',
        basis,
      },
      quarter: {
        from: '2021-Q1',
        to: '2024-Q2',
        periods: 11,
        latest_report_date: '2024-07-01',
        count_unit: 'policies',
        basis,
      },
      half_year: {
        from: '2021-H1',
        to: '2024-H1',
        periods: 4,
        latest_report_date: '2024-07-01',
        count_unit: 'policies',
        basis,
      },
      year: { from: '2022', to: '2022', periods: 1, latest_report_date: '2023-01-20', count_unit: 'policies', basis },
    });
  });

  it('samples the latest 13 months', () => {
    const sample = readJson(out, 'free/sample/FL.json');
    // months present: 2021 (11), 2022 (12), 2023-01..03, 2024-01..06 → the last 13 are 2022-09 .. 2024-06
    expect(sample.data.map((r: { period: string }) => r.period)).toEqual([
      '2022-09',
      '2022-10',
      '2022-11',
      '2022-12',
      '2023-01',
      '2023-02',
      '2023-03',
      '2024-01',
      '2024-02',
      '2024-03',
      '2024-04',
      '2024-05',
      '2024-06',
    ]);
    expect(sample.report_date).toBe('2024-07-01');
    expect(sample.data_as_of).toBe('2024-06-30');
  });
});

describe('a source-published quarter', () => {
  it('replaces the sum from the day it is published', () => {
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/2024-q2.csv',
      publication({ title: 'Q2 months', report_date: '2024-07-01', data_as_of: '2024-06-30' }, [
        'FL,2024-04,all,,,premium,100000.10,,,',
        'FL,2024-05,all,,,premium,200000.20,,,',
        'FL,2024-06,all,,,premium,300000.30,,,',
      ]),
    );
    writeData(
      data,
      'publications/office/2024-q2-report.csv',
      publication({ title: 'Q2 report', report_date: '2024-08-01', data_as_of: '2024-06-30' }, [
        'FL,2024-Q2,all,,,premium,600000.99,,,',
        'FL,2024-Q2,all,,,policies,6011,,,',
      ]),
    );
    const out = tmp.build(data);
    const q2 = rowOf(readJson<SeriesShard>(out, 'private/series/FL/all/quarter.json'), '2024-Q2')!;
    // publications by id: 0 2023-q4, 1 2024-01, 2 2024-02, 3 2024-03, 4 2024-q2, 5 2024-q2-report
    expect(q2.snapshots).toEqual([
      // 100000.10 + 200000.20 + 300000.30 = 600000.60; no month has policies → null; summed here: published false
      [
        '2024-07-01',
        '2024-07-01',
        '2024-06-30',
        600000.6,
        null,
        null,
        null,
        null,
        null,
        false,
        cited([4], 'premium'),
        null,
      ],
      // the source's own Q2 row, as printed: published true, citing only the report that printed it
      [
        '2024-08-01',
        '2024-08-01',
        '2024-06-30',
        600000.99,
        6011,
        null,
        null,
        null,
        null,
        true,
        cited([5], 'premium', 'policy_count'),
        null,
      ],
    ]);
    // published flips from false (the sum) to true (the printed row) on the day the row is published
    expect(asOf(q2, '2024-06-30')).toBeUndefined();
    expect(asOf(q2, '2024-07-01')![9]).toBe(false);
    expect(asOf(q2, '2024-07-31')![9]).toBe(false);
    expect(asOf(q2, '2024-08-01')![9]).toBe(true);
    expect(asOf(q2, '2099-01-01')![9]).toBe(true);
    // the months themselves stay as printed
    const months = readJson<SeriesShard>(out, 'private/series/FL/all/month.json');
    for (const m of ['2024-04', '2024-05', '2024-06'])
      expect(
        rowOf(months, m)!.snapshots.map((x) => x[9]),
        m,
      ).toEqual([true]);
  });
});

describe('restatements flow through roll-ups, categories and insurers', () => {
  // publications by id: 0 2023-q4, 1 2024-01, 2 2024-02, 3 2024-03, 4 2024-04 (then the IL and TX files)
  let out: string;
  const series = (rel: string) => readJson<SeriesShard>(out, `private/series/${rel}`);
  beforeAll(() => {
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/2024-04.csv',
      publication({ title: 'April 2024', report_date: '2024-05-01', data_as_of: '2024-04-30' }, [
        'FL,2024-01,all,,,premium,1111111.12,,,restated',
        'FL,2024-03,10,,,premium,100000.30,,,restated',
        'FL,2024-03,5000,,,policies,2345,about,"about 2,345",',
        'FL,2024-01,all,,Gamma Insurance Co,insurer_premium,410000.00,,,restated',
      ]),
    );
    out = tmp.build(data);
  });

  it('adds a month vintage and keeps the earlier ones', () => {
    // 2024-01.csv also prints items 1501, a count in another unit than FL's policies: printed, in every vintage
    const items = { items: { value: 1501, as_printed: null } };
    const fromJanuary = cited(
      [1],
      'premium',
      'policy_count',
      'new_business_policy_pct',
      'renewal_policy_pct',
      'printed.items',
    );
    expect(rowOf(series('FL/all/month.json'), '2024-01')!.snapshots).toEqual([
      ['2024-02-01', '2024-02-01', '2024-01-31', 1111111.11, 1001, null, null, 40, 60, true, fromJanuary, items],
      // policies from 2024-02.csv, the rest from 2024-01.csv
      [
        '2024-03-01',
        '2024-03-01',
        '2024-02-29',
        1111111.11,
        1011,
        null,
        null,
        40,
        60,
        true,
        { ...fromJanuary, policy_count: [2] },
        items,
      ],
      // premium from 2024-04.csv, policies from 2024-02.csv, the shares and items from 2024-01.csv
      [
        '2024-05-01',
        '2024-05-01',
        '2024-04-30',
        1111111.12,
        1011,
        null,
        null,
        40,
        60,
        true,
        { ...fromJanuary, policy_count: [2], premium: [4] },
        items,
      ],
    ]);
  });

  it('re-sums the quarter as of the restatement', () => {
    const q1 = rowOf(series('FL/all/quarter.json'), '2024-Q1')!;
    expect(q1.snapshots).toEqual([
      // 1111111.11 + 1222222.22 + 1333333.33 = 3666666.66 (premiums of 2024-01.csv, then 2024-03.csv twice);
      // 1011 + 1101 + 1203 = 3315 (2024-02.csv twice, 2024-03.csv)
      [
        '2024-04-01',
        '2024-04-01',
        '2024-03-31',
        3666666.66,
        3315,
        null,
        null,
        null,
        null,
        false,
        { premium: [1, 3], policy_count: [2, 3] },
        null,
      ],
      // 1111111.12 + 1222222.22 + 1333333.33 = 3666666.67, January's premium now from 2024-04.csv
      [
        '2024-05-01',
        '2024-05-01',
        '2024-04-30',
        3666666.67,
        3315,
        null,
        null,
        null,
        null,
        false,
        { premium: [3, 4], policy_count: [2, 3] },
        null,
      ],
    ]);
    expect(asOf(q1, '2024-04-30')![3]).toBe(3666666.66);
  });

  it('re-sums the category vintage by vintage', () => {
    expect(rowOf(series('FL/category-commercial-property/month.json'), '2024-03')!.snapshots).toEqual([
      // 500000.50 + 100000.25 = 600000.75; 401 + 51 = 452
      [
        '2024-04-01',
        '2024-04-01',
        '2024-03-31',
        600000.75,
        452,
        null,
        null,
        null,
        null,
        false,
        cited([3], 'premium', 'policy_count'),
        null,
      ],
      // 500000.50 + 100000.30 = 600000.80: line 10's premium from 2024-04.csv
      [
        '2024-05-01',
        '2024-05-01',
        '2024-04-30',
        600000.8,
        452,
        null,
        null,
        null,
        null,
        false,
        { premium: [3, 4], policy_count: [3] },
        null,
      ],
    ]);
  });

  it('never puts a figure qualified with a word in a series field, even one with many digits ("about 2345"): it is printed', () => {
    const line = series('FL/line-3/month.json');
    expect(line.rows).toEqual([
      {
        period: '2024-03',
        snapshots: [
          [
            '2024-04-01',
            '2024-04-01',
            '2024-03-31',
            200000.75,
            null,
            null,
            null,
            null,
            null,
            true,
            cited([3], 'premium'),
            null,
          ],
          // 2024-04.csv: `FL,2024-03,5000,,,policies,2345,about,"about 2,345",`: policy_count stays null
          [
            '2024-05-01',
            '2024-05-01',
            '2024-04-30',
            200000.75,
            null,
            null,
            null,
            null,
            null,
            true,
            { premium: [3], 'printed.policies': [4] },
            { policies: { value: 2345, as_printed: 'about 2,345', qualifier: 'about' } },
          ],
        ],
      },
    ]);
    // 2345 is nowhere but in that printed entry
    expect(numberPaths(out, 2345)).toEqual([
      'private/series/FL/line-3/month.json rows.0.snapshots.1.11.policies.value',
    ]);
  });

  it('leaves a category sum as it was when a line gains only a printed figure (General Liability = line 5000)', () => {
    // The April figure of line 5000 is qualified: the category shows none of it (categories carry no printed
    // figures), so its row neither changes on 2024-05-01 nor cites 2024-04.csv.
    expect(series('FL/category-general-liability/month.json').rows).toEqual([
      {
        period: '2024-03',
        snapshots: [
          [
            '2024-04-01',
            '2024-04-01',
            '2024-03-31',
            200000.75,
            null,
            null,
            null,
            null,
            null,
            false,
            cited([3], 'premium'),
            null,
          ],
        ],
      },
    ]);
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
        // the list shows figures of both
        publications: [1, 4],
      },
    ]);
  });
});

describe('insurer year rankings summed from months (IL 2023)', () => {
  // il-2023-12.csv (report_date 2024-01-20, data_as_of 2023-12-31) lists, in each month 2023-01..12,
  // Delta Specialty Insurance Co 50000.05 and Epsilon E&S Co 60000.00, with no policy counts. It is the
  // fixture's publication 5 by id (2023-q4, 2024-01, 2024-02, 2024-03, il-2022-annual, il-2023-12, ...).
  const IL_2023 = 'publications/office/il-2023-12.csv';
  interface InsurerPeriod {
    period: string;
    reportDate: string;
    dataAsOf: string;
    insurers: { name: string; premium: number | null; policy_count: number | null }[];
    publications: number[];
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
      publications: [5],
    });
    // 2024 has one monthly list (2024-01): no year
    expect(periods.map((p) => p.period)).toEqual(['2023', ...MONTHS_2023, '2024-01']);
  });

  it('makes no year when one month lacks an insurer (Epsilon not listed in July)', () => {
    const periods = build((data) => {
      replaceOnce(data, IL_2023, 'IL,2023-07,all,,Epsilon E&S Co,insurer_premium,60000.00,,,\n', '');
      replaceOnce(data, IL_2023, '# rows: 48\n', '# rows: 47\n');
    });
    expect(periods.map((p) => p.period)).toEqual([...MONTHS_2023, '2024-01']);
    expect(period(periods, '2023-07')!.insurers).toEqual([
      { name: 'Delta Specialty Insurance Co', premium: 50000.05, policy_count: null },
    ]);
  });

  it('makes no year when one month lists an extra insurer (Zeta in June only)', () => {
    const periods = build((data) =>
      appendLines(data, IL_2023, 'IL,2023-06,all,,Zeta Surplus Co,insurer_premium,12345.67,,,'),
    );
    expect(periods.map((p) => p.period)).toEqual([...MONTHS_2023, '2024-01']);
    expect(period(periods, '2023-06')!.insurers.map((i) => i.name)).toEqual([
      'Delta Specialty Insurance Co',
      'Epsilon E&S Co',
      'Zeta Surplus Co',
    ]);
  });

  it('makes no year when one month has a rounded premium (Delta in May printed as about 50000)', () => {
    const periods = build((data) =>
      replaceOnce(
        data,
        IL_2023,
        'IL,2023-05,all,,Delta Specialty Insurance Co,insurer_premium,50000.05,,,',
        'IL,2023-05,all,,Delta Specialty Insurance Co,insurer_premium,50000,rounded,fixture words,',
      ),
    );
    expect(periods.map((p) => p.period)).toEqual([...MONTHS_2023, '2024-01']);
    // the rounded premium is kept in the file, never served: null
    expect(period(periods, '2023-05')!.insurers).toEqual([
      { name: 'Delta Specialty Insurance Co', premium: null, policy_count: null },
      { name: 'Epsilon E&S Co', premium: 60000, policy_count: null },
    ]);
  });

  it('serves the source’s own year ranking instead of a sum where it prints one', () => {
    const periods = build((data) =>
      appendLines(
        data,
        IL_2023,
        'IL,2023,all,,Delta Specialty Insurance Co,insurer_premium,612345.67,,,year list printed by the source',
      ),
    );
    // the printed 2023 list names Delta only, 612345.67; no 600000.60 / 720000.00 sum beside it
    expect(periods.filter((p) => p.period === '2023')).toEqual([
      {
        period: '2023',
        reportDate: '2024-01-20',
        dataAsOf: '2023-12-31',
        insurers: [{ name: 'Delta Specialty Insurance Co', premium: 612345.67, policy_count: null }],
        publications: [5],
      },
    ]);
  });
});

describe('count units', () => {
  it('serves transactions where a state prints transactions and items but no policies', () => {
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/ny-2024-01.csv',
      publication({ publisher: 'ELANY', title: 'NY January', report_date: '2024-02-15', data_as_of: '2024-01-31' }, [
        'NY,2024-01,all,,,premium,2345678.91,,,',
        'NY,2024-01,all,,,items,4321,,,',
        'NY,2024-01,all,,,transactions,3211,,,',
      ]),
    );
    appendLines(data, 'publications/office/2024-01.csv', 'FL,2024-01,all,,,transactions,1999,,,a third unit');
    // every state and period type with figures needs its basis (the fixture has none for NY)
    const basis = 'premium reported to ELANY (test)';
    appendLines(data, 'bases.csv', `NY,month,${basis},`);
    const out = tmp.build(data);
    const ny = readJson<SeriesShard>(out, 'private/series/NY/all/month.json');
    expect(ny.count_unit).toBe('transactions'); // policies > transactions > items
    // publications by id: 2023-q4, 2024-01, 2024-02, 2024-03, il-2022-annual, il-2023-12, il-2024-02, ny-2024-01 (7), tx
    // NY's items, a count in another unit than its transactions, are printed beside them
    const printedCount = (value: number) => ({ value, as_printed: null });
    expect(ny.rows).toEqual([
      {
        period: '2024-01',
        snapshots: [
          [
            '2024-02-15',
            '2024-02-15',
            '2024-01-31',
            2345678.91,
            3211,
            null,
            null,
            null,
            null,
            true,
            cited([7], 'premium', 'policy_count', 'printed.items'),
            { items: printedCount(4321) },
          ],
        ],
      },
    ]);
    // FL prints policies: transactions 1999 and items 1501 never fill policy_count; they are printed
    const fl = readJson<SeriesShard>(out, 'private/series/FL/all/month.json');
    expect(fl.count_unit).toBe('policies');
    const jan = asOf(rowOf(fl, '2024-01'), '2024-02-01')!;
    expect(jan[4]).toBe(1001);
    expect(jan[11]).toEqual({ items: printedCount(1501), transactions: printedCount(1999) });
    const coverage = readJson<{ state: string; period_types: Record<string, unknown> }[]>(out, 'free/coverage.json');
    expect(coverage.find((c) => c.state === 'NY')!.period_types.month).toEqual({
      from: '2024-01',
      to: '2024-01',
      periods: 1,
      latest_report_date: '2024-02-15',
      count_unit: 'transactions',
      basis,
    });
  });
});
