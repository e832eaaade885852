// Two publications with the same report_date that print different exact values for one figure are a data
// error naming both files, both rows and both values (DECISIONS §1): neither is the later vintage, and
// before this check the one whose file name sorted last silently won.
//
// office/2024-01.csv (report_date 2024-02-01) prints FL 2024-01 policies 1001 on line 11 (the value at
// column 27). The flash report below has the same date; its figure rows start on line 10.
import { describe, expect, it } from 'vitest';
import { expectOneProblem, publication, readTree, refusals, writeData } from './helpers.ts';

const { tmp, built, failingBuild, expectUntouched } = refusals('same-day');
const flash = (rows: string[]) => publication({ title: 'January flash', report_date: '2024-02-01', data_as_of: '2024-01-31' }, rows);

describe('two publications of one report_date', () => {
  it('printing different exact values for one figure: an error naming both files, rows and values', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/2024-01-flash.csv', flash(['FL,2024-01,all,,,premium,1111111.11,,same as 2024-01.csv', 'FL,2024-01,all,,,policies,1002,,']));
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
    writeData(data, 'publications/office/2024-01-flash.csv', flash(['FL,2024-01,all,,Gamma Insurance Co,insurer_premium,400000.01,,']));
    expectOneProblem(failingBuild(data), {
      file: 'publications/office/2024-01.csv',
      line: 17, // Gamma's premium, 8th figure row
      says: ['400000', '400000.01', 'insurer Gamma Insurance Co', '2024-01-flash.csv:10'],
    });
    expectUntouched();
  });

  it('printing the same value (written either way) is no conflict', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/2024-01-flash.csv', flash(['FL,2024-01,all,,Alpha Insurance Co,insurer_premium,250000.0,,', 'FL,2024-01,all,,,policies,1001,,']));
    expect(readTree(tmp.build(data))).toEqual(built());
  });

  it('a qualified figure beside an exact one is no conflict: it never reaches a series', () => {
    const data = tmp.fixtureCopy();
    writeData(data, 'publications/office/2024-01-flash.csv', flash(['FL,2024-01,all,,,premium,1100000,about,"about $1.1M"']));
    expect(readTree(tmp.build(data))).toEqual(built());
  });
});
