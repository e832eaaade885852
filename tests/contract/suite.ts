// The API contract (docs/design.md) of every route, on the fixture dataset
// (tests/fixtures/data). Run twice: in-process through the handlers, and over HTTP against the built
// server. Expected values are read off the fixture files by hand; each says where it comes from.
// Every 200 body is parsed with its strict response schema from api/contract.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  compareResponse,
  errorBody,
  insurersResponse,
  premiumResponse,
  sampleResponse,
  summaryResponse,
  type PrintedFigures,
  type SeriesRow,
  type SeriesValues,
} from '../../domain/contract.ts';
import {
  coverageResponse,
  linesResponse,
  publicationsResponse,
  type PublicationsResponse,
} from '../../domain/contract.ts';
import { csvFields } from '../support/csv.ts';
import { LIST_BASIS } from '../../domain/insurers.ts';

export type Call = (path: string, init?: RequestInit) => Promise<Response>;

const FREE_CACHE = 'public, max-age=3600';
const PRICED_CACHE = 'private, no-store';

async function expectError(res: Response, status: number, code: string, mentions: string[]) {
  expect(res.status).toBe(status);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  const body = errorBody.strict().parse(await res.json());
  expect(body.error.code).toBe(code);
  for (const word of mentions) expect(body.error.message).toContain(word);
  return body.error.message;
}

/** A 200 JSON answer with the route's cache header and CORS, its body parsed by the route's schema. */
async function okBody<S extends z.ZodType>(res: Response, schema: S, cache: string): Promise<z.output<S>> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe(cache);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED');
  return schema.parse(await res.json());
}

// ---- the fixture, read by hand -------------------------------------------------------------------

/** states.csv: each state's source is its `stamping_office (acronym)`. */
const SOURCE = {
  FL: 'Florida Surplus Lines Service Office (FSLSO)',
  IL: 'Surplus Line Association of Illinois (SLAI)',
  NY: 'Excess Line Association of New York (ELANY)',
  TX: 'Surplus Lines Stamping Office of Texas (SLTX)',
} as const;

const NO_VALUES: SeriesValues = {
  premium: null,
  policy_count: null,
  new_business_premium: null,
  renewal_premium: null,
  new_business_policy_pct: null,
  renewal_policy_pct: null,
};
/** A series row: the fields given, every other of the seven fields null, and what was printed (or null). */
const row = (period: string, values: Partial<SeriesValues> = {}, printed: PrintedFigures | null = null): SeriesRow => ({
  period,
  ...NO_VALUES,
  ...values,
  printed,
});
const periods = (rows: readonly SeriesRow[]) => rows.map((r) => r.period);

/** Each publication as an answer cites it, from its file's header (report_date_basis 'estimated: ...' → estimated). */
const PUB = {
  FL_2023_Q4: {
    publisher: 'FSLSO',
    title: 'Fourth quarter 2023',
    url: 'https://example.org/fl/2023-q4',
    report_date: '2024-01-15',
    report_date_basis: 'printed',
  },
  FL_2024_01: {
    publisher: 'FSLSO',
    title: 'January 2024',
    url: 'https://example.org/fl/2024-01',
    report_date: '2024-02-01',
    report_date_basis: 'estimated',
  },
  FL_2024_02: {
    publisher: 'FSLSO',
    title: 'February 2024',
    url: 'https://example.org/fl/2024-02',
    report_date: '2024-03-01',
    report_date_basis: 'printed',
  },
  FL_2024_03: {
    publisher: 'FSLSO',
    title: 'March 2024',
    url: 'https://example.org/fl/2024-03',
    report_date: '2024-04-01',
    report_date_basis: 'printed',
  },
  IL_2022: {
    publisher: 'SLAI',
    title: 'Annual 2022',
    url: 'https://example.org/il/2022',
    report_date: '2023-02-15',
    report_date_basis: 'printed',
  },
  IL_2023_12: {
    publisher: 'SLAI',
    title: 'December 2023',
    url: 'https://example.org/il/2023-12',
    report_date: '2024-01-20',
    report_date_basis: 'printed',
  },
  IL_2024_02: {
    publisher: 'SLAI',
    title: 'February 2024',
    url: 'https://example.org/il/2024-02',
    report_date: '2024-03-20',
    report_date_basis: 'printed',
  },
  TX_2023: {
    publisher: 'SLTX',
    title: 'Annual 2023',
    url: 'https://example.org/tx/2023',
    report_date: '2024-02-10',
    report_date_basis: 'printed',
  },
} as const;
/** FL's monthly figures cite January's, February's and March's newsletters (in report_date order). */
const FL_MONTHS_PUBS = [PUB.FL_2024_01, PUB.FL_2024_02, PUB.FL_2024_03];

// What the fixture prints that fills no series field (docs/design.md §9):
// 2024-01.csv `FL,2024-01,all,,,items,1501,,,...`: exact, in another unit than FL's policies.
const JAN_ITEMS = { items: { value: 1501, as_printed: null } } as PrintedFigures;
// 2024-02.csv `FL,2024-02,all,,,premium,1200000,rounded,$1.2M,`: rounded.
/** The legend of those two keys (printed_keys, docs/design.md §9). */
const ITEMS_KEY = { items: { measures: expect.stringContaining('items'), unit: 'count' } };
const FEB_ROUNDED: PrintedFigures = { premium: { value: 1200000, as_printed: '$1.2M', qualifier: 'rounded' } };

// FL statewide all-lines months, latest vintage of each field:
// 2024-01.csv (report 2024-02-01): premium 1111111.11, policies 1001, shares 40/60; 2024-02.csv
// (report 2024-03-01) restates the policies to 1011.
const FL_JAN = row(
  '2024-01',
  { premium: 1111111.11, policy_count: 1011, new_business_policy_pct: 40, renewal_policy_pct: 60 },
  JAN_ITEMS,
);
// 2024-02.csv: policies 1101, shares 50/50, premium printed only rounded ("$1.2M": printed, not the
// premium field); 2024-03.csv (report 2024-04-01) back-fills the premium 1222222.22.
// "$1.2M" agrees with 1222222.22 to its own precision (0.1M): a shortened citation, not a restatement, so
// from 2024-04-01 on it is not printed (docs/design.md §1); as of 2024-03-01..31 it is (below).
const FL_FEB = row('2024-02', {
  premium: 1222222.22,
  policy_count: 1101,
  new_business_policy_pct: 50,
  renewal_policy_pct: 50,
});
// 2024-03.csv: premium 1333333.33, policies 1203, no shares printed.
const FL_MAR = row('2024-03', { premium: 1333333.33, policy_count: 1203 });

// IL statewide all-lines months: il-2022-annual.csv prints 2022-12; il-2023-12.csv prints
// 2023-01..12; il-2024-02.csv prints 2024-01..02. No restatements, no shares.
const IL_MONTHS: SeriesRow[] = (
  [
    ['2022-12', 987654.32, 1234],
    ['2023-01', 1001000.25, 1013],
    ['2023-02', 1002000.25, 1025],
    ['2023-03', 1003000.25, 1037],
    ['2023-04', 1004000.25, 1049],
    ['2023-05', 1005000.25, 1061],
    ['2023-06', 1006000.25, 1073],
    ['2023-07', 1007000.25, 1085],
    ['2023-08', 1008000.25, 1097],
    ['2023-09', 1009000.25, 1109],
    ['2023-10', 1010000.25, 1121],
    ['2023-11', 1011000.25, 1133],
    ['2023-12', 1012000.25, 1145],
    ['2024-01', 1100000.11, 1101],
    ['2024-02', 1200000.22, 1202],
  ] as const
).map(([period, premium, policy_count]) => row(period, { premium, policy_count }));

// IL 2023 summed from its 12 months: premium 12 × 1000000.25 + 1000 × (1 + … + 12) = 12078003.00;
// policies 1013 + 1025 + … + 1145 (step 12) = 12 × 1013 + 12 × 66 = 12948.
const IL_2023 = { premium: 12078003, policy_count: 12948 };
// il-2022-annual.csv: the year 2022 as printed by the source.
const IL_2022 = { premium: 11234567.89, policy_count: 12345 };

// ---- /v1/publications, worked out here from the fixture's publication files --------------------

const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'data');

/** A data CSV: its `# key: value` header lines, then records keyed by the column header. */
function readDataCsv(path: string): { header: Record<string, string>; records: Record<string, string>[] } {
  const header: Record<string, string> = {};
  const records: Record<string, string>[] = [];
  let columns: string[] | null = null;
  for (const line of readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)) {
    const meta = /^#\s*([a-z_]+):\s*(.*)$/.exec(line);
    if (meta) header[meta[1]] = meta[2].trim();
    else if (!line.trim() || line.startsWith('#')) continue;
    else if (!columns) columns = csvFields(line);
    else records.push(Object.fromEntries(columns.map((c, i) => [c, csvFields(line)[i] ?? ''])));
  }
  return { header, records };
}

/** The period type of a period as data files print it (data/README.md's five forms). */
function periodType(period: string): string {
  const forms: [RegExp, string][] = [
    [/^\d{4}-\d{2}$/, 'month'],
    [/^\d{4}-Q[1-4]$/, 'quarter'],
    [/^\d{4}-H[12]$/, 'half_year'],
    [/^\d{4}$/, 'year'],
    [/^\d{4}-01\.\.\d{2}$/, 'year_to_date'],
  ];
  const found = forms.find(([re]) => re.test(period));
  if (!found) throw new Error(`unknown period form '${period}'`);
  return found[1];
}

const FIXTURE_PUBLICATION_FILES = readdirSync(join(FIXTURE_DIR, 'publications'), {
  recursive: true,
  withFileTypes: true,
})
  .filter((e) => e.isFile() && e.name.endsWith('.csv'))
  .map((e) => {
    const path = join(e.parentPath, e.name);
    return { file: relative(join(FIXTURE_DIR, 'publications'), path), ...readDataCsv(path) };
  });
const FIXTURE_STATES = readDataCsv(join(FIXTURE_DIR, 'states.csv')).records.map((r) => r.code);

/**
 * /v1/publications?state=S as this file reads the fixture: every publication file with a row for S (one row,
 * one figure), its header as cited, whether it is a press copy (publications/press/), the first and last
 * period of each type among its rows for S, and how many rows for S it has; ordered by report_date, then url.
 */
function expectedPublications(state: string): PublicationsResponse['publications'] {
  return FIXTURE_PUBLICATION_FILES.flatMap(({ file, header, records }) => {
    const rows = records.filter((r) => r.state === state);
    if (!rows.length) return [];
    const periods: Record<string, { from: string; to: string }> = {};
    for (const { period } of rows) {
      const t = periodType(period);
      const seen = periods[t];
      periods[t] = {
        from: !seen || period < seen.from ? period : seen.from,
        to: !seen || period > seen.to ? period : seen.to,
      };
    }
    return [
      {
        state,
        publisher: header.publisher,
        title: header.title,
        url: header.url,
        report_date: header.report_date,
        report_date_basis: header.report_date_basis === 'printed' ? ('printed' as const) : ('estimated' as const),
        data_as_of: header.data_as_of,
        secondary: file.startsWith('press/'),
        periods,
        figure_count: rows.length,
      },
    ];
  }).sort((a, b) =>
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
}

/** docs/design.md §5: (current / prior - 1) × 100, rounded to 2 decimals. */
const yoyPct = (current: number, prior: number) => Math.round((current / prior - 1) * 100 * 100) / 100;

export function contractSuite(call: Call) {
  /** HEAD answers GET's headers (its Content-Length) and no body. */
  async function expectHead(path: string): Promise<Response> {
    const get = await call(path);
    const head = await call(path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
    expect(await head.text()).toBe('');
    return head;
  }

  /** OPTIONS is a CORS preflight that lets the payment header through. */
  async function expectPreflight(path: string): Promise<Response> {
    const pre = await call(path, {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    expect(pre.headers.get('access-control-allow-headers')).toContain('PAYMENT-SIGNATURE');
    return pre;
  }

  /** Any other method: 405 with Allow, naming the method and what to use. */
  async function expectRefused(path: string, method: string): Promise<void> {
    const res = await call(path, { method });
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await expectError(res, 405, 'invalid_request', [method, 'GET']);
  }

  const premium = async (query: string) => okBody(await call(`/v1/premium?${query}`), premiumResponse, PRICED_CACHE);
  const summary = async (query: string) =>
    okBody(await call(`/v1/premium/summary?${query}`), summaryResponse, PRICED_CACHE);
  const compare = async (query: string) => okBody(await call(`/v1/compare?${query}`), compareResponse, PRICED_CACHE);
  const insurers = async (query: string) => okBody(await call(`/v1/insurers?${query}`), insurersResponse, PRICED_CACHE);
  const sample = async (query = '') =>
    okBody(await call(`/v1/premium/sample${query && `?${query}`}`), sampleResponse, FREE_CACHE);
  const invalid = async (path: string, mentions: string[]) =>
    expectError(await call(path), 400, 'invalid_request', mentions);
  const notFound = async (path: string, mentions: string[]) =>
    expectError(await call(path), 404, 'not_found', mentions);

  describe('GET /v1/coverage', () => {
    it('lists every state of states.csv, in code order, with the period types it publishes', async () => {
      const res = await call('/v1/coverage');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(res.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED');
      const body = coverageResponse.parse(await res.json());
      expect(body.map((s) => s.state)).toEqual(['FL', 'IL', 'NY', 'TX']);
      const [fl, il, ny, tx] = body;
      expect(fl).toMatchObject({
        name: 'Florida',
        stamping_office: 'Florida Surplus Lines Service Office',
        stamping_office_name_basis: 'confirmed',
      });
      // bases.csv: every FL and IL period type is 'premium reported to the fixture office'; TX's half year
      // is WSIA's compilation, its year the office's.
      const office = 'premium reported to the fixture office';
      // Months Jan-Mar 2024, all three with figures; the March newsletter (2024-04-01) is the latest publication.
      expect(fl.period_types.month).toEqual({
        from: '2024-01',
        to: '2024-03',
        periods: 3,
        latest_report_date: '2024-04-01',
        count_unit: 'policies',
        basis: office,
      });
      // 2023-Q4 printed by the source; 2024-Q1 summed once March exists.
      expect(fl.period_types.quarter).toEqual({
        from: '2023-Q4',
        to: '2024-Q1',
        periods: 2,
        latest_report_date: '2024-04-01',
        count_unit: 'policies',
        basis: office,
      });
      expect(fl.period_types.year).toBeUndefined(); // 2024 is incomplete; 2023 exists only per county
      expect(fl.period_types.half_year).toBeUndefined(); // 2024-H1 lacks April-June
      expect(fl.capabilities).toEqual({ has_county_data: true, has_insurer_data: true, has_new_renewal_split: true });
      // 2024-01.csv lists insurers for January 2024 only, every premium exact.
      expect(fl.insurer_periods).toEqual(['2024-01']);
      expect(ny.period_types).toEqual({});
      expect(ny.capabilities).toEqual({
        has_county_data: false,
        has_insurer_data: false,
        has_new_renewal_split: false,
      });
      expect(ny.insurer_periods).toEqual([]);
      expect(tx.stamping_office_name_basis).toBe('unconfirmed');
      expect(tx.period_types.year).toEqual({
        from: '2023',
        to: '2023',
        periods: 1,
        latest_report_date: '2024-02-10',
        count_unit: 'items',
        basis: 'premium filed with the fixture office',
      });
      expect(tx.period_types.half_year).toEqual({
        from: '2023-H1',
        to: '2023-H1',
        periods: 1,
        latest_report_date: '2024-02-10',
        count_unit: null,
        basis: 'premium submitted, as WSIA compiles it (fixture)',
      });
      // rankings/office/tx-2021-top-companies.csv: a ranking as printed
      expect(tx.insurer_periods).toEqual(['2021']);
      expect(tx.capabilities.has_insurer_data).toBe(true);
      // IL (states.csv: SLAI, confirmed): months 2022-12 (il-2022-annual.csv, 2023-02-15) to 2024-02
      // (il-2024-02.csv, 2024-03-20); quarters summed only where all three months exist: 2023-Q1..Q4
      // (2022-Q4 lacks Oct-Nov, 2024-Q1 lacks March), all from il-2023-12.csv (2024-01-20); half-years
      // 2023-H1..H2 likewise; years 2022 printed and 2023 summed from 12 months (2024-01-20); 2024 has two
      // months only. Insurer lists: every month of 2023, the year summed from them, and 2024-01; no
      // county rows, no new/renewal shares.
      expect(il).toEqual({
        state: 'IL',
        name: 'Illinois',
        stamping_office: 'Surplus Line Association of Illinois',
        stamping_office_name_basis: 'confirmed',
        period_types: {
          // 2022-12, the 12 months of 2023 and 2024-01..02: every month of the span has figures
          month: {
            from: '2022-12',
            to: '2024-02',
            periods: 15,
            latest_report_date: '2024-03-20',
            count_unit: 'policies',
            basis: office,
          },
          quarter: {
            from: '2023-Q1',
            to: '2023-Q4',
            periods: 4,
            latest_report_date: '2024-01-20',
            count_unit: 'policies',
            basis: office,
          },
          half_year: {
            from: '2023-H1',
            to: '2023-H2',
            periods: 2,
            latest_report_date: '2024-01-20',
            count_unit: 'policies',
            basis: office,
          },
          year: {
            from: '2022',
            to: '2023',
            periods: 2,
            latest_report_date: '2024-01-20',
            count_unit: 'policies',
            basis: office,
          },
        },
        capabilities: { has_county_data: false, has_insurer_data: true, has_new_renewal_split: false },
        insurer_periods: [
          '2023',
          '2023-01',
          '2023-02',
          '2023-03',
          '2023-04',
          '2023-05',
          '2023-06',
          '2023-07',
          '2023-08',
          '2023-09',
          '2023-10',
          '2023-11',
          '2023-12',
          '2024-01',
        ],
      });
    });

    it('ignores any query string, answering the same bytes', async () => {
      const plain = await (await call('/v1/coverage')).text();
      const res = await call('/v1/coverage?state=FL&anything=1&anything=2');
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(plain);
    });

    it('answers HEAD with the headers and no body, and OPTIONS as a CORS preflight', async () => {
      await expectHead('/v1/coverage');
      await expectPreflight('/v1/coverage');
    });

    it('refuses other methods with 405 and Allow', async () => {
      await expectRefused('/v1/coverage', 'DELETE');
    });
  });

  describe('GET /v1/lines', () => {
    it("returns the state's taxonomy ordered by source_code, numeric-aware, with the registry's ids", async () => {
      const res = await call('/v1/lines?state=FL');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const body = linesResponse.parse(await res.json());
      // lines/FL.csv lists 10, 2, 5000, Contingency; line-ids.csv gives 2→1, 10→2, 5000→3, Contingency→4.
      expect(body).toEqual([
        { id: 1, source_code: '2', name: 'Commercial Property', category: 'Commercial Property', note: null },
        { id: 2, source_code: '10', name: 'Builders Risk', category: 'Commercial Property', note: null },
        { id: 3, source_code: '5000', name: 'Commercial General Liability', category: 'General Liability', note: null },
        { id: 4, source_code: 'Contingency', name: 'Contingency', category: null, note: 'printed without a code' },
      ]);
    });

    it('takes the state code case-insensitively', async () => {
      expect(await (await call('/v1/lines?state=fl')).text()).toBe(await (await call('/v1/lines?state=FL')).text());
    });

    it('answers an empty list for a known state whose office publishes no taxonomy', async () => {
      const res = await call('/v1/lines?state=NY');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });

    it('404s an unknown state, naming it', async () => {
      await expectError(await call('/v1/lines?state=ZZ'), 404, 'not_found', ['ZZ']);
    });

    it('400s a missing, malformed, empty, unknown or repeated parameter, naming it', async () => {
      await expectError(await call('/v1/lines'), 400, 'invalid_request', ["'state'", 'missing']);
      await expectError(await call('/v1/lines?state='), 400, 'invalid_request', ["'state'", 'two-letter']);
      await expectError(await call('/v1/lines?state=F1'), 400, 'invalid_request', ["'state'", 'F1', 'two-letter']);
      await expectError(await call('/v1/lines?state=FLA'), 400, 'invalid_request', ["'state'", 'FLA']);
      await expectError(await call('/v1/lines?state=FL&line=all'), 400, 'invalid_request', ["'line'", "'state'"]);
      await expectError(await call('/v1/lines?state=FL&state=TX'), 400, 'invalid_request', [
        "'state'",
        'more than once',
      ]);
    });

    it('refuses a path trick in the state code as a malformed code', async () => {
      await expectError(await call('/v1/lines?state=..%2Fcoverage'), 400, 'invalid_request', ["'state'"]);
    });
  });

  describe('GET /v1/publications', () => {
    const listing = async (query: string) =>
      okBody(await call(`/v1/publications${query && `?${query}`}`), publicationsResponse, FREE_CACHE);
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

    it('FL: its four newsletters and reports, by report_date, each with what it covers and its figure count', async () => {
      // Read off the files by hand: every row of the four FL files is an FL figure, so each count is the
      // file's `# rows:`. 2023-q4.csv prints 2023-Q4 and the 2023 county rows; 2024-02.csv restates January;
      // 2024-03.csv back-fills February. No file is under publications/press/.
      expect(await listing('state=FL')).toEqual({
        state: 'FL',
        source: SOURCE.FL,
        report_dates: ['2024-01-15', '2024-02-01', '2024-03-01', '2024-04-01'],
        publications: [
          {
            state: 'FL',
            ...PUB.FL_2023_Q4,
            data_as_of: '2023-12-31',
            secondary: false,
            periods: { quarter: { from: '2023-Q4', to: '2023-Q4' }, year: { from: '2023', to: '2023' } },
            figure_count: 5,
          },
          {
            state: 'FL',
            ...PUB.FL_2024_01,
            data_as_of: '2024-01-31',
            secondary: false,
            periods: { month: { from: '2024-01', to: '2024-01' } },
            figure_count: 9,
          },
          {
            state: 'FL',
            ...PUB.FL_2024_02,
            data_as_of: '2024-02-29',
            secondary: false,
            periods: { month: { from: '2024-01', to: '2024-02' } },
            figure_count: 5,
          },
          {
            state: 'FL',
            ...PUB.FL_2024_03,
            data_as_of: '2024-03-31',
            secondary: false,
            periods: { month: { from: '2024-02', to: '2024-03' } },
            figure_count: 9,
          },
        ],
      });
    });

    it("every state of states.csv: the publications counted from the fixture's files, report_dates their distinct dates ascending", async () => {
      expect(FIXTURE_STATES).toEqual(['FL', 'IL', 'NY', 'TX']);
      let figures = 0;
      for (const state of FIXTURE_STATES) {
        const expected = expectedPublications(state);
        const body = await listing(`state=${state}`);
        expect(body, state).toEqual({
          state,
          source: SOURCE[state as keyof typeof SOURCE],
          report_dates: [...new Set(expected.map((p) => p.report_date))].sort(),
          publications: expected,
        });
        // report_dates: distinct and strictly ascending
        expect(
          body.report_dates.every((d, i) => i === 0 || body.report_dates[i - 1] < d),
          state,
        ).toBe(true);
        figures += body.publications.reduce((n, p) => n + p.figure_count, 0);
      }
      // Every row of every fixture publication is one figure of exactly one state.
      expect(figures).toBe(FIXTURE_PUBLICATION_FILES.reduce((n, f) => n + f.records.length, 0));
    });

    it('IL and TX: one per-state list each; IL 2023-12.csv holds 48 figures (24 levels, 24 insurer rows)', async () => {
      const il = await listing('state=IL');
      expect(il.publications.map((p) => [p.title, p.figure_count])).toEqual([
        ['Annual 2022', 4],
        ['December 2023', 48],
        ['February 2024', 6],
      ]);
      expect(il.publications[0].periods).toEqual({
        month: { from: '2022-12', to: '2022-12' },
        year: { from: '2022', to: '2022' },
      });
      expect(il.report_dates).toEqual(['2023-02-15', '2024-01-20', '2024-03-20']);
      // tx-2023-annual.csv: a year and a half-year, three rows.
      expect(await listing('state=TX')).toEqual({
        state: 'TX',
        source: SOURCE.TX,
        report_dates: ['2024-02-10'],
        publications: [
          {
            state: 'TX',
            ...PUB.TX_2023,
            data_as_of: '2023-12-31',
            secondary: false,
            periods: { half_year: { from: '2023-H1', to: '2023-H1' }, year: { from: '2023', to: '2023' } },
            figure_count: 3,
          },
        ],
      });
    });

    it('a known state without figures (NY): 200, no publication, no report date, the source kept', async () => {
      expect(await listing('state=NY')).toEqual({ state: 'NY', source: SOURCE.NY, report_dates: [], publications: [] });
    });

    it('lists every publication a priced answer or the sample cites, and its first report_date pins an empty series', async () => {
      const listed = (await listing('state=FL')).publications.map(
        ({ publisher, title, url, report_date, report_date_basis }) => ({
          publisher,
          title,
          url,
          report_date,
          report_date_basis,
        }),
      );
      for (const query of [
        'state=FL',
        'state=FL&granularity=quarter',
        'state=FL&county=Broward',
        'state=FL&line=category:Commercial%20Property',
      ]) {
        for (const cited of (await premium(query)).publications) expect(listed, query).toContainEqual(cited);
      }
      for (const cited of (await sample('state=FL')).publications) expect(listed).toContainEqual(cited);
      for (const cited of (await insurers('state=FL&period=2024-01')).publications)
        expect(listed).toContainEqual(cited);
      // The day before FL's first report date (2024-01-15) nothing was published; on it, 2023-q4.csv was.
      expect((await premium('state=FL&granularity=quarter&report_date=2024-01-14')).data).toEqual([]);
      expect((await premium('state=FL&granularity=quarter&report_date=2024-01-15')).publications).toEqual([
        PUB.FL_2023_Q4,
      ]);
    });

    it("without state: every state's publications, each with its state, newest first; report_dates their distinct dates, ascending", async () => {
      const feed = await listing('');
      const expected = FIXTURE_STATES.flatMap(expectedPublications).sort(newestFirst);
      expect(feed).toEqual({
        state: null,
        source: null,
        report_dates: [...new Set(expected.map((p) => p.report_date))].sort(),
        publications: expected,
      });
      // Read off the fixture by hand: FL's four newsletters, IL's three reports and TX's annual report, interleaved by date.
      expect(feed.publications.map((p) => [p.report_date, p.state, p.title])).toEqual([
        ['2024-04-01', 'FL', 'March 2024'],
        ['2024-03-20', 'IL', 'February 2024'],
        ['2024-03-01', 'FL', 'February 2024'],
        ['2024-02-10', 'TX', 'Annual 2023'],
        ['2024-02-01', 'FL', 'January 2024'],
        ['2024-01-20', 'IL', 'December 2023'],
        ['2024-01-15', 'FL', 'Fourth quarter 2023'],
        ['2023-02-15', 'IL', 'Annual 2022'],
      ]);
      // Each state's listing is the feed's entries of that state, the same objects, oldest first.
      for (const state of FIXTURE_STATES) {
        const own = (await listing(`state=${state}`)).publications;
        const oldestFirst = (a: Listed, b: Listed) =>
          a.report_date !== b.report_date
            ? a.report_date < b.report_date
              ? -1
              : 1
            : a.url < b.url
              ? -1
              : a.url > b.url
                ? 1
                : 0;
        expect(feed.publications.filter((p) => p.state === state).sort(oldestFirst), state).toEqual(own);
      }
    });

    it("since=D keeps what was published on or after D: every state's newest first, or with state that state's oldest first", async () => {
      const feed = await listing('');
      // 2024-02-10 is the date of TX's annual report: a publication of that very day is kept.
      const recent = await listing('since=2024-02-10');
      expect(recent.publications.map((p) => [p.report_date, p.state, p.title])).toEqual([
        ['2024-04-01', 'FL', 'March 2024'],
        ['2024-03-20', 'IL', 'February 2024'],
        ['2024-03-01', 'FL', 'February 2024'],
        ['2024-02-10', 'TX', 'Annual 2023'],
      ]);
      expect(recent).toEqual({
        state: null,
        source: null,
        report_dates: ['2024-02-10', '2024-03-01', '2024-03-20', '2024-04-01'],
        publications: feed.publications.filter((p) => p.report_date >= '2024-02-10'),
      });
      // With state: both filters, in the state's own order.
      expect(await listing('state=FL&since=2024-03-01')).toEqual({
        state: 'FL',
        source: SOURCE.FL,
        report_dates: ['2024-03-01', '2024-04-01'],
        publications: expectedPublications('FL').slice(2),
      });
      expect(await (await call('/v1/publications?since=2024-03-01&state=fl')).text()).toBe(
        await (await call('/v1/publications?state=FL&since=2024-03-01')).text(),
      );
      // Before every publication: the listing itself, byte for byte; after the last: nothing, the state and its source kept.
      expect(await (await call('/v1/publications?since=2000-01-01')).text()).toBe(
        await (await call('/v1/publications')).text(),
      );
      expect(await (await call('/v1/publications?state=IL&since=2000-01-01')).text()).toBe(
        await (await call('/v1/publications?state=IL')).text(),
      );
      expect(await listing('since=2024-04-02')).toEqual({
        state: null,
        source: null,
        report_dates: [],
        publications: [],
      });
      expect(await listing('state=TX&since=2024-02-11')).toEqual({
        state: 'TX',
        source: SOURCE.TX,
        report_dates: [],
        publications: [],
      });
      await notFound('/v1/publications?state=ZZ&since=2024-01-01', ['ZZ']);
    });

    it('takes the state code case-insensitively, answering the same bytes', async () => {
      const upper = await (await call('/v1/publications?state=FL')).text();
      expect(await (await call('/v1/publications?state=fl')).text()).toBe(upper);
      expect(await (await call('/v1/publications?state=Fl')).text()).toBe(upper);
    });

    it('404s an unknown state, naming it', async () => {
      await notFound('/v1/publications?state=ZZ', ['ZZ']);
      await notFound('/v1/publications?state=zz', ['ZZ']);
    });

    it('400s a malformed, empty, unknown or repeated parameter, naming it and what was expected, before looking the state up', async () => {
      await invalid('/v1/publications?state=', ["'state'", 'two-letter']);
      await invalid('/v1/publications?state=F1', ["'state'", 'F1', 'two-letter']);
      await invalid('/v1/publications?state=FLA', ["'state'", 'FLA']);
      await invalid('/v1/publications?state=..%2Fcoverage', ["'state'"]);
      await invalid('/v1/publications?state=FL&line=all', ["'line'", "'state'"]);
      await invalid('/v1/publications?state=FL&report_date=2024-01-01', ["'report_date'"]);
      await invalid('/v1/publications?state=FL&state=IL', ["'state'", 'more than once']);
      await invalid('/v1/publications?state=FL&state=FL', ["'state'", 'more than once']);
      // Validation comes first: an unknown parameter on an unknown state is 400, not 404.
      await invalid('/v1/publications?state=ZZ&year=2024', ["'year'"]);
      await invalid('/v1/publications?since=2024-6-1', ["'since'", "'2024-6-1'", 'a date YYYY-MM-DD']);
      await invalid('/v1/publications?since=2024-06', ["'since'", 'a date YYYY-MM-DD']);
      await invalid('/v1/publications?since=2024-02-30', [
        "'since'",
        "'2024-02-30'",
        'a real calendar date YYYY-MM-DD',
      ]);
      await invalid('/v1/publications?since=', ["'since'", 'a date YYYY-MM-DD']);
      await invalid('/v1/publications?since=2024-01-01&since=2024-02-01', ["'since'", 'more than once']);
      await invalid('/v1/publications?state=ZZ&since=yesterday', ["'since'", "'yesterday'", 'YYYY-MM-DD']);
    });

    it('answers HEAD with the headers and no body, and OPTIONS as a CORS preflight; free with or without state and since', async () => {
      for (const path of [
        '/v1/publications?state=FL',
        '/v1/publications',
        '/v1/publications?since=2024-03-01',
        '/v1/publications?state=FL&since=2024-03-01',
      ]) {
        const head = await expectHead(path);
        expect(head.headers.get('cache-control'), path).toBe(FREE_CACHE);
        expect(head.headers.get('content-type'), path).toMatch(/^application\/json/);
        await expectPreflight(path);
      }
    });

    it('refuses other methods with 405 and Allow', async () => {
      await expectRefused('/v1/publications?state=FL', 'DELETE');
      await expectRefused('/v1/publications?state=FL', 'POST');
    });
  });

  describe('GET /v1/premium', () => {
    it('answers the statewide all-lines monthly series by default, each field at its latest vintage, periods ascending', async () => {
      expect(await premium('state=FL')).toEqual({
        state: 'FL',
        line: 'all',
        county: null,
        granularity: 'month',
        data: [FL_JAN, FL_FEB, FL_MAR],
        printed_keys: ITEMS_KEY,
        // The latest publication among the figures: 2024-03.csv (report 2024-04-01, data as of 2024-03-31).
        report_date: '2024-04-01',
        data_as_of: '2024-03-31',
        source: SOURCE.FL,
        // January shows 2024-01.csv and the restated count of 2024-02.csv; February 2024-02.csv and 2024-03.csv
        publications: FL_MONTHS_PUBS,
      });
    });

    it('always gives all eight row fields (the seven of docs/design.md §16, and printed), nulls included', async () => {
      const res = await call('/v1/premium?state=FL');
      const raw = (await res.clone().json()) as { data: Record<string, unknown>[] };
      await okBody(res, premiumResponse, PRICED_CACHE);
      const eight = [
        'new_business_policy_pct',
        'new_business_premium',
        'period',
        'policy_count',
        'premium',
        'printed',
        'renewal_policy_pct',
        'renewal_premium',
      ];
      expect(raw.data).toHaveLength(3);
      for (const r of raw.data) expect(Object.keys(r).sort()).toEqual(eight);
      // March prints no shares, no new/renewal premium and nothing beside its exact figures: present, as null.
      expect(raw.data[2]).toMatchObject({
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        printed: null,
      });
    });

    it('takes the state code case-insensitively and echoes it uppercase', async () => {
      expect(await premium('state=fl')).toEqual(await premium('state=FL'));
    });

    it('IL: 15 published months, ascending, report_date from its latest report (il-2024-02.csv)', async () => {
      expect(await premium('state=IL')).toEqual({
        state: 'IL',
        line: 'all',
        county: null,
        granularity: 'month',
        data: IL_MONTHS,
        printed_keys: {},
        report_date: '2024-03-20',
        data_as_of: '2024-02-29',
        source: SOURCE.IL,
        // 2022-12 from il-2022-annual.csv, 2023 from il-2023-12.csv, 2024 from il-2024-02.csv
        publications: [PUB.IL_2022, PUB.IL_2023_12, PUB.IL_2024_02],
      });
    });

    it('a known state without figures: 200, data [], null report_date and data_as_of, no publication, the source kept', async () => {
      // NY has no publication at all; TX (tx-2023-annual.csv) publishes a year and a half-year, no month.
      for (const state of ['NY', 'TX'] as const) {
        expect(await premium(`state=${state}`)).toEqual({
          state,
          line: 'all',
          county: null,
          granularity: 'month',
          data: [],
          printed_keys: {},
          report_date: null,
          data_as_of: null,
          source: SOURCE[state],
          publications: [],
        });
      }
    });

    it('400s a missing state and 404s an unknown one, naming it', async () => {
      await invalid('/v1/premium', ["'state'", 'missing']);
      await invalid('/v1/premium?line=all', ["'state'", 'missing']);
      await invalid('/v1/premium?state=F1', ["'state'", 'F1', 'two-letter']);
      await notFound('/v1/premium?state=ZZ', ['ZZ']);
    });

    it('validates before looking anything up: an invalid parameter is 400 even for an unknown state', async () => {
      await invalid('/v1/premium?state=ZZ&granularity=week', ["'granularity'"]);
      await invalid('/v1/premium?state=ZZ&line=Marine&from=2024-13', ["'from'"]);
    });

    it('400s unknown and repeated parameters, naming them', async () => {
      await invalid('/v1/premium?state=FL&year=2024', ["'year'", "'state'"]);
      await invalid('/v1/premium?state=FL&line=all&line=2', ["'line'", 'more than once']);
      await invalid('/v1/premium?state=FL&state=TX', ["'state'", 'more than once']);
    });
  });

  describe('GET /v1/premium: line', () => {
    it('line=all is the default', async () => {
      expect(await premium('state=FL&line=all')).toEqual(await premium('state=FL'));
      expect(await premium('state=FL&line=ALL')).toEqual(await premium('state=FL'));
    });

    it('resolves a source_code, echoing it: line=10 (Builders Risk), printed for 2024-03 only', async () => {
      // 2024-03.csv: line 10 premium 100000.25, policies 51.
      expect(await premium('state=FL&line=10')).toEqual({
        state: 'FL',
        line: '10',
        county: null,
        granularity: 'month',
        data: [row('2024-03', { premium: 100000.25, policy_count: 51 })],
        printed_keys: {},
        report_date: '2024-04-01',
        data_as_of: '2024-03-31',
        source: SOURCE.FL,
        publications: [PUB.FL_2024_03],
      });
    });

    it("resolves a line name case-insensitively, echoing the line's source_code", async () => {
      const body = await premium('state=FL&line=builders%20RISK');
      expect(body.line).toBe('10');
      expect(body.data).toEqual([row('2024-03', { premium: 100000.25, policy_count: 51 })]);
      // A line without a category (lines/FL.csv: Contingency), by its code-less name: 2024-03.csv 9999.99.
      const contingency = await premium('state=FL&line=contingency');
      expect(contingency.line).toBe('Contingency');
      expect(contingency.data).toEqual([row('2024-03', { premium: 9999.99 })]);
    });

    it('a name that is also a category resolves to the line: line=Commercial Property is line 2', async () => {
      // lines/FL.csv: line 2 is named "Commercial Property"; 2024-03.csv: 500000.50 and 401 policies.
      const body = await premium('state=FL&line=Commercial%20Property');
      expect(body.line).toBe('2');
      expect(body.data).toEqual([row('2024-03', { premium: 500000.5, policy_count: 401 })]);
      expect(await premium('state=FL&line=2')).toEqual(body);
    });

    it('category:<name> asks for the category: Commercial Property = line 2 + line 10', async () => {
      // 2024-03.csv: 500000.50 + 100000.25 = 600000.75; policies 401 + 51 = 452.
      expect(await premium('state=FL&line=category:Commercial%20Property')).toEqual({
        state: 'FL',
        line: 'Commercial Property',
        county: null,
        granularity: 'month',
        data: [row('2024-03', { premium: 600000.75, policy_count: 452 })],
        printed_keys: {},
        report_date: '2024-04-01',
        data_as_of: '2024-03-31',
        source: SOURCE.FL,
        // both lines' figures are in 2024-03.csv
        publications: [PUB.FL_2024_03],
      });
      expect((await premium('state=FL&line=CATEGORY:commercial%20property')).line).toBe('Commercial Property');
    });

    it('a category that names no line resolves to the category: General Liability is line 5000 alone, count null', async () => {
      // lines/FL.csv: only 5000 is in General Liability; 2024-03.csv prints its premium 200000.75, no count.
      const expected = [row('2024-03', { premium: 200000.75 })];
      const category = await premium('state=FL&line=general%20liability');
      expect(category.line).toBe('General Liability');
      expect(category.data).toEqual(expected);
      expect((await premium('state=FL&line=category:General%20Liability')).data).toEqual(expected);
      const line = await premium('state=FL&line=5000');
      expect(line.line).toBe('5000');
      expect(line.data).toEqual(expected);
    });

    it('404s an unknown line, naming it', async () => {
      await notFound('/v1/premium?state=FL&line=Marine', ['Marine']);
      // Builders Risk is a line, not a category.
      await notFound('/v1/premium?state=FL&line=category:Builders%20Risk', ['Builders Risk']);
      // IL publishes no line taxonomy.
      await notFound('/v1/premium?state=IL&line=2', ["'2'", 'IL']);
    });

    it('400s an empty line', async () => {
      await invalid('/v1/premium?state=FL&line=', ["'line'"]);
    });
  });

  describe('GET /v1/premium: county', () => {
    it('takes the county case-insensitively, echoes it uppercased, and defaults granularity to year', async () => {
      // 2023-q4.csv (report 2024-01-15, data as of 2023-12-31): FL 2023 MIAMI-DADE premium 765432.10.
      expect(await premium('state=FL&county=miami-dade')).toEqual({
        state: 'FL',
        line: 'all',
        county: 'MIAMI-DADE',
        granularity: 'year',
        data: [row('2023', { premium: 765432.1 })],
        printed_keys: {},
        report_date: '2024-01-15',
        data_as_of: '2023-12-31',
        source: SOURCE.FL,
        publications: [PUB.FL_2023_Q4],
      });
    });

    it('matches a county the source printed in mixed case: Broward', async () => {
      // 2023-q4.csv: FL 2023 Broward premium 123456.78, policies 1234.
      const body = await premium('state=FL&county=BROWARD&granularity=year');
      expect(body.county).toBe('BROWARD');
      expect(body.granularity).toBe('year');
      expect(body.data).toEqual([row('2023', { premium: 123456.78, policy_count: 1234 })]);
      expect(await premium('state=FL&county=Broward')).toEqual(body);
    });

    it('400s county with granularity month or quarter', async () => {
      await invalid('/v1/premium?state=FL&county=Broward&granularity=month', ["'granularity'", "'county'"]);
      await invalid('/v1/premium?state=FL&county=Broward&granularity=quarter', ["'granularity'", "'county'"]);
      await invalid('/v1/premium?state=FL&county=', ["'county'"]);
    });

    it('404s an unknown county, and a county on a state without county data', async () => {
      await notFound('/v1/premium?state=FL&county=Orange', ['county', 'ORANGE']);
      await notFound('/v1/premium?state=TX&county=Harris', ['county', 'TX']);
    });
  });

  describe('GET /v1/premium: from, to and granularity', () => {
    it('from and to are inclusive month bounds', async () => {
      expect((await premium('state=FL&from=2024-02')).data).toEqual([FL_FEB, FL_MAR]);
      expect((await premium('state=FL&to=2024-02')).data).toEqual([FL_JAN, FL_FEB]);
      expect((await premium('state=FL&from=2024-02&to=2024-02')).data).toEqual([FL_FEB]);
    });

    it('report_date is the latest publication among the fields returned: January alone is as of its restatement', async () => {
      // January's policies were restated by 2024-02.csv (report 2024-03-01, data as of 2024-02-29).
      const body = await premium('state=FL&from=2024-01&to=2024-01');
      expect(body.data).toEqual([FL_JAN]);
      expect(body).toMatchObject({ report_date: '2024-03-01', data_as_of: '2024-02-29' });
      // January's premium, shares and items are 2024-01.csv's, its count 2024-02.csv's
      expect(body.publications).toEqual([PUB.FL_2024_01, PUB.FL_2024_02]);
    });

    it('an empty range is 200 with data [] and null report_date and data_as_of, the source kept', async () => {
      for (const range of ['from=2025-01', 'to=2023-12', 'from=2022-01&to=2022-12']) {
        expect(await premium(`state=FL&${range}`)).toEqual({
          state: 'FL',
          line: 'all',
          county: null,
          granularity: 'month',
          data: [],
          printed_keys: {},
          report_date: null,
          data_as_of: null,
          source: SOURCE.FL,
          publications: [],
        });
      }
    });

    it('400s from or to outside YYYY-MM with a month 01-12', async () => {
      for (const bad of ['2024-13', '2024-00', '2024-1', '202401', '2024-01-01', '24-01']) {
        await invalid(`/v1/premium?state=FL&from=${bad}`, ["'from'", bad, 'YYYY-MM']);
        await invalid(`/v1/premium?state=FL&to=${bad}`, ["'to'", bad, 'YYYY-MM']);
      }
    });

    it('400s from after to', async () => {
      await invalid('/v1/premium?state=FL&from=2024-03&to=2024-01', ["'from'", "'to'", '2024-03', '2024-01']);
    });

    it('400s a granularity other than month, quarter, half_year or year', async () => {
      for (const bad of ['week', 'half', 'halfyear', 'Month', ''])
        await invalid(`/v1/premium?state=FL&granularity=${bad}`, ["'granularity'", 'month, quarter, half_year, year']);
    });
  });

  describe('GET /v1/premium: quarter and year roll-ups', () => {
    it('FL quarters: 2023-Q4 as the source printed it, 2024-Q1 the sum of its three months', async () => {
      // 2023-q4.csv: 2023-Q4 premium 3456789.00, policies 3001. 2024-Q1: 1111111.11 + 1222222.22 +
      // 1333333.33 = 3666666.66; policies 1011 + 1101 + 1203 = 3315; shares null (March prints none).
      expect(await premium('state=FL&granularity=quarter')).toEqual({
        state: 'FL',
        line: 'all',
        county: null,
        granularity: 'quarter',
        data: [
          row('2023-Q4', { premium: 3456789, policy_count: 3001 }),
          row('2024-Q1', { premium: 3666666.66, policy_count: 3315 }),
        ],
        printed_keys: {},
        report_date: '2024-04-01',
        data_as_of: '2024-03-31',
        source: SOURCE.FL,
        // the printed quarter's report, and every publication of the summed months
        publications: [PUB.FL_2023_Q4, ...FL_MONTHS_PUBS],
      });
    });

    it('a quarter is summed only when all three months exist: as of 2024-03-01 there is no 2024-Q1', async () => {
      const body = await premium('state=FL&granularity=quarter&report_date=2024-03-01');
      expect(body.data).toEqual([row('2023-Q4', { premium: 3456789, policy_count: 3001 })]);
      // Only the 2023-q4.csv figures remain: report 2024-01-15, data as of 2023-12-31.
      expect(body).toMatchObject({
        report_date: '2024-01-15',
        data_as_of: '2023-12-31',
        publications: [PUB.FL_2023_Q4],
      });
    });

    it('IL quarters: 2023-Q1..Q4 summed from months; 2022-Q4 and 2024-Q1 are incomplete', async () => {
      // il-2023-12.csv, three months each.
      expect((await premium('state=IL&granularity=quarter')).data).toEqual([
        row('2023-Q1', { premium: 3006000.75, policy_count: 3075 }), // 1001000.25+1002000.25+1003000.25; 1013+1025+1037
        row('2023-Q2', { premium: 3015000.75, policy_count: 3183 }), // 1004000.25+1005000.25+1006000.25; 1049+1061+1073
        row('2023-Q3', { premium: 3024000.75, policy_count: 3291 }), // 1007000.25+1008000.25+1009000.25; 1085+1097+1109
        row('2023-Q4', { premium: 3033000.75, policy_count: 3399 }), // 1010000.25+1011000.25+1012000.25; 1121+1133+1145
      ]);
    });

    it('IL years: 2022 as printed, 2023 summed from its 12 months; 2024 (two months) has no row', async () => {
      expect(await premium('state=IL&granularity=year')).toEqual({
        state: 'IL',
        line: 'all',
        county: null,
        granularity: 'year',
        data: [row('2022', IL_2022), row('2023', IL_2023)],
        printed_keys: {},
        // il-2023-12.csv: report 2024-01-20, data as of 2023-12-31.
        report_date: '2024-01-20',
        data_as_of: '2023-12-31',
        source: SOURCE.IL,
        publications: [PUB.IL_2022, PUB.IL_2023_12],
      });
    });

    it('half_year: TX 2023-H1 as printed, IL 2023-H1 and H2 summed from six months each, none for FL', async () => {
      // tx-2023-annual.csv: 2023-H1 premium 4567890123, no count. Its year (another basis in bases.csv)
      // is not a sum of half-years, nor they a split of it.
      expect(await premium('state=TX&granularity=half_year')).toEqual({
        state: 'TX',
        line: 'all',
        county: null,
        granularity: 'half_year',
        data: [row('2023-H1', { premium: 4567890123 })],
        printed_keys: {},
        report_date: '2024-02-10',
        data_as_of: '2023-12-31',
        source: SOURCE.TX,
        publications: [PUB.TX_2023],
      });
      // il-2023-12.csv: H1 = Q1 + Q2 = 3006000.75 + 3015000.75 = 6021001.50, 3075 + 3183 = 6258;
      // H2 = 3024000.75 + 3033000.75 = 6057001.50, 3291 + 3399 = 6690. 2022-H2 and 2024-H1 are incomplete.
      const il = await premium('state=IL&granularity=half_year');
      expect(il.data).toEqual([
        row('2023-H1', { premium: 6021001.5, policy_count: 6258 }),
        row('2023-H2', { premium: 6057001.5, policy_count: 6690 }),
      ]);
      expect(il).toMatchObject({
        granularity: 'half_year',
        report_date: '2024-01-20',
        data_as_of: '2023-12-31',
        publications: [PUB.IL_2023_12],
      });
      // FL: January-March 2024 only
      expect((await premium('state=FL&granularity=half_year')).data).toEqual([]);
      // from/to select a half-year by its first month
      expect(periods((await premium('state=IL&granularity=half_year&from=2023-02')).data)).toEqual(['2023-H2']);
      expect(periods((await premium('state=IL&granularity=half_year&to=2023-07')).data)).toEqual([
        '2023-H1',
        '2023-H2',
      ]);
    });

    it('TX: the year 2023 as printed (its count in items); no month or quarter', async () => {
      // tx-2023-annual.csv (report 2024-02-10): premium 9876543210, items 654321.
      const body = await premium('state=TX&granularity=year');
      expect(body.data).toEqual([row('2023', { premium: 9876543210, policy_count: 654321 })]);
      expect(body).toMatchObject({ report_date: '2024-02-10', data_as_of: '2023-12-31', source: SOURCE.TX });
      expect((await premium('state=TX&granularity=quarter')).data).toEqual([]);
    });

    it('from/to select quarter and year rows by their first month: from=2023-06 excludes 2023, to=2023-06 includes it', async () => {
      expect(periods((await premium('state=IL&granularity=year&from=2023-06')).data)).toEqual([]);
      expect(periods((await premium('state=IL&granularity=year&from=2022-06')).data)).toEqual(['2023']);
      expect(periods((await premium('state=IL&granularity=year&to=2023-06')).data)).toEqual(['2022', '2023']);
      expect(periods((await premium('state=IL&granularity=year&to=2022-12')).data)).toEqual(['2022']);
      expect(periods((await premium('state=FL&granularity=quarter&from=2023-11')).data)).toEqual(['2024-Q1']);
      expect(periods((await premium('state=FL&granularity=quarter&to=2023-10')).data)).toEqual(['2023-Q4']);
    });
  });

  describe('GET /v1/premium: as of a report_date', () => {
    it('before every publication: 200 with data [], null report_date and data_as_of, the source kept', async () => {
      // The first FL monthly figures are in 2024-01.csv (report 2024-02-01); the first FL figure at
      // all is 2023-q4.csv (report 2024-01-15).
      const empty = {
        state: 'FL',
        line: 'all',
        county: null,
        data: [],
        printed_keys: {},
        report_date: null,
        data_as_of: null,
        source: SOURCE.FL,
        publications: [],
      };
      expect(await premium('state=FL&report_date=2024-01-31')).toEqual({ ...empty, granularity: 'month' });
      expect(await premium('state=FL&granularity=quarter&report_date=2024-01-14')).toEqual({
        ...empty,
        granularity: 'quarter',
      });
    });

    it('between publications: each period as its latest report on or before the date printed it', async () => {
      // As of 2024-02-15 only 2024-01.csv is out: January with its first count, 1001.
      expect(await premium('state=FL&report_date=2024-02-15')).toEqual({
        state: 'FL',
        line: 'all',
        county: null,
        granularity: 'month',
        data: [
          row(
            '2024-01',
            { premium: 1111111.11, policy_count: 1001, new_business_policy_pct: 40, renewal_policy_pct: 60 },
            JAN_ITEMS,
          ),
        ],
        printed_keys: ITEMS_KEY,
        report_date: '2024-02-01',
        data_as_of: '2024-01-31',
        source: SOURCE.FL,
        publications: [PUB.FL_2024_01],
      });
    });

    it('exactly at a publication date, that publication counts', async () => {
      expect(await premium('state=FL&report_date=2024-02-01')).toEqual(
        await premium('state=FL&report_date=2024-02-15'),
      );
      expect((await premium('state=FL&granularity=quarter&report_date=2024-01-15')).data).toEqual([
        row('2023-Q4', { premium: 3456789, policy_count: 3001 }),
      ]);
    });

    it('the FL January policy count is 1001, then 1011 from the 2024-03-01 restatement', async () => {
      expect((await premium('state=FL&to=2024-01&report_date=2024-02-29')).data[0].policy_count).toBe(1001);
      expect((await premium('state=FL&to=2024-01&report_date=2024-03-01')).data[0].policy_count).toBe(1011);
      // Fields the restating report did not print keep their earlier value.
      expect((await premium('state=FL&to=2024-01&report_date=2024-03-01')).data).toEqual([FL_JAN]);
    });

    it('the FL February premium is null until the 2024-04-01 report back-fills it', async () => {
      // 2024-02.csv (2024-03-01) printed only a rounded "$1.2M"; 2024-03.csv (2024-04-01) prints 1222222.22.
      const asOfMarch = await premium('state=FL&report_date=2024-03-01');
      expect(asOfMarch).toMatchObject({
        report_date: '2024-03-01',
        data_as_of: '2024-02-29',
        publications: [PUB.FL_2024_01, PUB.FL_2024_02],
      });
      // what it printed is served as printed, beside the null premium
      expect(asOfMarch.data).toEqual([
        FL_JAN,
        row(
          '2024-02',
          { premium: null, policy_count: 1101, new_business_policy_pct: 50, renewal_policy_pct: 50 },
          FEB_ROUNDED,
        ),
      ]);
      expect((await premium('state=FL&from=2024-02&to=2024-02&report_date=2024-03-31')).data[0].premium).toBeNull();
      expect((await premium('state=FL&from=2024-02&to=2024-02&report_date=2024-04-01')).data).toEqual([FL_FEB]);
      expect(await premium('state=FL&report_date=2024-04-01')).toEqual(await premium('state=FL'));
    });

    it('line rows first published later are absent as of an earlier date', async () => {
      // Line 2 appears first in 2024-03.csv (report 2024-04-01).
      expect((await premium('state=FL&line=2&report_date=2024-03-31')).data).toEqual([]);
      expect((await premium('state=FL&line=2&report_date=2024-04-01')).data).toHaveLength(1);
    });

    it('400s a report_date outside the YYYY-MM-DD pattern, naming it', async () => {
      for (const bad of ['2024-3-1', '20240301', '2024-03', '2024-03-01T00:00'])
        await invalid(`/v1/premium?state=FL&report_date=${bad}`, ["'report_date'", bad, 'YYYY-MM-DD']);
    });

    it('400s an impossible calendar date (2024-02-30) as report_date, naming the parameter', async () => {
      for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-04-31'])
        await invalid(`/v1/premium?state=FL&report_date=${bad}`, ["'report_date'", bad, 'YYYY-MM-DD']);
    });

    it('takes a leap day as a date: as of 2024-02-29 only 2024-01.csv is out', async () => {
      expect((await premium('state=FL&report_date=2024-02-29')).report_date).toBe('2024-02-01');
    });
  });

  describe('GET /v1/premium/summary', () => {
    it('monthly_sum: IL 2023 sums its 12 months; the prior year 2022 is on its own basis (annual_report)', async () => {
      expect(await summary('state=IL&year=2023')).toEqual({
        state: 'IL',
        year: 2023,
        ...IL_2023,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        months_available: 12,
        basis: 'monthly_sum',
        // 2022 has one published month (2022-12), so its printed year row is used.
        prior_year: { year: 2022, ...IL_2022, months_available: 1 },
        // a full year on each side: the change is published
        yoy_premium_pct: yoyPct(IL_2023.premium, IL_2022.premium),
        yoy_policy_count_pct: yoyPct(IL_2023.policy_count, IL_2022.policy_count),
        yoy_basis: 'full_years',
        // Latest among the figures used: il-2023-12.csv.
        report_date: '2024-01-20',
        data_as_of: '2023-12-31',
        source: SOURCE.IL,
        publications: [PUB.IL_2022, PUB.IL_2023_12],
      });
    });

    it('annual_report: TX 2023 from its printed year row, with no month', async () => {
      // tx-2023-annual.csv (2024-02-10); TX has nothing for 2022.
      expect(await summary('state=TX&year=2023')).toEqual({
        state: 'TX',
        year: 2023,
        premium: 9876543210,
        policy_count: 654321,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        months_available: 0,
        basis: 'annual_report',
        prior_year: { year: 2022, premium: null, policy_count: null, months_available: 0 },
        yoy_premium_pct: null,
        yoy_policy_count_pct: null,
        yoy_basis: null, // no prior year to compare with
        report_date: '2024-02-10',
        data_as_of: '2023-12-31',
        source: SOURCE.TX,
        publications: [PUB.TX_2023],
      });
    });

    it('annual_report is preferred over an incomplete monthly sum: IL 2022 (one month published)', async () => {
      expect(await summary('state=IL&year=2022')).toEqual({
        state: 'IL',
        year: 2022,
        ...IL_2022,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        months_available: 1,
        basis: 'annual_report',
        prior_year: { year: 2021, premium: null, policy_count: null, months_available: 0 },
        yoy_premium_pct: null,
        yoy_policy_count_pct: null,
        yoy_basis: null,
        // il-2022-annual.csv.
        report_date: '2023-02-15',
        data_as_of: '2022-12-31',
        source: SOURCE.IL,
        publications: [PUB.IL_2022],
      });
    });

    it('partial_monthly_sum: IL 2024 sums Jan+Feb and compares with Jan+Feb 2023 only', async () => {
      // il-2024-02.csv: 1100000.11 + 1200000.22 = 2300000.33; 1101 + 1202 = 2303.
      // il-2023-12.csv: 1001000.25 + 1002000.25 = 2003000.50; 1013 + 1025 = 2038.
      expect(await summary('state=IL&year=2024')).toEqual({
        state: 'IL',
        year: 2024,
        premium: 2300000.33,
        policy_count: 2303,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        months_available: 2,
        basis: 'partial_monthly_sum',
        prior_year: { year: 2023, premium: 2003000.5, policy_count: 2038, months_available: 2 },
        // the same two calendar months on each side: the change is published
        yoy_premium_pct: yoyPct(2300000.33, 2003000.5),
        yoy_policy_count_pct: yoyPct(2303, 2038),
        yoy_basis: 'same_months',
        report_date: '2024-03-20',
        data_as_of: '2024-02-29',
        source: SOURCE.IL,
        publications: [PUB.IL_2023_12, PUB.IL_2024_02],
      });
    });

    it('partial_monthly_sum: FL 2024 sums three months with the back-filled February; 2023 has no months, so the prior and yoy are null', async () => {
      // 1111111.11 + 1222222.22 + 1333333.33 = 3666666.66; 1011 + 1101 + 1203 = 3315. Shares null:
      // March prints none. FL 2023 has a printed quarter and county rows, but no month.
      expect(await summary('state=FL&year=2024')).toEqual({
        state: 'FL',
        year: 2024,
        premium: 3666666.66,
        policy_count: 3315,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        months_available: 3,
        basis: 'partial_monthly_sum',
        prior_year: { year: 2023, premium: null, policy_count: null, months_available: 0 },
        yoy_premium_pct: null,
        yoy_policy_count_pct: null,
        yoy_basis: null,
        report_date: '2024-04-01',
        data_as_of: '2024-03-31',
        source: SOURCE.FL,
        publications: FL_MONTHS_PUBS,
      });
    });

    it('null basis: a known state and year without data is 200 with every figure null', async () => {
      const nothing = {
        premium: null,
        policy_count: null,
        new_business_premium: null,
        renewal_premium: null,
        new_business_policy_pct: null,
        renewal_policy_pct: null,
        months_available: 0,
        basis: null,
        yoy_premium_pct: null,
        yoy_policy_count_pct: null,
        yoy_basis: null,
        report_date: null,
        data_as_of: null,
        publications: [],
      };
      expect(await summary('state=NY&year=2024')).toEqual({
        state: 'NY',
        year: 2024,
        ...nothing,
        prior_year: { year: 2023, premium: null, policy_count: null, months_available: 0 },
        source: SOURCE.NY,
      });
      // FL 2023: a printed quarter and county years only, no statewide month or year row.
      expect(await summary('state=fl&year=2023')).toEqual({
        state: 'FL',
        year: 2023,
        ...nothing,
        prior_year: { year: 2022, premium: null, policy_count: null, months_available: 0 },
        source: SOURCE.FL,
      });
    });

    it('400s a year that is not YYYY, or missing; 404s an unknown state', async () => {
      for (const bad of ['24', '2024a', '02024', '2024-01', ''])
        await invalid(`/v1/premium/summary?state=FL&year=${bad}`, ["'year'", 'YYYY']);
      await invalid('/v1/premium/summary?state=FL', ["'year'", 'missing']);
      await invalid('/v1/premium/summary?year=2024', ["'state'", 'missing']);
      await invalid('/v1/premium/summary?state=FL&year=2024&line=all', ["'line'"]);
      await invalid('/v1/premium/summary?state=FL&year=2024&year=2023', ["'year'", 'more than once']);
      await notFound('/v1/premium/summary?state=ZZ&year=2024', ['ZZ']);
      // Validation comes first: a bad year on an unknown state is 400.
      await invalid('/v1/premium/summary?state=ZZ&year=24', ["'year'"]);
    });
  });

  describe('GET /v1/compare', () => {
    /** The /v1/premium query for one state with the same line, range, granularity and date. */
    const premiumQueryFor = (compareQuery: string, state: string) => {
      const params = new URLSearchParams(compareQuery);
      params.delete('states');
      params.set('state', state);
      return params.toString();
    };

    it('each series deep-equals the /v1/premium data of that state with the same parameters', async () => {
      for (const query of [
        'states=FL,IL',
        'states=FL,IL&granularity=quarter',
        'states=TX,IL,FL&granularity=half_year',
        'states=FL,IL,TX&granularity=year&from=2022-06',
        'states=FL,IL&report_date=2024-03-01',
        'states=IL,FL&from=2024-02&to=2024-03',
        'states=FL&line=category:Commercial%20Property',
        'states=FL&line=Commercial%20Property&report_date=2024-04-01',
      ]) {
        const body = await compare(query);
        expect(Object.keys(body.series).length).toBeGreaterThan(0);
        for (const [state, series] of Object.entries(body.series)) {
          expect(series, `${query}: ${state}`).toEqual((await premium(premiumQueryFor(query, state))).data);
        }
      }
    });

    it('FL,IL: both monthly series, line all and granularity month by default, sources keyed by state', async () => {
      expect(await compare('states=FL,IL')).toEqual({
        line: 'all',
        granularity: 'month',
        series: { FL: [FL_JAN, FL_FEB, FL_MAR], IL: IL_MONTHS },
        printed_keys: ITEMS_KEY,
        // Latest across states: FL's 2024-03.csv (2024-04-01). Earliest data_as_of across states: IL's
        // latest report il-2024-02.csv is current to 2024-02-29 (FL's to 2024-03-31).
        report_date: '2024-04-01',
        data_as_of: '2024-02-29',
        source: { FL: SOURCE.FL, IL: SOURCE.IL },
        // both states' publications in one list, by report_date
        publications: [PUB.IL_2022, PUB.IL_2023_12, PUB.FL_2024_01, PUB.FL_2024_02, PUB.IL_2024_02, PUB.FL_2024_03],
      });
    });

    it('as of a date: report_date the latest across states, data_as_of the earliest', async () => {
      // As of 2024-03-01: FL's latest is 2024-02.csv (2024-03-01, to 2024-02-29); IL's is
      // il-2023-12.csv (2024-01-20, to 2023-12-31).
      const body = await compare('states=FL,IL&report_date=2024-03-01');
      expect(body).toMatchObject({ report_date: '2024-03-01', data_as_of: '2023-12-31' });
      expect(periods(body.series.IL)).toEqual(periods(IL_MONTHS.slice(0, 13)));
    });

    it('keeps the order given, takes codes case-insensitively and folds duplicates', async () => {
      const body = await compare('states=il,FL,fl,IL');
      expect(Object.keys(body.series)).toEqual(['IL', 'FL']);
      expect(Object.keys(body.source)).toEqual(['IL', 'FL']);
      expect(Object.keys((await compare('states=TX,FL')).series)).toEqual(['TX', 'FL']);
    });

    it('a state without figures gets an empty series and its source; none with figures: null report_date and data_as_of', async () => {
      expect(await compare('states=TX,NY')).toEqual({
        line: 'all',
        granularity: 'month',
        series: { TX: [], NY: [] },
        printed_keys: {},
        report_date: null,
        data_as_of: null,
        source: { TX: SOURCE.TX, NY: SOURCE.NY },
        publications: [],
      });
      const body = await compare('states=FL,NY');
      expect(body.series.NY).toEqual([]);
      expect(body).toMatchObject({ report_date: '2024-04-01', data_as_of: '2024-03-31', publications: FL_MONTHS_PUBS });
    });

    it('echoes the line as /v1/premium does', async () => {
      expect((await compare('states=FL&line=Commercial%20Property')).line).toBe('2');
      expect((await compare('states=FL&line=category:Commercial%20Property')).line).toBe('Commercial Property');
    });

    it('takes 1 to 15 distinct states: 16 → 400, 16 codes that fold to 4 are fine', async () => {
      const sixteen = 'AL,AK,AZ,AR,CA,CO,CT,DE,FL,GA,HI,ID,IL,IN,IA,KS';
      await invalid(`/v1/compare?states=${sixteen}`, ["'states'", '16', '15']);
      const folded = await compare('states=FL,IL,NY,TX,fl,il,ny,tx,FL,IL,NY,TX,fl,il,ny,tx');
      expect(Object.keys(folded.series)).toEqual(['FL', 'IL', 'NY', 'TX']);
      // 15 distinct codes pass validation; the first unknown one is then 404.
      await notFound('/v1/compare?states=FL,IL,NY,TX,AL,AK,AZ,AR,CA,CO,CT,DE,GA,HI,ID', ['AL']);
    });

    it('400s a malformed code, an empty or missing list', async () => {
      await invalid('/v1/compare?states=FL,F1', ["'states'", 'F1', 'two-letter']);
      await invalid('/v1/compare?states=FL,FLA', ["'states'", 'FLA']);
      await invalid('/v1/compare?states=', ["'states'"]);
      await invalid('/v1/compare', ["'states'", 'missing']);
    });

    it('404s an unknown state, naming it', async () => {
      await notFound('/v1/compare?states=FL,ZZ', ['ZZ']);
    });

    it('404s a line that does not resolve in every state, naming the state where it is missing', async () => {
      // Line 2 and the Commercial Property category exist in lines/FL.csv only.
      await notFound('/v1/compare?states=FL,IL&line=2', ['IL', "'2'"]);
      await notFound('/v1/compare?states=FL,TX&line=category:Commercial%20Property', ['TX', 'Commercial Property']);
    });

    it('validates the other parameters as /v1/premium does; unknown and repeated parameters → 400', async () => {
      await invalid('/v1/compare?states=FL&from=2024-13', ["'from'", 'YYYY-MM']);
      await invalid('/v1/compare?states=FL&from=2024-03&to=2024-01', ["'from'", "'to'"]);
      await invalid('/v1/compare?states=FL&granularity=week', ["'granularity'", 'month, quarter, half_year, year']);
      await invalid('/v1/compare?states=FL&report_date=2024-3-1', ["'report_date'", 'YYYY-MM-DD']);
      await invalid('/v1/compare?states=FL&line=', ["'line'"]);
      await invalid('/v1/compare?states=FL&county=Broward', ["'county'"]);
      await invalid('/v1/compare?state=FL', ["'state'"]);
      await invalid('/v1/compare?states=FL&states=IL', ["'states'", 'more than once']);
    });
  });

  describe('GET /v1/insurers', () => {
    it('FL 2024-01: ranked by premium, the tie at 250000 broken by name', async () => {
      // 2024-01.csv (2024-02-01): Gamma 400000.00 with 321 policies; Beta and Alpha 250000.00, no count.
      expect(await insurers('state=FL&period=2024-01')).toEqual({
        state: 'FL',
        period: '2024-01',
        ranking: { entity: 'company', basis: LIST_BASIS, ranks_listed: 3 },
        insurers: [
          { rank: 1, name: 'Gamma Insurance Co', premium: 400000, policy_count: 321, market_share_pct: null },
          { rank: 2, name: 'Alpha Insurance Co', premium: 250000, policy_count: null, market_share_pct: null },
          { rank: 3, name: 'Beta Insurance Co', premium: 250000, policy_count: null, market_share_pct: null },
        ],
        unranked: [],
        report_date: '2024-02-01',
        data_as_of: '2024-01-31',
        source: SOURCE.FL,
        publications: [PUB.FL_2024_01],
      });
    });

    it('TX 2021: a ranking as printed (rankings/office/tx-2021-top-companies.csv), partial, its rounded and unranked lines marked', async () => {
      expect(await insurers('state=tx&period=2021')).toEqual({
        state: 'TX',
        period: '2021',
        ranking: {
          entity: 'company',
          basis: 'fixture premium per company, ranked by the fixture office',
          ranks_listed: 2,
          ranks_in_publication: 10,
        },
        insurers: [
          // 543,210 in $000, multiplied out
          { rank: 1, name: 'Kappa Insurance Co', premium: 543210000, policy_count: null, market_share_pct: 5.4 },
          {
            rank: 2,
            name: 'Lambda Insurance Co',
            premium: 432000000,
            policy_count: null,
            market_share_pct: null,
            as_printed: 'about $432 million',
            qualifier: 'about',
            note: "printed as Lambda's",
          },
        ],
        unranked: [
          {
            name: "Fixture Lloyd's Line",
            premium: 900000000,
            market_share_pct: 9,
            as_printed: '$0.9bn',
            qualifier: 'rounded',
            note: 'printed above rank 1 without a rank',
          },
        ],
        report_date: '2022-01-15',
        data_as_of: '2021-12-31',
        source: 'Fixture office ranking of its companies',
        publications: [
          {
            publisher: 'SLTX',
            title: 'Fixture top companies 2021',
            url: 'https://example.org/fixture-top-companies-2021',
            report_date: '2022-01-15',
            report_date_basis: 'printed',
          },
        ],
      });
    });

    it('format=csv: one line per insurer, ranked then unranked, with its ranking and publication', async () => {
      const res = await call('/v1/insurers?state=TX&period=2021&format=csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const url = 'https://example.org/fixture-top-companies-2021';
      // quoted: it holds a comma (RFC 4180)
      const basis = '"fixture premium per company, ranked by the fixture office"';
      expect((await res.text()).split('\r\n')).toEqual([
        'state,period,rank,name,premium,market_share_pct,as_printed,qualifier,note,entity,basis,report_date,publication_url',
        `TX,2021,1,Kappa Insurance Co,543210000,5.4,,,,company,${basis},2022-01-15,${url}`,
        `TX,2021,2,Lambda Insurance Co,432000000,,about $432 million,about,printed as Lambda's,company,${basis},2022-01-15,${url}`,
        `TX,2021,,Fixture Lloyd's Line,900000000,9,$0.9bn,rounded,printed above rank 1 without a rank,company,${basis},2022-01-15,${url}`,
        '',
      ]);
    });

    it('IL 2023: a year ranking summed from the 12 monthly lists', async () => {
      // il-2023-12.csv: every month Epsilon 60000.00 and Delta 50000.05 → 720000 and 600000.60.
      expect(await insurers('state=il&period=2023')).toEqual({
        state: 'IL',
        period: '2023',
        ranking: { entity: 'company', basis: LIST_BASIS, ranks_listed: 2 },
        insurers: [
          { rank: 1, name: 'Epsilon E&S Co', premium: 720000, policy_count: null, market_share_pct: null },
          {
            rank: 2,
            name: 'Delta Specialty Insurance Co',
            premium: 600000.6,
            policy_count: null,
            market_share_pct: null,
          },
        ],
        unranked: [],
        report_date: '2024-01-20',
        data_as_of: '2023-12-31',
        source: SOURCE.IL,
        publications: [PUB.IL_2023_12],
      });
    });

    it('IL months: one published list each', async () => {
      expect((await insurers('state=IL&period=2023-01')).insurers).toEqual([
        { rank: 1, name: 'Epsilon E&S Co', premium: 60000, policy_count: null, market_share_pct: null },
        {
          rank: 2,
          name: 'Delta Specialty Insurance Co',
          premium: 50000.05,
          policy_count: null,
          market_share_pct: null,
        },
      ]);
      // il-2024-02.csv: only January 2024 has a list, Delta 70000.07 with 77 policies.
      expect(await insurers('state=IL&period=2024-01')).toMatchObject({
        insurers: [
          {
            rank: 1,
            name: 'Delta Specialty Insurance Co',
            premium: 70000.07,
            policy_count: 77,
            market_share_pct: null,
          },
        ],
        report_date: '2024-03-20',
        data_as_of: '2024-02-29',
        publications: [PUB.IL_2024_02],
      });
    });

    it('404s a period without a ranking, listing the periods that have one', async () => {
      // IL 2024: lists for January only (not 12 months). IL's rankings: 2023-01..12, 2023, 2024-01.
      const il = await notFound('/v1/insurers?state=IL&period=2024', ['IL', '2024', '2023-01', '2023-12', '2024-01']);
      expect(il).toMatch(/\b2023\b(?!-)/);
      await notFound('/v1/insurers?state=IL&period=2024-02', ['2024-02', '2024-01']);
      // FL: only the 2024-01 list.
      await notFound('/v1/insurers?state=FL&period=2024', ['FL', '2024-01']);
    });

    it('404s a state without insurer data, and an unknown state', async () => {
      await notFound('/v1/insurers?state=NY&period=2024', ['NY']);
      await notFound('/v1/insurers?state=TX&period=2023', ['TX', 'periods with a ranking: 2021']);
      // A half-year is a period /v1/insurers takes: without a ranking, the 404 names those with one.
      await notFound('/v1/insurers?state=FL&period=2024-H1', ['FL', '2024-01']);
      await notFound('/v1/insurers?state=ZZ&period=2024', ['ZZ']);
    });

    it('400s a period that is not YYYY-MM (01-12), YYYY-H1/H2 or YYYY, or missing', async () => {
      for (const bad of [
        '2024-13',
        '2024-00',
        '2024-1',
        '24',
        '2024-Q1',
        '2024-H3',
        '2024-H0',
        '2024-h1',
        '2024-01-01',
        '',
      ])
        await invalid(`/v1/insurers?state=FL&period=${bad}`, ["'period'", 'YYYY-MM', 'YYYY-H1', 'YYYY']);
      await invalid('/v1/insurers?state=FL', ["'period'", 'missing']);
      await invalid('/v1/insurers?period=2024-01', ["'state'", 'missing']);
      await invalid('/v1/insurers?state=FL&period=2024-01&line=all', ["'line'"]);
      await invalid('/v1/insurers?state=FL&period=2024-01&period=2024-02', ["'period'", 'more than once']);
      // Validation comes first: a bad period on an unknown state is 400.
      await invalid('/v1/insurers?state=ZZ&period=24', ["'period'"]);
    });
  });

  describe('GET /v1/premium/sample', () => {
    it('defaults to FL: its latest monthly statewide all-lines rows, latest vintage', async () => {
      const body = await sample();
      expect(body).toEqual({
        state: 'FL',
        line: 'all',
        granularity: 'month',
        sample: true,
        data: [FL_JAN, FL_FEB, FL_MAR],
        printed_keys: ITEMS_KEY,
        report_date: '2024-04-01',
        data_as_of: '2024-03-31',
        source: SOURCE.FL,
        publications: FL_MONTHS_PUBS,
        note: expect.any(String),
      });
      // The note names what the paid routes add.
      expect(body.note).toContain('/v1/premium');
      expect(await sample('state=fl')).toEqual(body);
    });

    it('is capped at the latest 13 months: IL 2023-02 … 2024-02 of its 15', async () => {
      expect(await sample('state=IL')).toEqual({
        state: 'IL',
        line: 'all',
        granularity: 'month',
        sample: true,
        data: IL_MONTHS.slice(2),
        printed_keys: {},
        report_date: '2024-03-20',
        data_as_of: '2024-02-29',
        source: SOURCE.IL,
        // 2022-12 (il-2022-annual.csv) is not among the 13
        publications: [PUB.IL_2023_12, PUB.IL_2024_02],
        note: expect.any(String),
      });
    });

    it('a state without monthly figures: 200, data [], a note naming the period types it publishes', async () => {
      const expected = (state: 'NY' | 'TX') => ({
        state,
        line: 'all',
        granularity: 'month',
        sample: true,
        data: [],
        printed_keys: {},
        report_date: null,
        data_as_of: null,
        source: SOURCE[state],
        publications: [],
        note: expect.any(String),
      });
      const ny = await sample('state=NY');
      expect(ny).toEqual(expected('NY'));
      expect(ny.note).toContain('/v1/coverage');
      // tx-2023-annual.csv: a year and a half-year.
      const tx = await sample('state=TX');
      expect(tx).toEqual(expected('TX'));
      expect(tx.note).toContain('/v1/coverage');
      expect(tx.note).toContain('half_year');
      expect(tx.note).toMatch(/\byear\b/);
    });

    it('takes no parameter but state: 400 otherwise; 404s an unknown state', async () => {
      await invalid('/v1/premium/sample?state=FL&line=all', ["'line'", "'state'"]);
      await invalid('/v1/premium/sample?granularity=month', ["'granularity'"]);
      await invalid('/v1/premium/sample?state=F1', ["'state'", 'F1']);
      await invalid('/v1/premium/sample?state=FL&state=IL', ["'state'", 'more than once']);
      await notFound('/v1/premium/sample?state=ZZ', ['ZZ']);
    });
  });

  describe('methods on a priced route (/v1/premium)', () => {
    it('answers HEAD with the headers and no body', async () => {
      const head = await expectHead('/v1/premium?state=FL');
      expect(head.headers.get('cache-control')).toBe(PRICED_CACHE);
      expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('answers OPTIONS as a CORS preflight', async () => {
      const pre = await expectPreflight('/v1/premium?state=FL');
      expect(pre.headers.get('access-control-expose-headers')).toContain('PAYMENT-RESPONSE');
    });

    it('refuses POST with 405 and Allow', async () => {
      await expectRefused('/v1/premium?state=FL', 'POST');
    });
  });

  describe('edge inputs', () => {
    it('refuses a state code that only becomes two letters when uppercased (U+FB02 "ﬂ"), in compare as in premium', async () => {
      await expectError(await call('/v1/compare?states=%EF%AC%82'), 400, 'invalid_request', ["'states'"]);
      await expectError(await call('/v1/premium?state=%EF%AC%82'), 400, 'invalid_request', ["'state'"]);
    });

    it('takes a report_date in years 0000-0099 as a date before every publication: 200, no data', async () => {
      const res = await call('/v1/premium?state=FL&report_date=0099-12-31');
      const body = await okBody(res, premiumResponse, PRICED_CACHE);
      expect(body.data).toEqual([]);
      expect(body.report_date).toBeNull();
    });

    it('says briefly what a missing parameter expects', async () => {
      const message = await expectError(await call('/v1/insurers?state=FL'), 400, 'invalid_request', [
        "missing required parameter 'period'",
        'YYYY-MM',
        'YYYY',
      ]);
      expect(message).not.toContain('404'); // the description's rules stay in /openapi.json
      expect(message.length).toBeLessThan(120);
    });

    it('trims the county name: " broward " is BROWARD', async () => {
      const body = await okBody(await call('/v1/premium?state=FL&county=%20broward%20'), premiumResponse, PRICED_CACHE);
      expect(body.county).toBe('BROWARD');
      expect(body.data.map((r) => r.premium)).toEqual([123456.78]); // 2023-q4.csv, Broward's 2023 premium
    });
  });
}
