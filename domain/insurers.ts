// Which published insurer lists /v1/insurers ranks: the route serves them and /v1/coverage lists them,
// so has_insurer_data and the route cannot disagree.
import { parsePeriod } from './periods.ts';

/** A list can be ranked when it is for a month or a year and every premium in it is exact. */
export const isRankable = (p: { period: string; insurers: readonly { premium: number | null }[] }): boolean =>
  ['month', 'year'].includes(parsePeriod(p.period)?.type ?? '') && p.insurers.every((i) => i.premium !== null);

/** The state code of the national rankings (AM Best's tables, as reprinted): valid for /v1/insurers only. */
export const NATIONAL = 'US';

/** The basis of a year ranked here from an office's monthly per-insurer lists (its own ranks are not printed). */
export const LIST_BASIS = "premium per insurer as the state's source printed it, ranked here by premium (ties by name)";
