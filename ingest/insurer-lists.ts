// The insurer lists the figures print (figures with an insurer), by state and period, and the year lists
// summed from them. The series leave these figures out (ingest/vintaged-series.ts).
import { parsePeriod } from '../domain/periods.ts';
import { emptyValues, latestPublication, sumValues } from '../domain/vintages.ts';
import type { Dataset, Figure } from './model-types.ts';
import { byPublicationOrder, comparePeriods, union } from './model-order.ts';

interface InsurerRow {
  name: string;
  premium: number | null;
  policy_count: number | null;
}
export interface InsurerPeriod {
  period: string;
  reportDate: string;
  dataAsOf: string;
  pubs: string[];
  insurers: InsurerRow[];
}

/** Per-insurer rows, latest vintage, field by field as for series; plus year rankings summed from months. */
export function insurerRows(dataset: Dataset): Map<string, InsurerPeriod[]> {
  const groups = new Map<string, Figure[]>();
  for (const f of dataset.figures) {
    if (!f.insurer) continue;
    const key = `${f.state}|${f.period.key}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(f);
  }
  const out = new Map<string, InsurerPeriod[]>();
  for (const [key, figures] of groups) {
    const [state, period] = key.split('|');
    figures.sort((a, b) => byPublicationOrder(a.pub, b.pub));
    const byName = new Map<string, InsurerRow>();
    for (const f of figures) {
      const row = byName.get(f.insurer!) ?? { name: f.insurer!, premium: null, policy_count: null };
      if (f.exact) row[f.metric === 'insurer_premium' ? 'premium' : 'policy_count'] = f.value;
      byName.set(f.insurer!, row);
    }
    const latest = figures.at(-1)!.pub;
    if (!out.has(state)) out.set(state, []);
    out.get(state)!.push({
      period,
      reportDate: latest.reportDate,
      dataAsOf: latest.dataAsOf,
      pubs: [...new Set(figures.map((f) => f.pub.id))].sort(),
      insurers: [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1)),
    });
  }
  for (const list of out.values()) {
    list.push(...yearsFromMonths(list));
    list.sort((a, b) => comparePeriods(a.period, b.period));
  }
  return out;
}

/**
 * A year ranking summed from months (docs/design.md §4), only where the source published the year's 12
 * monthly lists with the same insurers in each and every premium exact: a top-N list missing an
 * insurer in some month says nothing of its premium that month, so no sum is made from it.
 */
function yearsFromMonths(periods: InsurerPeriod[]): InsurerPeriod[] {
  const byYear = new Map<string, InsurerPeriod[]>();
  for (const p of periods) {
    if (parsePeriod(p.period)?.type !== 'month') continue;
    const year = p.period.slice(0, 4);
    if (!byYear.has(year)) byYear.set(year, []);
    byYear.get(year)!.push(p);
  }
  const published = new Set(periods.map((p) => p.period));
  const out: InsurerPeriod[] = [];
  for (const [year, months] of byYear) {
    if (published.has(year) || months.length !== 12) continue;
    const names = months[0].insurers.map((i) => i.name).join('\n');
    const complete = months.every(
      (m) => m.insurers.map((i) => i.name).join('\n') === names && m.insurers.every((i) => i.premium !== null),
    );
    if (!complete) continue;
    const latest = latestPublication(months);
    out.push({
      period: year,
      reportDate: latest.reportDate,
      dataAsOf: latest.dataAsOf,
      pubs: union(months.map((m) => m.pubs)),
      insurers: months[0].insurers.map((insurer, i) => {
        const sum = sumValues(
          months.map((m) => ({
            ...emptyValues(),
            premium: m.insurers[i].premium,
            policy_count: m.insurers[i].policy_count,
          })),
        );
        return { name: insurer.name, premium: sum.premium, policy_count: sum.policy_count };
      }),
    });
  }
  return out;
}
