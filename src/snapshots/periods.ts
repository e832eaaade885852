// Periods as a page names them, and stepping back through them for a chart.
import { type Granularity, parsePeriod } from '../../domain/periods.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "August 2025", "Q3 2025", "H1 2025 (January–June)", "2024", "January–August 2025"; short: "Aug 2025", "H1 2025". */
export function periodLabel(key: string, short = false): string {
  const p = parsePeriod(key);
  if (!p) return key;
  const name = (m: number) => (short ? MONTHS[m - 1].slice(0, 3) : MONTHS[m - 1]);
  switch (p.type) {
    case 'month':
      return `${name(p.firstMonth)} ${p.year}`;
    case 'quarter':
      return `Q${Math.ceil(p.lastMonth / 3)} ${p.year}`;
    case 'half_year':
      return short
        ? `H${p.lastMonth / 6} ${p.year}`
        : `H${p.lastMonth / 6} ${p.year} (${name(p.firstMonth)}–${name(p.lastMonth)})`;
    case 'year':
      return String(p.year);
    case 'year_to_date':
      return p.lastMonth === 1 ? `${name(1)} ${p.year}` : `${name(1)}–${name(p.lastMonth)} ${p.year}`;
  }
}

const STEP: Record<Granularity, number> = { month: 1, quarter: 3, half_year: 6, year: 12 };

/** The period `steps` periods of the same kind before `key`. */
export function previousPeriod(key: string, granularity: Granularity, steps = 1): string {
  const p = parsePeriod(key)!;
  const index = p.year * 12 + (p.firstMonth - 1) - STEP[granularity] * steps;
  const year = Math.floor(index / 12);
  const first = (index % 12) + 1;
  switch (granularity) {
    case 'month':
      return `${year}-${String(first).padStart(2, '0')}`;
    case 'quarter':
      return `${year}-Q${(first + 2) / 3}`;
    case 'half_year':
      return `${year}-H${(first + 5) / 6}`;
    case 'year':
      return String(year);
  }
}
