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
  if (v >= 1e6) return `$${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `$${+(v / 1e3).toFixed(1)}K`;
  return `$${v}`;
}
