// GET /v1/publications on the real dataset (data/), against what this file reads off data/ itself: the
// publication files (`# key: value` header lines, then `state,period,line,county,insurer,metric,value,
// qualifier,printed,note`, one figure a row) with its own CSV reader, never the ingest's code or the shards.
// For every state of /v1/coverage:
// (a) the listing holds exactly the files with a row for the state, each with that file's header, its
//     figure_count the file's rows for the state, so the counts sum to the state's rows in data/;
// (b) every publication a /v1/premium answer (month, quarter, half_year, year), the sample or an insurer
//     ranking ranked here from figures cites is listed (a ranking as printed, data/rankings/, cites its own);
// (c) report_dates are the listing's distinct dates, ascending, and they are the vintages report_date pins:
//     the day before the first one no figure exists, and an answer as of any one cites nothing later;
// (d) each publication's periods are the first and last period of each type among its own rows for the state;
// (e) without state, the feed: every state's listing entries, each with its state, newest first (report_date
//     descending, then state, url, title), and since=D keeps those of report_date D or later, in either form.
// Answers are computed in process from shards built from data/ into a temporary folder, the payment gate off.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installGate } from '../../api/payment/configured.ts';
import {
  coverageResponse,
  publicationsResponse,
  type CoverageItem,
  type PublicationsResponse,
} from '../../domain/contract.ts';
import { insurersResponse, premiumResponse, sampleResponse } from '../../domain/contract.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';
import { csvFields } from '../support/csv.ts';

// ---- data/, read here -----------------------------------------------------------------------------

interface DataFile {
  /** Path under data/publications/. */
  file: string;
  header: Record<string, string>;
  columns: string[];
  rows: Record<string, string>[];
}

function readDataFile(path: string): DataFile {
  const header: Record<string, string> = {};
  const rows: Record<string, string>[] = [];
  let columns: string[] | null = null;
  for (const line of readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)) {
    const meta = columns ? null : /^#\s*([a-z_]+):\s*(.*)$/.exec(line);
    if (meta) header[meta[1]] = meta[2].trim();
    else if (!line.trim()) continue;
    else if (!columns) columns = csvFields(line).map((c) => c.trim());
    else {
      const fields = csvFields(line);
      rows.push(Object.fromEntries(columns.map((c, i) => [c, (fields[i] ?? '').trim()])));
    }
  }
  return { file: relative(join(REAL_DATA, 'publications'), path), header, columns: columns ?? [], rows };
}

const FILES: DataFile[] = readdirSync(join(REAL_DATA, 'publications'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.csv'))
  .map((e) => readDataFile(join(e.parentPath, e.name)))
  .sort((a, b) => (a.file < b.file ? -1 : 1));

/** The publications of the rankings (data/rankings/): cited by /v1/insurers, not listed by /v1/publications. */
const RANKING_URLS = new Set(
  readdirSync(join(REAL_DATA, 'rankings'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.csv'))
    .map((e) => readDataFile(join(e.parentPath, e.name)).header.url),
);

/** states.csv: code → the state's source as answers name it, `stamping_office (acronym)`, or the office alone without an acronym. */
const SOURCES = (() => {
  const [head, ...lines] = readFileSync(join(REAL_DATA, 'states.csv'), 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim());
  const columns = csvFields(head);
  return new Map(
    lines.map((l) => {
      const r = Object.fromEntries(columns.map((c, i) => [c, csvFields(l)[i] ?? '']));
      return [r.code, r.acronym ? `${r.stamping_office} (${r.acronym})` : r.stamping_office];
    }),
  );
})();
const STATES = [...SOURCES.keys()];

/** What identifies a publication as an answer cites it. Several WSIA tables share one url, so title too. */
const pubKey = (p: { url: string; report_date: string; title: string }) => `${p.report_date} ${p.url} ${p.title}`;
const fileKey = (f: DataFile) =>
  pubKey({ url: f.header.url, report_date: f.header.report_date, title: f.header.title });

/** The period type of a period as data files print it (data/README.md: the five forms). */
function periodType(period: string): string {
  if (/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) return 'month';
  if (/^\d{4}-Q[1-4]$/.test(period)) return 'quarter';
  if (/^\d{4}-H[12]$/.test(period)) return 'half_year';
  if (/^\d{4}$/.test(period)) return 'year';
  if (/^\d{4}-01\.\.(0[1-9]|1[0-2])$/.test(period)) return 'year_to_date';
  throw new Error(`unknown period form '${period}'`);
}

/** The first and last period of each type among rows, in calendar order (each form sorts as text). */
function periodRanges(rows: Record<string, string>[]): Record<string, { from: string; to: string }> {
  const ranges: Record<string, { from: string; to: string }> = {};
  for (const { period } of rows) {
    const t = periodType(period);
    const r = ranges[t];
    ranges[t] = { from: !r || period < r.from ? period : r.from, to: !r || period > r.to ? period : r.to };
  }
  return ranges;
}

/** YYYY-MM-DD of the day before. */
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

// ---- the service ----------------------------------------------------------------------------------

useShardsOf(REAL_DATA);

async function get<T>(path: string, schema: { parse: (v: unknown) => T }): Promise<T> {
  const res = await callHandler(`http://service.test${path}`);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return schema.parse(await res.json());
}

const GRANULARITIES = ['month', 'quarter', 'half_year', 'year'] as const;
const counts = { states: 0, listed: 0, figures: 0, citingAnswers: 0, citations: 0, pinnedAnswers: 0 };
let coverage: CoverageItem[] = [];
const listings = new Map<string, PublicationsResponse>();
let feed: PublicationsResponse;

beforeAll(async () => {
  installGate(null);
  coverage = await get('/v1/coverage', coverageResponse);
  for (const { state } of coverage)
    listings.set(state, await get(`/v1/publications?state=${state}`, publicationsResponse));
  feed = await get('/v1/publications', publicationsResponse);
});
afterAll(() => {
  installGate(undefined);
  console.log(`publications: ${JSON.stringify(counts)}`);
});

const rowsOf = (f: DataFile, state: string) => f.rows.filter((r) => r.state === state);
const refOf = ({
  publisher,
  title,
  url,
  report_date,
  report_date_basis,
}: PublicationsResponse['publications'][number]) => ({ publisher, title, url, report_date, report_date_basis });

describe('the data files read here', () => {
  it('are publications with the documented header and columns, each holding the rows it declares', () => {
    expect(FILES.length).toBeGreaterThan(50);
    for (const f of FILES) {
      expect(f.columns, f.file).toEqual([
        'state',
        'period',
        'line',
        'county',
        'insurer',
        'metric',
        'value',
        'qualifier',
        'printed',
        'note',
      ]);
      expect(f.rows.length, f.file).toBe(Number(f.header.rows));
      expect([f.header.url, f.header.report_date, f.header.data_as_of], f.file).toEqual([
        expect.stringMatching(/^https?:\/\//),
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      ]);
    }
    // url, report_date and title together name one file (the match below depends on it)
    expect(new Set(FILES.map(fileKey)).size).toBe(FILES.length);
  });

  it('name only states of states.csv, which /v1/coverage lists', () => {
    expect(coverage.map((c) => c.state)).toEqual(STATES);
    const named = new Set(FILES.flatMap((f) => f.rows.map((r) => r.state)));
    expect([...named].filter((s) => !STATES.includes(s))).toEqual([]);
  });
});

describe('GET /v1/publications on data/', () => {
  it("(a) lists exactly the files with rows for the state, each with its header and its row count; the counts sum to the state's rows", () => {
    for (const { state } of coverage) {
      const body = listings.get(state)!;
      expect([body.state, body.source], state).toEqual([state, SOURCES.get(state)]);
      const files = FILES.filter((f) => rowsOf(f, state).length);
      const expected = files
        .map((f) => ({
          state,
          publisher: f.header.publisher,
          title: f.header.title,
          url: f.header.url,
          report_date: f.header.report_date,
          report_date_basis: f.header.report_date_basis === 'printed' ? 'printed' : 'estimated',
          data_as_of: f.header.data_as_of,
          secondary: f.file.startsWith('press/'),
          figure_count: rowsOf(f, state).length,
        }))
        .sort((a, b) =>
          a.report_date !== b.report_date
            ? a.report_date < b.report_date
              ? -1
              : 1
            : a.url < b.url
              ? -1
              : a.url > b.url
                ? 1
                : 0,
        );
      // Order is report_date then url; two files of one date and url (none today) may come in either order.
      const listed = body.publications.map(({ periods: _, ...p }) => p);
      expect(
        [...listed].sort((a, b) => (pubKey(a) < pubKey(b) ? -1 : 1)),
        state,
      ).toEqual([...expected].sort((a, b) => (pubKey(a) < pubKey(b) ? -1 : 1)));
      const rows = FILES.reduce((n, f) => n + rowsOf(f, state).length, 0);
      expect(
        body.publications.reduce((n, p) => n + p.figure_count, 0),
        state,
      ).toBe(rows);
      counts.states++;
      counts.listed += body.publications.length;
      counts.figures += rows;
    }
    // every row of data/ is a figure of one listed state
    expect(counts.figures).toBe(FILES.reduce((n, f) => n + f.rows.length, 0));
  });

  it('(a) orders each listing by report_date, then url', () => {
    for (const [state, body] of listings) {
      const order = body.publications.map((p) => [p.report_date, p.url]);
      const sorted = [...order].sort((a, b) =>
        a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
      );
      expect(order, state).toEqual(sorted);
    }
  });

  it('(b) lists every publication that /v1/premium (each granularity), the sample and the insurer rankings cite', async () => {
    for (const c of coverage) {
      const listed = listings.get(c.state)!.publications.map(refOf);
      const cite = (what: string, cited: readonly object[]) => {
        counts.citingAnswers++;
        for (const ref of cited) {
          counts.citations++;
          expect(listed, `${c.state} ${what}`).toContainEqual(ref);
        }
      };
      for (const g of GRANULARITIES) {
        const answer = await get(`/v1/premium?state=${c.state}&granularity=${g}`, premiumResponse);
        cite(`premium ${g}`, answer.publications);
        // one source for the state, whichever route names it
        expect(listings.get(c.state)!.source, `${c.state} ${g}`).toBe(answer.source);
      }
      cite('sample', (await get(`/v1/premium/sample?state=${c.state}`, sampleResponse)).publications);
      // A ranking as printed (data/rankings/) cites its own publication, which lists no premium figure: not listed.
      for (const period of c.insurer_periods)
        cite(
          `insurers ${period}`,
          (await get(`/v1/insurers?state=${c.state}&period=${period}`, insurersResponse)).publications.filter(
            (p) => !RANKING_URLS.has(p.url),
          ),
        );
    }
  });

  it('(c) report_dates are the distinct report dates of the listing, ascending, each the date of a listed publication', () => {
    for (const [state, body] of listings) {
      expect(body.report_dates, state).toEqual([...new Set(body.publications.map((p) => p.report_date))].sort());
      expect(
        body.report_dates.every((d, i) => i === 0 || body.report_dates[i - 1] < d),
        state,
      ).toBe(true);
      for (const d of body.report_dates)
        expect(
          FILES.some((f) => f.header.report_date === d && rowsOf(f, state).length),
          `${state} ${d}`,
        ).toBe(true);
    }
  });

  it('(c) the report dates pin: nothing before the first, and as of each one nothing published later is cited', async () => {
    for (const [state, body] of listings) {
      if (!body.report_dates.length) continue;
      const before = dayBefore(body.report_dates[0]);
      for (const g of GRANULARITIES) {
        const early = await get(`/v1/premium?state=${state}&granularity=${g}&report_date=${before}`, premiumResponse);
        counts.pinnedAnswers++;
        expect(early, `${state} ${g} as of ${before}`).toMatchObject({
          data: [],
          publications: [],
          report_date: null,
          data_as_of: null,
        });
      }
      for (const d of body.report_dates) {
        for (const g of GRANULARITIES) {
          const answer = await get(`/v1/premium?state=${state}&granularity=${g}&report_date=${d}`, premiumResponse);
          counts.pinnedAnswers++;
          const what = `${state} ${g} as of ${d}`;
          if (answer.report_date !== null) {
            expect(answer.report_date <= d, what).toBe(true);
            expect(body.report_dates, what).toContain(answer.report_date);
          }
          for (const p of answer.publications) expect(p.report_date <= d, `${what}: ${p.url}`).toBe(true);
        }
      }
      // unpinned, an answer's report_date is a listed one too
      for (const g of GRANULARITIES) {
        const latest = await get(`/v1/premium?state=${state}&granularity=${g}`, premiumResponse);
        if (latest.report_date !== null) expect(body.report_dates, `${state} ${g}`).toContain(latest.report_date);
      }
    }
  });

  it("(d) each publication's periods are the first and last period of each type among its own rows for the state", () => {
    for (const [state, body] of listings) {
      for (const p of body.publications) {
        const file = FILES.find((f) => fileKey(f) === pubKey(p))!;
        expect(file, `${state} ${p.url}`).toBeDefined();
        const rows = rowsOf(file, state);
        expect(p.periods, `${state} ${file.file}`).toEqual(periodRanges(rows));
        for (const [type, { from, to }] of Object.entries(p.periods)) {
          expect(from <= to, `${state} ${file.file} ${type}`).toBe(true);
          // both ends are periods the file prints for the state
          expect(
            rows.map((r) => r.period),
            `${state} ${file.file} ${type}`,
          ).toEqual(expect.arrayContaining([from, to]));
        }
        // the data it holds ends no later than the day it was published
        expect(p.data_as_of <= p.report_date, `${state} ${file.file}`).toBe(true);
      }
    }
  });
});

type Listed = PublicationsResponse['publications'][number];
/** The feed's order, written out here: report_date descending, then state, url, title. */
const newestFirst = (a: Listed, b: Listed) =>
  a.report_date !== b.report_date
    ? a.report_date < b.report_date
      ? 1
      : -1
    : a.state !== b.state
      ? a.state < b.state
        ? -1
        : 1
      : a.url !== b.url
        ? a.url < b.url
          ? -1
          : 1
        : a.title < b.title
          ? -1
          : a.title > b.title
            ? 1
            : 0;
const isNewestFirst = (list: readonly Listed[]) => list.every((p, i) => i === 0 || newestFirst(list[i - 1], p) <= 0);

describe('GET /v1/publications without state, and since, on data/', () => {
  it("(e) lists every state's publications, each with its state, newest first: the per-state listings' very entries", () => {
    const states = new Set(feed.publications.map((p) => p.state));
    expect([feed.state, feed.source]).toEqual([null, null]);
    // every state with a publication, and every entry of every state's listing (which carries the state too)
    expect([...states].sort()).toEqual(
      coverage.map((c) => c.state).filter((s) => listings.get(s)!.publications.length),
    );
    const perState = [...listings.values()].flatMap((l) => l.publications);
    for (const [state, l] of listings) for (const p of l.publications) expect(p.state, `${state} ${p.url}`).toBe(state);
    expect(feed.publications.length).toBe(perState.length);
    expect([...feed.publications].sort(newestFirst)).toEqual([...perState].sort(newestFirst));
    expect(isNewestFirst(feed.publications)).toBe(true);
    expect(feed.report_dates).toEqual([...new Set(perState.map((p) => p.report_date))].sort());
  });

  it('(e) since=2025-06-01 lists publications of several states, none older, newest first: the feed from that date', async () => {
    const since = '2025-06-01';
    const recent = await get(`/v1/publications?since=${since}`, publicationsResponse);
    expect(new Set(recent.publications.map((p) => p.state)).size).toBeGreaterThan(1);
    expect(recent.publications.every((p) => p.report_date >= since)).toBe(true);
    expect(isNewestFirst(recent.publications)).toBe(true);
    expect(recent).toEqual({
      state: null,
      source: null,
      report_dates: feed.report_dates.filter((d) => d >= since),
      publications: feed.publications.filter((p) => p.report_date >= since),
    });
    // and only those: the feed's older entries are all before the date
    expect(feed.publications.slice(recent.publications.length).every((p) => p.report_date < since)).toBe(true);
  });

  it("(e) since with state: that state's listing from the date, in its own order", async () => {
    const since = '2025-06-01';
    for (const [state, listing] of listings) {
      const recent = await get(`/v1/publications?state=${state}&since=${since}`, publicationsResponse);
      expect(recent, state).toEqual({
        ...listing,
        report_dates: listing.report_dates.filter((d) => d >= since),
        publications: listing.publications.filter((p) => p.report_date >= since),
      });
    }
  });
});
