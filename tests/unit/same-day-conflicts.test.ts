// Two publications with the same report_date that print different exact values for one figure are a data
// error naming both files, both rows and both values (docs/design.md §1): neither is the later vintage, and
// before this check the one whose file name sorted last silently won.
//
// office/2024-01.csv (report_date 2024-02-01) prints FL 2024-01 policies 1001 on line 11 (the value at
// column 27). The flash report below has the same date; its figure rows start on line 10.
import { describe, expect, it } from 'vitest';
import {
  type SeriesShard,
  expectOneProblem,
  publication,
  readJson,
  readTree,
  refusals,
  rowOf,
  uncited,
  writeData,
} from './helpers.ts';

const { tmp, built, failingBuild, expectUntouched } = refusals('same-day');
const flash = (rows: string[]) =>
  publication({ title: 'January flash', report_date: '2024-02-01', data_as_of: '2024-01-31' }, rows);

describe('two publications of one report_date', () => {
  it('printing different exact values for one figure: an error naming both files, rows and values', () => {
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/2024-01-flash.csv',
      flash(['FL,2024-01,all,,,premium,1111111.11,,,same as 2024-01.csv', 'FL,2024-01,all,,,policies,1002,,,']),
    );
    // Files are read in name order: 2024-01-flash.csv, then 2024-01.csv, where the conflict is found.
    const p = expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 11,
      column: 27,
      says: ['conflicting figure', '1001', '1002', 'policies FL 2024-01', '2024-02-01'],
    });
    expect(p.message).toMatch(/office\/2024-01\.csv:11\b/);
    expect(p.message).toMatch(/office\/2024-01-flash\.csv:11\b/);
    expectUntouched();
  });

  it('names a line, county or insurer figure as such', () => {
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/2024-01-flash.csv',
      flash(['FL,2024-01,all,,Gamma Insurance Co,insurer_premium,400000.01,,,']),
    );
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 17, // Gamma's premium, 8th figure row
      says: ['400000', '400000.01', 'insurer Gamma Insurance Co', '2024-01-flash.csv:10'],
    });
    expectUntouched();
  });

  it('printing the same value (written either way) is no conflict: the same figures, citing both', () => {
    const data = tmp.fixtureCopy();
    writeData(
      data,
      'publications/office/2024-01-flash.csv',
      flash(['FL,2024-01,all,,Alpha Insurance Co,insurer_premium,250000.0,,,', 'FL,2024-01,all,,,policies,1001,,,']),
    );
    const out = tmp.build(data);
    expect(uncited(readTree(out))).toEqual(uncited(built()));
    // Publications by id: 0 2023-q4, 1 2024-01, 2 2024-01-flash, 3 2024-02, ... Both printed January's
    // policies (1001): either may be cited for it, until 2024-02.csv restates them (1011). Alpha's premium
    // is the flash's or 2024-01.csv's, Beta's and Gamma's 2024-01.csv's: the list cites both.
    expect(readJson(out, 'private/index.json').publications[2]).toEqual({
      publisher: 'FSLSO',
      title: 'January flash',
      url: 'https://example.org/January%20flash',
      report_date: '2024-02-01',
      report_date_basis: 'printed',
    });
    const [first, restated] = rowOf(
      readJson<SeriesShard>(out, 'private/series/FL/all/month.json'),
      '2024-01',
    )!.snapshots;
    expect([first[0], first[4]]).toEqual(['2024-02-01', 1001]);
    expect([[1], [2], [1, 2]]).toContainEqual(first[10].policy_count);
    expect(first[10].premium).toEqual([1]); // printed by 2024-01.csv alone
    expect([restated[0], restated[4], restated[10].policy_count]).toEqual(['2024-03-01', 1011, [3]]);
    expect(readJson(out, 'private/insurers/FL.json').periods[0].publications).toEqual([1, 2]);
  });

  it('a qualified figure beside an exact one is no conflict: it fills no series field, and is printed beside it', () => {
    const data = tmp.fixtureCopy();
    // "about $1.2M" disagrees with the exact 1111111.11 beyond its precision (0.1M), so it is no shortened
    // citation of it (one that agrees is not printed at all: tests/unit/shortened-citations.test.ts)
    writeData(
      data,
      'publications/office/2024-01-flash.csv',
      flash(['FL,2024-01,all,,,premium,1200000,about,about $1.2M,']),
    );
    const out = tmp.build(data);
    const after = uncited(readTree(out));
    // January keeps 2024-01.csv's exact 1111111.11 in every vintage; the flash's "about $1.2M" is printed
    // (beside the items 1501 that 2024-01.csv prints in another unit than policies)
    const about = { value: 1200000, as_printed: 'about $1.2M', qualifier: 'about' };
    const jan = rowOf(after.get('private/series/FL/all/month.json'), '2024-01')!;
    expect(jan.snapshots.map((s) => [s[0], s[3], s[10].premium])).toEqual([
      ['2024-02-01', 1111111.11, about],
      ['2024-03-01', 1111111.11, about],
    ]);
    expect(after.get('free/sample/FL.json').data[0]).toMatchObject({
      period: '2024-01',
      premium: 1111111.11,
      printed: { premium: about },
    });
    // Nothing else differs from the build without the flash.
    for (const s of jan.snapshots) delete s[10].premium;
    delete after.get('free/sample/FL.json').data[0].printed.premium;
    // the fixture's only other printed premium, February's "$1.2M", is a shortened citation of its exact
    // 1222222.22 (docs/design.md §1) and not in the sample: the flash's is the one that needs the legend
    delete after.get('free/sample/FL.json').printed_keys.premium;
    // the sample's CSV: one line more, the printed premium of January (state, line, granularity, period, field, value, kind, ...)
    const csv: string[][] = after.get('free/sample/FL.csv');
    const line = csv.findIndex((fields) => fields.slice(3, 7).join() === '2024-01,premium,1200000,printed');
    expect(csv[line]).toEqual([
      'FL',
      'all',
      'month',
      '2024-01',
      'premium',
      '1200000',
      'printed',
      'about $1.2M',
      'about',
      'premium',
      'USD',
    ]);
    csv.splice(line, 1);
    // the bulk CSV: the same figure, with its county (none) and latest (state, line, county, granularity, period, field, value, kind, ...)
    const bulk: string[][] = after.get('private/bulk/premium.csv');
    const row = bulk.findIndex((fields) => fields.slice(4, 8).join() === '2024-01,premium,1200000,printed');
    expect(bulk[row]).toEqual([
      'FL',
      'all',
      '',
      'month',
      '2024-01',
      'premium',
      '1200000',
      'printed',
      'about $1.2M',
      'about',
      'premium',
      'USD',
      'true',
    ]);
    bulk.splice(row, 1);
    expect(after).toEqual(uncited(built()));
  });
});
