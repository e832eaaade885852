// Encodings: every CSV the ingest reads may start with a UTF-8 byte order mark (as Excel saves it) and
// use CRLF line ends, and builds exactly as without them. Anything else that is not plain UTF-8 text is
// named as what it is, where it is: UTF-16, bytes that are not UTF-8, NUL bytes, a BOM inside the file,
// a CR that ends no line, other control characters.
//
// office/2024-03.csv's last row, line 18, is `FL,2024-03,Contingency,,,premium,9999.99,,,no category`:
// its note starts at column 44 ("no category").
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneProblem, readTree, refusals } from './helpers.ts';

const { tmp, built, failingBuild, expectUntouched } = refusals('encoding');
const MARCH = 'publications/office/2024-03.csv';
const EVERY_CSV = [
  'states.csv',
  'categories.csv',
  'line-ids.csv',
  'lines/FL.csv',
  ...['2023-q4', '2024-01', '2024-02', '2024-03', 'il-2022-annual', 'il-2023-12', 'il-2024-02', 'tx-2023-annual'].map(
    (p) => `publications/office/${p}.csv`,
  ),
];

/** Rewrites data file `rel` as `edit` makes it from its text (returned as bytes, or text saved as UTF-8). */
function rewrite(data: string, rel: string, edit: (text: string) => Buffer | string): void {
  const path = join(data, rel);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
}

/** Puts `insert` into the note of March's last row, after "no " (column 47). */
const inNote = (insert: string | Buffer) => (text: string) => {
  const [before, after] = text.split('no category');
  return Buffer.concat([Buffer.from(`${before}no `), Buffer.from(insert), Buffer.from(`category${after}`)]);
};

describe('accepted: a UTF-8 BOM and CRLF line ends build exactly as without them', () => {
  it('a UTF-8 BOM at the start of every CSV', () => {
    const data = tmp.fixtureCopy();
    for (const rel of EVERY_CSV) rewrite(data, rel, (text) => `\uFEFF${text}`);
    expect(readTree(tmp.build(data))).toEqual(built());
  });

  it('CRLF line ends in every CSV, with and without a BOM', () => {
    const data = tmp.fixtureCopy();
    EVERY_CSV.forEach((rel, i) =>
      rewrite(data, rel, (text) => `${i % 2 ? '\uFEFF' : ''}${text.replaceAll('\n', '\r\n')}`),
    );
    expect(readTree(tmp.build(data))).toEqual(built());
  });
});

describe('refused, and named for what it is', () => {
  it.each([
    ['little-endian', 'utf16le', [0xff, 0xfe]],
    ['big-endian', 'utf16be', [0xfe, 0xff]],
  ] as const)('a publication saved as UTF-16 (%s, with its BOM)', (_, name, bom) => {
    const data = tmp.fixtureCopy();
    const utf16 = (text: string) => {
      const le = Buffer.from(text, 'utf16le');
      return Buffer.concat([Buffer.from(bom), name === 'utf16le' ? le : le.swap16()]);
    };
    rewrite(data, MARCH, utf16);
    expectOneProblem(failingBuild(data), {
      file: MARCH,
      line: 1,
      column: 1,
      says: ['saved as UTF-16', 'save it as UTF-8'],
    });
    expectUntouched();
  });

  it('a UTF-8 BOM in states.csv and a UTF-16 one in line-ids.csv: the registries are read the same way', () => {
    const data = tmp.fixtureCopy();
    rewrite(data, 'states.csv', (text) => `\uFEFF${text}`);
    rewrite(data, 'line-ids.csv', (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expectOneProblem(failingBuild(data), { file: 'line-ids.csv', line: 1, column: 1, says: ['UTF-16'] });
    expectUntouched();
  });

  it('a Latin-1 byte: not valid UTF-8, at the line and column of the byte', () => {
    const data = tmp.fixtureCopy();
    rewrite(data, MARCH, inNote(Buffer.from([0xe9]))); // "é" as Latin-1 saves it
    expectOneProblem(failingBuild(data), {
      file: MARCH,
      line: 18,
      column: 47,
      says: ['not valid UTF-8', '0xE9', 'save the file as UTF-8'],
    });
    expectUntouched();
  });

  it('a NUL byte', () => {
    const data = tmp.fixtureCopy();
    rewrite(data, MARCH, inNote('\0'));
    expectOneProblem(failingBuild(data), { file: MARCH, line: 18, column: 47, says: ['NUL byte'] });
    expectUntouched();
  });

  it('a BOM inside the file (here in an insurer name, where it would make a second insurer)', () => {
    const data = tmp.fixtureCopy();
    // 2024-01.csv line 17: `FL,2024-01,all,,Gamma Insurance Co,...`; the name starts at column 17
    rewrite(data, 'publications/office/2024-01.csv', (text) =>
      text.replace(',,Gamma Insurance Co,insurer_premium', ',,\uFEFFGamma Insurance Co,insurer_premium'),
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 17,
      column: 17,
      says: ['byte order mark', 'inside the file'],
    });
    expectUntouched();
  });

  it.each([
    ['a CR that ends no line', '\r', ['carriage return', 'LF or CRLF']],
    ['a control character', '\x07', ['control character U+0007']],
  ] as const)('%s', (_, insert, says) => {
    const data = tmp.fixtureCopy();
    rewrite(data, MARCH, inNote(insert));
    expectOneProblem(failingBuild(data), { file: MARCH, line: 18, column: 47, says: [...says] });
    expectUntouched();
  });
});
