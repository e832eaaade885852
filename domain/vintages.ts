// Vintage arithmetic shared by the ingest (which precomputes every vintage) and the API (which picks
// one per row and sums months for summaries): which publication names a set of figures, and how
// figures are summed.
import { SERIES_FIELDS, type SeriesField, type SeriesValues } from './contract.ts';

export interface Published {
  reportDate: string;
  dataAsOf: string;
}

/** The latest publication among figures (ties: the later data_as_of): it names report_date and data_as_of. */
export function latestPublication<T extends Published>(items: readonly T[]): T {
  return items.reduce((a, b) =>
    b.reportDate > a.reportDate || (b.reportDate === a.reportDate && b.dataAsOf > a.dataAsOf) ? b : a,
  );
}

/** The last of `items` (sorted by the date `asOf` gives) in force on `date`, or undefined before the first. */
export function inForceOn<T>(items: readonly T[], date: string, asOf: (item: T) => string): T | undefined {
  let found: T | undefined;
  for (const item of items) {
    if (asOf(item) > date) break;
    found = item;
  }
  return found;
}

const MONEY: readonly SeriesField[] = ['premium', 'new_business_premium', 'renewal_premium'];
const PCTS: readonly SeriesField[] = ['new_business_policy_pct', 'renewal_policy_pct'];

export const emptyValues = (): SeriesValues => Object.fromEntries(SERIES_FIELDS.map((f) => [f, null])) as SeriesValues;

/**
 * Sums rows: money to the cent, counts exactly; a field is null when any row has it null. The shares
 * are the count-weighted mean, only when every row has both share and count. `countMatches` false
 * (rows counting different units) leaves the count and shares null.
 */
export function sumValues(rows: readonly SeriesValues[], countMatches = true): SeriesValues {
  const out = emptyValues();
  for (const f of MONEY) {
    if (rows.every((r) => r[f] !== null)) out[f] = rows.reduce((cents, r) => cents + Math.round(r[f]! * 100), 0) / 100;
  }
  if (countMatches && rows.every((r) => r.policy_count !== null))
    out.policy_count = rows.reduce((n, r) => n + r.policy_count!, 0);
  for (const f of PCTS) {
    const total = out.policy_count;
    if (total && rows.every((r) => r[f] !== null && r.policy_count !== null)) {
      out[f] = Math.round((rows.reduce((s, r) => s + r[f]! * r.policy_count!, 0) / total) * 100) / 100;
    }
  }
  return out;
}
