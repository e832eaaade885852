// Bad input: each test copies the fixture, breaks one thing, and checks that buildShards throws an
// IngestError naming the file, line and column and what was expected, and that the shards built
// before from good data are left byte for byte as they were.
//
// Line/column arithmetic: publication files have 8 header lines (the last is `# rows: N`), the CSV
// header on line 9, figures from line 10. In `FL,2024-01,all,,,premium,<value>` the fields start at
// columns 1 (state), 4 (period), 12 (line), 16 (county), 17 (insurer), 18 (metric) and 26 (value, after
// the 7 letters of `premium` and a comma); after `policies` (8 letters) the value starts at column 27.
import { describe, expect, it } from 'vitest';
import { appendLines, expectOneProblem, refusals, replaceOnce, writeData } from './helpers.ts';

const { tmp, built, failingBuild, expectUntouched } = refusals('bad-input');

describe('buildShards refuses bad input and leaves the previous build untouched', () => {
  it('the reference build exists', () => {
    expect(built().has('free/coverage.json')).toBe(true);
    expect(built().size).toBeGreaterThan(10);
  });

  it('a malformed date in a header (report_date: 2024-02-30)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, 'publications/office/2024-01.csv', '# report_date: 2024-02-01', '# report_date: 2024-02-30');
    const p = expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 5, // the 5th header line
      says: ['2024-02-30', 'expected a date YYYY-MM-DD'],
    });
    expectUntouched();
    // "# report_date: " is 15 characters: the value starts at column 16 (as the url check points at
    // column 8, after "# url: ").
    expect(p.column).toBe(16);
  });

  it('a malformed period (2024-13)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(
      data,
      'publications/office/2024-02.csv',
      'FL,2024-02,all,,,policies,1101,,,',
      'FL,2024-13,all,,,policies,1101,,,',
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-02.csv',
      line: 11, // 2nd figure row
      column: 4,
      says: ["malformed period '2024-13'", 'expected YYYY-MM'],
    });
    expectUntouched();
  });

  it('a non-numeric premium (12a)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(
      data,
      'publications/office/2024-01.csv',
      'FL,2024-01,all,,,premium,1111111.11,,,',
      'FL,2024-01,all,,,premium,12a,,,',
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 10,
      column: 26,
      says: ["'12a'", 'expected a plain decimal'],
    });
    expectUntouched();
  });

  it('an unknown state code (ZZ)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, 'publications/office/tx-2023-annual.csv', 'TX,2023,all,,,items,', 'ZZ,2023,all,,,items,');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/tx-2023-annual.csv',
      line: 11, // 2nd figure row
      column: 1,
      says: ["unknown state 'ZZ'", 'expected one of FL, IL, NY, TX'],
    });
    expectUntouched();
  });

  it('an unknown line code (99)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, 'publications/office/2024-03.csv', 'FL,2024-03,2,,,premium,', 'FL,2024-03,99,,,premium,');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-03.csv',
      line: 13, // 4th figure row
      column: 12,
      says: ["unknown line '99'", "expected 'all' or a source_code of lines/FL.csv"],
    });
    expectUntouched();
  });

  it('a duplicate figure with a different value in the same publication', () => {
    const data = tmp.fixtureCopy();
    // 2024-01.csv has 9 figure rows (lines 10-18); the duplicate goes on line 19. Policies 1001 are on line 11.
    appendLines(data, 'publications/office/2024-01.csv', 'FL,2024-01,all,,,policies,1002,,,');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 19,
      column: 27,
      says: ['duplicate', '1002', '1001', 'line 11'],
    });
    expectUntouched();
  });

  it('a missing column in the CSV header', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(
      data,
      'publications/office/2024-02.csv',
      'metric,value,qualifier,printed,note\n',
      'metric,value,qualifier,printed\n',
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-02.csv',
      line: 9,
      column: 1,
      says: [
        "missing column 'note'",
        'expected the CSV header state,period,line,county,insurer,metric,value,qualifier,printed,note',
      ],
    });
    expectUntouched();
  });

  it('a publication in the format before the printed column (state,...,qualifier,note)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(
      data,
      'publications/office/2024-02.csv',
      'metric,value,qualifier,printed,note\n',
      'metric,value,qualifier,note\n',
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-02.csv',
      line: 9,
      column: 1,
      says: [
        "missing column 'printed'",
        'expected the CSV header state,period,line,county,insurer,metric,value,qualifier,printed,note',
      ],
    });
    expectUntouched();
  });

  it('an empty file', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/2024-02.csv', '');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-02.csv',
      line: 1,
      column: 1,
      says: ['empty', 'expected', 'state,period,line,county,insurer,metric,value,qualifier,printed,note'],
    });
    expectUntouched();
  });

  it('an unqualified rounded value (1600000000)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(
      data,
      'publications/office/2024-03.csv',
      'FL,2024-03,all,,,premium,1333333.33,,,',
      'FL,2024-03,all,,,premium,1600000000,,,',
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-03.csv',
      line: 10,
      column: 26,
      // 1, 6: two significant digits
      says: ['1600000000', '2 significant digits', "qualifier 'rounded'"],
    });
    expectUntouched();
  });

  it('a line without an id in line-ids.csv', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, 'line-ids.csv', '4,FL,Contingency\n', '');
    expectOneProblem(failingBuild(data), {
      file: 'line-ids.csv',
      line: 1,
      column: 1,
      says: ["FL 'Contingency'", 'lines/FL.csv', 'no id', "add the row '4,FL,Contingency'"], // ids 1-3 remain, so the next unused id is 4
    });
    expectUntouched();
  });

  it('a figure for a period that ends after the publication’s data_as_of', () => {
    const data = tmp.fixtureCopy();
    // 2024-01.csv covers data to 2024-01-31; February ends 2024-02-29
    appendLines(data, 'publications/office/2024-01.csv', 'FL,2024-02,all,,,policies,1111,,,');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 19,
      column: 4,
      says: ['2024-02', '2024-01-31'],
    });
    expectUntouched();
  });

  it('reports the problems of every file in one run', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(
      data,
      'publications/office/2024-01.csv',
      'FL,2024-01,all,,,premium,1111111.11,,,',
      'FL,2024-01,all,,,premium,12a,,,',
    );
    replaceOnce(data, 'publications/office/tx-2023-annual.csv', 'TX,2023,all,,,items,', 'ZZ,2023,all,,,items,');
    const problems = failingBuild(data);
    expect(problems.map((p) => [p.file.split('/').at(-1), p.line, p.column])).toEqual([
      ['2024-01.csv', 10, 26],
      ['tx-2023-annual.csv', 11, 1],
    ]);
    expectUntouched();
  });

  it('a duplicate county figure that differs only in the case of the county name', () => {
    // County names match case-insensitively and are stored uppercased (docs/design.md §4, the shard has
    // BROWARD for "Broward"): "Broward" and "BROWARD" are the same figure, printed twice with two values.
    const data = tmp.fixtureCopy();
    appendLines(data, 'publications/office/2023-q4.csv', 'FL,2023,all,BROWARD,,premium,999999.99,,,');
    // 2023-q4.csv has 5 figure rows (lines 10-14); the duplicate is line 15. "FL,2023,all,BROWARD,,premium,"
    // is 29 characters: the value starts at column 30. Broward's premium is on line 13.
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2023-q4.csv',
      line: 15,
      column: 30,
      says: ['duplicate', '999999.99', '123456.78', 'line 13'],
    });
    expectUntouched();
  });

  it('two spellings of one county that would share a shard folder ("MIAMI-DADE", "Miami Dade")', () => {
    // Both name the folder miami-dade: one would overwrite the other's shard. 2023-q4.csv has figure rows
    // on lines 10-14, MIAMI-DADE on line 12; the new row is line 15, its county at column 13 after
    // "FL,2023,all,".
    const data = tmp.fixtureCopy();
    appendLines(data, 'publications/office/2023-q4.csv', 'FL,2023,all,Miami Dade,,policies,4321,,,');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2023-q4.csv',
      line: 15,
      column: 13,
      says: ["'Miami Dade'", "'MIAMI-DADE'", '2023-q4.csv:12', 'miami-dade'],
    });
    expectUntouched();
  });
});
