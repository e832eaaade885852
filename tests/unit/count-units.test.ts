// One count unit per state and basis (docs/design.md §3, data/README.md "What each state counts"): a quarter
// or year summed from its months counts its months' unit, so a period whose source printed another unit
// (SLTX's quarterly "filings", transactions, beside its months' policies) keeps that count as a printed entry
// and does not turn the whole period type to the other unit. Expected values are the fixture's rows, by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeriesShard, appendLines, asOf, publication, readJson, rowOf, tempRoot, writeData } from './helpers.ts';

const tmp = tempRoot('count-units');
afterAll(() => tmp.cleanup());

describe('a quarter printed in another unit than its months', () => {
  let out: string;
  const quarters = () => readJson<SeriesShard>(out, 'private/series/IL/all/quarter.json');
  const years = () => readJson<SeriesShard>(out, 'private/series/IL/all/year.json');

  beforeAll(() => {
    const data = tmp.fixtureCopy();
    // The fixture's IL months 2023-01..12 print policies (1013, 1025, 1037, 1049, 1061, 1073, ...); the
    // office's quarterly release prints the quarter's filings, transactions, and no premium of its own.
    appendLines(data, 'bases.csv', 'IL,quarter,premium reported to the fixture office,');
    writeData(
      data,
      'publications/office/il-2023-q1.csv',
      publication(
        { publisher: 'SLAI', title: 'IL first quarter', report_date: '2023-04-05', data_as_of: '2023-03-31' },
        ['IL,2023-Q1,all,,,transactions,4500,,"4,500",filings in the quarter'],
      ),
    );
    writeData(
      data,
      'publications/office/il-2023-year.csv',
      publication({ publisher: 'SLAI', title: 'IL year 2023', report_date: '2024-01-20', data_as_of: '2023-12-31' }, [
        'IL,2023,all,,,transactions,17890,,"17,890",filings in the year',
      ]),
    );
    out = tmp.build(data);
  });

  it('keeps the months’ unit: policies', () => {
    expect(quarters().count_unit).toBe('policies');
    expect(years().count_unit).toBe('policies');
  });

  it('serves the quarter’s own count as a printed entry, and sums its months’ policies into policy_count', () => {
    const q1 = asOf(rowOf(quarters(), '2023-Q1'), '2099-01-01')!;
    expect(q1[4]).toBe(1013 + 1025 + 1037);
    expect(q1[3]).toBe(1001000.25 + 1002000.25 + 1003000.25);
    expect(q1[11]).toEqual({ transactions: { value: 4500, as_printed: '4,500' } });
  });

  it('leaves the other quarters’ summed policies in place', () => {
    expect(asOf(rowOf(quarters(), '2023-Q2'), '2099-01-01')![4]).toBe(1049 + 1061 + 1073);
  });

  it('prints a year’s count in another unit beside the policies its months sum to', () => {
    const y2023 = asOf(rowOf(years(), '2023'), '2099-01-01')!;
    expect(y2023[4]).toBe(
      [1013, 1025, 1037, 1049, 1061, 1073, 1085, 1097, 1109, 1121, 1133, 1145].reduce((a, b) => a + b),
    );
    expect(y2023[11]).toEqual({ transactions: { value: 17890, as_printed: '17,890' } });
  });
});
