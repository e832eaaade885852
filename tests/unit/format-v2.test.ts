// The publication format's `printed` column, printed-only metrics, bases.csv and `printedExactly`:
// what the ingest refuses (naming file, line and column, and leaving the previous build byte for byte
// as it was) and what it accepts.
//
// Line/column arithmetic: a publication file written with `publication()` has 8 header lines, the CSV
// header on line 9 and its first figure on line 10. In `FL,2023-12,all,,,<metric>,<value>,...` the fields
// start at columns 1 (state), 4 (period), 12 (line), 16 (county), 17 (insurer), 18 (metric); the value
// starts 1 + length(metric) + 18. bases.csv of the fixture has a header and 7 rows: an appended row is line 9.
import { describe, expect, it } from 'vitest';
import { printedExactly } from '../../ingest/sources/values.ts';
import {
  type SeriesShard,
  appendLines,
  expectOneProblem,
  publication,
  readJson,
  refusals,
  rowOf,
  writeData,
} from './helpers.ts';
import { citedPositions } from './helpers.ts';

const { tmp, built, failingBuild, expectUntouched } = refusals('format-v2');

const NEW = 'publications/office/2023-12-new.csv';
/** A fixture copy with one new publication for FL December 2023 holding `rows`. */
function withRows(...rows: string[]): string {
  const data = tmp.fixtureCopy();
  writeData(
    data,
    NEW,
    publication({ title: 'December 2023', report_date: '2024-01-25', data_as_of: '2023-12-31' }, rows),
  );
  return data;
}

describe('refusals: the printed column', () => {
  it('the reference build exists', () => {
    expect(built().has('free/coverage.json')).toBe(true);
  });

  it('a qualified row without printed words', () => {
    // "rounded," ends at column 41: printed starts at column 42 (value at 26, "1200000," is 8, qualifier at 34)
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,premium,1200000,rounded,,')), {
      file: NEW,
      line: 10,
      column: 42,
      says: ['the words as printed are needed', 'a qualified figure'],
    });
    expectUntouched();
  });

  it('a printed-only metric without printed words', () => {
    // premium_yoy_pct is 15 letters: value at 34, "-3.5," is 5, qualifier at 39 (empty), printed at 40
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,premium_yoy_pct,-3.5,,,')), {
      file: NEW,
      line: 10,
      column: 40,
      says: ['the words as printed are needed', 'premium_yoy_pct'],
    });
    expectUntouched();
  });

  it('a change below -100', () => {
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,premium_yoy_pct,-100.5,,-100.5%,')), {
      file: NEW,
      line: 10,
      column: 34,
      says: ['a change must be from -100', '-100.5'],
    });
    expectUntouched();
  });

  it('a share above 100', () => {
    // new_business_premium_pct is 24 letters: value at 43
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,new_business_premium_pct,100.5,,100.5%,')), {
      file: NEW,
      line: 10,
      column: 43,
      says: ['a share must be 0-100', '100.5'],
    });
    expectUntouched();
  });
});

describe('refusals: bases.csv', () => {
  it('a state × period type with figures but no bases.csv row', () => {
    // NY has no row at all in the fixture's bases.csv; two NY month figures give one problem, at the first
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/ny-2024-01.csv',
      publication({ publisher: 'ELANY', title: 'NY January', report_date: '2024-02-15', data_as_of: '2024-01-31' }, [
        'NY,2024-01,all,,,premium,2345678.91,,,',
        'NY,2024-01,all,,,transactions,3211,,,',
      ]),
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/ny-2024-01.csv',
      line: 10,
      column: 1,
      says: ['no basis for NY month', 'bases.csv', "'NY,month,"],
    });
    expectUntouched();
  });

  it('a half-year figure of a state whose bases.csv lists no half_year', () => {
    expectOneProblem(
      failingBuild(withRows('FL,2023-Q4,all,,,premium,3456789.00,,,', 'FL,2023-H2,all,,,premium,6543210.00,,,')),
      {
        file: NEW,
        line: 11,
        column: 1,
        says: ['no basis for FL half_year', 'bases.csv', "'FL,half_year,"],
      },
    );
    expectUntouched();
  });

  it('an unknown state', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', 'ZZ,month,premium reported somewhere,');
    expectOneProblem(failingBuild(data), {
      file: 'bases.csv',
      line: 9,
      column: 1,
      says: ["unknown state 'ZZ'", 'states.csv'],
    });
    expectUntouched();
  });

  it('an unknown period type', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', 'NY,week,premium reported to the fixture office,');
    expectOneProblem(failingBuild(data), {
      file: 'bases.csv',
      line: 9,
      column: 4,
      says: ["'week'", 'month', 'half_year', 'year_to_date'],
    });
    expectUntouched();
  });

  it('a state and period type listed twice', () => {
    const data = tmp.fixtureCopy();
    appendLines(data, 'bases.csv', 'FL,month,another basis,');
    expectOneProblem(failingBuild(data), { file: 'bases.csv', line: 9, column: 1, says: ['FL month', 'listed twice'] });
    expectUntouched();
  });
});

describe('refusals: printed words that do not show the value exact', () => {
  it("'$1.24B' for 1240000000 unqualified (3 significant digits)", () => {
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,premium,1240000000,,$1.24B,')), {
      file: NEW,
      line: 10,
      column: 26,
      says: ['1240000000', '3 significant digits', 'rounded'],
    });
    expectUntouched();
  });

  it("'71,500' for 71600: the printed number is not the value", () => {
    // policies is 8 letters: value at 27
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,policies,71600,,"71,500",')), {
      file: NEW,
      line: 10,
      column: 27,
      says: ['71600', '3 significant digits'],
    });
    expectUntouched();
  });

  it("'$602.0 million' for 603000000: the printed number does not expand to the value", () => {
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,premium,603000000,,$602.0 million,')), {
      file: NEW,
      line: 10,
      column: 26,
      says: ['603000000'],
    });
    expectUntouched();
  });

  it("'$602 million' for 602000000: printed to 3 significant digits only", () => {
    expectOneProblem(failingBuild(withRows('FL,2023-12,all,,,premium,602000000,,$602 million,')), {
      file: NEW,
      line: 10,
      column: 26,
      says: ['602000000', '3 significant digits'],
    });
    expectUntouched();
  });
});

describe('accepted', () => {
  const december = (data: string) => {
    const out = tmp.build(data);
    const refs = readJson<{ publications: { url: string }[] }>(out, 'private/index.json').publications;
    const row = rowOf(readJson<SeriesShard>(out, 'private/series/FL/all/month.json'), '2023-12')!;
    return row.snapshots.map((s) => [...s.slice(0, 10), citedPositions(s[10]).map((i) => refs[i].url), s[11]]);
  };
  const cite = [`https://example.org/${encodeURIComponent('December 2023')}`];

  it("'71,500' for 71500 and '$602.0 million' for 602000000 are exact, unqualified", () => {
    const data = withRows(
      'FL,2023-12,all,,,premium,602000000,,$602.0 million,',
      'FL,2023-12,all,,,policies,71500,,"71,500",',
    );
    expect(december(data)).toEqual([
      ['2024-01-25', '2024-01-25', '2023-12-31', 602000000, 71500, null, null, null, null, true, cite, null],
    ]);
  });

  it("'$1.24B' for 1240000000 when qualified: printed, not in the series field", () => {
    const data = withRows('FL,2023-12,all,,,premium,1240000000,rounded,$1.24B,');
    expect(december(data)).toEqual([
      [
        '2024-01-25',
        '2024-01-25',
        '2023-12-31',
        null,
        null,
        null,
        null,
        null,
        null,
        true,
        cite,
        { premium: { value: 1240000000, as_printed: '$1.24B', qualifier: 'rounded' } },
      ],
    ]);
  });

  it('a change of exactly -100 and a share of exactly 100', () => {
    const data = withRows(
      'FL,2023-12,all,,,premium_yoy_pct,-100,,-100%,',
      'FL,2023-12,all,,,new_business_premium_pct,100,,100%,',
    );
    const [snap] = december(data);
    expect((snap[11] as Record<string, { value: number }>).premium_yoy_pct.value).toBe(-100);
    expect((snap[11] as Record<string, { value: number }>).new_business_premium_pct.value).toBe(100);
  });
});

describe('printedExactly', () => {
  it('accepts a count printed in full with thousands separators', () => {
    expect(printedExactly('71500', '71,500')).toBe(true);
    expect(printedExactly('71500', '(71,500)')).toBe(true);
  });

  it('accepts money printed to 4 significant digits with a scale word', () => {
    expect(printedExactly('602000000', '$602.0 million')).toBe(true);
  });

  it('refuses fewer than 4 significant digits with a scale', () => {
    expect(printedExactly('1240000000', '$1.24B')).toBe(false);
    expect(printedExactly('602000000', '$602 million')).toBe(false);
  });

  it('refuses a printed number that does not expand to the value', () => {
    expect(printedExactly('71600', '71,500')).toBe(false);
    expect(printedExactly('603000000', '$602.0 million')).toBe(false);
    expect(printedExactly('60200000', '$602.0 million')).toBe(false);
  });

  it('refuses no words at all', () => {
    expect(printedExactly('71500', null)).toBe(false);
    expect(printedExactly('71500', '')).toBe(false);
  });
});
