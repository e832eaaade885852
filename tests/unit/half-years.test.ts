// Half-year roll-ups (docs/design.md §3): a half-year row is the source's own, else the sum of its six
// complete months; a year row is the source's own, else the sum of its 12 months, else H1 + H2. Months
// are summed into a period type only when bases.csv gives both the same basis. Expected values are
// worked out by hand in the comments from the rows written here.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SeriesShard,
  type SnapshotTuple,
  appendLines,
  publication,
  readJson,
  replaceOnce,
  rowOf,
  tempRoot,
  writeData,
} from './helpers.ts';
import { citedPositions } from './helpers.ts';

const tmp = tempRoot('half-years');
afterAll(() => tmp.cleanup());

const FIXTURE_BASIS = 'premium reported to the fixture office';
const OTHER_BASIS = 'premium submitted as WSIA compiles it (fixture)';

/** Rows for the months of `year` but those in `skip`, each month giving `row(month)`. */
const months = (year: number, skip: number[], row: (m: string) => string[]) =>
  Array.from({ length: 12 }, (_, i) => i + 1)
    .filter((m) => !skip.includes(m))
    .flatMap((m) => row(`${year}-${String(m).padStart(2, '0')}`));

/** The rows of a series shard, or none when the build wrote no such shard. */
function rowsOf(out: string, rel: string): SeriesShard['rows'] {
  const path = join(out, 'private/series', rel);
  return existsSync(path) ? readJson<SeriesShard>(out, `private/series/${rel}`).rows : [];
}

/** A snapshot with its publications as urls instead of positions in index.json. */
function cited(out: string) {
  const refs = readJson<{ publications: { url: string }[] }>(out, 'private/index.json').publications;
  return (s: SnapshotTuple) => [...s.slice(0, 10), citedPositions(s[10]).map((i) => refs[i].url), s[11]];
}
const url = (title: string) => `https://example.org/${encodeURIComponent(title)}`;

describe('half-years and years, same basis for months, half-years and years', () => {
  let out: string;
  let view: (s: SnapshotTuple) => unknown[];
  const halves = () => readJson<SeriesShard>(out, 'private/series/FL/all/half_year.json');
  const years = () => readJson<SeriesShard>(out, 'private/series/FL/all/year.json');

  beforeAll(() => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', `FL,half_year,${FIXTURE_BASIS},`);
    // 2022: all 12 months, premium 1234.56 and 1001 policies each
    writeData(
      data,
      'publications/office/2022-months.csv',
      publication(
        { title: '2022 months', report_date: '2023-01-20', data_as_of: '2022-12-31' },
        months(2022, [], (m) => [`FL,${m},all,,,premium,1234.56,,,`, `FL,${m},all,,,policies,1001,,,`]),
      ),
    );
    // 2021: every month but July, premium 2000.01 and 1001 policies each
    writeData(
      data,
      'publications/office/2021-months.csv',
      publication(
        { title: '2021 months', report_date: '2022-01-20', data_as_of: '2021-12-31' },
        months(2021, [7], (m) => [`FL,${m},all,,,premium,2000.01,,,`, `FL,${m},all,,,policies,1001,,,`]),
      ),
    );
    // 2020: months January-June (1000.01, 1001 each) and the source's own H1 and H2 rows
    writeData(
      data,
      'publications/office/2020-halves.csv',
      publication({ title: '2020 halves', report_date: '2021-01-20', data_as_of: '2020-12-31' }, [
        ...months(2020, [7, 8, 9, 10, 11, 12], (m) => [
          `FL,${m},all,,,premium,1000.01,,,`,
          `FL,${m},all,,,policies,1001,,,`,
        ]),
        'FL,2020-H1,all,,,premium,50000.55,,,',
        'FL,2020-H1,all,,,policies,5005,,,',
        'FL,2020-H2,all,,,premium,60000.66,,,',
        'FL,2020-H2,all,,,policies,6006,,,',
      ]),
    );
    // 2019: the source's own H1 only
    writeData(
      data,
      'publications/office/2019-h1.csv',
      publication({ title: '2019 H1', report_date: '2019-08-01', data_as_of: '2019-06-30' }, [
        'FL,2019-H1,all,,,premium,70000.77,,,',
      ]),
    );
    // 2018: all 12 months (100.01, 1001 each) and an own H1 that differs from its months' sum
    writeData(
      data,
      'publications/office/2018.csv',
      publication({ title: '2018 months', report_date: '2019-01-20', data_as_of: '2018-12-31' }, [
        ...months(2018, [], (m) => [`FL,${m},all,,,premium,100.01,,,`, `FL,${m},all,,,policies,1001,,,`]),
        'FL,2018-H1,all,,,premium,700.07,,,',
        'FL,2018-H1,all,,,policies,7007,,,',
      ]),
    );
    out = tmp.build(data);
    view = cited(out);
  });

  it('sums six complete months into H1 and H2', () => {
    // 2022-H1 and -H2: 6 * 1234.56 = 7407.36, 6 * 1001 = 6006; summed here: published false
    for (const p of ['2022-H1', '2022-H2'])
      expect(rowOf(halves(), p)!.snapshots.map(view), p).toEqual([
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
          [url('2022 months')],
          null,
        ],
      ]);
    // 2021-H1: 6 * 2000.01 = 12000.06, 6006
    expect(rowOf(halves(), '2021-H1')!.snapshots.map(view)).toEqual([
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
        [url('2021 months')],
        null,
      ],
    ]);
  });

  it('makes no summed half-year when one of its months is missing', () => {
    // 2021-H2 lacks July; 2024-H1 has only the fixture's January-March
    expect(rowOf(halves(), '2021-H2')).toBeUndefined();
    expect(rowOf(halves(), '2024-H1')).toBeUndefined();
  });

  it("serves the source's own half-year row instead of the sum of its months", () => {
    // 2020-H1 months would sum to 6 * 1000.01 = 6000.06 and 6006: the printed 50000.55 and 5005 are served
    expect(rowOf(halves(), '2020-H1')!.snapshots.map(view)).toEqual([
      [
        '2021-01-20',
        '2021-01-20',
        '2020-12-31',
        50000.55,
        5005,
        null,
        null,
        null,
        null,
        true,
        [url('2020 halves')],
        null,
      ],
    ]);
    // 2018-H1: own 700.07 / 7007, not 6 * 100.01 = 600.06 / 6006; 2018-H2 is summed: 600.06, 6006
    expect(rowOf(halves(), '2018-H1')!.snapshots.map(view)).toEqual([
      [
        '2019-01-20',
        '2019-01-20',
        '2018-12-31',
        700.07,
        7007,
        null,
        null,
        null,
        null,
        true,
        [url('2018 months')],
        null,
      ],
    ]);
    expect(rowOf(halves(), '2018-H2')!.snapshots.map(view)).toEqual([
      [
        '2019-01-20',
        '2019-01-20',
        '2018-12-31',
        600.06,
        6006,
        null,
        null,
        null,
        null,
        false,
        [url('2018 months')],
        null,
      ],
    ]);
  });

  it('lists exactly the half-years that are printed or complete', () => {
    expect(halves().rows.map((r) => r.period)).toEqual([
      '2018-H1',
      '2018-H2',
      '2019-H1',
      '2020-H1',
      '2020-H2',
      '2021-H1',
      '2022-H1',
      '2022-H2',
    ]);
    expect(halves().count_unit).toBe('policies');
  });

  it('sums a year from its 12 months, even where an own H1 differs from its months', () => {
    // 2022: 12 * 1234.56 = 14814.72, 12 * 1001 = 12012
    expect(rowOf(years(), '2022')!.snapshots.map(view)).toEqual([
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
        [url('2022 months')],
        null,
      ],
    ]);
    // 2018: 12 * 100.01 = 1200.12 and 12012 (H1 + H2 would be 700.07 + 600.06 = 1300.13 and 13013)
    expect(rowOf(years(), '2018')!.snapshots.map(view)).toEqual([
      [
        '2019-01-20',
        '2019-01-20',
        '2018-12-31',
        1200.12,
        12012,
        null,
        null,
        null,
        null,
        false,
        [url('2018 months')],
        null,
      ],
    ]);
  });

  it('sums a year from H1 + H2 where its months are incomplete', () => {
    // 2020: 50000.55 + 60000.66 = 110001.21, 5005 + 6006 = 11011
    expect(rowOf(years(), '2020')!.snapshots.map(view)).toEqual([
      [
        '2021-01-20',
        '2021-01-20',
        '2020-12-31',
        110001.21,
        11011,
        null,
        null,
        null,
        null,
        false,
        [url('2020 halves')],
        null,
      ],
    ]);
  });

  it('makes no year from incomplete months and a single half', () => {
    // 2019: H1 only; 2021: 11 months and H1 only; 2024: three months
    expect(years().rows.map((r) => r.period)).toEqual(['2018', '2020', '2022']);
  });

  it('reports half-years in coverage with their basis', () => {
    const fl = readJson<{ state: string; period_types: Record<string, unknown> }[]>(out, 'free/coverage.json').find(
      (c) => c.state === 'FL',
    )!;
    // latest report among the half-year rows: 2022 months (2023-01-20); 8 of the span's 10 half-years (2019-H2 and 2021-H2 have none)
    expect(fl.period_types.half_year).toEqual({
      from: '2018-H1',
      to: '2022-H2',
      periods: 8,
      latest_report_date: '2023-01-20',
      count_unit: 'policies',
      basis: FIXTURE_BASIS,
    });
  });
});

describe('a half-year published after its months', () => {
  it('replaces the sum from the day it is published', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', `FL,half_year,${FIXTURE_BASIS},`);
    writeData(
      data,
      'publications/office/2022-months.csv',
      publication(
        { title: '2022 months', report_date: '2023-01-20', data_as_of: '2022-12-31' },
        months(2022, [], (m) => [`FL,${m},all,,,premium,1234.56,,,`]),
      ),
    );
    writeData(
      data,
      'publications/office/2022-h1.csv',
      publication({ title: '2022 H1 report', report_date: '2023-03-01', data_as_of: '2022-06-30' }, [
        'FL,2022-H1,all,,,premium,7500.75,,,',
      ]),
    );
    const out = tmp.build(data);
    const view = cited(out);
    const halves = readJson<SeriesShard>(out, 'private/series/FL/all/half_year.json');
    expect(rowOf(halves, '2022-H1')!.snapshots.map(view)).toEqual([
      // 6 * 1234.56 = 7407.36, summed
      [
        '2023-01-20',
        '2023-01-20',
        '2022-12-31',
        7407.36,
        null,
        null,
        null,
        null,
        null,
        false,
        [url('2022 months')],
        null,
      ],
      // the source's own H1
      [
        '2023-03-01',
        '2023-03-01',
        '2022-06-30',
        7500.75,
        null,
        null,
        null,
        null,
        null,
        true,
        [url('2022 H1 report')],
        null,
      ],
    ]);
    // the year is still the sum of its 12 months: 12 * 1234.56 = 14814.72 (not 7500.75 + 7407.36)
    expect(rowOf(readJson<SeriesShard>(out, 'private/series/FL/all/year.json'), '2022')!.snapshots.map(view)).toEqual([
      [
        '2023-01-20',
        '2023-01-20',
        '2022-12-31',
        14814.72,
        null,
        null,
        null,
        null,
        null,
        false,
        [url('2022 months')],
        null,
      ],
    ]);
  });
});

describe('months are never summed into a period type of another basis', () => {
  const twelveMonths2022 = () =>
    publication(
      { title: '2022 months', report_date: '2023-01-20', data_as_of: '2022-12-31' },
      months(2022, [], (m) => [`FL,${m},all,,,premium,1234.56,,,`, `FL,${m},all,,,policies,1001,,,`]),
    );

  it('no summed half-year where the state prints its own half-years on another basis', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', `FL,half_year,${OTHER_BASIS},`);
    writeData(data, 'publications/office/2022-months.csv', twelveMonths2022());
    writeData(
      data,
      'publications/office/2019-h1.csv',
      publication({ title: '2019 H1', report_date: '2019-08-01', data_as_of: '2019-06-30' }, [
        'FL,2019-H1,all,,,premium,70000.77,,,',
      ]),
    );
    const out = tmp.build(data);
    // only the own 2019-H1: the 2022 months are on the fixture basis, half-years on WSIA's
    expect(rowsOf(out, 'FL/all/half_year.json').map((r) => r.period)).toEqual(['2019-H1']);
    // months, quarters and years share a basis: those are summed (2022: 12 * 1234.56 = 14814.72)
    expect(rowsOf(out, 'FL/all/year.json').map((r) => r.period)).toEqual(['2022']);
    expect(rowOf(readJson<SeriesShard>(out, 'private/series/FL/all/year.json'), '2022')!.snapshots[0][3]).toBe(
      14814.72,
    );
    expect(rowsOf(out, 'FL/all/quarter.json').map((r) => r.period)).toEqual([
      '2022-Q1',
      '2022-Q2',
      '2022-Q3',
      '2022-Q4',
      '2023-Q4',
      '2024-Q1',
    ]);
  });

  it('no summed half-year where bases.csv gives half-years another basis and the state prints none', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', `FL,half_year,${OTHER_BASIS},`);
    writeData(data, 'publications/office/2022-months.csv', twelveMonths2022());
    const out = tmp.build(data);
    expect(rowsOf(out, 'FL/all/half_year.json')).toEqual([]);
    const fl = readJson<{ state: string; period_types: Record<string, unknown> }[]>(out, 'free/coverage.json').find(
      (c) => c.state === 'FL',
    )!;
    expect(fl.period_types.half_year).toBeUndefined();
  });

  it('a year on the half-years’ basis is summed from H1 + H2, never from months of the other basis', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', `FL,half_year,${OTHER_BASIS},`);
    replaceOnce(data, 'bases.csv', `FL,year,${FIXTURE_BASIS},`, `FL,year,${OTHER_BASIS},`);
    writeData(data, 'publications/office/2022-months.csv', twelveMonths2022());
    writeData(
      data,
      'publications/office/2020-halves.csv',
      publication({ title: '2020 halves', report_date: '2021-01-20', data_as_of: '2020-12-31' }, [
        'FL,2020-H1,all,,,premium,50000.55,,,',
        'FL,2020-H2,all,,,premium,60000.66,,,',
      ]),
    );
    const out = tmp.build(data);
    const view = cited(out);
    expect(rowsOf(out, 'FL/all/half_year.json').map((r) => r.period)).toEqual(['2020-H1', '2020-H2']);
    // 2020: 50000.55 + 60000.66 = 110001.21; no 2022 year from the months (fixture basis)
    expect(rowsOf(out, 'FL/all/year.json').map((r) => [r.period, r.snapshots.map(view)])).toEqual([
      [
        '2020',
        [
          [
            '2021-01-20',
            '2021-01-20',
            '2020-12-31',
            110001.21,
            null,
            null,
            null,
            null,
            null,
            false,
            [url('2020 halves')],
            null,
          ],
        ],
      ],
    ]);
    // quarters keep the months' basis: summed
    expect(rowsOf(out, 'FL/all/quarter.json').map((r) => r.period)).toEqual([
      '2022-Q1',
      '2022-Q2',
      '2022-Q3',
      '2022-Q4',
      '2023-Q4',
      '2024-Q1',
    ]);
  });
});
