// What a figure's value may be (data/README.md, "Plausible values"): a plain decimal as printed, within
// bounds no real figure comes near, that the API serves back exactly as written. A sign, a pasted cell
// or a digit too many then stops the ingest instead of reaching the API as `-336700000` or `1e+30`.
import type { Metric } from '../../domain/metrics.ts';
import { CHANGE_METRICS, COUNT_METRICS, PCT_METRICS } from '../model-types.ts';

/** Money is below USD 10 trillion: the whole U.S. surplus lines market writes about 1% of that a year. */
const MONEY_LIMIT = 1e13;
/** Counts are below a billion: the largest office counts a few million policies a year. */
const COUNT_LIMIT = 1e9;
/**
 * A published change is above -100% (nothing left) and below +10,000%: no real market grows a hundredfold in a year.
 */
const CHANGE_LIMIT = 10000;

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Exact as printed: at least 4 significant digits (`946170000`, not `1240000000` = "$1.24B"), or a
 * whole number printed to its units digit (`513` policies), which no rounding produced.
 */
export function isExactAsWritten(text: string): boolean {
  return significantDigits(text) >= 4 || /^-?\d*[1-9]$/.test(text);
}

/** Significant digits of a decimal as written: `1240000000` → 3, `946170000` → 5, `0.50` → 2. */
export function significantDigits(text: string): number {
  const [int, frac = ''] = text.replace('-', '').split('.');
  const digits = (int + frac).replace(/^0+/, '');
  return frac ? digits.length : digits.replace(/0+$/, '').length;
}

/** A decimal without leading zeros, trailing fractional zeros or a bare point: `0250.50` → `250.5`. */
const canonical = (text: string) =>
  text
    .replace(/^0+(?=\d)/, '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/**
 * True when the words as printed show the figure to 4 significant digits or to its units digit, which
 * the expanded value cannot: `71,500` or `(71,500)` is a count printed in full although it ends in
 * zeros, `$602.0 million` is 602000000 printed to 4 digits. The number printed must expand to `raw`.
 */
export function printedExactly(raw: string, printed: string | null): boolean {
  if (!printed || !/^\d+(\.\d+)?$/.test(raw)) return false;
  const value = Number(raw);
  for (const token of printed.match(/\d{1,3}(,\d{3})+(\.\d+)?|\d+(\.\d+)?/g) ?? []) {
    const plain = token.replaceAll(',', '');
    if (plain === raw) return true;
    const matches = [1e3, 1e6, 1e9].some((scale) => Math.abs(Number(plain) * scale - value) < 0.005);
    if (matches && significantDigits(plain) >= 4) return true;
  }
  return false;
}

/**
 * What is wrong with `raw` as the value of `metric`, or null. `qualified`: the row has a qualifier, so
 * the figure may be rounded (it is served as printed, never in a series field). `printed`: the words as
 * printed, which can show a figure ending in zeros was printed to its units digit.
 */
export function valueProblem(
  raw: string,
  metric: Metric,
  qualified: boolean,
  printed: string | null = null,
): string | null {
  if (!DECIMAL.test(raw)) return `not a number: '${raw}': expected a plain decimal such as 946170000 or 12.5`;
  const value = Number(raw);
  const change = CHANGE_METRICS.includes(metric);
  // A change is held to the same rule as a share: a percentage served back exactly as printed.
  const share = PCT_METRICS.includes(metric) || change;
  const count = COUNT_METRICS.includes(metric);
  if (change && (value < -100 || value >= CHANGE_LIMIT))
    return `a change must be from -100 to below ${CHANGE_LIMIT} (percent), got ${raw}`;
  if (share && !change && (value < 0 || value > 100)) return `a share must be 0-100, got ${raw}`;
  if (!change && raw.startsWith('-'))
    return `${share ? 'a share' : count ? 'a count' : 'money'} cannot be negative, got ${raw}`;
  if (count && raw.includes('.')) return `a count must be a whole number, got ${raw}`;
  if (count && value >= COUNT_LIMIT)
    return `${raw} is not a plausible count: counts are below ${COUNT_LIMIT.toLocaleString('en-US')}`;
  if (!share && !count && value >= MONEY_LIMIT)
    return `${raw} is not a plausible amount: money is below ${MONEY_LIMIT.toLocaleString('en-US')} USD`;
  if (!share && !count && (raw.split('.')[1]?.length ?? 0) > 2)
    return `money has at most 2 decimals (cents), got ${raw}`;
  // A double holds any 15 significant digits, and money and counts within their limits have no more;
  // a share can be written with more, which the API would serve as a different number.
  if (share && String(value) !== canonical(raw))
    return `${raw} cannot be held exactly: it would be served as ${value}; write the share with fewer digits`;
  if (!share && !qualified && !isExactAsWritten(raw) && !printedExactly(raw, printed))
    return (
      `${raw} has ${significantDigits(raw)} significant digits: a figure printed to fewer than 4 (and not to the ` +
      `unit) is not exact; set qualifier 'rounded' (or the word printed), or, where the words show 4 significant ` +
      `digits or the units digit ('71,500', '$602.0 million'), give them in 'printed'`
    );
  return null;
}
