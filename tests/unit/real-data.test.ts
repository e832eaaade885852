// The real dataset (data/) builds, and covers exactly the 15 stamping-office states.
import { afterAll, describe, expect, it } from 'vitest';
import { REAL_DATA, readJson, tempRoot } from './helpers.ts';

const tmp = tempRoot('real-data');
afterAll(() => tmp.cleanup());

describe('the real dataset', () => {
  it('builds, and coverage.json lists the 15 stamping-office states', () => {
    const out = tmp.build(REAL_DATA);
    const coverage = readJson<{ state: string }[]>(out, 'free/coverage.json');
    expect(coverage.map((c) => c.state)).toEqual([
      'AZ',
      'CA',
      'FL',
      'ID',
      'IL',
      'MN',
      'MS',
      'NC',
      'NV',
      'NY',
      'OR',
      'PA',
      'TX',
      'UT',
      'WA',
    ]);
  });
});
