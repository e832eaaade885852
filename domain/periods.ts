// Calendar periods as the publications print them, and the arithmetic the roll-ups need.

export type PeriodType = 'month' | 'quarter' | 'half_year' | 'year' | 'year_to_date';

/** The granularities a premium series can be asked for. */
export const GRANULARITIES = ['month', 'quarter', 'half_year', 'year'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export interface Period {
  type: PeriodType;
  /** Canonical text: `2024-07`, `2024-Q3`, `2024-H1`, `2024`, `2024-01..07`. */
  key: string;
  year: number;
  /** 1-12, inclusive bounds of the months the period covers. */
  firstMonth: number;
  lastMonth: number;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

const PATTERNS: [RegExp, (m: RegExpMatchArray) => Omit<Period, 'key'> | null][] = [
  [/^(\d{4})-(\d{2})$/, (m) => month(+m[1], +m[2])],
  [/^(\d{4})-Q([1-4])$/, (m) => ({ type: 'quarter', year: +m[1], firstMonth: +m[2] * 3 - 2, lastMonth: +m[2] * 3 })],
  [/^(\d{4})-H([12])$/, (m) => ({ type: 'half_year', year: +m[1], firstMonth: +m[2] * 6 - 5, lastMonth: +m[2] * 6 })],
  [/^(\d{4})$/, (m) => ({ type: 'year', year: +m[1], firstMonth: 1, lastMonth: 12 })],
  [
    /^(\d{4})-01\.\.(\d{2})$/,
    (m) => {
      const last = +m[2];
      return last >= 1 && last <= 12 ? { type: 'year_to_date', year: +m[1], firstMonth: 1, lastMonth: last } : null;
    },
  ],
];

function month(year: number, m: number): Omit<Period, 'key'> | null {
  return m >= 1 && m <= 12 ? { type: 'month', year, firstMonth: m, lastMonth: m } : null;
}

/** Parses a period as printed in data files; null when it is not one of the five forms. */
export function parsePeriod(text: string): Period | null {
  for (const [re, build] of PATTERNS) {
    const m = text.match(re);
    if (!m) continue;
    const p = build(m);
    return p && p.year >= 1900 ? { ...p, key: text } : null;
  }
  return null;
}

export function monthKey(year: number, m: number): string {
  return `${year}-${pad2(m)}`;
}

/** The months a period covers, as `YYYY-MM` keys. */
export function monthsOf(p: Period): string[] {
  const out: string[] = [];
  for (let m = p.firstMonth; m <= p.lastMonth; m++) out.push(monthKey(p.year, m));
  return out;
}

/** `YYYY-MM` of the first month: what `from`/`to` compare against (as FRED does). */
export function firstMonthKey(p: Period): string {
  return monthKey(p.year, p.firstMonth);
}

/** `YYYY-MM-DD` of the period's last day. */
export function lastDay(p: Period): string {
  const day = new Date(Date.UTC(p.year, p.lastMonth, 0)).getUTCDate();
  return `${p.year}-${pad2(p.lastMonth)}-${pad2(day)}`;
}

/** The quarter, half-year or year a month belongs to, for roll-ups. */
export function rollupKey(monthText: string, granularity: 'quarter' | 'half_year' | 'year'): string {
  const [y, m] = monthText.split('-').map(Number);
  if (granularity === 'year') return String(y);
  return granularity === 'quarter' ? `${y}-Q${Math.ceil(m / 3)}` : `${y}-H${m <= 6 ? 1 : 2}`;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  const m = text.match(/^(\d{4})-(\d{2})-(\d{2})$/);
  if (!m) return false;
  const d = new Date(0);
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]); // not Date.UTC, which reads years 0-99 as 1900-1999
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}
