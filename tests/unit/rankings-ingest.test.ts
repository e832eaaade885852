// Published rankings (data/rankings/, data/README.md "Rankings"): a good file is built into the shard the
// route serves; each broken one is refused with its file, line and column, the previous build untouched.
// Lines of the file below: the publication header 1-8, the ranking's own 9-12, the CSV header 13, rows from 14.
import { describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expectOneProblem, readJson, refusals, writeData } from './helpers.ts';

const { tmp, failingBuild, expectUntouched } = refusals('rankings');

const HEADER = [
  '# publisher: The Insurer',
  '# source: The Insurer, reporting an office ranking',
  '# title: Fixture ranking',
  '# url: https://example.org/ranking',
  '# report_date: 2022-01-06',
  '# report_date_basis: printed',
  '# data_as_of: 2021-12-31',
];
const RANKING = [
  '# state: FL',
  '# period: 2021',
  '# entity: company',
  '# basis: premium reported to the office, per company',
];
const COLUMNS = 'rank,name,premium,market_share_pct,qualifier,printed,unit,note';
const ROWS = [
  ",Lloyd's Market,1500000000,15.0,rounded,$1.5bn,USD,printed above rank 1 without a rank",
  '1,Alpha Insurance Company,300700000,3.1,,$300.7mn,USD,',
  '2,Beta Insurance Company,273200000,2.8,,"273,200",USD thousands,printed as Beta\'s',
];
const FILE = 'rankings/press/2022-01-06-fixture.csv';

/** A ranking file of `rows` (the header's row count theirs), with `extra` headers after the ranking's own. */
const rankingFile = (rows: string[] = ROWS, { header = HEADER, ranking = RANKING, extra = [] as string[] } = {}) =>
  [...header, `# rows: ${rows.length}`, ...ranking, ...extra, COLUMNS, ...rows].join('\n') + '\n';

function dataWith(files: Record<string, string>): string {
  const data = tmp.fixtureCopy();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(data, rel, '..'), { recursive: true });
    writeData(data, rel, text);
  }
  return data;
}

/** The rows with row `i` (0-based) replaced. */
const withRow = (i: number, row: string) => ROWS.map((r, k) => (k === i ? row : r));
/** The column (1-based) where `value` starts in `row`. */
const columnOf = (row: string, value: string) => row.indexOf(value) + 1;

describe('a ranking file is built as printed', () => {
  it('into private/rankings/<STATE>.json: ranks, names, premiums in USD, shares, rounded premiums marked, the unranked line apart', () => {
    const shards = tmp.build(dataWith({ [FILE]: rankingFile() }));
    const { state, rankings } = readJson(shards, 'private/rankings/FL.json');
    expect(state).toBe('FL');
    expect(rankings).toHaveLength(1);
    const [r] = rankings;
    expect(r.period).toBe('2021');
    expect(r.ranking).toEqual({
      entity: 'company',
      basis: 'premium reported to the office, per company',
      ranks_listed: 2,
    });
    expect(r.insurers).toEqual([
      { rank: 1, name: 'Alpha Insurance Company', premium: 300700000, policy_count: null, market_share_pct: 3.1 },
      {
        rank: 2,
        name: 'Beta Insurance Company',
        premium: 273200000,
        policy_count: null,
        market_share_pct: 2.8,
        note: "printed as Beta's",
      },
    ]);
    expect(r.unranked).toEqual([
      {
        name: "Lloyd's Market",
        premium: 1500000000,
        market_share_pct: 15,
        as_printed: '$1.5bn',
        qualifier: 'rounded',
        note: 'printed above rank 1 without a rank',
      },
    ]);
    expect([r.report_date, r.data_as_of, r.source]).toEqual([
      '2022-01-06',
      '2021-12-31',
      'The Insurer, reporting an office ranking',
    ]);
    const index = readJson(shards, 'private/index.json');
    expect(r.publications.map((p: number) => index.publications[p].url)).toEqual(['https://example.org/ranking']);
    const fl = readJson(shards, 'free/coverage.json').find((c: { state: string }) => c.state === 'FL');
    expect(fl.insurer_periods).toEqual(['2021', '2024-01']);
    expect(fl.capabilities.has_insurer_data).toBe(true);
  });

  it("US: a national ranking in private/rankings/US.json, in no state's coverage; ranks_in_publication where the list is partial", () => {
    const national = rankingFile(ROWS, {
      ranking: ['# state: US', '# period: 2021', '# entity: group', '# basis: direct premiums written, AM Best'],
      extra: ['# ranks_in_publication: 25'],
    });
    const shards = tmp.build(dataWith({ [FILE]: national }));
    const { rankings } = readJson(shards, 'private/rankings/US.json');
    expect(rankings[0].ranking).toEqual({
      entity: 'group',
      basis: 'direct premiums written, AM Best',
      ranks_listed: 2,
      ranks_in_publication: 25,
    });
    const coverage = readJson<{ state: string; insurer_periods: string[] }[]>(shards, 'free/coverage.json');
    expect(coverage.map((c) => c.state)).not.toContain('US');
    expect(coverage.find((c) => c.state === 'FL')!.insurer_periods).toEqual(['2024-01']);
  });

  it("an office's ranking is served before a press copy of the same state and period, whichever is read first", () => {
    const office = rankingFile(ROWS, {
      header: HEADER.map((l) => l.replace('The Insurer', 'FSLSO').replace('/ranking', '/office-ranking')),
    });
    // Folders are read in name order: 'fslso' before 'press', 'tx-office' after it.
    for (const folder of ['fslso', 'tx-office']) {
      const shards = tmp.build(
        dataWith({ [FILE]: rankingFile(), [`rankings/${folder}/2022-01-05-office.csv`]: office }),
      );
      const { rankings } = readJson(shards, 'private/rankings/FL.json');
      const index = readJson(shards, 'private/index.json');
      expect(
        rankings.map((r: { publications: number[] }) => index.publications[r.publications[0]].url),
        folder,
      ).toEqual(['https://example.org/office-ranking']);
    }
  });
});

describe('a broken ranking file is refused where it is broken, the previous build untouched', () => {
  const refused = (
    rows: string[],
    want: { line: number; column?: number; says: string[] },
    options?: Parameters<typeof rankingFile>[1],
  ) => {
    expectOneProblem(failingBuild(dataWith({ [FILE]: rankingFile(rows, options) })), { file: FILE, ...want });
    expectUntouched();
  };

  it('a rank twice', () => {
    const row = '1,Beta Insurance Company,273200000,2.8,,"273,200",USD thousands,';
    refused(withRow(2, row), { line: 16, column: 1, says: ['rank 1 twice', 'first on line 15'] });
  });

  it('a rank left out (1, then 3)', () => {
    refused(withRow(2, '3,Beta Insurance Company,273200000,2.8,,"273,200",USD thousands,'), {
      line: 16,
      says: ['rank 3 follows rank 1', 'none left out'],
    });
  });

  it('ranks out of order against exact premiums', () => {
    refused(withRow(2, '2,Beta Insurance Company,400200000,2.8,,$400.2mn,USD,'), {
      line: 16,
      says: ["rank 2's premium 400200000 is above rank 1's 300700000", 'out of order'],
    });
  });

  it('a share above 100', () => {
    const row = '1,Alpha Insurance Company,300700000,103.1,,$300.7mn,USD,';
    refused(withRow(1, row), { line: 15, column: columnOf(row, '103.1'), says: ["'103.1'", 'from 0 to 100'] });
  });

  it('shares that sum past 100', () => {
    refused(withRow(1, '1,Alpha Insurance Company,300700000,83.1,,$300.7mn,USD,'), {
      line: 8,
      says: ['market shares of the 3 lines sum to 100.9%', 'above 100'],
    });
  });

  it('a rounded premium without its words: no qualifier', () => {
    const row = ",Lloyd's Market,1500000000,15.0,,$1.5bn,USD,printed above rank 1 without a rank";
    refused(withRow(0, row), {
      line: 14,
      column: columnOf(row, '1500000000'),
      says: ['1500000000 has 2 significant digits', "qualifier 'rounded'"],
    });
  });

  it('a premium without its printed words', () => {
    const row = '1,Alpha Insurance Company,300700000,3.1,,,USD,';
    refused(withRow(1, row), { line: 15, says: ['printed is required'] });
  });

  it('a premium that is not its printed amount ($000 not multiplied out)', () => {
    const row = '2,Beta Insurance Company,273200,2.8,,"273,200",USD thousands,';
    refused(withRow(2, row), {
      line: 16,
      column: columnOf(row, '273200,'),
      says: ["273200 is not what '273,200' in USD thousands is (273200000)"],
    });
  });

  it('a line without a rank and without a note', () => {
    refused(withRow(0, ",Lloyd's Market,1500000000,15.0,rounded,$1.5bn,USD,"), {
      line: 14,
      says: ['without a rank needs a note'],
    });
  });

  it('a name twice', () => {
    refused(withRow(2, '2,alpha insurance company,273200000,2.8,,"273,200",USD thousands,'), {
      line: 16,
      column: 3,
      says: ["'alpha insurance company' twice", 'first on line 15'],
    });
  });

  it('an unknown unit', () => {
    const row = '2,Beta Insurance Company,273200000,2.8,,"273,200",USD 000,';
    refused(withRow(2, row), {
      line: 16,
      column: columnOf(row, 'USD 000'),
      says: ["unknown unit 'USD 000'", 'USD thousands'],
    });
  });

  it('an unknown state, a quarter, a period after data_as_of, an unknown entity (each in its header line)', () => {
    refused(
      ROWS,
      { line: 9, column: 10, says: ["unknown state 'ZZ'", 'or US'] },
      { ranking: ['# state: ZZ', ...RANKING.slice(1)] },
    );
    refused(
      ROWS,
      { line: 10, says: ["malformed period '2021-Q4'", 'half-year'] },
      { ranking: [RANKING[0], '# period: 2021-Q4', ...RANKING.slice(2)] },
    );
    refused(
      ROWS,
      { line: 10, says: ['period 2022-H1 ends after', '2021-12-31'] },
      { ranking: [RANKING[0], '# period: 2022-H1', ...RANKING.slice(2)] },
    );
    refused(
      ROWS,
      { line: 11, says: ["unknown entity 'insurer'", 'company or group'] },
      { ranking: [...RANKING.slice(0, 2), '# entity: insurer', RANKING[3]] },
    );
  });

  it('ranks_in_publication no more than the ranks listed', () => {
    refused(ROWS, { line: 13, says: ['more than the 2 listed here', "'2'"] }, { extra: ['# ranks_in_publication: 2'] });
  });

  it('a missing ranking header (basis)', () => {
    refused(ROWS, { line: 1, says: ["missing header '# basis: ...'"] }, { ranking: RANKING.slice(0, 3) });
  });

  it('two rankings of one state and period from publications of the same kind (two press copies)', () => {
    const other = rankingFile(ROWS, { header: HEADER.map((l) => l.replace('/ranking', '/another')) });
    expectOneProblem(
      failingBuild(dataWith({ [FILE]: rankingFile(), 'rankings/press/2022-01-07-another.csv': other })),
      {
        file: 'rankings/press/2022-01-07-another.csv',
        line: 1,
        says: ['a second ranking for FL 2021', FILE],
      },
    );
    expectUntouched();
  });
});
