// The ingest parks each figure on disk by state while it reads the data folder (ingest/spill.ts) and
// reads a state's back to build it: what it reads back must be the figure it parked, field for field,
// whatever the text printed, in the order parked, with the very publication object (the model groups
// figures by it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePeriod } from '../../domain/periods.ts';
import type { Figure } from '../../ingest/model-types.ts';
import type { Publication } from '../../ingest/sources/header.ts';
import { Spill } from '../../ingest/spill.ts';

const root = mkdtempSync(join(tmpdir(), 'slmd-unit-spill-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const spillDir = () => join(root, `spill-${n++}`);

const pub = (id: string): Publication => ({
  id,
  file: `data/publications/${id}.csv`,
  publisher: 'P',
  source: 'S',
  title: `Title, "quoted"`,
  url: 'https://example.org/x',
  reportDate: '2024-02-01',
  reportDateEstimated: false,
  secondary: false,
  dataAsOf: '2024-01-31',
});
const a = pub('office/a');
const b = pub('press/b');

function figure(state: string, over: Partial<Figure> = {}): Figure {
  return {
    pub: a,
    state,
    period: parsePeriod('2024-01')!,
    line: 'all',
    county: null,
    insurer: null,
    metric: 'premium',
    value: 1234567.89,
    exact: true,
    qualifier: null,
    printed: null,
    fileLine: 10,
    valueColumn: 27,
    ...over,
  };
}

describe('the figures spill', () => {
  it('reads back each figure as it was parked, whatever its text', () => {
    const figures = [
      figure('FL'),
      figure('FL', {
        pub: b,
        period: parsePeriod('2023')!,
        county: 'ST. LUCIE',
        metric: 'policies',
        value: 71500,
        printed: '71,500 "policies"\tfiled',
        fileLine: 11,
        valueColumn: 30,
      }),
      figure('FL', { insurer: 'Lloyd’s, Syndicate 2791 (“Beazley”)', metric: 'insurer_premium', value: 0.1 + 0.2 }),
      figure('FL', { metric: 'premium_yoy_pct', value: -0, exact: true, printed: '-0.0%' }),
      figure('FL', {
        period: parsePeriod('2024-01..03')!,
        value: 1240000000,
        exact: false,
        qualifier: 'nearly',
        printed: 'nearly $1.24B',
      }),
      figure('FL', { period: parsePeriod('2024-Q1')!, line: '1-2.3', value: 9999999999999.99 }),
      figure('FL', { period: parsePeriod('2024-H2')!, printed: '' }),
    ];
    const spill = new Spill(spillDir());
    for (const f of figures) spill.add(f);
    const back = spill.read('FL');
    expect(back).toEqual(figures);
    expect(back.map((f) => f.pub)).toEqual(figures.map((f) => f.pub));
    back.forEach((f, i) => expect(f.pub).toBe(figures[i].pub));
    expect(Object.is(back[3].value, -0)).toBe(true);
    expect(back[6].printed).toBe('');
  });

  it('keeps each state apart and in the order parked, across flushes of its buffer', () => {
    const spill = new Spill(spillDir(), 1000); // a flush every few dozen figures
    const states = ['FL', 'TX', 'a/b', '..'];
    for (let i = 0; i < 500; i++) spill.add(figure(states[i % states.length], { fileLine: i, value: i }));
    for (const [k, state] of states.entries()) {
      const back = spill.read(state);
      expect(back.map((f) => f.fileLine)).toEqual(Array.from({ length: 125 }, (_, j) => j * states.length + k));
      expect(back.every((f) => f.state === state)).toBe(true);
    }
  });

  it('has no figures for a state it was given none of', () => {
    const spill = new Spill(spillDir());
    spill.add(figure('FL'));
    expect(spill.read('NY')).toEqual([]);
  });
});
