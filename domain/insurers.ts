// Which published insurer lists /v1/insurers ranks: the route serves them and /v1/coverage lists them,
// so has_insurer_data and the route cannot disagree.
import { parsePeriod } from './periods.ts';

/** A list can be ranked when it is for a month or a year and every premium in it is exact. */
export const isRankable = (p: { period: string; insurers: readonly { premium: number | null }[] }): boolean =>
  ['month', 'year'].includes(parsePeriod(p.period)?.type ?? '') && p.insurers.every((i) => i.premium !== null);
