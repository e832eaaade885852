// What each metric a publication prints measures, and in which unit: the one legend the ingest (which
// places figures), the API (each answer's printed_keys, the CSV's measures and unit) and the pages share.

/** Figures that can fill a series field (docs/design.md §16) when exact, or an insurer ranking. */
const LEVEL_METRICS = [
  'premium',
  'policies',
  'items',
  'transactions',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
  'insurer_premium',
  'insurer_policies',
] as const;
/**
 * Figures a publication prints that have no series field (docs/design.md §9): published growth rates, shares
 * of premium and of items, averages and counts of other kinds. Served in a row's `printed` object
 * only, never summed and never used to derive another figure.
 */
export const PRINTED_METRICS = [
  'premium_yoy_pct',
  'policies_yoy_pct',
  'items_yoy_pct',
  'transactions_yoy_pct',
  'new_business_premium_pct',
  'renewal_premium_pct',
  'non_policy_premium_pct',
  'new_business_item_pct',
  'renewal_item_pct',
  'non_policy_item_pct',
  'state_premium_share_pct',
  'avg_premium_per_item',
  'avg_premium_per_policy',
  'avg_premium_per_transaction',
  'endorsement_items',
  'cancellation_items',
  'exempt_purchaser_policies',
] as const;
export const METRICS = [...LEVEL_METRICS, ...PRINTED_METRICS] as const;
export type Metric = (typeof METRICS)[number];

export const UNITS = ['USD', 'count', 'percent'] as const;
export interface MetricInfo {
  measures: string;
  unit: (typeof UNITS)[number];
}

/** What a metric is printed in: each metric's unit, said once (METRIC_INFO). */
export const unitOf = (metric: Metric) => METRIC_INFO[metric].unit;

const METRIC_INFO: Record<Metric, MetricInfo> = {
  premium: { unit: 'USD', measures: 'premium' },
  policies: { unit: 'count', measures: 'policies' },
  items: {
    unit: 'count',
    measures: 'premium-bearing items (policies plus endorsements, audits and other premium-bearing transactions)',
  },
  transactions: { unit: 'count', measures: 'transactions' },
  new_business_premium: { unit: 'USD', measures: 'new-business premium' },
  renewal_premium: { unit: 'USD', measures: 'renewal premium' },
  new_business_policy_pct: { unit: 'percent', measures: 'new-business share of policies' },
  renewal_policy_pct: { unit: 'percent', measures: 'renewal share of policies' },
  insurer_premium: { unit: 'USD', measures: "one insurer's premium" },
  insurer_policies: { unit: 'count', measures: "one insurer's policies" },
  premium_yoy_pct: { unit: 'percent', measures: 'change in premium from the same period a year earlier' },
  policies_yoy_pct: { unit: 'percent', measures: 'change in policies from the same period a year earlier' },
  items_yoy_pct: { unit: 'percent', measures: 'change in premium-bearing items from the same period a year earlier' },
  transactions_yoy_pct: { unit: 'percent', measures: 'change in transactions from the same period a year earlier' },
  new_business_premium_pct: { unit: 'percent', measures: 'new-business share of premium' },
  renewal_premium_pct: { unit: 'percent', measures: 'renewal share of premium' },
  non_policy_premium_pct: {
    unit: 'percent',
    measures: 'share of premium from items other than policies (endorsements, audits, ...)',
  },
  new_business_item_pct: { unit: 'percent', measures: 'new-business share of items' },
  renewal_item_pct: { unit: 'percent', measures: 'renewal share of items' },
  non_policy_item_pct: {
    unit: 'percent',
    measures: 'share of items other than policies (endorsements, audits, cancellations, ...)',
  },
  state_premium_share_pct: { unit: 'percent', measures: "share of the state's all-lines premium for the period" },
  avg_premium_per_item: { unit: 'USD', measures: 'average premium per item' },
  avg_premium_per_policy: { unit: 'USD', measures: 'average premium per policy' },
  avg_premium_per_transaction: { unit: 'USD', measures: 'average premium per transaction' },
  endorsement_items: { unit: 'count', measures: 'premium-endorsement items' },
  cancellation_items: { unit: 'count', measures: 'cancellation items' },
  exempt_purchaser_policies: { unit: 'count', measures: 'policies filed for exempt commercial purchasers' },
};

/** The key suffix of a year-to-date figure, printed on the row of its last month. */
export const YTD_SUFFIX = '_ytd';

/**
 * What a `printed` key measures: its metric's legend; a year-to-date key says so. Undefined for a key no metric makes.
 */
export function printedKeyInfo(key: string): MetricInfo | undefined {
  const ytd = key.endsWith(YTD_SUFFIX);
  const info = (METRIC_INFO as Record<string, MetricInfo | undefined>)[ytd ? key.slice(0, -YTD_SUFFIX.length) : key];
  return info && (ytd ? { measures: `${info.measures}, year to date`, unit: info.unit } : info);
}

/** An answer's `printed_keys`: the legend of every key its rows' `printed` objects use, in key order. */
export function printedKeysOf(rows: Iterable<{ printed: Record<string, unknown> | null }>): Record<string, MetricInfo> {
  const keys = new Set<string>();
  for (const row of rows) if (row.printed) for (const key of Object.keys(row.printed)) keys.add(key);
  return Object.fromEntries(
    [...keys].sort().map((key) => {
      const info = printedKeyInfo(key);
      if (!info) throw new Error(`printed key '${key}' has no legend in domain/metrics.ts`);
      return [key, { measures: info.measures, unit: info.unit }];
    }),
  );
}

/**
 * What a series field holds: its metric's legend; policy_count counts the source's unit (policies, transactions or
 * items, `countUnit`).
 */
export function seriesFieldInfo(field: string, countUnit: string | null): MetricInfo {
  const metric = field === 'policy_count' ? countUnit : field;
  return (METRIC_INFO as Record<string, MetricInfo | undefined>)[metric ?? ''] ?? { measures: 'count', unit: 'count' };
}
