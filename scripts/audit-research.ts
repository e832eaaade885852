// Accounts for every row of research/figures.csv: served (a publication in data/ prints the same state,
// period and value), or left out for a stated reason (data/README.md, "What is not here, and why").
// `npm run audit:research` prints the counts; tests/unit/research-audit.test.ts fails on a row with neither.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monthKey } from '../domain/periods.ts';
import { readCsv } from '../ingest/csv.ts';
import { Problems } from '../ingest/errors.ts';
import { loadDataset } from '../ingest/load.ts';
import type { Dataset } from '../ingest/model-types.ts';

/** The reasons a research row is not served, first match wins; each is a row of data/README.md's table. */
export const LEFT_OUT: readonly {
  reason: string;
  matches: (r: ResearchRow, stampingStates: Set<string>) => boolean;
}[] = [
  { reason: 'Business Insurance survey', matches: (r) => r.metric.includes('BI_survey') },
  { reason: 'not a stamping-office state', matches: (r, states) => !states.has(r.state) },
  {
    reason: 'fiscal years, forecasts and estimates',
    matches: (r) => r.period.startsWith('FY') || /forecast|estimate/.test(r.metric),
  },
  {
    reason: 'line movers and line shares',
    matches: (r) => /^premium_change_|_line_|^premium_share_|^items_line_/.test(r.metric),
  },
  { reason: 'fees and tax rates', matches: (r) => /stamping_fee|tax_rate/.test(r.metric) },
  { reason: 'other datasets', matches: (r) => /liquidation|conservatorship|syndicate|SERFF|WSRB/.test(r.metric) },
  {
    reason: 'insurer counts, shares and partial ranks',
    matches: (r) =>
      /insurer_count|eligible_insurers|filers_count|lloyds_share|us_domiciled_share|insurer_(group_)?rank/.test(
        r.metric,
      ),
  },
  {
    reason: 'breakdowns by transaction type, registration and multistate',
    matches: (r) =>
      new RegExp(
        [
          '^transactions_(new|renewal|extension|audit|cancellation|endorsement|total|per_month)',
          '^premium_(new_business|renewal|extension|endorsement|audit|cancellation|total)',
          'taxable_premium|purchasing_group|multistate|registered|LASLI|prior_year_premium_processed',
          'premium_received|premium_SLA_basis',
        ].join('|'),
      ).test(r.metric),
  },
  {
    reason: 'changes with no metric',
    matches: (r) => /^(avg_premium_yoy_pct|premium_qoq_pct|items_change|premium_change)$/.test(r.metric),
  },
  { reason: 'shares of a multi-office total', matches: (r) => /share_of_15_office/.test(r.metric) },
  {
    reason: 'share wording that does not say of what',
    matches: (r) =>
      (/^(new_business|renewal)_share_pct$/.test(r.metric) &&
        /activity|market share|wording/.test(`${r.notes} ${r.source_url}`)) ||
      (r.state === 'FL' && /^(new_business|renewal)_share_pct$/.test(r.metric)),
  },
  { reason: 'no number printed', matches: (r) => /"flat/.test(r.notes) },
  {
    // The stored copies of these NAPSLO blog posts could not be found again to confirm the words printed.
    reason: 'words not confirmed in a stored page',
    matches: (r) =>
      /napslo\.blogspot\.com\/(2012\/02|2007\/04)\//.test(r.source_url) && (r.state === 'WA' || r.state === 'MS'),
  },
];

export interface ResearchRow {
  state: string;
  period: string;
  metric: string;
  value: string;
  source_url: string;
  notes: string;
}

const RESEARCH_COLUMNS = [
  'state',
  'period',
  'granularity',
  'metric',
  'value',
  'unit',
  'report_date_or_publication',
  'source_url',
  'notes',
] as const;

/** The research table, read with the ingest's CSV reader (a malformed table is an IngestError naming the line). */
function researchRows(file: string): ResearchRow[] {
  const problems = new Problems();
  const csv = readCsv(file, readFileSync(file, 'utf8'), RESEARCH_COLUMNS, problems);
  // Rows are read as they are iterated: problems are known only after the last one.
  const rows = [...(csv?.rows ?? [])].map(
    ({ cells }) => Object.fromEntries(RESEARCH_COLUMNS.map((c) => [c, cells[c].value])) as unknown as ResearchRow,
  );
  problems.throwIfAny();
  return rows;
}

/**
 * `state|period|value` of every figure in data/ (read and validated by the ingest), a year-to-date figure also under
 * its last month, as the research writes it.
 */
function servedKeys(dataset: Dataset): Set<string> {
  const keys = new Set<string>();
  for (const f of dataset.figures) {
    keys.add(`${f.state}|${f.period.key}|${f.value}`);
    if (f.period.type === 'year_to_date')
      keys.add(`${f.state}|${monthKey(f.period.year, f.period.lastMonth)}|${f.value}`);
  }
  return keys;
}

export interface Audit {
  rows: number;
  served: number;
  byReason: Map<string, number>;
  unaccounted: ResearchRow[];
}

export function auditResearch(root = '.'): Audit {
  const dataset = loadDataset(join(root, 'data'));
  const served = servedKeys(dataset);
  const states = new Set(dataset.states.keys());
  const rows = researchRows(join(root, 'research/figures.csv'));
  const audit: Audit = { rows: rows.length, served: 0, byReason: new Map(), unaccounted: [] };
  for (const r of rows) {
    if (served.has(`${r.state}|${r.period}|${Number(r.value)}`)) {
      audit.served++;
      continue;
    }
    const reason = LEFT_OUT.find((l) => l.matches(r, states))?.reason;
    if (reason) audit.byReason.set(reason, (audit.byReason.get(reason) ?? 0) + 1);
    else audit.unaccounted.push(r);
  }
  return audit;
}

if (import.meta.main) {
  const audit = auditResearch();
  console.log(
    `research/figures.csv: ${audit.rows} rows; served ${audit.served}; left ` +
      `out ${audit.rows - audit.served - audit.unaccounted.length}; unaccounted ${audit.unaccounted.length}`,
  );
  for (const [reason, n] of [...audit.byReason].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(4)}  ${reason}`);
  for (const r of audit.unaccounted)
    console.log(`  unaccounted: ${r.state} ${r.period} ${r.metric} ${r.value} ${r.source_url}`);
  if (audit.unaccounted.length) process.exitCode = 1;
}
