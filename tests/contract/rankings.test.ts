// /v1/insurers on the real rankings (data/rankings/, issue 30): every line of every ranking file is served
// as printed, and nothing else is. The files are read here with csv-parse alone, not with the ingest, so a
// slip in either shows; the spot checks name what the pages print (read off them, not off our files).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { type InsurersResponse, insurersResponse } from '../../domain/contract.ts';
import { coverageResponse } from '../../domain/contract.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

const get = (target: string) => callHandler(`http://service.test${target}`);
async function ranking(state: string, period: string): Promise<InsurersResponse> {
  const res = await get(`/v1/insurers?state=${state}&period=${period}`);
  expect(res.status, `${state} ${period}`).toBe(200);
  return insurersResponse.parse(await res.json());
}

interface RankingFile {
  path: string;
  header: Record<string, string>;
  rows: Record<string, string>[];
}
const RANKINGS_DIR = join(REAL_DATA, 'rankings');
const FILES: RankingFile[] = readdirSync(RANKINGS_DIR, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.csv'))
  .sort()
  .map((f) => {
    const text = readFileSync(join(RANKINGS_DIR, f), 'utf8');
    const header = Object.fromEntries(
      text
        .split('\n')
        .filter((l) => l.startsWith('# '))
        .map((l) => [l.slice(2, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const rows = parse<Record<string, string>>(
      text
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n'),
      { columns: true, skip_empty_lines: true },
    );
    return { path: relative(REAL_DATA, join(RANKINGS_DIR, f)), header, rows };
  });

describe('every ranking file, served line for line', () => {
  it('there are rankings to serve: national and for TX and FL', () => {
    expect(new Set(FILES.map((f) => f.header.state))).toEqual(new Set(['US', 'TX', 'FL']));
  });

  it.each(FILES.map((f) => [f.path, f] as const))('%s', async (_, file) => {
    const { header, rows } = file;
    const body = await ranking(header.state, header.period);
    const ranked = rows.filter((r) => r.rank !== '');
    const unranked = rows.filter((r) => r.rank === '');
    const served = (r: Record<string, string>) => ({
      name: r.name,
      premium: Number(r.premium),
      market_share_pct: r.market_share_pct === '' ? null : Number(r.market_share_pct),
      // How a premium was printed shows only where it is not exact.
      ...(r.qualifier ? { as_printed: r.printed, qualifier: r.qualifier } : {}),
    });
    expect(body.insurers.map(({ note: _note, policy_count: _count, ...i }) => i)).toEqual(
      ranked.map((r) => ({ rank: Number(r.rank), ...served(r) })),
    );
    expect(body.insurers.map((i) => i.note ?? '')).toEqual(ranked.map((r) => r.note));
    expect(body.unranked).toEqual(unranked.map((r) => ({ ...served(r), note: r.note })));
    expect(body.insurers.every((i) => i.policy_count === null)).toBe(true);
    // A partial list says so: how many ranks are listed, and how many the publication has.
    expect(body.ranking).toEqual({
      entity: header.entity,
      basis: header.basis,
      ranks_listed: ranked.length,
      ...(header.ranks_in_publication ? { ranks_in_publication: Number(header.ranks_in_publication) } : {}),
    });
    if (body.ranking.ranks_in_publication !== undefined)
      expect(body.ranking.ranks_in_publication).toBeGreaterThan(body.ranking.ranks_listed);
    expect(body.source).toBe(header.source);
    expect([body.report_date, body.data_as_of]).toEqual([header.report_date, header.data_as_of]);
    expect(body.publications).toEqual([
      {
        publisher: header.publisher,
        title: header.title,
        url: header.url,
        report_date: header.report_date,
        report_date_basis: header.report_date_basis === 'printed' ? 'printed' : 'estimated',
      },
    ]);
    // The CSV: one line per insurer, ranked then unranked, with the same words.
    const csv = await (await get(`/v1/insurers?state=${header.state}&period=${header.period}&format=csv`)).text();
    const lines = parse<Record<string, string>>(csv, { columns: true });
    expect(
      lines.map((l) => [
        l.rank,
        l.name,
        l.premium,
        l.market_share_pct,
        l.as_printed,
        l.qualifier,
        l.note,
        l.publication_url,
      ]),
    ).toEqual(
      [...ranked, ...unranked].map((r) => [
        r.rank,
        r.name,
        String(Number(r.premium)),
        r.market_share_pct === '' ? '' : String(Number(r.market_share_pct)),
        r.qualifier ? r.printed : '',
        r.qualifier,
        r.note,
        header.url,
      ]),
    );
  });
});

describe('what the pages print (issue 30)', () => {
  it('TX 2021: the six companies of SLTX company data as The Insurer printed them, rank 1 $1.78bn marked rounded', async () => {
    const body = await ranking('TX', '2021');
    expect(body.insurers.map((i) => [i.rank, i.name, i.premium])).toEqual([
      [1, "Lloyd's underwriters", 1_780_000_000],
      [2, 'National Fire & Marine', 300_700_000],
      [3, 'Evanston Insurance', 273_200_000],
      [4, 'Scottsdale Insurance', 271_000_000],
      [5, 'Chubb', 235_400_000],
      [6, 'Lexington', 231_400_000],
    ]);
    expect(body.insurers.map((i) => i.as_printed ?? null)).toEqual(['$1.78bn', null, null, null, null, null]);
    expect(body.insurers[0].qualifier).toBe('rounded');
    expect(body.ranking).toMatchObject({ entity: 'company', ranks_listed: 6 });
    expect(body.ranking.ranks_in_publication).toBeUndefined();
  });

  it("US 2022: AM Best's groups, ranks 1-13 of 25, Lloyd's Market unranked", async () => {
    const body = await ranking('us', '2022');
    expect(body.state).toBe('US');
    expect(body.insurers.map((i) => i.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect([body.insurers[0].name, body.insurers[0].premium, body.insurers[0].market_share_pct]).toEqual([
      'Berkshire Hathaway Insurance Group',
      6_903_760_000,
      7,
    ]);
    expect([body.insurers[12].name, body.insurers[12].premium]).toEqual(['Tokio Marine U.S. PC Group', 1_500_711_000]);
    expect(body.unranked.map((i) => [i.name, i.premium, i.market_share_pct])).toEqual([
      ["Lloyd's Market", 15_482_880_000, 15.7],
    ]);
    expect(body.ranking).toMatchObject({ entity: 'group', ranks_listed: 13, ranks_in_publication: 25 });
    expect(body.ranking.basis).toContain('AM Best');
  });

  it("FL 2024-H1: the three companies FSLSO's figures show, as PropertyCasualty360 printed them", async () => {
    const body = await ranking('FL', '2024-H1');
    expect(body.insurers.map((i) => [i.rank, i.name, i.premium, i.as_printed ?? null])).toEqual([
      [1, "Lloyd's of London", 1_750_000_000, '$1.75 billion'],
      [2, 'National Fire and Marine Insurance Company', 451_900_000, null],
      [3, 'Transverse Specialty Insurance Company', 311_000_000, '$311 million'],
    ]);
  });
});

describe('what exists, and nothing else', () => {
  const served = new Map<string, string[]>();
  for (const f of FILES) served.set(f.header.state, [...(served.get(f.header.state) ?? []), f.header.period].sort());

  it('/v1/coverage: has_insurer_data and insurer_periods for TX and FL exactly as the files hold; no other state', async () => {
    const coverage = coverageResponse.parse(await (await get('/v1/coverage')).json());
    for (const state of coverage) {
      expect(state.insurer_periods, state.state).toEqual(served.get(state.state) ?? []);
      expect(state.capabilities.has_insurer_data, state.state).toBe(served.has(state.state));
    }
    expect(coverage.some((s) => s.state === 'US')).toBe(false);
  });

  it('every other period of a ranked state or US answers 404 naming the periods that have a ranking', async () => {
    for (const [state, periods] of served) {
      for (const period of ['2011', '2021-06', '2024-H2', '2025']) {
        if (periods.includes(period)) continue;
        const res = await get(`/v1/insurers?state=${state}&period=${period}`);
        expect(res.status, `${state} ${period}`).toBe(404);
        const { error } = (await res.json()) as { error: { message: string } };
        expect(error.message).toContain(`periods with a ranking: ${periods.join(', ')}`);
      }
    }
  });

  it('a state without a ranking answers 404 saying so; US is a state of /v1/insurers alone', async () => {
    const res = await get('/v1/insurers?state=NY&period=2021');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('NY has no insurer ranking');
    for (const target of [
      '/v1/premium?state=US',
      '/v1/premium/summary?state=US&year=2022',
      '/v1/lines?state=US',
      '/v1/premium/sample?state=US',
      '/v1/compare?states=US,TX',
    ]) {
      const other = await get(target);
      expect(other.status, target).toBe(404);
      expect(((await other.json()) as { error: { message: string } }).error.message, target).toContain("'US'");
    }
  });

  it('national and state rankings never mix: a state answers its own basis and source, US never a state office', async () => {
    for (const f of FILES) {
      const body = await ranking(f.header.state, f.header.period);
      expect(body.state).toBe(f.header.state);
      if (f.header.state === 'US') expect(body.ranking.basis).not.toMatch(/SLTX|FSLSO|stamping office/);
      else expect(body.ranking.basis).not.toMatch(/AM Best|Business Insurance/);
    }
  });
});
