// A shortened citation is not a restatement (docs/design.md §1). Where one publication prints a figure
// exactly ($947,480,000) and another, of any rank or date, prints the same figure rounded or qualified
// in a way that agrees with it to the shorter printing's own precision ($947.5M), the shorter printing
// restates nothing: from the day an agreeing exact figure was first published, the model (ingest/vintaged-series.ts)
// ignores it, so it neither shows in `printed` nor keeps a press copy's exact figure out of the series
// field. A printing that disagrees beyond its precision is a restatement (or a conflict) as before.
//
// "Agrees to its own precision": the printing's number, at the precision it was printed to (the unit of its
// last printed digit: `$947.5M` 0.1 million, `$503 million` and `$830M` 1 million, `1.5M policies` 0.1
// million, `174K` a thousand, `128,500` one), is the exact figure rounded to that precision
// (|exact - printed| <= half the precision, either way at a tie). A qualifier that says which side the
// figure is on narrows that: `nearly $830M` agrees with an exact figure from 829 to 830 million (at most
// the printed value, less than one unit of precision below it), `more than $3 billion` with one from 3
// to 4 billion. The exact printing must be the finer one (`$947.48 million` beside `$947.5M`): a press
// copy that prints an office's `nearly $690.9M` as `$690.9mn` has dropped a word, not added a digit, so it
// shortens nothing and the office's qualified figure keeps it out as before. A qualifier that does not
// say what the number is (`ambiguous`), a figure on another basis (`other basis`), a qualifier word not
// listed below, or printed words whose number cannot be found never agree: such a printing keeps
// today's behaviour. Only levels are concerned (metrics with a series field, insurers' premiums and
// policies): growth rates and shares have no series field to restate.
//
// Two exact printings of one figure to different precisions (SLTX's `$622.7 million`, a press copy's
// `$622.75 million`) are held to the same rule: the coarser one is read as rounded, and when it agrees with the
// finer to its own precision it is a shortened citation of it, whatever their ranks and dates; the finer
// value stands from the day it was first published, the coarser until then. A tie agrees either way because
// the finer printing is rounded too: behind `$622.75 million` may be 622,748,000, which both printings round
// correctly. Printings that disagree beyond the coarser's precision (`$772.8M` beside `$772.88M`, a
// truncation) are two figures, ranked as every other (docs/design.md §1).
import { isPrintedMetric, type Figure, figureKey } from './model-types.ts';

/** Rounded either way: the exact figure is within half a unit of the printed precision. */
const NEAR = new Set([
  'rounded',
  'about',
  'approximately',
  'approx.',
  'around',
  'roughly',
  'some',
  'near',
  'neighbourhood',
  'neighborhood',
  'circa',
  'estimated',
]);
/** The printed value is an upper bound: the exact figure is at most it, and less than one unit below it. */
const BELOW = new Set(['nearly', 'almost', 'just under', 'under', 'close to', 'just shy of', 'shy of', 'approaching']);
/** The printed value is a lower bound: the exact figure is at least it, and less than one unit above it. */
const ABOVE = new Set([
  'over',
  'more than',
  'exceeding',
  'exceeded',
  'exceed',
  'exceeds',
  'just over',
  'surpassing',
  'surpassed',
  'topping',
  'topped',
  'above',
  'upwards of',
  'in excess of',
]);

const SCALES: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  mil: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
};
const NUMBER = /(\d[\d,]*(?:\.\d+)?)(?:\s*(thousand|million|billion|trillion|mn|bn|tn|mil|k|m|b|t)(?![a-z]))?/gi;
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1);

/**
 * The precision the printed words give `value` (a number of its unit: 100000 for `$947.5M`), or null when
 * no number in the words expands to the value. A number printed without a scale word is read with the
 * scale that expands it to the value (`$2.25` for 2,250,000,000: billions), as the file's value says.
 */
export function printedPrecision(printed: string | null, value: number): number | null {
  if (!printed) return null;
  for (const m of printed.matchAll(NUMBER)) {
    const digits = m[1].replace(/,/g, '');
    const named = m[2] ? SCALES[m[2].toLowerCase()] : undefined;
    const scale = (named ? [named] : [1, 1e3, 1e6, 1e9, 1e12]).find((s) => close(Number(digits) * s, value));
    if (scale === undefined) continue;
    // The unit of the last digit printed: trailing zeros count (`$830M` is 830 millions, not 83 tens of millions).
    const fraction = digits.split('.')[1];
    return fraction === undefined ? scale : scale / 10 ** fraction.length;
  }
  return null;
}

/**
 * The precision a bare value shows at least: its last non-zero digit's unit, or 1 (coarse: a value never passes for
 * finer than it is).
 */
function valuePrecision(value: number): number {
  if (!Number.isInteger(value) || value === 0) return 1;
  let p = 1;
  while (value % (p * 10) === 0) p *= 10;
  return p;
}

/**
 * True when `short` (a rounded or qualified printing, or an exact one) agrees with `exact` to `short`'s own
 * precision, and `exact` is printed to a finer precision (its words, else its value's last non-zero digit).
 */
export function agreesToPrecision(
  short: Pick<Figure, 'value' | 'qualifier' | 'printed'> & Partial<Pick<Figure, 'exact'>>,
  exact: Pick<Figure, 'value' | 'printed'>,
): boolean {
  const word = short.qualifier?.trim().toLowerCase() ?? '';
  // An exact printing coarser than another (`$622.7 million` beside `$622.75 million`) is read as rounded.
  const side =
    short.exact && !word
      ? 'near'
      : NEAR.has(word)
        ? 'near'
        : BELOW.has(word)
          ? 'below'
          : ABOVE.has(word)
            ? 'above'
            : null;
  if (!side) return false;
  const precision = printedPrecision(short.printed, short.value);
  if (precision === null) return false;
  const exactPrecision = printedPrecision(exact.printed, exact.value) ?? valuePrecision(exact.value);
  if (!(exactPrecision < precision * (1 - 1e-9))) return false;
  const diff = exact.value - short.value;
  const slack = 1e-9 * Math.max(Math.abs(exact.value), precision);
  if (side === 'near') return Math.abs(diff) <= precision / 2 + slack;
  if (side === 'below') return diff <= slack && -diff < precision + slack;
  return diff >= -slack && diff < precision + slack;
}

export interface ShortenedCitation {
  /** The rounded or qualified printing, or an exact one coarser than `exact`. */
  short: Figure;
  /** The first-published exact figure it agrees with (the earliest report_date; the first read at a tie). */
  exact: Figure;
  /** From this date on (`exact.pub.reportDate`), the printing is not shown and restates nothing. */
  from: string;
}

/**
 * Every rounded or qualified printing of a level (a metric with a series field, or an insurer's
 * premium or policies), and every exact one printed coarser, that agrees with a (finer) exact printing of
 * the same figure, with the exact one first published. Printed-only metrics (growth rates, shares of premium) have no
 * series field to restate.
 */
export function shortenedCitations(figures: readonly Figure[]): Map<Figure, ShortenedCitation> {
  const exactByKey = new Map<string, Figure[]>();
  for (const f of figures) {
    if (!f.exact || isPrintedMetric(f.metric)) continue;
    const key = figureKey(f);
    const list = exactByKey.get(key);
    if (list) list.push(f);
    else exactByKey.set(key, [f]);
  }
  const out = new Map<Figure, ShortenedCitation>();
  if (!exactByKey.size) return out;
  for (const f of figures) {
    if (isPrintedMetric(f.metric)) continue;
    let first: Figure | undefined;
    for (const e of exactByKey.get(figureKey(f)) ?? []) {
      if (e !== f && agreesToPrecision(f, e) && (!first || e.pub.reportDate < first.pub.reportDate)) first = e;
    }
    if (first) out.set(f, { short: f, exact: first, from: first.pub.reportDate });
  }
  return out;
}
