// Property-based test of the ingest (issue 9): generated corruptions of one fixture publication file,
// over shards built once from the good fixture. Each case either throws an IngestError whose every
// problem points into an existing file (a line within it, a column within that line, a message) and
// leaves the previous shards byte for byte as they were, with nothing left beside them; or it builds
// exactly the shards of the uncorrupted data. A change that keeps the meaning (a UTF-8 BOM at the start,
// CRLF line ends, trailing blank lines) must build.
//
// Only structural corruptions: a digit changed inside a value is another figure that no format can
// detect, and so is any edit of a free-text field (county, insurer, qualifier, note), so text is only
// inserted where no valid text can go (state, period, line, metric, value), and inserted bytes are
// never valid text on their own. The fixture publications are ASCII, which this reasoning needs.
import { isUtf8 } from 'node:buffer';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildShards } from '../../ingest/build.ts';
import { IngestError } from '../../ingest/errors.ts';
import { FIXTURE_DATA } from '../support/shards.ts';
import { readTree } from '../unit/helpers.ts';

/** Cases: FUZZ_RUNS (`npm run fuzz` sets 100000), else what keeps this file well under 20 s. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
/** Above the 5 MB limit for a data file (ingest/load.ts), so some huge lines cross it. */
const HUGE = 6 * 1024 * 1024;
/** Fields whose values are codes, dates or numbers: any non-ASCII text or other field's value there is wrong. */
const STRUCTURAL = { state: 0, period: 1, line: 2, metric: 5, value: 6 } as const;

interface Publication {
  rel: string;
  bytes: Buffer;
  /** Its lines, each with its line end. */
  lines: string[];
  /** Index in `lines` of the first figure row. */
  firstRow: number;
}
interface Corruption {
  name: string;
  /** A change that keeps the meaning: the build must succeed with the good shards. */
  keepsMeaning: boolean;
  apply(pub: Publication): Buffer;
}

const root = mkdtempSync(join(tmpdir(), 'slmd-fuzz-ingest-'));
const data = join(root, 'data');
const shards = join(root, 'out', 'shards');
let good: Map<string, Buffer>;
let publications: Publication[];

beforeAll(() => {
  cpSync(FIXTURE_DATA, data, { recursive: true });
  buildShards(data, shards);
  good = readTree(shards);
  publications = [...readTree(join(data, 'publications')).keys()].map((name) => {
    const bytes = readFileSync(join(data, 'publications', name));
    const lines = bytes.toString('latin1').split(/(?<=\n)/);
    return { rel: join('publications', name), bytes, lines, firstRow: lines.findIndex((l) => !l.startsWith('#')) + 1 };
  });
  for (const p of publications) {
    expect(
      p.bytes.every((b) => b < 0x80),
      `${p.rel} is ASCII`,
    ).toBe(true);
    // Quotes only in the note, so a row's other fields split at commas.
    for (const row of p.lines.slice(p.firstRow)) expect(row.split(',').slice(0, 8).join(',')).not.toContain('"');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const text = (lines: string[]) => Buffer.from(lines.join(''), 'latin1');
const insertAt = (bytes: Buffer, at: number, insert: Buffer) =>
  Buffer.concat([bytes.subarray(0, at), insert, bytes.subarray(at)]);
const withLine = (pub: Publication, at: number, line: string) =>
  text([...pub.lines.slice(0, at), line, ...pub.lines.slice(at)]);
/** A figure row of `pub` as its fields (the note may hold commas: it stays joined). */
function rowFields(pub: Publication, pick: number): { index: number; fields: string[] } {
  const index = pub.firstRow + (pick % (pub.lines.length - pub.firstRow));
  const parts = pub.lines[index].split(',');
  return { index, fields: [...parts.slice(0, 8), parts.slice(8).join(',')] };
}
const withRow = (pub: Publication, index: number, fields: string[]) =>
  text(pub.lines.map((l, i) => (i === index ? fields.join(',') : l)));

/** Bytes that are not valid text anywhere in an ASCII file: a control character or a broken UTF-8 sequence. */
const invalidBytes = fc
  .uint8Array({ minLength: 1, maxLength: 8 })
  .filter((b) => !isUtf8(b) || b.some((x) => (x < 0x20 && x !== 0x09 && x !== 0x0a && x !== 0x0d) || x === 0x7f));
const nonAsciiText = fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }).filter((s) => /[^\0-\x7f]/.test(s));
const field = fc.constantFrom(...(Object.keys(STRUCTURAL) as (keyof typeof STRUCTURAL)[]));

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  // Half of the cuts fall in the last row, where a shortened value can still read as a number.
  fc.tuple(fc.nat(), fc.boolean()).map(([n, nearEnd]) => ({
    name: `cut ${nearEnd ? `${1 + (n % 40)} bytes before the end` : `at byte ${n} mod length`}`,
    keepsMeaning: false,
    apply: (p: Publication) =>
      p.bytes.subarray(0, nearEnd ? Math.max(0, p.bytes.length - 1 - (n % 40)) : n % p.bytes.length),
  })),
  fc.nat().map((n) => ({
    name: `line ${n} mod count deleted`,
    keepsMeaning: false,
    apply: (p: Publication) => text(p.lines.filter((_, i) => i !== n % p.lines.length)),
  })),
  fc.nat().map((n) => ({
    name: `line ${n} mod count duplicated`,
    keepsMeaning: false,
    apply: (p: Publication) => withLine(p, n % p.lines.length, p.lines[n % p.lines.length]),
  })),
  fc.tuple(fc.nat(), invalidBytes).map(([n, b]) => ({
    name: `bytes ${Buffer.from(b).toString('hex')} inserted`,
    keepsMeaning: false,
    apply: (p: Publication) => insertAt(p.bytes, n % (p.bytes.length + 1), Buffer.from(b)),
  })),
  fc.tuple(fc.nat(), fc.constantFrom('\0', '\r', '\uFEFF')).map(([n, c]) => ({
    name: `${JSON.stringify(c)} inserted inside`,
    keepsMeaning: false,
    apply: (p: Publication) => insertAt(p.bytes, 1 + (n % p.bytes.length), Buffer.from(c)),
  })),
  fc.tuple(fc.nat(), field, fc.nat(), nonAsciiText).map(([row, name, n, s]) => ({
    name: `${JSON.stringify(s)} inserted into a ${name}`,
    keepsMeaning: false,
    apply: (p: Publication) => {
      const { index, fields } = rowFields(p, row);
      const value = fields[STRUCTURAL[name]];
      const at = n % (value.length + 1);
      fields[STRUCTURAL[name]] = value.slice(0, at) + Buffer.from(s).toString('latin1') + value.slice(at);
      return withRow(p, index, fields);
    },
  })),
  fc.constantFrom('utf16le', 'utf16be').chain((encoding) =>
    fc.boolean().map((bom) => ({
      name: `saved as ${encoding}${bom ? ' with its BOM' : ''}`,
      keepsMeaning: false,
      apply: (p: Publication) => {
        const le = Buffer.from(`${bom ? '\uFEFF' : ''}${p.bytes.toString('latin1')}`, 'utf16le');
        return encoding === 'utf16le' ? le : le.swap16();
      },
    })),
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 0xa0, max: 0xff })).map(([n, code]) => ({
    name: `U+${code.toString(16)} inserted, saved as Latin-1`,
    keepsMeaning: false,
    apply: (p: Publication) => insertAt(p.bytes, n % (p.bytes.length + 1), Buffer.from([code])),
  })),
  fc
    .tuple(fc.nat(), field, field)
    .filter(([, a, b]) => a !== b)
    .map(([row, a, b]) => ({
      name: `${a} and ${b} swapped`,
      keepsMeaning: false,
      apply: (p: Publication) => {
        const { index, fields } = rowFields(p, row);
        [fields[STRUCTURAL[a]], fields[STRUCTURAL[b]]] = [fields[STRUCTURAL[b]], fields[STRUCTURAL[a]]];
        return withRow(p, index, fields);
      },
    })),
  fc.tuple(fc.nat(), field).map(([row, name]) => ({
    name: `${name} emptied`,
    keepsMeaning: false,
    apply: (p: Publication) => {
      const { index, fields } = rowFields(p, row);
      fields[STRUCTURAL[name]] = '';
      return withRow(p, index, fields);
    },
  })),
  fc
    .tuple(
      fc.nat(),
      fc.oneof(fc.integer({ min: 1_000, max: 200_000 }), fc.constant(HUGE)),
      fc.constantFrom('x', 'FL,', '9', ','),
    )
    .map(([n, length, unit]) => ({
      name: `a line of ${length} characters inserted`,
      keepsMeaning: false,
      apply: (p: Publication) =>
        withLine(p, n % (p.lines.length + 1), `${unit.repeat(Math.ceil(length / unit.length)).slice(0, length)}\n`),
    })),
  fc
    .record({ bom: fc.boolean(), crlf: fc.boolean(), blankLines: fc.nat(3) })
    .filter((k) => k.bom || k.crlf || k.blankLines > 0)
    .map((k) => ({
      name: `${k.bom ? 'a UTF-8 BOM, ' : ''}${k.crlf ? 'CRLF, ' : ''}${k.blankLines} trailing blank lines`,
      keepsMeaning: true,
      apply: (p: Publication) => {
        const end = k.crlf ? '\r\n' : '\n';
        const body = p.bytes.toString('latin1').replaceAll('\n', end) + end.repeat(k.blankLines);
        return Buffer.concat([Buffer.from(k.bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(body, 'latin1')]);
      },
    })),
);

/** Every problem names an existing file, a line within it (or one past its end), a column within that line, and says something. */
function expectProblemsPointIntoFiles(error: IngestError): void {
  expect(error.problems.length).toBeGreaterThan(0);
  for (const p of error.problems) {
    const path = resolve(p.file);
    expect(statSync(path, { throwIfNoEntry: false })?.isFile(), `${p.file} is a file`).toBe(true);
    const lines = readFileSync(path).toString('latin1').split('\n');
    expect(p.line, `${p.file}:${p.line}`).toBeGreaterThanOrEqual(1);
    expect(p.line, `${p.file}:${p.line}`).toBeLessThanOrEqual(lines.length + 1);
    // A column counts characters, never more than the line's bytes (+1: just past its end).
    expect(p.column, `${p.file}:${p.line}:${p.column}`).toBeGreaterThanOrEqual(1);
    expect(p.column, `${p.file}:${p.line}:${p.column}`).toBeLessThanOrEqual((lines[p.line - 1]?.length ?? 0) + 1);
    expect(p.message.trim()).not.toBe('');
  }
}

function expectShardsUntouched(): void {
  const after = readTree(shards);
  expect([...after.keys()]).toEqual([...good.keys()]);
  for (const [path, bytes] of good) expect(after.get(path)!.equals(bytes), path).toBe(true);
  expect(readdirSync(dirname(shards))).toEqual(['shards']);
}

describe('the ingest on corrupted publications', () => {
  it(
    'refuses a corruption and names where it is, or builds the same shards when the meaning is kept',
    () => {
      fc.assert(
        fc.property(fc.nat(), corruption, (pick, c) => {
          const pub = publications[pick % publications.length];
          const path = join(data, pub.rel);
          writeFileSync(path, c.apply(pub));
          // Set while the shards may not be the good ones, so that the cases fast-check runs next
          // (shrinking a failure) start from the good shards again.
          let replaced = false;
          try {
            let error: unknown;
            try {
              replaced = true;
              buildShards(data, shards);
            } catch (e) {
              error = e;
            }
            if (error === undefined) {
              expect(readTree(shards)).toEqual(good);
              replaced = false;
              return;
            }
            // eslint-disable-next-line @typescript-eslint/only-throw-error -- whatever the ingest threw, as it was
            if (!(error instanceof IngestError)) throw error;
            expect(c.keepsMeaning, `${c.name} keeps the meaning, but: ${error.message}`).toBe(false);
            expectProblemsPointIntoFiles(error);
            expectShardsUntouched();
            replaced = false;
          } finally {
            writeFileSync(path, pub.bytes);
            if (replaced) buildShards(data, shards);
          }
        }),
        { numRuns: RUNS, seed: process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED) },
      );
    },
    60_000 + RUNS * 100,
  );
});
