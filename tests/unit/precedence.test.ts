// Primary before secondary (docs/design.md §1): files under publications/press/ are press copies. For a row
// and metric that any office publication printed (exact or qualified) as of a date, press copies are
// ignored, whatever their dates; a press copy fills only what no office printed. Expected values are
// written by hand from the rows below.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SeriesShard,
  type SnapshotTuple,
  asOf,
  publication,
  readJson,
  rowOf,
  tempRoot,
  writeData,
} from './helpers.ts';
import { citedPositions } from './helpers.ts';

const tmp = tempRoot('precedence');
afterAll(() => tmp.cleanup());

const url = (title: string) => `https://example.org/${encodeURIComponent(title)}`;
const PRESS = { publisher: 'Fixture Wire' };

describe('office publications before press copies', () => {
  let out: string;
  let refs: { url: string }[];
  const months = () => readJson<SeriesShard>(out, 'private/series/FL/all/month.json');
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
    mkdirSync(join(data, 'publications/press'));
    // April: the office prints premium and a change, no policies; a later press copy prints all three.
    writeData(
      data,
      'publications/office/2024-04.csv',
      publication({ title: 'Office April', report_date: '2024-05-01', data_as_of: '2024-04-30' }, [
        'FL,2024-04,all,,,premium,1404040.40,,,',
        'FL,2024-04,all,,,premium_yoy_pct,5.5,,+5.5%,',
      ]),
    );
    writeData(
      data,
      'publications/press/2024-05-10-wire.csv',
      publication({ ...PRESS, title: 'Wire on April', report_date: '2024-05-10', data_as_of: '2024-04-30' }, [
        'FL,2024-04,all,,,premium,1999999.99,,,',
        'FL,2024-04,all,,,premium_yoy_pct,6.6,,+6.6%,',
        'FL,2024-04,all,,,policies,1444,,,',
      ]),
    );
    // May: the office prints a qualified premium; a later press copy prints an exact one that does not agree
    // with it to its precision ("nearly $1.6 million": from 1.5 to 1.6 million). One that agrees is not a
    // restatement but the exact figure the office shortened (docs/design.md §1): tests/unit/shortened-citations.test.ts.
    writeData(
      data,
      'publications/office/2024-05.csv',
      publication({ title: 'Office May', report_date: '2024-06-01', data_as_of: '2024-05-31' }, [
        'FL,2024-05,all,,,premium,1600000,nearly,nearly $1.6 million,',
      ]),
    );
    writeData(
      data,
      'publications/press/2024-06-10-wire.csv',
      publication({ ...PRESS, title: 'Wire on May', report_date: '2024-06-10', data_as_of: '2024-05-31' }, [
        'FL,2024-05,all,,,premium,1498765.43,,,',
      ]),
    );
    // June: printed by the press only.
    writeData(
      data,
      'publications/press/2024-07-10-wire.csv',
      publication({ ...PRESS, title: 'Wire on June', report_date: '2024-07-10', data_as_of: '2024-06-30' }, [
        'FL,2024-06,all,,,premium,1666666.66,,,',
      ]),
    );
    // July: the press prints first, the office after, then the press restates.
    writeData(
      data,
      'publications/press/2024-08-05-wire.csv',
      publication({ ...PRESS, title: 'Wire on July', report_date: '2024-08-05', data_as_of: '2024-07-31' }, [
        'FL,2024-07,all,,,premium,1777777.77,,,',
      ]),
    );
    writeData(
      data,
      'publications/office/2024-07.csv',
      publication({ title: 'Office July', report_date: '2024-08-15', data_as_of: '2024-07-31' }, [
        'FL,2024-07,all,,,premium,1700000.17,,,',
      ]),
    );
    writeData(
      data,
      'publications/press/2024-09-01-wire.csv',
      publication({ ...PRESS, title: 'Wire restates July', report_date: '2024-09-01', data_as_of: '2024-07-31' }, [
        'FL,2024-07,all,,,premium,1799999.99,,,restated',
      ]),
    );
    out = tmp.build(data);
    refs = readJson<{ publications: { url: string }[] }>(out, 'private/index.json').publications;
  });

  it('serves a press figure only for a metric no office printed for the row', () => {
    const april = rowOf(months(), '2024-04')!;
    const change = { value: 5.5, as_printed: '+5.5%' };
    expect(april.snapshots.map(view)).toEqual([
      [
        '2024-05-01',
        '2024-05-01',
        '2024-04-30',
        1404040.4,
        null,
        null,
        null,
        null,
        null,
        true,
        [url('Office April')],
        { premium_yoy_pct: change },
      ],
      // the press adds the policies (1444) the office did not print; its premium and change are ignored
      [
        '2024-05-10',
        '2024-05-10',
        '2024-04-30',
        1404040.4,
        1444,
        null,
        null,
        null,
        null,
        true,
        [url('Office April'), url('Wire on April')].sort(),
        { premium_yoy_pct: change },
      ],
    ]);
  });

  it('blocks a press exact figure where the office printed a qualified one it does not agree with', () => {
    const may = rowOf(months(), '2024-05')!;
    // premium stays null; printed shows the office's words; the press copy is not cited (nothing of it is shown)
    expect(may.snapshots.map(view)).toEqual([
      [
        '2024-06-01',
        '2024-06-01',
        '2024-05-31',
        null,
        null,
        null,
        null,
        null,
        null,
        true,
        [url('Office May')],
        { premium: { value: 1600000, as_printed: 'nearly $1.6 million', qualifier: 'nearly' } },
      ],
    ]);
    expect(asOf(may, '2099-01-01')![3]).toBeNull();
  });

  it('fills a figure from a press copy where no office printed it', () => {
    expect(rowOf(months(), '2024-06')!.snapshots.map(view)).toEqual([
      [
        '2024-07-10',
        '2024-07-10',
        '2024-06-30',
        1666666.66,
        null,
        null,
        null,
        null,
        null,
        true,
        [url('Wire on June')],
        null,
      ],
    ]);
  });

  it('holds whatever the dates: an earlier press figure serves until the office prints, a later press restatement never replaces it', () => {
    const july = rowOf(months(), '2024-07')!;
    expect(july.snapshots.map(view)).toEqual([
      [
        '2024-08-05',
        '2024-08-05',
        '2024-07-31',
        1777777.77,
        null,
        null,
        null,
        null,
        null,
        true,
        [url('Wire on July')],
        null,
      ],
      [
        '2024-08-15',
        '2024-08-15',
        '2024-07-31',
        1700000.17,
        null,
        null,
        null,
        null,
        null,
        true,
        [url('Office July')],
        null,
      ],
    ]);
    expect(asOf(july, '2024-08-14')![3]).toBe(1777777.77);
    expect(asOf(july, '2024-08-31')![3]).toBe(1700000.17);
    expect(asOf(july, '2024-09-01')![3]).toBe(1700000.17);
    expect(asOf(july, '2099-01-01')![3]).toBe(1700000.17);
  });

  it('never lets a press value reach the April, May or July shards once the office printed the figure', () => {
    const text = JSON.stringify(months());
    for (const v of ['1999999.99', '1498765.43', '1799999.99']) expect(text, v).not.toContain(v);
  });
});
