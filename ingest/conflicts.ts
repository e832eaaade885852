// Two publications with the same report_date that print different exact values for one figure: neither
// is the later vintage, so serving one would be a choice by file name (docs/design.md §1). A data error.
// Qualified figures never reach a series, so only exact ones are compared. The figures of one figure's
// conflicts share its state, so a build finds them state by state (ingest/build.ts).
import type { Problem } from './errors.ts';
import { type Figure, figureKey } from './model-types.ts';

/** `figure` prints another value than `other`, the first figure read for the same thing on the same date. */
export interface Conflict {
  figure: Figure;
  other: Figure;
}

/** The conflicts among `figures` (in reading order): by date, dates in the order first read, then by figure. */
export function sameDayConflicts(figures: readonly Figure[]): Conflict[] {
  // Grouped by date first, so only one date's figures are held in a map at a time.
  const byDate = new Map<string, Figure[]>();
  for (const f of figures) {
    if (!f.exact) continue;
    const group = byDate.get(f.pub.reportDate);
    if (group) group.push(f);
    else byDate.set(f.pub.reportDate, [f]);
  }
  const conflicts: Conflict[] = [];
  for (const group of byDate.values()) {
    const first = new Map<string, Figure>();
    for (const f of group) {
      const key = figureKey(f);
      const other = first.get(key);
      if (!other) first.set(key, f);
      else if (other.value !== f.value) conflicts.push({ figure: f, other });
    }
  }
  return conflicts;
}

export function conflictProblem({ figure: f, other }: Conflict): Problem {
  return {
    file: f.pub.file,
    line: f.fileLine,
    column: f.valueColumn,
    message:
      `conflicting figure: ${f.value} here (${f.pub.file}:${f.fileLine}) and ${other.value} ` +
      `in ${other.pub.file}:${other.fileLine}, ` +
      `for ${f.metric} ${f.state} ${f.period.key}${f.line === 'all' ? '' : ` line ${f.line}`}` +
      `${f.county ? ` county ${f.county}` : ''}${f.insurer ? ` insurer ${f.insurer}` : ''}; ` +
      `both publications are dated ${f.pub.reportDate}, so neither is the later vintage: correct the one that is wrong`,
  };
}
