// The bulk files against the API itself (issue 31): every figure the API answers today is a bulk row with
// latest=true, every figure it answers with report_date is a row, and no row is a figure it does not answer.
// The files are read back with DuckDB (the Parquet file and the CSV) and csv-parse, never with the ingest;
// the data package is checked with Frictionless's own validator. Real data, answered in process.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parse } from 'csv-parse/sync';
import datapackage from 'datapackage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';

const ORIGIN = 'http://service.test';
const call = (path: string, init?: RequestInit) => callHandler(`${ORIGIN}${path}`, init);
const GRANULARITIES = ['month', 'quarter', 'half_year', 'year'];

type Row = Record<string, string>;
/** A figure as a row names it, without `latest`: the key both sides are compared on. */
const figureKey = (r: Row) =>
  [
    r.state,
    r.line,
    r.county,
    r.granularity,
    r.period,
    r.field,
    r.value,
    r.kind,
    r.as_printed,
    r.qualifier,
    r.measures,
    r.unit,
    r.report_date,
    r.publication_url,
  ].join('\u0001');

let shards: string;
let restore = () => {};
let csvBytes: Buffer;
let parquetBytes: Buffer;
let rows: Row[];
const work = mkdtempSync(join(tmpdir(), 'slmd-bulk-'));

async function download(path: string): Promise<Buffer> {
  const res = await call(path);
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

beforeAll(async () => {
  shards = buildInto(REAL_DATA);
  restore = serveShards(shards);
  csvBytes = await download('/v1/bulk/premium.csv');
  parquetBytes = await download('/v1/bulk/premium.parquet');
  writeFileSync(join(work, 'premium.csv'), csvBytes);
  writeFileSync(join(work, 'premium.parquet'), parquetBytes);
  rows = parse<Row>(csvBytes, { columns: true });
});
afterAll(() => restore());

async function duckdb(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const connection = await db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
  }
}

describe('the files', () => {
  it('DuckDB reads the Parquet file with typed columns, and every row is the CSV row at the same place', async () => {
    const file = join(work, 'premium.parquet').replaceAll("'", "''");
    const types = await duckdb(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    const typeOf = Object.fromEntries(types.map((t) => [t.column_name, t.column_type]));
    expect(typeOf).toMatchObject({
      value: 'DOUBLE',
      report_date: 'DATE',
      latest: 'BOOLEAN',
      state: 'VARCHAR',
      publication_url: 'VARCHAR',
    });
    const header = csvBytes.subarray(0, csvBytes.indexOf('\r\n')).toString('utf8').split(',');
    expect(types.map((t) => t.column_name)).toEqual(header);

    const parquet = await duckdb(`SELECT * FROM read_parquet('${file}')`);
    expect(parquet.length).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(1000);
    parquet.forEach((p, i) => {
      const c = rows[i];
      for (const column of header) {
        const value = p[column];
        if (column === 'value') expect(value, `${i} value`).toBe(Number(c.value));
        else if (column === 'latest') expect(value, `${i} latest`).toBe(c.latest === 'true');
        // An empty CSV cell is a null in Parquet; every other text is the same text.
        else expect(value, `${i} ${column}`).toBe(c[column] === '' ? null : c[column]);
      }
    });
  });

  it('DuckDB reads the CSV with the same types, and the same rows', async () => {
    const file = join(work, 'premium.csv').replaceAll("'", "''");
    const types = Object.fromEntries(
      (await duckdb(`DESCRIBE SELECT * FROM read_csv('${file}')`)).map((t) => [t.column_name, t.column_type]),
    );
    expect(types).toMatchObject({ value: 'DOUBLE', report_date: 'DATE', latest: 'BOOLEAN' });
    const [counts] = await duckdb(
      `SELECT count(*) AS n, count(*) FILTER (WHERE latest) AS latest FROM read_csv('${file}')`,
    );
    expect(Number(counts.n)).toBe(rows.length);
    expect(Number(counts.latest)).toBe(rows.filter((r) => r.latest === 'true').length);
  });

  it('holds each figure once: no two rows are the same figure', () => {
    const keys = rows.map(figureKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of rows) {
      expect(['true', 'false'], figureKey(r)).toContain(r.latest);
      expect(r.report_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isFinite(Number(r.value)) && r.value !== '', figureKey(r)).toBe(true);
    }
  });

  it('are files: their type, a file name, their ETag the SHA-256 of the bytes; a query string is refused, naming it', async () => {
    for (const [path, type, bytes] of [
      ['/v1/bulk/premium.csv', 'text/csv; charset=utf-8', () => csvBytes],
      ['/v1/bulk/premium.parquet', 'application/vnd.apache.parquet', () => parquetBytes],
    ] as const) {
      const res = await call(path, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.body).toBeNull();
      expect(res.headers.get('Content-Type')).toBe(type);
      expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="${path.split('/').at(-1)}"`);
      expect(res.headers.get('Content-Length')).toBe(String(bytes().length));
      expect(res.headers.get('ETag')).toBe(`"${createHash('sha256').update(bytes()).digest('hex')}"`);
      const refused = await call(`${path}?state=FL`);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error.message).toBe("unknown parameter 'state': this route takes no parameters");
    }
  });
});

describe('against the API', () => {
  /** Every series query the API answers: each state, line (all, each line, each category), county and granularity. */
  async function seriesQueries(): Promise<{ query: string; line: string; county: string; state: string }[]> {
    const index = JSON.parse(readFileSync(join(shards, 'private', 'index.json'), 'utf8')) as {
      states: Record<
        string,
        { lines: { source_code: string }[]; categories: { name: string }[]; counties: { name: string }[] }
      >;
    };
    const out: { query: string; line: string; county: string; state: string }[] = [];
    for (const [state, entry] of Object.entries(index.states)) {
      const lines = [
        'all',
        ...entry.lines.map((l) => l.source_code),
        ...entry.categories.map((c) => `category:${c.name}`),
      ];
      for (const line of lines)
        for (const county of ['', ...entry.counties.map((c) => c.name)])
          for (const granularity of GRANULARITIES) {
            const params = new URLSearchParams({ state, line, granularity, format: 'csv' });
            if (county) params.set('county', county);
            out.push({ query: `/v1/premium?${params}`, line, county, state });
          }
    }
    return out;
  }

  /** The figures of a CSV answer, each as a bulk row names it (the line as asked, the county added). */
  async function answered(query: string, line: string, county: string): Promise<Row[]> {
    const res = await call(query);
    if (res.status === 404) return [];
    expect(res.status, query).toBe(200);
    return parse<Row>(await res.text(), { columns: true }).map((r) => ({ ...r, line, county }));
  }

  it('latest=true rows are exactly the figures the API answers today; every other row is a figure it answers with report_date', async () => {
    const bulk = new Map(rows.map((r) => [figureKey(r), r]));
    const today = new Set<string>();
    const ever = new Set<string>();
    const vintages = new Map<string, string[]>();
    for (const { query, line, county, state } of await seriesQueries()) {
      for (const r of await answered(query, line, county)) {
        const key = figureKey(r);
        expect(bulk.get(key)?.latest, `today: ${query}: ${key}`).toBe('true');
        today.add(key);
        ever.add(key);
      }
      if (!vintages.has(state))
        vintages.set(
          state,
          ((await (await call(`/v1/publications?state=${state}`)).json()) as { report_dates: string[] }).report_dates,
        );
      for (const date of vintages.get(state)!) {
        for (const r of await answered(`${query}&report_date=${date}`, line, county)) {
          const key = figureKey(r);
          expect(bulk.has(key), `as of ${date}: ${query}: ${key}`).toBe(true);
          ever.add(key);
        }
      }
    }
    expect(
      rows
        .filter((r) => r.latest === 'true')
        .map(figureKey)
        .sort(),
    ).toEqual([...today].sort());
    expect(rows.map(figureKey).filter((k) => !ever.has(k))).toEqual([]);
    expect(rows.some((r) => r.latest === 'false')).toBe(true);
  }, 300_000);
});

describe('/v1/bulk/datapackage.json', () => {
  let descriptor: {
    version: string;
    sources: { title: string; path: string }[];
    resources: {
      name: string;
      path: string;
      bytes: number;
      hash: string;
      schema: { fields: { name: string; type: string }[] };
    }[];
  };
  beforeAll(async () => {
    const res = await call('/v1/bulk/datapackage.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=3600');
    descriptor = await res.json();
  });

  it("validates against Frictionless's Tabular Data Package profile (and a broken copy does not)", async () => {
    const { valid, errors } = await datapackage.validate(descriptor);
    expect(errors.map((e: Error) => e.message)).toEqual([]);
    expect(valid).toBe(true);
    const broken = { ...descriptor, resources: [{ ...descriptor.resources[0], schema: { fields: [] } }] };
    expect((await datapackage.validate(broken)).valid).toBe(false);
  });

  it("names each file's size and SHA-256 as served, and its fields are the file's columns", () => {
    const served = { 'premium.csv': csvBytes, 'premium.parquet': parquetBytes } as Record<string, Buffer>;
    expect(descriptor.resources.map((r) => r.path).sort()).toEqual(Object.keys(served).sort());
    const header = csvBytes.subarray(0, csvBytes.indexOf('\r\n')).toString('utf8').split(',');
    for (const r of descriptor.resources) {
      expect(r.bytes, r.path).toBe(served[r.path].length);
      expect(r.hash, r.path).toBe(`sha256:${createHash('sha256').update(served[r.path]).digest('hex')}`);
      expect(r.schema.fields.map((f) => f.name)).toEqual(header);
      expect(Object.fromEntries(r.schema.fields.map((f) => [f.name, f.type]))).toMatchObject({
        value: 'number',
        report_date: 'date',
        latest: 'boolean',
      });
    }
  });

  it('lists as sources exactly the publications the rows cite, and its version is their newest data_as_of', async () => {
    const cited = new Set(rows.flatMap((r) => r.publication_url.split(' ')));
    expect(new Set(descriptor.sources.map((s) => s.path))).toEqual(cited);
    const feed = (await (await call('/v1/publications')).json()) as {
      publications: { url: string; data_as_of: string }[];
    };
    const newest = feed.publications
      .filter((p) => cited.has(p.url))
      .reduce((a, p) => (p.data_as_of > a ? p.data_as_of : a), '');
    expect(descriptor.version).toBe(newest);
  });
});
