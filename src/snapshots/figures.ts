// One figure as a snapshot page shows it, taken from a series row as of a date: an exact series field,
// or what the publication printed (docs/design.md §9), with the publications that printed it.
import { SERIES_FIELDS } from '../../domain/contract.ts';
import { type MetricInfo, printedKeyInfo, seriesFieldInfo } from '../../domain/metrics.ts';
import type { Granularity } from '../../domain/periods.ts';
import type { PreparedSnapshot } from '../../api/queries/series.ts';

type Unit = MetricInfo['unit'];

export interface Figure {
  state: string;
  /** The line's source_code, or `all`. */
  line: string;
  granularity: Granularity;
  /** The series row's period: what the API is asked for. */
  period: string;
  /** A series field (`premium`), or `printed.<key>`. */
  field: string;
  value: number;
  unit: Unit;
  measures: string;
  /** The period the figure covers: the row's, or a year to date (`2025-01..08`). */
  covers: string;
  /** What the page shows: exact figures formatted in full, rounded or qualified ones as printed. */
  text: string;
  /** False for a figure printed rounded or qualified ("$1.1B", "nearly $830M"): shown as printed and marked. */
  exact: boolean;
  /** The words as printed, where the figure is a printed one. */
  asPrinted: string | null;
  qualifier: string | null;
  /** The report date the figure is read as of (the API's `report_date`). */
  asOf: string;
  /** Positions (in the build's publications) of the publications that printed it, the first cited. */
  sources: number[];
}

/** Where a figure comes from: the row's coordinates and the date it is read as of. */
export interface RowRef {
  state: string;
  line: string;
  granularity: Granularity;
  period: string;
  asOf: string;
}

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 2,
  minimumFractionDigits: 0,
});
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A change (`..._yoy_pct`) carries its sign; a share or an average does not. */
const isChange = (field: string) => /_yoy_pct(_ytd)?$/.test(field);

/** An exact figure in full: every digit the publication printed, no rounding. */
function formatExact(value: number, unit: Unit, field: string): string {
  if (unit === 'USD') return usd.format(value);
  if (unit === 'count') return count.format(value);
  const sign = isChange(field) && value > 0 ? '+' : value < 0 ? '−' : '';
  return `${sign}${Math.abs(value)}%`;
}

/** Every figure of a row as of a date, exact fields first, then the printed ones by key. */
export function figuresOf(ref: RowRef, snap: PreparedSnapshot, countUnit: string | null): Figure[] {
  const out: Figure[] = [];
  for (const field of SERIES_FIELDS) {
    const value = snap.values[field];
    if (value === null) continue;
    const info = seriesFieldInfo(field, null);
    // A count is named by its unit in a word ("items"), not by the unit's whole legend.
    const measures = field === 'policy_count' ? (countUnit ?? 'count') : info.measures;
    const text = formatExact(value, info.unit, field);
    out.push({
      ...ref,
      field,
      value,
      unit: info.unit,
      measures,
      covers: ref.period,
      text,
      exact: true,
      asPrinted: null,
      qualifier: null,
      sources: snap.sources[field] ?? [],
    });
  }
  const printed = snap.row.printed ?? {};
  for (const key of Object.keys(printed).sort()) {
    const p = printed[key];
    const { unit, measures } = printedKeyInfo(key)!;
    const exact = p.qualifier === undefined;
    out.push({
      ...ref,
      field: `printed.${key}`,
      value: p.value,
      unit,
      measures,
      covers: p.period ?? ref.period,
      text: exact ? formatExact(p.value, unit, key) : (p.as_printed ?? formatExact(p.value, unit, key)),
      exact,
      asPrinted: p.as_printed,
      qualifier: p.qualifier ?? null,
      sources: snap.sources[`printed.${key}`] ?? [],
    });
  }
  return out;
}

/**
 * What a count counts, in a word or two ("items" for "premium-bearing items (policies plus ...)"), to follow
 * its figure; nothing when the words as printed end in their own unit ("exceeding 173,000 filings").
 */
export const countWord = (f: Figure) => (f.asPrinted && /[A-Za-z]$/.test(f.asPrinted) ? '' : f.measures.split(' (')[0]);
