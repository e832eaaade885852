// Every row of the research table is accounted for: served by a publication in data/, or left out for a
// reason data/README.md states (issue: "its reasons cover every row of figures.csv that is not served").
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEFT_OUT, type ResearchRow, auditResearch } from '../../scripts/audit-research.ts';

describe('research/figures.csv is accounted for', () => {
  const audit = auditResearch();

  it('every row is served or left out for a stated reason', () => {
    expect(audit.unaccounted.map((r) => `${r.state} ${r.period} ${r.metric} ${r.value} ${r.source_url}`)).toEqual([]);
    expect(audit.served + [...audit.byReason.values()].reduce((a, b) => a + b, 0)).toBe(audit.rows);
  });

  it("each reason is a row of data/README.md's table of what is not here", () => {
    const readme = readFileSync('data/README.md', 'utf8');
    for (const { reason } of LEFT_OUT) expect(readme, reason).toContain(`| ${reason} |`);
  });

  it('the reasons do not swallow figures the service should serve', () => {
    const states = new Set(['TX', 'FL']);
    const row = (r: Partial<ResearchRow>): ResearchRow => ({
      state: 'TX',
      period: '2024-02',
      metric: 'premium',
      value: '946170000',
      source_url: '',
      notes: '',
      ...r,
    });
    // Levels, counts and published growth of an office state match no reason: unless served, they are unaccounted.
    for (const r of [
      row({}),
      row({ metric: 'policies', value: '56764' }),
      row({ metric: 'premium_yoy_pct', value: '12.5' }),
      row({ state: 'FL', metric: 'items' }),
    ])
      expect(LEFT_OUT.find((l) => l.matches(r, states))?.reason).toBeUndefined();
    expect(LEFT_OUT.find((l) => l.matches(row({ state: 'ALL15' }), states))?.reason).toBe(
      'not a stamping-office state',
    );
  });
});
