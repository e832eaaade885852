// Two publications with the same report_date that print different exact values for one figure: neither
// is the later vintage, so serving one would be a choice by file name (DECISIONS §1). A data error.
// Qualified figures never reach a series, so only exact ones are compared.
import type { Problems } from './errors.ts';
import type { Figure } from './model-types.ts';

export function checkSameDayConflicts(figures: readonly Figure[], problems: Problems): void {
  // Grouped by date first, so only one date's figures are held in a map at a time.
  const byDate = new Map<string, Figure[]>();
  for (const f of figures) {
    if (!f.exact) continue;
    const group = byDate.get(f.pub.reportDate);
    if (group) group.push(f);
    else byDate.set(f.pub.reportDate, [f]);
  }
  for (const [date, group] of byDate) {
    const first = new Map<string, Figure>();
    for (const f of group) {
      const key = [f.state, f.period.key, f.line, f.county ?? '', f.insurer ?? '', f.metric].join('|');
      const other = first.get(key);
      if (!other) first.set(key, f);
      else if (other.value !== f.value)
        problems.add(f.pub.file, f.fileLine, f.valueColumn,
          `conflicting figure: ${f.value} here (${f.pub.file}:${f.fileLine}) and ${other.value} in ${other.pub.file}:${other.fileLine}, ` +
          `for ${f.metric} ${f.state} ${f.period.key}${f.line === 'all' ? '' : ` line ${f.line}`}${f.county ? ` county ${f.county}` : ''}${f.insurer ? ` insurer ${f.insurer}` : ''}; ` +
          `both publications are dated ${date}, so neither is the later vintage: correct the one that is wrong`);
    }
  }
}
