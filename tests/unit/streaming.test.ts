// The ingest builds one state at a time (ingest/build.ts): it reads and checks every file, then models,
// renders and writes each state's files into a staging folder beside the output before the next state,
// and swaps the staging folder into place only once every state is built. A problem found late (a
// same-day conflict in the last state, or an error while modelling it), after other states' files were
// staged, must still leave the previous build untouched and nothing beside it; and problems found state
// by state are reported in the order one pass over the folder finds them.
//
// The fixture's states in code order: FL, IL, NY (no figures), TX, so TX is built last.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildShards } from '../../ingest/build.ts';
import { sameDayConflicts } from '../../ingest/conflicts.ts';
import { buildModel } from '../../ingest/model.ts';
import { appendLines, expectOneProblem, publication, readTree, refusals, replaceOnce, writeData } from './helpers.ts';

vi.mock('../../ingest/model.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../ingest/model.ts')>();
  return { ...actual, buildModel: vi.fn(actual.buildModel) };
});
vi.mock('../../ingest/conflicts.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../ingest/conflicts.ts')>();
  return { ...actual, sameDayConflicts: vi.fn(actual.sameDayConflicts) };
});
const { buildModel: realBuildModel } =
  await vi.importActual<typeof import('../../ingest/model.ts')>('../../ingest/model.ts');
const { sameDayConflicts: realConflicts } =
  await vi.importActual<typeof import('../../ingest/conflicts.ts')>('../../ingest/conflicts.ts');

const { tmp, shards, failingBuild, expectUntouched } = refusals('streaming');
afterEach(() => {
  vi.mocked(buildModel).mockImplementation(realBuildModel);
  vi.mocked(sameDayConflicts).mockImplementation(realConflicts);
});

/** The files in the folders beside the output (the build's work folder while it runs), by path below that folder. */
function besideOutput(): string[] {
  const parent = dirname(shards());
  return readdirSync(parent)
    .filter((name) => name !== 'shards')
    .flatMap((name) => [...readTree(join(parent, name)).keys()]);
}
/** A one-row publication printing TX's 2023 premium. */
const txFlash = (title: string, reportDate: string, premium: string) =>
  publication({ publisher: 'SLTX', title, report_date: reportDate, data_as_of: '2023-12-31' }, [
    `TX,2023,all,,,premium,${premium},,,`,
  ]);

describe('building state by state', () => {
  it('stages the other states before the last is modelled; an error then leaves the previous build untouched and no staging folder', () => {
    let staged: string[] = [];
    vi.mocked(buildModel).mockImplementation((dataset) => {
      if (dataset.figures[0]?.state !== 'TX') return realBuildModel(dataset);
      staged = besideOutput();
      throw new Error('modelling TX failed');
    });
    expect(() => buildShards(tmp.fixtureCopy(), shards())).toThrow('modelling TX failed');
    // Each of FL, IL and NY was built and written, beside the output, before TX was modelled.
    for (const file of [
      'free/lines/FL.json',
      'free/sample/IL.json',
      'free/publications/NY.json',
      'private/series/FL/all/month.json',
      'private/insurers/IL.json',
    ])
      expect(
        staged.some((p) => p.endsWith(file)),
        file,
      ).toBe(true);
    expect(staged.filter((p) => p.includes('TX'))).toEqual([]);
    expectUntouched();
  });

  it('a same-day conflict in the last state refuses the build, found after the other states were staged; the previous build stays', () => {
    const data = tmp.fixtureCopy();
    // The same date as office/tx-2023-annual.csv (9876543210), read before it: the annual report is named.
    writeData(data, 'publications/office/tx-flash.csv', txFlash('TX flash', '2024-02-10', '1111111111'));
    let staged: string[] = [];
    vi.mocked(sameDayConflicts).mockImplementation((figures) => {
      if (figures[0]?.state === 'TX') staged = besideOutput();
      return realConflicts(figures);
    });
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/tx-flash.csv',
      line: 10,
      says: ['conflicting figure', '1111111111', '9876543210', 'premium TX 2023', 'tx-2023-annual.csv:10'],
    });
    expect(staged.some((p) => p.endsWith('private/series/FL/all/month.json'))).toBe(true);
    expectUntouched();
  });

  it('reports the problems found state by state in the order of one pass over the folder: reading, conflicts by date, datasets, bases', () => {
    const data = tmp.fixtureCopy();
    // Read first of all (unknown state): the build is refused before any state is built, and the
    // conflicts are still looked for, so that every problem is reported at once.
    appendLines(data, 'publications/office/il-2024-02.csv', 'ZZ,2024-02,all,,,policies,1203,,,');
    // A TX conflict dated 2024-01-15, the date of the first file read (office/2023-q4.csv) ...
    writeData(data, 'publications/office/a-tx.csv', txFlash('TX early A', '2024-01-15', '1111111111'));
    writeData(data, 'publications/office/z-tx.csv', txFlash('TX early Z', '2024-01-15', '2222222222'));
    // ... comes before an FL conflict dated 2024-02-01 (office/2024-01-flash.csv, read second), though
    // FL is built before TX.
    writeData(
      data,
      'publications/office/2024-01-flash.csv',
      publication({ title: 'January flash', report_date: '2024-02-01', data_as_of: '2024-01-31' }, [
        'FL,2024-01,all,,,policies,1002,,,',
      ]),
    );
    replaceOnce(data, 'datasets/enforcement/regulator/2023-actions.csv', ',25000,', ',25000x,');
    replaceOnce(data, 'bases.csv', 'TX,half_year,"premium submitted, as WSIA compiles it (fixture)",\n', '');
    const problems = failingBuild(data);
    expect(problems.map((p) => `${p.file.replace(/.*\/data\//, '')}:${p.line} ${p.message.split(':')[0]}`)).toEqual([
      "publications/office/il-2024-02.csv:16 unknown state 'ZZ'",
      'publications/office/z-tx.csv:10 conflicting figure',
      'publications/office/2024-01.csv:11 conflicting figure',
      'datasets/enforcement/regulator/2023-actions.csv:10 not a number',
      'publications/office/tx-2023-annual.csv:12 no basis for TX half_year figures',
    ]);
    expectUntouched();
  });
});
