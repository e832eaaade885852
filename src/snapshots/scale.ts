// Axis arithmetic for the build-time SVG charts: round tick steps and compact dollar labels for them.

/** Ticks from 0 to at least `max`, at a round step (1, 2, 2.5 or 5 × 10^n), about `count` of them. */
export function ticks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = 0; v < max + step / 2 && out.length <= count + 1; v += step) out.push(v);
  if (out.at(-1)! < max) out.push(out.at(-1)! + step);
  return out;
}

/** An axis label for a round amount: "$0", "$250M", "$1.5B". Only for ticks, never for a figure. */
export function tickLabel(v: number): string {
  if (v === 0) return '$0';
  if (v >= 1e9) return `$${+(v / 1e9).toFixed(2)}B`;
  // Two decimals, as for billions: a 2.5 step makes ticks such as 1.25M, which one decimal would misstate.
  if (v >= 1e6) return `$${+(v / 1e6).toFixed(2)}M`;
  if (v >= 1e3) return `$${+(v / 1e3).toFixed(2)}K`;
  return `$${v}`;
}

/**
 * The chart labels' type size in the charts' own units (src/styles/site.css `svg text`): the wide size,
 * and the narrow one the stylesheet switches to on a phone, where the chart is drawn at about half scale.
 * The charts make room for labels at both sizes.
 */
export const LABEL_SIZE = { wide: 11, narrow: 17 } as const;

/**
 * A label's width at `size`, generously estimated: per-character advances of DejaVu Sans, a wide sans
 * (Debian's system-ui), rounded up, so a narrower system font only leaves more room.
 */
export function labelWidth(text: string, size: number): number {
  let em = 0;
  for (const c of text) {
    if (/[0-9$]/.test(c)) em += 0.64;
    else if (/[.,:;!| ]/.test(c)) em += 0.34;
    else if (/[MW]/.test(c)) em += 1.0;
    else if (/[A-Z]/.test(c)) em += 0.8;
    else if (/[mw]/.test(c)) em += 0.98;
    else em += 0.64;
  }
  return em * size;
}

/**
 * Which of `count` evenly spaced labels, `spacing` apart, to show when each is up to `width` wide: every
 * k-th counting back from the last (the latest period keeps its label), k as small as keeps a gap between them.
 */
export function labelEvery(spacing: number, width: number, gap = 6): number {
  return Math.max(1, Math.ceil((width + gap) / spacing));
}
