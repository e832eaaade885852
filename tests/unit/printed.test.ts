// Where a figure goes (docs/design.md §9): an exact figure with a series field fills it; a qualified level,
// a printed-only metric or a count in another unit than the series' count_unit goes to the row's
// `printed` (the snapshot tuple's last entry); a year-to-date figure goes to the row of its last month
// under `<metric>_ytd`. Roll-up rows carry only what was printed for their own period. Expected values
// are written by hand from the rows below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SeriesShard,
  type SnapshotTuple,
  appendLines,
  asOf,
  publication,
  readJson,
  rowOf,
  tempRoot,
  writeData,
} from './helpers.ts';
import { citedPositions } from './helpers.ts';

const tmp = tempRoot('printed');
afterAll(() => tmp.cleanup());

const url = (title: string) => `https://example.org/${encodeURIComponent(title)}`;
const fixtureUrl = (month: string) => `https://example.org/fl/${month}`;

describe('printed figures', () => {
  let out: string;
  let refs: { url: string }[];
  const series = (rel: string) => readJson<SeriesShard>(out, `private/series/${rel}`);
  /** A snapshot with its publications as urls (sorted) instead of positions in index.json. */
  const view = (s: SnapshotTuple) => [
    ...s.slice(0, 10),
    citedPositions(s[10])
      .map((i) => refs[i].url)
      .sort(),
    s[11],
  ];

  beforeAll(() => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', 'FL,year_to_date,premium reported to the fixture office,');
    writeData(
      data,
      'publications/office/2024-04-a.csv',
      publication({ title: 'April first print', report_date: '2024-05-01', data_as_of: '2024-04-30' }, [
        'FL,2024-04,all,,,premium,1500000,about,about $1.5 million,',
        'FL,2024-04,all,,,premium_yoy_pct,-3.5,,-3.5%,',
        'FL,2024-04,all,,,policies,1404,,,',
        'FL,2024-04,all,,,transactions,1717,,,exact but not the count unit (policies)',
      ]),
    );
    writeData(
      data,
      'publications/office/2024-04-b.csv',
      publication({ title: 'April second print', report_date: '2024-06-01', data_as_of: '2024-05-31' }, [
        'FL,2024-04,all,,,premium,1600000,nearly,nearly $1.6 million,',
      ]),
    );
    writeData(
      data,
      'publications/office/2024-ytd.csv',
      publication({ title: 'Year to March', report_date: '2024-04-15', data_as_of: '2024-03-31' }, [
        'FL,2024-01..03,all,,,premium,3700000.37,,,',
      ]),
    );
    writeData(
      data,
      'publications/office/2024-q1-change.csv',
      publication({ title: 'Q1 change', report_date: '2024-04-20', data_as_of: '2024-03-31' }, [
        'FL,2024-Q1,all,,,premium_yoy_pct,12.6,,+12.6%,',
      ]),
    );
    out = tmp.build(data);
    refs = readJson<{ publications: { url: string }[] }>(out, 'private/index.json').publications;
  });

  it('puts a qualified premium, a printed-only change and a count in another unit in printed', () => {
    const april = rowOf(series('FL/all/month.json'), '2024-04')!;
    expect(view(april.snapshots[0])).toEqual([
      // premium stays null (qualified); 1404 policies fill policy_count (FL months count policies)
      '2024-05-01',
      '2024-05-01',
      '2024-04-30',
      null,
      1404,
      null,
      null,
      null,
      null,
      true,
      [url('April first print')],
      {
        premium: { value: 1500000, as_printed: 'about $1.5 million', qualifier: 'about' },
        premium_yoy_pct: { value: -3.5, as_printed: '-3.5%' },
        transactions: { value: 1717, as_printed: null },
      },
    ]);
  });

  it('follows as-of vintages: a later print replaces the earlier one from its report_date on', () => {
    const april = rowOf(series('FL/all/month.json'), '2024-04')!;
    expect(april.snapshots.map(view)).toEqual([
      [
        '2024-05-01',
        '2024-05-01',
        '2024-04-30',
        null,
        1404,
        null,
        null,
        null,
        null,
        true,
        [url('April first print')],
        {
          premium: { value: 1500000, as_printed: 'about $1.5 million', qualifier: 'about' },
          premium_yoy_pct: { value: -3.5, as_printed: '-3.5%' },
          transactions: { value: 1717, as_printed: null },
        },
      ],
      [
        // the second print restates the premium only: change and transactions stay from the first
        '2024-06-01',
        '2024-06-01',
        '2024-05-31',
        null,
        1404,
        null,
        null,
        null,
        null,
        true,
        [url('April first print'), url('April second print')].sort(),
        {
          premium: { value: 1600000, as_printed: 'nearly $1.6 million', qualifier: 'nearly' },
          premium_yoy_pct: { value: -3.5, as_printed: '-3.5%' },
          transactions: { value: 1717, as_printed: null },
        },
      ],
    ]);
    expect(asOf(april, '2024-04-30')).toBeUndefined();
    expect(asOf(april, '2024-05-31')![11]!.premium.value).toBe(1500000);
    expect(asOf(april, '2024-06-01')![11]!.premium.value).toBe(1600000);
    expect(asOf(april, '2099-01-01')![11]!.premium.as_printed).toBe('nearly $1.6 million');
  });

  it('puts a year-to-date figure on the row of its last month as <metric>_ytd', () => {
    const march = rowOf(series('FL/all/month.json'), '2024-03')!;
    expect(march.snapshots.map(view)).toEqual([
      // the fixture's March: 1333333.33, 1203 policies
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
        [fixtureUrl('2024-03')],
        null,
      ],
      [
        '2024-04-15',
        '2024-04-15',
        '2024-03-31',
        1333333.33,
        1203,
        null,
        null,
        null,
        null,
        true,
        [fixtureUrl('2024-03'), url('Year to March')].sort(),
        { premium_ytd: { value: 3700000.37, as_printed: null, period: '2024-01..03' } },
      ],
    ]);
    // January and February carry no year-to-date figure
    for (const m of ['2024-01', '2024-02'])
      for (const s of rowOf(series('FL/all/month.json'), m)!.snapshots)
        expect(Object.keys(s[11] ?? {}), m).not.toContain('premium_ytd');
  });

  it('gives a quarter summed from months only the printed figure of that quarter itself', () => {
    const q1 = rowOf(series('FL/all/quarter.json'), '2024-Q1')!;
    // months as of 2024-04-01: 1111111.11 + 1222222.22 + 1333333.33 = 3666666.66; 1011 + 1101 + 1203 = 3315
    for (const s of q1.snapshots) {
      expect(s.slice(3, 10)).toEqual([3666666.66, 3315, null, null, null, null, false]);
      // none of the months' printed figures (January's items, February's $1.2M, March's year to date)
      for (const [key, figure] of Object.entries(s[11] ?? {})) {
        expect(key).toBe('premium_yoy_pct');
        expect(figure).not.toHaveProperty('period'); // the row's own: said by the row
      }
    }
    // (which publications it cites is the next test's)
    const last = q1.snapshots.at(-1)!;
    expect([...last.slice(0, 10), last[11]]).toEqual([
      '2024-04-20',
      '2024-04-20',
      '2024-03-31',
      3666666.66,
      3315,
      null,
      null,
      null,
      null,
      false,
      { premium_yoy_pct: { value: 12.6, as_printed: '+12.6%' } },
    ]);
    expect(citedPositions(last[10]).map((i) => refs[i].url)).toContain(url('Q1 change'));
    expect(asOf(q1, '2024-04-19')![11]).toBeNull();
  });

  it('a summed quarter does not cite a publication that printed only a month’s year-to-date figure', () => {
    // "Year to March" shows nothing in the quarter (its figure is March's premium_ytd): the quarter's
    // figures come from the three fixture months, then also from "Q1 change".
    const q1 = rowOf(series('FL/all/quarter.json'), '2024-Q1')!;
    expect(
      q1.snapshots.map((s) => [
        s[0],
        citedPositions(s[10])
          .map((i) => refs[i].url)
          .sort(),
      ]),
    ).toEqual([
      ['2024-04-01', [fixtureUrl('2024-01'), fixtureUrl('2024-02'), fixtureUrl('2024-03')].sort()],
      ['2024-04-20', [fixtureUrl('2024-01'), fixtureUrl('2024-02'), fixtureUrl('2024-03'), url('Q1 change')].sort()],
    ]);
  });

  it('keeps an exact item count (not the count unit) in printed beside the policy count', () => {
    // fixture January: policies 1001 (restated 1011 on 2024-03-01) and items 1501
    const jan = rowOf(series('FL/all/month.json'), '2024-01')!;
    for (const s of jan.snapshots) {
      expect(s[11]!.items).toEqual({
        value: 1501,
        as_printed: null,
      });
    }
    expect(asOf(jan, '2024-02-01')![4]).toBe(1001);
    expect(asOf(jan, '2024-03-01')![4]).toBe(1011);
  });
});
