// format=csv (docs/design.md §11) on the real data, in process: each CSV answer parsed with csv-parse and held
// against the JSON answer to the same query (every exact figure a line with the same value, as many printed
// lines as printed entries) and against the data files, read here with the tests' own reader: the
// publication a line names printed that very figure (state, period, metric, value, words and qualifier).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { callHandler } from '../support/handlers.ts';
import { csvRecords } from '../support/csv.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

/** docs/design.md §11, written out. */
const HEADER =
  'state,line,granularity,period,field,value,kind,as_printed,qualifier,measures,unit,report_date,publication_url';
const FIELDS = [
  'premium',
  'policy_count',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
] as const;

type Line = Record<string, string>;
interface Row {
  period: string;
  printed: Record<string, { value: number; as_printed: string | null; qualifier?: string; period?: string }> | null;
  [field: string]: unknown;
}
interface SeriesAnswer {
  printed_keys: Record<string, { measures: string; unit: string }>;
  publications: { url: string; report_date: string }[];
}

/** Every row of the data files' publications, with its file's url and report_date. */
const DATA_ROWS = readdirSync(join(REAL_DATA, 'publications'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.csv'))
  .flatMap((e) => {
    const { header, records } = csvRecords(readFileSync(join(e.parentPath, e.name), 'utf8'));
    return records.map((r): Record<string, string> => ({ ...r, url: header.url, report_date: header.report_date }));
  });

async function both(query: string): Promise<{
  json: SeriesAnswer & { data?: Row[]; series?: Record<string, Row[]> };
  csv: Line[];
  text: string;
  res: Response;
}> {
  const json = await (await callHandler(`http://x${query}`)).json();
  const res = await callHandler(`http://x${query}&format=csv`);
  expect(res.status, query).toBe(200);
  const text = await res.text();
  expect(text.split('\r\n')[0]).toBe(HEADER);
  return { json, csv: parse<Line>(text, { columns: true, record_delimiter: '\r\n' }), text, res };
}

/** The rows of an answer, with their state. */
const rowsOf = (json: { data?: Row[]; series?: Record<string, Row[]> }, state: string): [string, Row][] =>
  json.series
    ? Object.entries(json.series).flatMap(([s, rows]) => rows.map((r): [string, Row] => [s, r]))
    : json.data!.map((r): [string, Row] => [state, r]);

/** The CSV and the JSON say the same figures, and every line names publications the answer lists. */
function expectSameFigures(json: Parameters<typeof rowsOf>[0] & SeriesAnswer, csv: Line[], state: string) {
  const rows = rowsOf(json, state);
  const exact = csv.filter((l) => l.kind === 'exact');
  const printed = csv.filter((l) => l.kind === 'printed');
  expect(exact.length + printed.length).toBe(csv.length);
  let exactFigures = 0;
  let printedEntries = 0;
  for (const [s, row] of rows) {
    for (const field of FIELDS) {
      if (row[field] === null) continue;
      exactFigures++;
      const lines = exact.filter((l) => l.state === s && l.period === row.period && l.field === field);
      expect(
        lines.map((l) => Number(l.value)),
        `${s} ${row.period} ${field}`,
      ).toEqual([row[field]]);
    }
    for (const [key, entry] of Object.entries(row.printed ?? {})) {
      printedEntries++;
      const lines = printed.filter(
        (l) =>
          l.state === s &&
          l.field === key &&
          l.period === (entry.period ?? row.period) &&
          Number(l.value) === entry.value,
      );
      expect(
        lines.map((l) => [l.as_printed, l.qualifier, l.measures, l.unit]),
        `${s} ${row.period} printed.${key}`,
      ).toEqual([
        [entry.as_printed ?? '', entry.qualifier ?? '', json.printed_keys[key].measures, json.printed_keys[key].unit],
      ]);
    }
  }
  expect(exact).toHaveLength(exactFigures);
  expect(printed).toHaveLength(printedEntries);
  const listed = new Map(json.publications.map((p) => [p.url, p.report_date]));
  for (const l of csv) {
    const urls = l.publication_url.split(' ');
    for (const url of urls) expect(listed.has(url), `${l.state} ${l.period} ${l.field}: ${url}`).toBe(true);
    expect(l.report_date).toBe(
      urls
        .map((u) => listed.get(u)!)
        .sort()
        .at(-1),
    );
  }
}

/** Month rows are never sums: each line's one publication printed that very figure, as the data files say. */
function expectPrintedByItsPublication(csv: Line[]) {
  for (const l of csv) {
    expect(l.publication_url, `${l.state} ${l.period} ${l.field}`).not.toContain(' ');
    const metric = l.field === 'policy_count' ? ['policies', 'transactions', 'items'] : [l.field.replace(/_ytd$/, '')];
    const held = DATA_ROWS.filter(
      (r) =>
        r.url === l.publication_url &&
        r.report_date === l.report_date &&
        r.state === l.state &&
        r.line === 'all' &&
        !r.county &&
        !r.insurer &&
        r.period === l.period &&
        metric.includes(r.metric) &&
        Number(r.value) === Number(l.value) &&
        (l.kind === 'exact' ? !r.qualifier : r.qualifier === l.qualifier && (r.printed || '') === l.as_printed),
    );
    expect(
      held.length,
      `${l.state} ${l.period} ${l.field}=${l.value} (${l.kind}) in ${l.publication_url} of ${l.report_date}`,
    ).toBeGreaterThan(0);
  }
}

describe('format=csv on the real data', () => {
  it('/v1/premium?state=TX: every figure of the JSON answer, each line named by the publication that printed it', async () => {
    const { json, csv, res } = await both('/v1/premium?state=TX');
    expect(csv.length).toBeGreaterThan(300);
    expectSameFigures(json, csv, 'TX');
    expectPrintedByItsPublication(csv);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="premium-TX-all-month.csv"');
    expect(res.headers.get('Cache-Control')).toBe('private, no-store');
  });

  it("/v1/compare?states=TX,FL,CA: every state's figures, in the order given", async () => {
    const { json, csv } = await both('/v1/compare?states=TX,FL,CA');
    expectSameFigures(json, csv, '');
    expectPrintedByItsPublication(csv);
    expect([...new Set(csv.map((l) => l.state))]).toEqual(['TX', 'FL', 'CA']);
  });

  it.each(['quarter', 'half_year', 'year'])(
    "/v1/compare?states=TX,FL,CA&granularity=%s: sums name every part's publication",
    async (g) => {
      const { json, csv } = await both(`/v1/compare?states=TX,FL,CA&granularity=${g}`);
      expectSameFigures(json, csv, '');
      expect(csv.every((l) => l.granularity === g)).toBe(true);
    },
  );

  it('/v1/premium with a line and a county echoes them as the JSON does', async () => {
    const lines = await (await callHandler('http://x/v1/lines?state=TX')).json();
    const { json, csv } = await both(
      `/v1/premium?state=TX&line=${encodeURIComponent(lines[0].source_code)}&granularity=year`,
    );
    expectSameFigures(json, csv, 'TX');
    expect(new Set(csv.map((l) => l.line))).toEqual(
      new Set(csv.length ? [(json as unknown as { line: string }).line] : []),
    );
  });

  it.each(['TX', 'FL', 'CA'])('/v1/premium/sample?state=%s: the free sample, precomputed as CSV too', async (state) => {
    const { json, csv, text, res } = await both(`/v1/premium/sample?state=${state}`);
    expectSameFigures(json, csv, state);
    expectPrintedByItsPublication(csv);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=3600');
    expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="premium-sample-${state}.csv"`);
    if (state === 'FL') expect(await (await callHandler('http://x/v1/premium/sample?format=csv')).text()).toBe(text);
  });

  it('an answer with no figure is the header line alone', async () => {
    for (const query of [
      '/v1/premium?state=TX&from=1990-01&to=1990-12&format=csv',
      '/v1/compare?states=TX,FL&report_date=1990-01-01&format=csv',
    ]) {
      const res = await callHandler(`http://x${query}`);
      expect([res.status, await res.text()]).toEqual([200, `${HEADER}\r\n`]);
    }
  });

  it('format=json is the default, byte for byte', async () => {
    for (const query of ['/v1/premium?state=TX', '/v1/compare?states=TX,FL', '/v1/premium/sample?state=TX']) {
      const plain = await (await callHandler(`http://x${query}`)).text();
      expect(await (await callHandler(`http://x${query}&format=json`)).text(), query).toBe(plain);
    }
  });

  it('HEAD: the headers of the CSV answer, no body', async () => {
    const get = await callHandler('http://x/v1/premium?state=TX&format=csv');
    const head = await callHandler('http://x/v1/premium?state=TX&format=csv', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(Object.fromEntries(head.headers)).toEqual(Object.fromEntries(get.headers));
  });

  it('validation first, in the JSON error body: an unknown format, then the other parameters, then existence', async () => {
    const error = async (query: string) => {
      const res = await callHandler(`http://x${query}`);
      expect(res.headers.get('Content-Type'), query).toMatch(/^application\/json/);
      return [res.status, (await res.json()).error.message];
    };
    expect(await error('/v1/premium?state=TX&format=xml')).toEqual([
      400,
      "invalid 'format' 'xml': expected json or csv",
    ]);
    expect(await error('/v1/premium/sample?format=CSV')).toEqual([400, "invalid 'format' 'CSV': expected json or csv"]);
    expect((await error('/v1/compare?states=TX,F1&format=csv'))[0]).toBe(400);
    expect(await error('/v1/premium?state=ZZ&format=csv')).toEqual([
      404,
      "unknown state 'ZZ': see /v1/coverage for the states served",
    ]);
    expect((await error('/v1/premium?state=TX&format=csv&format=csv'))[1]).toContain(
      "'format' is given more than once",
    );
  });

  it('other routes take no format', async () => {
    const res = await callHandler('http://x/v1/premium/summary?state=TX&year=2024&format=csv');
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain("unknown parameter 'format'");
  });
});
