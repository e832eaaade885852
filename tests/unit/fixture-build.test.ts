// The shards built from tests/fixtures/data. Every expected value is read off the fixture files by hand:
//   office/2023-q4.csv          report_date 2024-01-15, data_as_of 2023-12-31 (FL 2023-Q4, FL 2023 counties)
//   office/2024-01.csv          report_date 2024-02-01, data_as_of 2024-01-31 (FL 2024-01, insurers)
//   office/2024-02.csv          report_date 2024-03-01, data_as_of 2024-02-29 (FL 2024-02, restates 2024-01)
//   office/2024-03.csv          report_date 2024-04-01, data_as_of 2024-03-31 (FL 2024-03, lines, back-fills 2024-02)
//   office/tx-2023-annual.csv   report_date 2024-02-10, data_as_of 2023-12-31 (TX 2023, TX 2023-H1)
//   office/il-2022-annual.csv   report_date 2023-02-15, data_as_of 2022-12-31 (IL 2022 year, IL 2022-12)
//   office/il-2023-12.csv       report_date 2024-01-20, data_as_of 2023-12-31 (IL 2023-01..12, two insurers a month)
//   office/il-2024-02.csv       report_date 2024-03-20, data_as_of 2024-02-29 (IL 2024-01..02, one insurer in 2024-01)
// bases.csv gives FL month/quarter/year and IL month/year one basis each, TX half_year (WSIA's) and year
// (the office's) two different ones.
// Snapshot column `published` is true for a row the source printed for that very period and false for
// one the ingest summed (quarter/half-year/year roll-ups, category sums). The next column names, for each
// figure the row shows (a non-null series field, or `printed.<key>`), the publications it comes from (a
// sum: those of every part), as positions in index.json's list of publications, which is in id order
// (the path under publications/):
//   0 office/2023-q4, 1 office/2024-01, 2 office/2024-02, 3 office/2024-03, 4 office/il-2022-annual,
//   5 office/il-2023-12, 6 office/il-2024-02, 7 office/tx-2023-annual.
// `printed` is null or the figures printed for the period that fill no series field (docs/design.md §9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildShards } from '../../ingest/build.ts';
import {
  FIXTURE_DATA,
  type SeriesShard,
  type SnapshotTuple,
  asOf,
  cited,
  numberPaths,
  readJson,
  readTree,
  rowOf,
  tempRoot,
} from './helpers.ts';

const tmp = tempRoot('fixture');
let out: string;
let files: string[];
afterAll(() => tmp.cleanup());
beforeAll(() => {
  out = tmp.build(FIXTURE_DATA);
  files = [...readTree(out).keys()];
});

const COLUMNS = [
  'as_of',
  'report_date',
  'data_as_of',
  'premium',
  'policy_count',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
  'published',
  'sources',
  'printed',
];
/** 2024-01.csv: `FL,2024-01,all,,,items,1501,,,...`: exact, but in another unit than FL's policies: printed. */
const JAN_ITEMS = { items: { value: 1501, as_printed: null } };
/** What 2024-01.csv prints for FL January: premium, policies, both shares, and items (printed). */
const JAN_FIGURES = ['premium', 'policy_count', 'new_business_policy_pct', 'renewal_policy_pct', 'printed.items'];
/** What 2024-02.csv prints for FL February: policies, both shares, and the rounded premium (printed). */
const FEB_FIGURES = ['policy_count', 'new_business_policy_pct', 'renewal_policy_pct', 'printed.premium'];
/** 2024-02.csv: `FL,2024-02,all,,,premium,1200000,rounded,$1.2M,`: rounded, so printed, never the premium field. */
const FEB_ROUNDED = { premium: { value: 1200000, as_printed: '$1.2M', qualifier: 'rounded' } };
const shard = (rel: string) => readJson<SeriesShard>(out, `private/series/${rel}`);
const allSnapshots = (s: SeriesShard): SnapshotTuple[] => s.rows.flatMap((r) => r.snapshots);
const seriesFiles = () => files.filter((f) => f.startsWith('private/series/'));

describe('build result', () => {
  it('reports what it read and wrote', () => {
    const dir = tmp.dir('result');
    const r = buildShards(FIXTURE_DATA, `${dir}/shards`);
    // 8 publication files; figure rows: 5 (2023-q4) + 9 (2024-01) + 5 (2024-02) + 9 (2024-03) + 3 (tx) = 31 for FL/TX,
    // plus IL: 4 (il-2022-annual) + 12 months * 4 (il-2023-12: premium, policies, two insurers) = 48 + 6 (il-2024-02) = 58
    // → 31 + 58 = 89; and one ranking file (rankings/office/tx-2021-top-companies.csv), a publication too
    expect(r.publications).toBe(9);
    expect(r.figures).toBe(89);
    expect(r.files).toBe(readTree(`${dir}/shards`).size);
  });
});

describe('private series shards: which exist', () => {
  it('are exactly the served series of the fixture', () => {
    // FL all: months 2024-01..03; quarters 2023-Q4 (printed) and 2024-Q1 (summed); no year (2024 has 3 months).
    // FL counties: 2023 annual rows for MIAMI-DADE and Broward (→ BROWARD).
    // FL lines 2, 10, 5000, Contingency (ids 1-4): March 2024 only, so no quarter/year of their own.
    // Categories: Commercial Property (lines 2, 10), General Liability (5000); Contingency has none.
    // TX: 2023 year; 2023-H1 half year (a granularity now). Not summed into each other: their bases differ.
    // IL all: months 2022-12, 2023-01..12, 2024-01..02; quarters 2023-Q1..Q4 and half-years 2023-H1..H2
    //   (summed); years 2022 (printed) and 2023 (summed). IL has no lines file and no county rows.
    expect(seriesFiles().sort()).toEqual(
      [
        'private/series/IL/all/half_year.json',
        'private/series/IL/all/month.json',
        'private/series/IL/all/quarter.json',
        'private/series/IL/all/year.json',
        'private/series/FL/all/counties/broward/year.json',
        'private/series/FL/all/counties/miami-dade/year.json',
        'private/series/FL/all/month.json',
        'private/series/FL/all/quarter.json',
        'private/series/FL/category-commercial-property/month.json',
        'private/series/FL/category-general-liability/month.json',
        'private/series/FL/line-1/month.json',
        'private/series/FL/line-2/month.json',
        'private/series/FL/line-3/month.json',
        'private/series/FL/line-4/month.json',
        'private/series/TX/all/half_year.json',
        'private/series/TX/all/year.json',
      ].sort(),
    );
  });

  it('every shard has the twelve snapshot columns and snapshots in as_of order', () => {
    for (const f of seriesFiles()) {
      const s = readJson<SeriesShard>(out, f);
      expect(s.columns).toEqual(COLUMNS);
      const periods = s.rows.map((r) => r.period);
      expect(periods).toEqual([...periods].sort());
      for (const r of s.rows) {
        expect(r.snapshots.length).toBeGreaterThan(0);
        for (const snap of r.snapshots) {
          expect(snap).toHaveLength(12);
          expect(typeof snap[9]).toBe('boolean');
          // the sources name exactly the figures shown: the non-null series fields and the printed ones
          const shown = [
            ...COLUMNS.slice(3, 9).filter((_, i) => snap[3 + i] !== null),
            ...Object.keys(snap[11] ?? {}).map((k) => `printed.${k}`),
          ];
          expect(Object.keys(snap[10]).sort(), f).toEqual(shown.sort());
          // each by at least one publication, each once, ascending, each one of index.json's 8
          for (const positions of Object.values(snap[10])) {
            expect(positions.length).toBeGreaterThan(0);
            expect(positions).toEqual([...new Set(positions)].sort((a, b) => a - b));
            for (const i of positions) expect(Number.isInteger(i) && i >= 0 && i < 8, `${i}`).toBe(true);
          }
          expect(snap[11] === null || (typeof snap[11] === 'object' && Object.keys(snap[11]).length > 0)).toBe(true);
        }
        const dates = r.snapshots.map((x) => x[0]);
        expect(dates).toEqual([...dates].sort());
        expect(new Set(dates).size).toBe(dates.length);
      }
    }
  });
});

describe('vintages (FL all-lines months)', () => {
  it('keeps both vintages of the restated January policy count: 1001, then 1011', () => {
    const s = shard('FL/all/month.json');
    expect(s.count_unit).toBe('policies');
    expect(rowOf(s, '2024-01')!.snapshots).toEqual([
      // 2024-01.csv: premium 1111111.11, policies 1001, new 40 %, renewal 60 % (and items, printed)
      [
        '2024-02-01',
        '2024-02-01',
        '2024-01-31',
        1111111.11,
        1001,
        null,
        null,
        40,
        60,
        true,
        cited([1], ...JAN_FIGURES),
        JAN_ITEMS,
      ],
      // 2024-02.csv restates policies only: 1011; the other fields keep their earlier values and sources
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
        { ...cited([1], ...JAN_FIGURES), policy_count: [2] },
        JAN_ITEMS,
      ],
    ]);
  });

  it('answers as of a date with the last vintage published on or before it', () => {
    const jan = rowOf(shard('FL/all/month.json'), '2024-01');
    expect(asOf(jan, '2024-01-31')).toBeUndefined(); // before the first publication
    expect(asOf(jan, '2024-02-01')![4]).toBe(1001);
    expect(asOf(jan, '2024-02-29')![4]).toBe(1001);
    expect(asOf(jan, '2024-03-01')![4]).toBe(1011);
    expect(asOf(jan, '2099-01-01')![4]).toBe(1011);
  });

  it('leaves February premium null until the 2024-04-01 report back-fills 1222222.22', () => {
    const feb = rowOf(shard('FL/all/month.json'), '2024-02')!;
    expect(feb.snapshots).toEqual([
      // 2024-02.csv printed premium only as "$1.2M" (qualifier rounded) → null, and printed; policies 1101, 50 % / 50 %
      [
        '2024-03-01',
        '2024-03-01',
        '2024-02-29',
        null,
        1101,
        null,
        null,
        50,
        50,
        true,
        cited([2], ...FEB_FIGURES),
        FEB_ROUNDED,
      ],
      // 2024-03.csv prints it exactly: 1222222.22; the rest is kept. "$1.2M" agrees with it to its own precision
      // (0.1M), so it was a shortened citation, not a restatement (docs/design.md §1): from then on it is not printed
      [
        '2024-04-01',
        '2024-04-01',
        '2024-03-31',
        1222222.22,
        1101,
        null,
        null,
        50,
        50,
        true,
        { ...cited([2], ...FEB_FIGURES.filter((f) => f !== 'printed.premium')), premium: [3] },
        null,
      ],
    ]);
    expect(asOf(feb, '2024-03-31')![3]).toBeNull();
    expect(asOf(feb, '2024-04-01')![3]).toBe(1222222.22);
  });

  it('has March from its first publication only', () => {
    expect(rowOf(shard('FL/all/month.json'), '2024-03')!.snapshots).toEqual([
      [
        '2024-04-01',
        '2024-04-01',
        '2024-03-31',
        1333333.33,
        1203,
        null,
        null,
        null,
        null,
        true,
        cited([3], 'premium', 'policy_count'),
        null,
      ],
    ]);
  });

  it('never puts a qualified figure in a series field: the rounded 1200000 is only ever printed', () => {
    // February's month row until the exact 1222222.22 it agrees with is published (then it is a shortened
    // citation, no longer shown: docs/design.md §1), so not in the free sample's latest February row either
    expect(numberPaths(out, 1200000)).toEqual(['private/series/FL/all/month.json rows.1.snapshots.0.11.premium.value']);
  });

  it('does not serve items (the second unit) as policy_count where policies exist', () => {
    // 2024-01.csv prints items 1501 beside policies 1001: FL's monthly unit is policies.
    for (const f of seriesFiles().filter((f) => f.startsWith('private/series/FL/'))) {
      const s = readJson<SeriesShard>(out, f);
      expect(s.count_unit, f).toBe('policies');
      for (const snap of allSnapshots(s)) expect(snap[4], f).not.toBe(1501);
    }
    // it is printed on January's row (both vintages) and in the sample, nowhere else
    expect(numberPaths(out, 1501)).toEqual([
      'free/sample/FL.json data.0.printed.items.value',
      'private/series/FL/all/month.json rows.0.snapshots.0.11.items.value',
      'private/series/FL/all/month.json rows.0.snapshots.1.11.items.value',
    ]);
  });

  it('serves items as policy_count where they are the only unit (TX 2023)', () => {
    const s = shard('TX/all/year.json');
    expect(s).toMatchObject({ state: 'TX', line: 'all', county: null, granularity: 'year', count_unit: 'items' });
    expect(s.rows).toEqual([
      {
        period: '2023',
        snapshots: [
          [
            '2024-02-10',
            '2024-02-10',
            '2023-12-31',
            9876543210,
            654321,
            null,
            null,
            null,
            null,
            true,
            cited([7], 'premium', 'policy_count'),
            null,
          ],
        ],
      },
    ]);
  });

  it('serves the half year TX printed (premium only), apart from its year on another basis', () => {
    const s = shard('TX/all/half_year.json');
    // tx-2023-annual.csv: TX 2023-H1 premium 4567890123, no count; as printed
    expect(s).toMatchObject({ state: 'TX', line: 'all', county: null, granularity: 'half_year', count_unit: null });
    expect(s.rows).toEqual([
      {
        period: '2023-H1',
        snapshots: [
          [
            '2024-02-10',
            '2024-02-10',
            '2023-12-31',
            4567890123,
            null,
            null,
            null,
            null,
            null,
            true,
            cited([7], 'premium'),
            null,
          ],
        ],
      },
    ]);
  });
});

describe('quarter and year roll-ups', () => {
  it('uses the source-published 2023-Q4 row as printed', () => {
    // 2023-q4.csv: premium 3456789.00, policies 3001; no months of 2023 exist. Printed by the source: published.
    expect(rowOf(shard('FL/all/quarter.json'), '2023-Q4')!.snapshots).toEqual([
      [
        '2024-01-15',
        '2024-01-15',
        '2023-12-31',
        3456789,
        3001,
        null,
        null,
        null,
        null,
        true,
        cited([0], 'premium', 'policy_count'),
        null,
      ],
    ]);
  });

  it('sums 2024-Q1 from months, only from 2024-04-01 when all three months exist', () => {
    const s = shard('FL/all/quarter.json');
    expect(s.count_unit).toBe('policies');
    expect(s.rows.map((r) => r.period)).toEqual(['2023-Q4', '2024-Q1']);
    // As of 2024-04-01: Jan 1111111.11 / 1011 (restated), Feb 1222222.22 / 1101 (back-filled), Mar 1333333.33 / 1203.
    // premium 1111111.11 + 1222222.22 + 1333333.33 = 3666666.66; policy_count 1011 + 1101 + 1203 = 3315.
    // The percentages are null: March prints none. Report date and data_as_of are those of 2024-03.csv.
    // Summed here, so published is false. Each sum cites its months' sources: premium Jan 2024-01.csv,
    // Feb and Mar 2024-03.csv; policies Jan and Feb 2024-02.csv, Mar 2024-03.csv. It prints nothing of its
    // own (the months' printed figures are for the months).
    expect(rowOf(s, '2024-Q1')!.snapshots).toEqual([
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
    ]);
    expect(asOf(rowOf(s, '2024-Q1'), '2024-03-31')).toBeUndefined(); // Feb and Jan exist, March does not
  });

  it('produces no year from an incomplete set of months (FL 2024 has 3) and keeps counties out of statewide years', () => {
    expect(files).not.toContain('private/series/FL/all/year.json');
    for (const id of [1, 2, 3, 4]) {
      expect(files).not.toContain(`private/series/FL/line-${id}/quarter.json`);
      expect(files).not.toContain(`private/series/FL/line-${id}/year.json`);
    }
  });

  it('sums a category to the cent: Commercial Property = lines 2 and 10 for 2024-03', () => {
    const s = shard('FL/category-commercial-property/month.json');
    expect(s).toMatchObject({
      state: 'FL',
      line: 'Commercial Property',
      county: null,
      granularity: 'month',
      count_unit: 'policies',
    });
    // line 2: 500000.50 / 401; line 10: 100000.25 / 51 → 600000.75 / 452; a category sum: published false
    expect(s.rows).toEqual([
      {
        period: '2024-03',
        snapshots: [
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
        ],
      },
    ]);
  });

  it('sums General Liability from its one line, with a null count because line 5000 prints none', () => {
    const s = shard('FL/category-general-liability/month.json');
    // one line's value, but still a category sum made here: published false
    expect(s.line).toBe('General Liability');
    expect(s.rows).toEqual([
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

  it('makes no category shard for a line without a category (Contingency)', () => {
    const categoryDirs = [
      ...new Set(
        seriesFiles()
          .filter((f) => f.includes('/category-'))
          .map((f) => f.split('/')[3]),
      ),
    ];
    expect(categoryDirs.sort()).toEqual(['category-commercial-property', 'category-general-liability']);
    const index = readJson(out, 'private/index.json');
    expect(index.states.FL.categories).toEqual([
      { name: 'Commercial Property', dir: 'category-commercial-property' },
      { name: 'General Liability', dir: 'category-general-liability' },
    ]);
  });
});

describe('IL: printed months and year, summed quarters and year', () => {
  // il-2023-12.csv prints month m of 2023 (m = 1..12) as premium 1000000.25 + 1000 * m and policies 1001 + 12 * m
  // (1001000.25 / 1013 in January .. 1012000.25 / 1145 in December).
  const IL_2023 = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map((mm, i) => ({
    period: `2023-${mm}`,
    premium: 1000000.25 + 1000 * (i + 1),
    policies: 1001 + 12 * (i + 1),
  }));
  /** IL prints premium and policies, both from one publication: il-2022-annual (4), il-2023-12 (5), il-2024-02 (6). */
  const IL_BOTH = (position: number) => cited([position], 'premium', 'policy_count');

  it('keeps every month as printed (published), from the publication that printed it', () => {
    const s = shard('IL/all/month.json');
    expect(s).toMatchObject({ state: 'IL', line: 'all', county: null, granularity: 'month', count_unit: 'policies' });
    expect(s.rows).toEqual([
      // il-2022-annual.csv prints December 2022 beside the year
      {
        period: '2022-12',
        snapshots: [
          ['2023-02-15', '2023-02-15', '2022-12-31', 987654.32, 1234, null, null, null, null, true, IL_BOTH(4), null],
        ],
      },
      ...IL_2023.map((m) => ({
        period: m.period,
        snapshots: [
          [
            '2024-01-20',
            '2024-01-20',
            '2023-12-31',
            m.premium,
            m.policies,
            null,
            null,
            null,
            null,
            true,
            IL_BOTH(5),
            null,
          ],
        ],
      })),
      {
        period: '2024-01',
        snapshots: [
          ['2024-03-20', '2024-03-20', '2024-02-29', 1100000.11, 1101, null, null, null, null, true, IL_BOTH(6), null],
        ],
      },
      {
        period: '2024-02',
        snapshots: [
          ['2024-03-20', '2024-03-20', '2024-02-29', 1200000.22, 1202, null, null, null, null, true, IL_BOTH(6), null],
        ],
      },
    ]);
    expect(IL_2023[0]).toEqual({ period: '2023-01', premium: 1001000.25, policies: 1013 });
    expect(IL_2023[11]).toEqual({ period: '2023-12', premium: 1012000.25, policies: 1145 });
  });

  it('sums the four quarters of 2023 (not published) and none for 2022-Q4 or 2024-Q1', () => {
    const s = shard('IL/all/quarter.json');
    expect(s.count_unit).toBe('policies');
    // Q1: 1001000.25 + 1002000.25 + 1003000.25 = 3006000.75; 1013 + 1025 + 1037 = 3075
    // Q2: 1004000.25 + 1005000.25 + 1006000.25 = 3015000.75; 1049 + 1061 + 1073 = 3183
    // Q3: 1007000.25 + 1008000.25 + 1009000.25 = 3024000.75; 1085 + 1097 + 1109 = 3291
    // Q4: 1010000.25 + 1011000.25 + 1012000.25 = 3033000.75; 1121 + 1133 + 1145 = 3399
    // 2022-Q4 has December only; 2024-Q1 lacks March.
    expect(s.rows).toEqual([
      {
        period: '2023-Q1',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 3006000.75, 3075, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
      {
        period: '2023-Q2',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 3015000.75, 3183, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
      {
        period: '2023-Q3',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 3024000.75, 3291, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
      {
        period: '2023-Q4',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 3033000.75, 3399, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
    ]);
  });

  it('serves the printed 2022 year as published (not December alone) and sums 2023 from its twelve months', () => {
    const s = shard('IL/all/year.json');
    expect(s).toMatchObject({ state: 'IL', line: 'all', county: null, granularity: 'year', count_unit: 'policies' });
    expect(s.rows).toEqual([
      // il-2022-annual.csv: IL 2022 premium 11234567.89, policies 12345, as printed
      {
        period: '2022',
        snapshots: [
          [
            '2023-02-15',
            '2023-02-15',
            '2022-12-31',
            11234567.89,
            12345,
            null,
            null,
            null,
            null,
            true,
            IL_BOTH(4),
            null,
          ],
        ],
      },
      // 12 * 1000000.25 + 1000 * (1 + ... + 12) = 12000003 + 78000 = 12078003.00
      // 12 * 1001 + 12 * (1 + ... + 12) = 12012 + 936 = 12948 (= 3075 + 3183 + 3291 + 3399)
      // Summed here (from the months, or from the half-years summed from them): published false.
      {
        period: '2023',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 12078003, 12948, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
    ]);
  });

  it('sums the half-years of 2023 from their six months, and none for 2022-H2 or 2024-H1', () => {
    const s = shard('IL/all/half_year.json');
    // IL has no half-year basis of its own in bases.csv and prints no half-year: the months' basis holds.
    // H1: 3006000.75 + 3015000.75 = 6021001.50; 3075 + 3183 = 6258 (Q1 + Q2 above)
    // H2: 3024000.75 + 3033000.75 = 6057001.50; 3291 + 3399 = 6690
    expect(s).toMatchObject({
      state: 'IL',
      line: 'all',
      county: null,
      granularity: 'half_year',
      count_unit: 'policies',
    });
    expect(s.rows).toEqual([
      {
        period: '2023-H1',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 6021001.5, 6258, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
      {
        period: '2023-H2',
        snapshots: [
          ['2024-01-20', '2024-01-20', '2023-12-31', 6057001.5, 6690, null, null, null, null, false, IL_BOTH(5), null],
        ],
      },
    ]);
  });
});

describe('line shards', () => {
  it('echo the source_code and carry the line’s own figures', () => {
    // 2024-03.csv: line 2 500000.50 / 401, line 10 100000.25 / 51, line 5000 200000.75, Contingency 9999.99
    const expected: [number, string, number, number | null][] = [
      [1, '2', 500000.5, 401],
      [2, '10', 100000.25, 51],
      [3, '5000', 200000.75, null],
      [4, 'Contingency', 9999.99, null],
    ];
    for (const [id, code, premium, count] of expected) {
      const s = shard(`FL/line-${id}/month.json`);
      expect(s.line).toBe(code);
      expect(s.rows).toEqual([
        {
          period: '2024-03',
          snapshots: [
            [
              '2024-04-01',
              '2024-04-01',
              '2024-03-31',
              premium,
              count,
              null,
              null,
              null,
              null,
              true,
              cited([3], 'premium', ...(count === null ? [] : ['policy_count'])),
              null,
            ],
          ],
        },
      ]);
    }
  });
});

describe('county rows', () => {
  it('are annual, with the county name uppercased in the shard and slugged in the path', () => {
    // 2023-q4.csv: FL 2023 MIAMI-DADE premium 765432.10; Broward premium 123456.78, policies 1234
    const broward = shard('FL/all/counties/broward/year.json');
    expect(broward).toMatchObject({
      state: 'FL',
      line: 'all',
      county: 'BROWARD',
      granularity: 'year',
      count_unit: 'policies',
    });
    expect(broward.rows).toEqual([
      {
        period: '2023',
        snapshots: [
          [
            '2024-01-15',
            '2024-01-15',
            '2023-12-31',
            123456.78,
            1234,
            null,
            null,
            null,
            null,
            true,
            cited([0], 'premium', 'policy_count'),
            null,
          ],
        ],
      },
    ]);
    const miami = shard('FL/all/counties/miami-dade/year.json');
    expect(miami.county).toBe('MIAMI-DADE');
    expect(miami.rows).toEqual([
      {
        period: '2023',
        snapshots: [
          [
            '2024-01-15',
            '2024-01-15',
            '2023-12-31',
            765432.1,
            null,
            null,
            null,
            null,
            null,
            true,
            cited([0], 'premium'),
            null,
          ],
        ],
      },
    ]);
    const countyFiles = seriesFiles().filter((f) => f.includes('/counties/'));
    expect(countyFiles.every((f) => f.endsWith('/year.json'))).toBe(true);
    expect(readJson(out, 'private/index.json').states.FL.counties).toEqual([
      { name: 'BROWARD', dir: 'broward' },
      { name: 'MIAMI-DADE', dir: 'miami-dade' },
    ]);
  });
});

describe('insurers', () => {
  it('lists FL 2024-01 insurers by name with exact premiums and counts', () => {
    // 2024-01.csv: Beta 250000.00, Alpha 250000.00, Gamma 400000.00 and 321 policies
    expect(readJson(out, 'private/insurers/FL.json')).toEqual({
      state: 'FL',
      periods: [
        {
          period: '2024-01',
          reportDate: '2024-02-01',
          dataAsOf: '2024-01-31',
          insurers: [
            { name: 'Alpha Insurance Co', premium: 250000, policy_count: null },
            { name: 'Beta Insurance Co', premium: 250000, policy_count: null },
            { name: 'Gamma Insurance Co', premium: 400000, policy_count: 321 },
          ],
          publications: [1],
        },
      ],
    });
  });

  it('has no insurer file for states without insurer rows', () => {
    expect(files.filter((f) => f.startsWith('private/insurers/'))).toEqual([
      'private/insurers/FL.json',
      'private/insurers/IL.json',
    ]);
  });

  it('sums IL 2023 from its twelve complete monthly lists, beside the months as printed', () => {
    // il-2023-12.csv: every month 2023-01..12 lists Delta Specialty 50000.05 and Epsilon E&S 60000.00, no counts.
    // Year 2023: Delta 12 * 50000.05 = 600000.60, Epsilon 12 * 60000.00 = 720000.00; policy_count stays null.
    // il-2024-02.csv: 2024-01 lists Delta only, 70000.07 and 77 policies; one month of 2024 makes no year.
    // The year sorts before its months ('2023' < '2023-01').
    const month = (m: string) => ({
      period: `2023-${m}`,
      reportDate: '2024-01-20',
      dataAsOf: '2023-12-31',
      insurers: [
        { name: 'Delta Specialty Insurance Co', premium: 50000.05, policy_count: null },
        { name: 'Epsilon E&S Co', premium: 60000, policy_count: null },
      ],
      publications: [5],
    });
    expect(readJson(out, 'private/insurers/IL.json')).toEqual({
      state: 'IL',
      periods: [
        {
          period: '2023',
          reportDate: '2024-01-20',
          dataAsOf: '2023-12-31',
          insurers: [
            { name: 'Delta Specialty Insurance Co', premium: 600000.6, policy_count: null },
            { name: 'Epsilon E&S Co', premium: 720000, policy_count: null },
          ],
          publications: [5],
        },
        ...['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'].map(month),
        {
          period: '2024-01',
          reportDate: '2024-03-20',
          dataAsOf: '2024-02-29',
          insurers: [{ name: 'Delta Specialty Insurance Co', premium: 70000.07, policy_count: 77 }],
          publications: [6],
        },
      ],
    });
  });
});

describe('free/coverage.json', () => {
  it('describes FL, IL, NY and TX as the fixture publishes them', () => {
    // bases.csv: FL and IL figures are all 'premium reported to the fixture office'; TX's half year is WSIA's
    const office = 'premium reported to the fixture office';
    expect(readJson(out, 'free/coverage.json')).toEqual([
      {
        state: 'FL',
        name: 'Florida',
        stamping_office: 'Florida Surplus Lines Service Office',
        stamping_office_name_basis: 'confirmed',
        period_types: {
          // months 2024-01..03, last printed by 2024-03.csv on 2024-04-01
          month: {
            from: '2024-01',
            to: '2024-03',
            periods: 3,
            latest_report_date: '2024-04-01',
            count_unit: 'policies',
            basis: office,
          },
          // 2023-Q4 printed (2024-01-15), 2024-Q1 summed as of 2024-04-01
          quarter: {
            from: '2023-Q4',
            to: '2024-Q1',
            periods: 2,
            latest_report_date: '2024-04-01',
            count_unit: 'policies',
            basis: office,
          },
          // no statewide year: 2024 is incomplete and 2023 exists only per county; no half-year: 2024-H1 lacks April-June
        },
        capabilities: { has_county_data: true, has_insurer_data: true, has_new_renewal_split: true },
        // the one list 2024-01.csv prints, every premium exact
        insurer_periods: ['2024-01'],
      },
      {
        state: 'IL',
        name: 'Illinois',
        stamping_office: 'Surplus Line Association of Illinois',
        stamping_office_name_basis: 'confirmed',
        period_types: {
          // months 2022-12 (il-2022-annual) .. 2024-02, last printed by il-2024-02.csv on 2024-03-20
          month: {
            from: '2022-12',
            to: '2024-02',
            periods: 15,
            latest_report_date: '2024-03-20',
            count_unit: 'policies',
            basis: office,
          },
          // 2023-Q1..Q4 summed as of 2024-01-20; 2022-Q4 lacks Oct/Nov and 2024-Q1 lacks March
          quarter: {
            from: '2023-Q1',
            to: '2023-Q4',
            periods: 4,
            latest_report_date: '2024-01-20',
            count_unit: 'policies',
            basis: office,
          },
          // 2023-H1..H2 summed as of 2024-01-20, on the months' basis
          half_year: {
            from: '2023-H1',
            to: '2023-H2',
            periods: 2,
            latest_report_date: '2024-01-20',
            count_unit: 'policies',
            basis: office,
          },
          // 2022 printed (2023-02-15), 2023 summed (2024-01-20)
          year: {
            from: '2022',
            to: '2023',
            periods: 2,
            latest_report_date: '2024-01-20',
            count_unit: 'policies',
            basis: office,
          },
        },
        // insurer rows in il-2023-12.csv and il-2024-02.csv; no county rows, no new/renewal shares
        capabilities: { has_county_data: false, has_insurer_data: true, has_new_renewal_split: false },
        // the year summed from the twelve monthly lists ('2023' sorts before '2023-01'), the months, 2024-01
        insurer_periods: [
          '2023',
          '2023-01',
          '2023-02',
          '2023-03',
          '2023-04',
          '2023-05',
          '2023-06',
          '2023-07',
          '2023-08',
          '2023-09',
          '2023-10',
          '2023-11',
          '2023-12',
          '2024-01',
        ],
      },
      {
        state: 'NY',
        name: 'New York',
        stamping_office: 'Excess Line Association of New York',
        stamping_office_name_basis: 'confirmed',
        period_types: {},
        capabilities: { has_county_data: false, has_insurer_data: false, has_new_renewal_split: false },
        insurer_periods: [],
      },
      {
        state: 'TX',
        name: 'Texas',
        stamping_office: 'Surplus Lines Stamping Office of Texas',
        stamping_office_name_basis: 'unconfirmed',
        period_types: {
          // 2023-H1 premium only: no count
          half_year: {
            from: '2023-H1',
            to: '2023-H1',
            periods: 1,
            latest_report_date: '2024-02-10',
            count_unit: null,
            basis: 'premium submitted, as WSIA compiles it (fixture)',
          },
          year: {
            from: '2023',
            to: '2023',
            periods: 1,
            latest_report_date: '2024-02-10',
            count_unit: 'items',
            basis: 'premium filed with the fixture office',
          },
        },
        // the published ranking of rankings/office/tx-2021-top-companies.csv
        capabilities: { has_county_data: false, has_insurer_data: true, has_new_renewal_split: false },
        insurer_periods: ['2021'],
      },
    ]);
  });
});

describe('free/lines', () => {
  it('orders FL lines numeric-aware with their registry ids', () => {
    // line-ids.csv: 1 → 2, 2 → 10, 3 → 5000, 4 → Contingency; lines/FL.csv lists 10 before 2
    expect(readJson(out, 'free/lines/FL.json')).toEqual([
      { id: 1, source_code: '2', name: 'Commercial Property', category: 'Commercial Property', note: null },
      { id: 2, source_code: '10', name: 'Builders Risk', category: 'Commercial Property', note: null },
      { id: 3, source_code: '5000', name: 'Commercial General Liability', category: 'General Liability', note: null },
      { id: 4, source_code: 'Contingency', name: 'Contingency', category: null, note: 'printed without a code' },
    ]);
  });

  it('gives states without a taxonomy an empty list', () => {
    expect(readJson(out, 'free/lines/IL.json')).toEqual([]);
    expect(readJson(out, 'free/lines/NY.json')).toEqual([]);
    expect(readJson(out, 'free/lines/TX.json')).toEqual([]);
  });
});

describe('free/sample', () => {
  it('FL: the three months, latest vintage', () => {
    const body = readJson(out, 'free/sample/FL.json');
    expect(body).toMatchObject({
      state: 'FL',
      line: 'all',
      granularity: 'month',
      sample: true,
      // latest among the rows: 2024-03.csv
      report_date: '2024-04-01',
      data_as_of: '2024-03-31',
      source: 'Florida Surplus Lines Service Office (FSLSO)',
    });
    expect(body.data).toEqual([
      {
        period: '2024-01',
        premium: 1111111.11,
        policy_count: 1011,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: 40,
        renewal_policy_pct: 60,
        printed: JAN_ITEMS,
      },
      // the "$1.2M" of 2024-02.csv agrees with the exact 1222222.22 to its precision: not shown (docs/design.md §1)
      {
        period: '2024-02',
        premium: 1222222.22,
        policy_count: 1101,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: 50,
        renewal_policy_pct: 50,
        printed: null,
      },
      {
        period: '2024-03',
        premium: 1333333.33,
        policy_count: 1203,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        printed: null,
      },
    ]);
    // January's latest vintage shows 2024-01.csv and 2024-02.csv, February's 2024-02.csv and 2024-03.csv
    expect(body.publications).toEqual([
      {
        publisher: 'FSLSO',
        title: 'January 2024',
        url: 'https://example.org/fl/2024-01',
        report_date: '2024-02-01',
        report_date_basis: 'estimated',
      },
      {
        publisher: 'FSLSO',
        title: 'February 2024',
        url: 'https://example.org/fl/2024-02',
        report_date: '2024-03-01',
        report_date_basis: 'printed',
      },
      {
        publisher: 'FSLSO',
        title: 'March 2024',
        url: 'https://example.org/fl/2024-03',
        report_date: '2024-04-01',
        report_date_basis: 'printed',
      },
    ]);
    expect(body.note).toMatch(/\/v1\/premium/);
  });

  it('IL: the latest 13 of its 15 months, latest vintage', () => {
    // months: 2022-12, 2023-01..12, 2024-01..02 (15) → the last 13 are 2023-02 .. 2024-02
    const body = readJson(out, 'free/sample/IL.json');
    expect(body).toMatchObject({
      state: 'IL',
      line: 'all',
      granularity: 'month',
      sample: true,
      // latest among the rows: il-2024-02.csv
      report_date: '2024-03-20',
      data_as_of: '2024-02-29',
      source: 'Surplus Line Association of Illinois (SLAI)',
    });
    const row = (period: string, premium: number, policy_count: number) => ({
      period,
      premium,
      policy_count,
      new_business_premium: null,
      renewal_premium: null,
      new_business_policy_pct: null,
      renewal_policy_pct: null,
      printed: null,
    });
    expect(body.data).toEqual([
      row('2023-02', 1002000.25, 1025),
      row('2023-03', 1003000.25, 1037),
      row('2023-04', 1004000.25, 1049),
      row('2023-05', 1005000.25, 1061),
      row('2023-06', 1006000.25, 1073),
      row('2023-07', 1007000.25, 1085),
      row('2023-08', 1008000.25, 1097),
      row('2023-09', 1009000.25, 1109),
      row('2023-10', 1010000.25, 1121),
      row('2023-11', 1011000.25, 1133),
      row('2023-12', 1012000.25, 1145),
      row('2024-01', 1100000.11, 1101),
      row('2024-02', 1200000.22, 1202),
    ]);
    // 2023-02..12 from il-2023-12.csv, 2024-01..02 from il-2024-02.csv (not il-2022-annual.csv: 2022-12 is left out)
    expect(body.publications).toEqual([
      {
        publisher: 'SLAI',
        title: 'December 2023',
        url: 'https://example.org/il/2023-12',
        report_date: '2024-01-20',
        report_date_basis: 'printed',
      },
      {
        publisher: 'SLAI',
        title: 'February 2024',
        url: 'https://example.org/il/2024-02',
        report_date: '2024-03-20',
        report_date_basis: 'printed',
      },
    ]);
  });

  it('TX: no monthly data, and a note naming the period types it does publish', () => {
    const body = readJson(out, 'free/sample/TX.json');
    expect(body).toMatchObject({
      state: 'TX',
      line: 'all',
      granularity: 'month',
      sample: true,
      data: [],
      publications: [],
      report_date: null,
      data_as_of: null,
      source: 'Surplus Lines Stamping Office of Texas (SLTX)',
    });
    expect(body.note).toContain('half_year');
    expect(body.note).toMatch(/\byear\b/);
    expect(body.note).toContain('/v1/coverage');
  });

  it('NY: no data at all, the source still named', () => {
    const body = readJson(out, 'free/sample/NY.json');
    expect(body).toMatchObject({
      state: 'NY',
      data: [],
      publications: [],
      report_date: null,
      data_as_of: null,
      source: 'Excess Line Association of New York (ELANY)',
    });
  });
});

describe('private/index.json', () => {
  it('lists every publication in id order, as answers cite them', () => {
    // each from its file's header; 2024-01.csv's report_date_basis is 'estimated: ...'
    expect(readJson(out, 'private/index.json').publications).toEqual([
      {
        publisher: 'FSLSO',
        title: 'Fourth quarter 2023',
        url: 'https://example.org/fl/2023-q4',
        report_date: '2024-01-15',
        report_date_basis: 'printed',
      },
      {
        publisher: 'FSLSO',
        title: 'January 2024',
        url: 'https://example.org/fl/2024-01',
        report_date: '2024-02-01',
        report_date_basis: 'estimated',
      },
      {
        publisher: 'FSLSO',
        title: 'February 2024',
        url: 'https://example.org/fl/2024-02',
        report_date: '2024-03-01',
        report_date_basis: 'printed',
      },
      {
        publisher: 'FSLSO',
        title: 'March 2024',
        url: 'https://example.org/fl/2024-03',
        report_date: '2024-04-01',
        report_date_basis: 'printed',
      },
      {
        publisher: 'SLAI',
        title: 'Annual 2022',
        url: 'https://example.org/il/2022',
        report_date: '2023-02-15',
        report_date_basis: 'printed',
      },
      {
        publisher: 'SLAI',
        title: 'December 2023',
        url: 'https://example.org/il/2023-12',
        report_date: '2024-01-20',
        report_date_basis: 'printed',
      },
      {
        publisher: 'SLAI',
        title: 'February 2024',
        url: 'https://example.org/il/2024-02',
        report_date: '2024-03-20',
        report_date_basis: 'printed',
      },
      {
        publisher: 'SLTX',
        title: 'Annual 2023',
        url: 'https://example.org/tx/2023',
        report_date: '2024-02-10',
        report_date_basis: 'printed',
      },
      // the ranking's, after the figures' (its id is rankings/office/...)
      {
        publisher: 'SLTX',
        title: 'Fixture top companies 2021',
        url: 'https://example.org/fixture-top-companies-2021',
        report_date: '2022-01-15',
        report_date_basis: 'printed',
      },
    ]);
  });

  it('lists each state’s lines with their dirs and its shards', () => {
    const index = readJson(out, 'private/index.json');
    expect(Object.keys(index.states)).toEqual(['FL', 'IL', 'NY', 'TX']);
    expect(index.states.FL.lines.map((l: { source_code: string; dir: string }) => [l.source_code, l.dir])).toEqual([
      ['2', 'line-1'],
      ['10', 'line-2'],
      ['5000', 'line-3'],
      ['Contingency', 'line-4'],
    ]);
    expect(index.states.FL.shards).toEqual(
      seriesFiles()
        .filter((f) => f.startsWith('private/series/FL/'))
        .map((f) => f.slice('private/'.length))
        .sort(),
    );
    expect(index.states.TX.shards).toEqual(['series/TX/all/half_year.json', 'series/TX/all/year.json']);
    expect(index.states.IL).toEqual({
      source: 'Surplus Line Association of Illinois (SLAI)',
      lines: [],
      categories: [],
      counties: [],
      shards: [
        'series/IL/all/half_year.json',
        'series/IL/all/month.json',
        'series/IL/all/quarter.json',
        'series/IL/all/year.json',
      ],
    });
    expect(index.states.NY).toEqual({
      source: 'Excess Line Association of New York (ELANY)',
      lines: [],
      categories: [],
      counties: [],
      shards: [],
    });
  });
});
