// Orders the model's series, roll-ups and insurer lists share: publications by report date (then id), so
// that a later one overrides an earlier one; periods and publication ids sorted, so that a build's bytes
// do not depend on the order the files were read in.
import type { Publication } from './sources/header.ts';

export const byPublicationOrder = (a: Publication, b: Publication) =>
  a.reportDate < b.reportDate ? -1 : a.reportDate > b.reportDate ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
export const comparePeriods = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The ids in any of the lists, once each, sorted. */
export const union = (lists: string[][]) => [...new Set(lists.flat())].sort();
