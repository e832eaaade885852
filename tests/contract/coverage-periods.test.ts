// /v1/coverage's `periods` (issue 24): for every state and period type, how many periods have a figure, checked
// against what /v1/premium answers in process (payment gate off), on the fixture data and on the real data (data/):
// - month, quarter, half_year, year: the rows /v1/premium?state=S&granularity=T answers (line all, statewide,
//   latest vintage), each of which holds a figure (a series field or a printed entry);
// - year_to_date, not a granularity: the month rows of /v1/premium?state=S whose printed object holds an exact
//   year-to-date level (`<metric>_ytd` without a qualifier, for a series field or the type's count unit).
// Expected values come from the answers only, never from counts written here: the data changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installGate } from '../../api/payment/configured.ts';
import { type CoverageItem, coverageResponse } from '../../domain/contract.ts';
import { type PremiumResponse, SERIES_FIELDS, type SeriesRow, premiumResponse } from '../../domain/contract.ts';
import { YTD_SUFFIX } from '../../domain/metrics.ts';
import { GRANULARITIES, monthsOf, parsePeriod } from '../../domain/periods.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

async function get<T>(path: string, schema: { parse: (v: unknown) => T }): Promise<T> {
  const res = await callHandler(`http://service.test${path}`);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return schema.parse(await res.json());
}

const holdsFigure = (row: SeriesRow) =>
  SERIES_FIELDS.some((f) => row[f] !== null) || Object.keys(row.printed ?? {}).length > 0;

/** The year-to-date spans a month row shows an exact level for: what coverage counts as year_to_date periods. */
function exactYtdSpans(row: SeriesRow, countUnit: string | null): string[] {
  const levels = [...SERIES_FIELDS.filter((f) => f !== 'policy_count'), ...(countUnit ? [countUnit] : [])].map(
    (m) => `${m}${YTD_SUFFIX}`,
  );
  const spans = Object.entries(row.printed ?? {})
    .filter(([key, entry]) => levels.includes(key) && entry.qualifier === undefined)
    .map(([, entry]) => entry.period ?? row.period);
  return [...new Set(spans)];
}

/** How many periods of a granularity lie from `from` to `to`, both included. */
function spanLength(from: string, to: string): number {
  const months = (p: string) => monthsOf(parsePeriod(p)!);
  const first = months(from)[0];
  const last = months(to).at(-1)!;
  const count =
    (Number(last.slice(0, 4)) - Number(first.slice(0, 4))) * 12 + Number(last.slice(5)) - Number(first.slice(5)) + 1;
  return count / months(from).length;
}

interface Answers {
  coverage: CoverageItem[];
  /** `state|granularity` → /v1/premium's answer. */
  premium: Map<string, PremiumResponse>;
}

/** Every mismatch between coverage's `periods` (and from/to) and what /v1/premium answers; empty when they agree. */
function problemsOf({ coverage, premium }: Answers): string[] {
  const problems: string[] = [];
  for (const c of coverage) {
    for (const [type, p] of Object.entries(c.period_types)) {
      const what = `${c.state} ${type}`;
      if (type === 'year_to_date') {
        const spans = premium.get(`${c.state}|month`)!.data.flatMap((row) => exactYtdSpans(row, p.count_unit));
        if (spans.length !== p.periods)
          problems.push(`${what}: periods ${p.periods}, month rows with an exact year-to-date level ${spans.length}`);
        for (const span of spans)
          if (span < p.from || span > p.to) problems.push(`${what}: ${span} outside ${p.from}..${p.to}`);
        continue;
      }
      const rows = premium.get(`${c.state}|${type}`)!.data;
      if (rows.length !== p.periods) problems.push(`${what}: periods ${p.periods}, /v1/premium rows ${rows.length}`);
      for (const row of rows) {
        if (!holdsFigure(row)) problems.push(`${what} ${row.period}: a row without a figure`);
        if (row.period < p.from || row.period > p.to)
          problems.push(`${what} ${row.period}: outside ${p.from}..${p.to}`);
      }
      if (p.periods > spanLength(p.from, p.to))
        problems.push(`${what}: periods ${p.periods} past the ${spanLength(p.from, p.to)} of ${p.from}..${p.to}`);
    }
  }
  return problems;
}

async function answers(): Promise<Answers> {
  const coverage = await get('/v1/coverage', coverageResponse);
  const premium = new Map<string, PremiumResponse>();
  for (const c of coverage)
    for (const g of GRANULARITIES)
      premium.set(`${c.state}|${g}`, await get(`/v1/premium?state=${c.state}&granularity=${g}`, premiumResponse));
  return { coverage, premium };
}

/** Serves shards built from `dataDir` for the enclosing describe, with the gate off, and their answers. */
function servedFrom(dataDir: string): () => Answers {
  let restore = () => {};
  let served: Answers;
  beforeAll(async () => {
    restore = serveShards(buildInto(dataDir));
    installGate(null); // in process the gate is off: /v1/premium answers 200
    served = await answers();
  });
  afterAll(() => {
    installGate(undefined);
    restore();
  });
  return () => served;
}

function agreesWithPremium(served: () => Answers) {
  it('every state and period type: periods is the number of rows /v1/premium answers (year_to_date: of month rows with an exact year-to-date level)', () => {
    const types = served().coverage.flatMap((c) => Object.keys(c.period_types));
    expect(types.length).toBeGreaterThan(0);
    expect(problemsOf(served())).toEqual([]);
  });

  it('the check fails when periods is off by one, either way, or the rows are not there', () => {
    const all = served();
    const [item, type] = all.coverage.flatMap((c) =>
      Object.keys(c.period_types).map((t) => [c, t as keyof CoverageItem['period_types']] as const),
    )[0];
    const tampered = (delta: number): Answers => ({
      ...all,
      coverage: all.coverage.map((c) =>
        c !== item
          ? c
          : {
              ...c,
              period_types: {
                ...c.period_types,
                [type]: { ...c.period_types[type]!, periods: c.period_types[type]!.periods + delta },
              },
            },
      ),
    });
    for (const delta of [1, -1]) {
      const problems = problemsOf(tampered(delta));
      expect(problems, `${delta}`).toContainEqual(
        expect.stringMatching(
          new RegExp(`^${item.state} ${type}: periods ${item.period_types[type]!.periods + delta}, `),
        ),
      );
      expect(
        problems.every((p) => p.startsWith(`${item.state} ${type}: `)),
        `${delta}`,
      ).toBe(true);
    }
    const key = `${item.state}|${type === 'year_to_date' ? 'month' : type}`;
    const withoutRows = new Map(all.premium).set(key, { ...all.premium.get(key)!, data: [] });
    expect(problemsOf({ ...all, premium: withoutRows }).length).toBeGreaterThan(0);
  });
}

describe("/v1/coverage's periods on the fixture data", () => {
  agreesWithPremium(servedFrom(FIXTURE_DATA));
});

describe("/v1/coverage's periods on the real data", () => {
  const served = servedFrom(REAL_DATA);
  agreesWithPremium(served);

  it('tells a sparse series from a full one: some period type has fewer periods than its from..to span, and says how many', () => {
    const { coverage, premium } = served();
    const sparse = coverage.flatMap((c) =>
      GRANULARITIES.flatMap((g) => {
        const p = c.period_types[g];
        return p && p.periods < spanLength(p.from, p.to) ? [{ state: c.state, g, periods: p.periods }] : [];
      }),
    );
    // The WSIA half-years run from 2008-H1 or 2009-H1 to the latest with a few reports between (issue 24: AZ has three).
    expect(sparse.length).toBeGreaterThan(0);
    for (const { state, g, periods } of sparse)
      expect(premium.get(`${state}|${g}`)!.data.length, `${state} ${g}`).toBe(periods);
    // Every state and type with a year-to-date series is checked above through the month rows; the real data has some.
    expect(coverage.some((c) => c.period_types.year_to_date)).toBe(true);
  });
});
