// A junk file costs little: a data file over 5 MB is refused at once, a file stops being read after 50
// problems, and a report lists the first 50 problems and counts the rest in one line. (A 50 MB junk file
// once took half a minute and gigabytes, and printed 2,760,000 problems.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IngestError } from '../../ingest/errors.ts';
import { expectOneProblem, publication, refusals, replaceOnce, writeData } from './helpers.ts';

const { tmp, failingBuild, expectUntouched } = refusals('limits');
const CLI = join(import.meta.dirname, '..', '..', 'ingest', 'cli.ts');
/** A publication of `n` rows that each give one problem (an unknown state). */
const junk = (n: number) =>
  publication(
    { title: 'junk', report_date: '2024-02-01', data_as_of: '2024-01-31' },
    Array.from({ length: n }, (_, i) => `ZZ,2024-01,all,,,policies,${1001 + 2 * i},,,`),
  );

describe('limits on what bad input costs', () => {
  it('a data file over 5 MB is refused at once, at 1:1', () => {
    const data = tmp.fixtureCopy();
    // A real publication, but for a note of 6 MB that no one could have meant.
    replaceOnce(data, 'publications/office/2024-01.csv', 'tie with Beta', 'x'.repeat(6 * 1024 * 1024));
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 1,
      column: 1,
      says: ['bytes', '5 MB', 'limit'],
    });
    expectUntouched();
  });

  it('a file gives at most 50 problems, then one saying it was not read further', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/junk.csv', junk(200));
    const problems = failingBuild(data);
    expect(problems).toHaveLength(51);
    // figure rows from line 10: the 50th problem is on line 59, where reading stopped
    expect(problems.slice(0, 50).map((p) => p.line)).toEqual(Array.from({ length: 50 }, (_, i) => 10 + i));
    expect(problems[50]).toMatchObject({ line: 59, column: 1 });
    expect(problems[50].message).toContain('stops reading a file after 50 problems');
    expectUntouched();
  });

  it('a report lists the first 50 problems, then how many more there are', () => {
    const data = tmp.fixtureCopy();
    for (const name of ['junk-a', 'junk-b', 'junk-c']) writeData(data, `publications/office/${name}.csv`, junk(30));
    const problems = failingBuild(data);
    expect(problems).toHaveLength(90);

    const message = new IngestError(problems).message.split('\n');
    expect(message).toHaveLength(1 + 50 + 1);
    expect(message[0]).toBe('90 problem(s) in the data:');
    expect(message.at(-1)).toBe('... and 40 more problems');

    const cli = spawnSync(process.execPath, [CLI], {
      env: { ...process.env, DATA_DIR: data, SHARDS_DIR: join(tmp.dir('cli'), 'shards') },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(1);
    const printed = cli.stderr.trimEnd().split('\n');
    expect(printed).toHaveLength(50 + 2);
    expect(printed.slice(0, 50).every((l) => /junk-[ab]\.csv:\d+:1: unknown state 'ZZ'/.test(l))).toBe(true);
    expect(printed.slice(-2)).toEqual([
      '... and 40 more problems',
      'ingest: 90 problem(s); nothing was written, the previous shards are untouched.',
    ]);
    expect(cli.stdout).toBe('');
  });
});
