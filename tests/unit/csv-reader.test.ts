// The CSV reader (ingest/csv.ts) on tricky lines: each field's value and the column it starts at, and
// each line csv-parse cannot read, named at its line and column in the ingest's words. A line is one
// record: a bad line does not swallow the lines after it. Positions are counted by hand below, in
// characters from 1; a file's header is `id,name,note` unless said otherwise.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../ingest/csv.ts';
import { Problems } from '../../ingest/errors.ts';
import { readDataFile } from '../../ingest/read.ts';

const COLUMNS = ['id', 'name', 'note'] as const;
const HEADER = 'id,name,note\n';
const NOT_CLOSED = 'not valid CSV: this quoted field is not closed on its line (a field cannot span lines)';
const QUOTE_INSIDE = 'not valid CSV: a quote inside an unquoted field: quote the whole field and double the quote ("")';
const AFTER_CLOSE = 'not valid CSV: expected a comma after the closing quote of a field';

/** Reads `text` as t.csv: its rows as [line, [value, column] of each column], and its problems as [line, column, message]. */
function read(text: string) {
  const problems = new Problems();
  const csv = readCsv('t.csv', text, COLUMNS, problems);
  const rows = [...(csv?.rows ?? [])].map((r) => [
    r.line,
    ...COLUMNS.map((c) => [r.cells[c].value, r.cells[c].column]),
  ]);
  return { csv, rows, problems: problems.list.map((p) => [p.line, p.column, p.message]) };
}

const tmp = mkdtempSync(join(tmpdir(), 'slmd-unit-csv-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the CSV reader', () => {
  it('quoted commas, doubled quotes and empty fields: the value and starting column of each field', () => {
    const { rows, problems } = read(
      HEADER +
        '1,"x, y",z\n' + // "x, y" from its quote at 3; z after `1,"x, y",` (9 characters)
        '2,"say ""hi""",end\n' + // `"say ""hi"""` spans columns 3-14, so end is at 16
        '5,,\n' + // both empty: name at 3, note at 4, just past the line
        ',"",x\n' + // empty id at 1, an empty quoted name at 2, x at 5
        'é,"a""b",ü\n', // é and ü are one character each: `"a""b"` spans 3-8, ü is at 10
    );
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      [2, ['1', 1], ['x, y', 3], ['z', 10]],
      [3, ['2', 1], ['say "hi"', 3], ['end', 16]],
      [4, ['5', 1], ['', 3], ['', 4]],
      [5, ['', 1], ['', 2], ['x', 5]],
      [6, ['é', 1], ['a"b', 3], ['ü', 10]],
    ]);
  });

  it('CRLF line ends and blank lines: no CR in a value, lines counted as written', () => {
    const { csv, rows, problems } = read('id,name,note\r\n\r\n3,a,b\r\n\n4,"c",d\r\n');
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      [3, ['3', 1], ['a', 3], ['b', 5]],
      [5, ['4', 1], ['c', 3], ['d', 7]],
    ]);
    expect(csv?.recordCount).toBe(2);
  });

  it('a UTF-8 BOM: the header is read from the character after it, and columns count from there', () => {
    const path = join(tmp, 'bom.csv');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,nam,note\n1,a,b\n')]));
    const problems = new Problems();
    expect(readDataFile(path, COLUMNS, problems)).toBeNull();
    // `id` is known (not `\uFEFFid`); `nam` starts at column 4 of `id,nam,note`.
    expect(problems.list.map((p) => [p.line, p.column, p.message])).toEqual([
      [1, 1, "missing column 'name': expected the CSV header id,name,note"],
      [1, 4, "unknown column 'nam': expected only id,name,note"],
    ]);
  });

  it('a quoted header field: an unknown column is named at its quote; an unclosed one refuses the file', () => {
    expect(read('id,"nam",note\n1,a,b\n').problems).toContainEqual([
      1,
      4,
      "unknown column 'nam': expected only id,name,note",
    ]);
    const unclosed = read('id,"name,note\n1,a,b\n');
    expect(unclosed.csv).toBeNull();
    expect(unclosed.problems).toEqual([[1, 4, NOT_CLOSED]]);
  });

  it('a quote in the wrong place: named where csv-parse stopped, and the next line read on its own', () => {
    const { rows, problems } = read(
      HEADER +
        '6,ab"c,d\n' + // 2: the quote is the 5th character
        '7,"ab"c,d\n' + // 3: the c after the closing quote is the 7th
        '8,x,"abc\n' + // 4: the unclosed quote opens the field at 5
        '9,"y",z\n' + // 5: a good row, not part of line 4's field
        'é,x,"ab\n' + // 6: é is 2 bytes but one character: the quote is at 5
        'é,a"b,c\n', // 7: the quote is at 4
    );
    expect(problems).toEqual([
      [2, 5, QUOTE_INSIDE],
      [3, 7, AFTER_CLOSE],
      [4, 5, NOT_CLOSED],
      [6, 5, NOT_CLOSED],
      [7, 4, QUOTE_INSIDE],
    ]);
    expect(rows).toEqual([[5, ['9', 1], ['y', 3], ['z', 7]]]);
  });

  it('a quoted field that would close on the next line: a field cannot span lines, the next line is read on its own', () => {
    const { csv, rows, problems } = read(
      HEADER +
        '1,"a\n' + // 2: the quote at 3 is not closed on its line
        'b",c\n' + // 3: its quote (2nd character) is inside an unquoted field
        '2,x,y\n', // 4: a good row
    );
    expect(problems).toEqual([
      [2, 3, NOT_CLOSED],
      [3, 2, QUOTE_INSIDE],
    ]);
    expect(rows).toEqual([[4, ['2', 1], ['x', 3], ['y', 5]]]);
    expect(csv?.recordCount).toBe(3);
  });

  it('a wrong field count: named at column 1 with the count found; a quoted comma separates nothing', () => {
    const { rows, problems } = read(HEADER + '1,2\n1,2,3,4\n"a,b",c\n');
    expect(rows).toEqual([]);
    expect(problems).toEqual([
      [2, 1, 'expected 3 fields (id,name,note), found 2'],
      [3, 1, 'expected 3 fields (id,name,note), found 4'],
      [4, 1, 'expected 3 fields (id,name,note), found 2'],
    ]);
  });

  it('a long file: bad lines anywhere, at the end of a batch of lines too, cost only themselves', () => {
    // Rows on lines 2-2501; lines 1001 and 1502 have an unclosed quote (at column 6 after `1000,` / `1501,`).
    const lines = Array.from({ length: 2500 }, (_, i) => `${i},n,x`);
    lines[999] = '1000,"n,x';
    lines[1500] = '1501,"n,x';
    const { rows, problems } = read(`${HEADER}${lines.join('\n')}\n`);
    expect(problems).toEqual([
      [1001, 6, NOT_CLOSED],
      [1502, 6, NOT_CLOSED],
    ]);
    expect(rows.map((r) => r[0])).toEqual(
      Array.from({ length: 2500 }, (_, i) => i + 2).filter((l) => l !== 1001 && l !== 1502),
    );
    expect(rows.at(-1)).toEqual([2501, ['2499', 1], ['n', 6], ['x', 8]]);
  });

  it('a junk file: reading stops at its 50th problem', () => {
    const { rows, problems } = read(HEADER + 'a"b,c,d\n'.repeat(200));
    expect(rows).toEqual([]);
    expect(problems).toHaveLength(51);
    expect(problems.slice(0, 50)).toEqual(Array.from({ length: 50 }, (_, i) => [i + 2, 2, QUOTE_INSIDE]));
    expect(problems[50].slice(0, 2)).toEqual([51, 1]);
  });
});
