// The statistics the benchmarks report over a list of times: median, nearest-rank p99, mean.

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
export const median = (xs: number[]) => {
  const s = sorted(xs);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** Nearest rank: with fewer than 100 samples this is the maximum. */
export const p99 = (xs: number[]) => sorted(xs)[Math.ceil(0.99 * xs.length) - 1];
export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
