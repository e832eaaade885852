// Implausible values and dates never reach the API: each is an ingest error naming the file, line and
// column. Bounds (ingest/sources/values.ts, data/README.md): money 0 to below 1e13 USD with at most 2
// decimals, counts whole and 0 to below 1e9, shares 0-100 and exactly representable; no report_date
// after today (UTC); no period ending after its publication's report_date.
//
// Columns: in `FL,2024-01,all,,,premium,<value>` the value starts at column 26, after `policies` at 27,
// after `new_business_policy_pct` at 42. `# report_date: ` is 15 characters: the date starts at column 16.
import { describe, expect, it } from 'vitest';
import { expectOneProblem, readTree, refusals, replaceOnce } from './helpers.ts';

const { tmp, built, failingBuild, expectUntouched } = refusals('implausible');
const JANUARY = 'publications/office/2024-01.csv'; // figure rows from line 10: premium, then policies
const utcDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('implausible values are refused where they are written', () => {
  it.each([
    ['a negative premium', 'premium,1111111.11', 'premium,-336700000', 10, 26, ['-336700000', 'cannot be negative']],
    [
      'a 31-digit premium (served as 1e+30)',
      'premium,1111111.11',
      'premium,1000000000000000000000000000000',
      10,
      26,
      ['not a plausible amount', 'below 10,000,000,000,000 USD'],
    ],
    ['money with more than 2 decimals', 'premium,1111111.11', 'premium,1111111.111', 10, 26, ['at most 2 decimals']],
    ['a negative count', 'policies,1001', 'policies,-1001', 11, 27, ['-1001', 'cannot be negative']],
    ['a count that is not whole', 'policies,1001', 'policies,1001.5', 11, 27, ['whole number']],
    [
      'a count of a billion',
      'policies,1001',
      'policies,1000000001',
      11,
      27,
      ['not a plausible count', 'below 1,000,000,000'],
    ],
    [
      'a share no double holds exactly',
      'new_business_policy_pct,40',
      'new_business_policy_pct,40.0000000000000001',
      12,
      42,
      ['cannot be held exactly', 'served as 40'],
    ],
  ] as const)('%s', (_, from, to, line, column, says) => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, JANUARY, `FL,2024-01,all,,,${from},`, `FL,2024-01,all,,,${to},`);
    expectOneProblem(failingBuild(data), { file: JANUARY, line, column, says: [...says] });
    expectUntouched();
  });

  it('a qualified figure is held to the same bounds (it stays in the file, citable)', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, 'publications/office/2024-02.csv', 'premium,1200000,rounded,', 'premium,-1200000,rounded,');
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-02.csv',
      line: 10,
      column: 26,
      says: ['cannot be negative'],
    });
    expectUntouched();
  });
});

describe('implausible dates are refused', () => {
  it('a report_date after today (UTC)', () => {
    const data = tmp.fixtureCopy();
    const tomorrow = utcDay(1);
    replaceOnce(data, JANUARY, '# report_date: 2024-02-01', `# report_date: ${tomorrow}`);
    expectOneProblem(failingBuild(data), {
      file: JANUARY,
      line: 5,
      column: 16,
      says: [tomorrow, 'in the future', utcDay(0)],
    });
    expectUntouched();
  });

  it('a report_date of today is fine', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, 'publications/office/2024-03.csv', '# report_date: 2024-04-01', `# report_date: ${utcDay(0)}`);
    expect(readTree(tmp.build(data)).size).toBe(built().size);
  });

  it('a period after its own report_date is named at its row, not only through data_as_of', () => {
    // report_date 2024-01-20 with data_as_of 2024-01-31: the header contradicts itself, and every row
    // (all of period 2024-01, which ends 2024-01-31) prints a month that had not ended on the report_date.
    const data = tmp.fixtureCopy();
    replaceOnce(data, JANUARY, '# report_date: 2024-02-01', '# report_date: 2024-01-20');
    const problems = failingBuild(data);
    expect(problems[0]).toMatchObject({
      line: 7,
      column: 15,
      message: 'data_as_of 2024-01-31 is after report_date 2024-01-20',
    });
    const rows = problems.slice(1);
    expect(rows.map((p) => [p.line, p.column])).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18].map((line) => [line, 4]));
    for (const p of rows)
      expect(p.message).toContain("period 2024-01 ends after the publication's report_date 2024-01-20");
    expectUntouched();
  });
});
