// A publication file declares its figure rows (`# rows: N`) and ends with a line end, so a file cut
// short is refused and said to be: at a row boundary the count no longer matches (before, the rows after
// the cut were lost silently); inside a row the last line end is missing.
//
// office/2024-03.csv: `# rows: 9` on line 8 (the count starts at column 9, after "# rows: "), the CSV
// header on line 9, figure rows on lines 10-18; the last is `FL,2024-03,Contingency,,,premium,9999.99,,,no category`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { appendLines, expectOneProblem, refusals, replaceOnce, writeData } from './helpers.ts';

const { tmp, failingBuild, expectUntouched } = refusals('row-count');
const MARCH = 'publications/office/2024-03.csv';
const LAST_ROW = 'FL,2024-03,Contingency,,,premium,9999.99,,,no category\n';

describe('a publication file that is cut short or miscounted is refused', () => {
  it('cut at a row boundary: the declared count names the file and the header line', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, MARCH, LAST_ROW, '');
    expectOneProblem(failingBuild(data), {
      file: MARCH,
      line: 8,
      column: 9,
      says: ['declares rows: 9 but has 8 figure rows: the file may be truncated'],
    });
    expectUntouched();
  });

  it('cut inside the last row: named as a cut, not only as a row with fields missing', () => {
    const data = tmp.fixtureCopy();
    const text = readFileSync(join(data, MARCH), 'utf8');
    writeData(data, MARCH, text.slice(0, text.indexOf('9999.99') + '9999.9'.length));
    // "FL,2024-03,Contingency,,,premium,9999.9" is 39 characters: the line end was due at column 40
    expectOneProblem(failingBuild(data), {
      file: MARCH,
      line: 18,
      column: 40,
      says: ['does not end with a line end', 'cut short'],
    });
    expectUntouched();
  });

  it('a row more than declared', () => {
    const data = tmp.fixtureCopy();
    const text = readFileSync(join(data, MARCH), 'utf8');
    writeData(data, MARCH, text + 'FL,2024-03,Contingency,,,policies,12,,,added without counting it\n');
    expectOneProblem(failingBuild(data), {
      file: MARCH,
      line: 8,
      column: 9,
      says: ['declares rows: 9 but has 10 figure rows', 'update the count'],
    });
    expectUntouched();
  });

  it('no `# rows` header', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, MARCH, '# rows: 9\n', '');
    expectOneProblem(failingBuild(data), { file: MARCH, line: 1, column: 1, says: ["missing header '# rows: ...'"] });
    expectUntouched();
  });

  it('a count that is not a number', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, MARCH, '# rows: 9\n', '# rows: nine\n');
    expectOneProblem(failingBuild(data), {
      file: MARCH,
      line: 8,
      column: 9,
      says: ["expected the number of figure rows after the CSV header, got 'nine'"],
    });
    expectUntouched();
  });

  it('blank lines are not rows, and a row added with its count is fine', () => {
    const data = tmp.fixtureCopy();
    replaceOnce(data, MARCH, LAST_ROW, `\n${LAST_ROW}\n\n`);
    appendLines(data, MARCH, 'FL,2024-03,Contingency,,,policies,12,,,');
    tmp.build(data);
  });
});
