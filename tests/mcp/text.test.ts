// The text of an MCP tool result (docs/design.md §11, api/text/), on the real dataset: a compact
// rendering at most half the JSON's length that still holds every figure, each in its row, every
// printed figure with its words, and every publication; under the 20,000-token cap, whole rows left out
// (the earliest) with the call that gets them. The answers are the REST routes' own, called in
// process; the parameters are parsed by the routes' schemas, as the MCP tools parse them.
import { describe, expect, it } from 'vitest';
import { TEXT_LIMIT_CHARS, tableText } from '../../api/text/index.ts';
import { OPERATIONS } from '../../api/operation-list.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { SERIES_FIELDS } from '../../domain/contract.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

/** A tool's text as the MCP tool renders it: the renderer its operation names, under the cap unless told. */
const textOf = (tool: string, params: Record<string, unknown>, body: unknown, limit = TEXT_LIMIT_CHARS) =>
  (OPERATIONS.find((o) => o.contract.operationId === tool)!.text ?? tableText())({ tool, params }, body, limit);

type Obj = Record<string, any>;
/** MCP wants an object: the two array answers are wrapped in one key each (docs/design.md §8). */
const WRAPPED: Record<string, string> = { list_lines: 'lines', get_coverage: 'coverage' };

async function call(tool: string, query: Record<string, string> = {}) {
  const contract = ROUTE_CONTRACTS.find((r) => r.operationId === tool)!;
  const res = await callHandler(`http://service.test${contract.path}?${new URLSearchParams(query)}`);
  expect(res.status).toBe(200);
  const json = await res.json();
  const body: Obj = WRAPPED[tool] ? { [WRAPPED[tool]]: json } : json;
  const params: Obj = contract.params ? contract.params.parse(query) : {};
  return { body, params, text: textOf(tool, params, body) };
}

let coverage: Obj[] | undefined;
async function periodType(state: string, type: string): Promise<{ basis: string; count_unit: string | null }> {
  coverage ??= (await (await callHandler('http://service.test/v1/coverage')).json()) as Obj[];
  return coverage.find((c) => c.state === state)!.period_types[type];
}

// ---- reading the rendering back ------------------------------------------------------------------

/** A series answer's blocks of rows: compare's per state, the others' one. */
const blocksOf = (tool: string, body: Obj): [string | null, Obj[]][] =>
  tool === 'compare_states' ? Object.entries(body.series as Record<string, Obj[]>) : [[null, body.data]];

/** The table of exact figures: its header's columns, and each row line's cells by `state|period` (or `period`). */
function tableOf(text: string, compare: boolean) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => (compare ? /^state\|period(\||$)/ : /^period(\||$)/).test(l));
  expect(at, 'the table header').toBeGreaterThan(0);
  const columns = lines[at].split('|');
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(at + 1)) {
    if (!(compare ? /^[A-Z]{2}\|\d{4}/ : /^\d{4}/).test(line)) break;
    const cells = line.split(/(?<!\\)\|/);
    expect(cells).toHaveLength(columns.length);
    const key = compare ? `${cells[0]}|${cells[1]}` : cells[0];
    expect(rows.has(key), `one line per row: ${key}`).toBe(false);
    rows.set(key, cells);
  }
  return { columns, rows };
}

/** The §9 form of a series answer (no unit, measures, null qualifier or row's period in the entries; printed_keys once): what it is when the change lands, and never longer. */
function sectionNineForm(tool: string, body: Obj): Obj {
  if (body.printed_keys) return body;
  const printedKeys: Obj = {};
  const row = (r: Obj) => ({
    ...r,
    printed:
      r.printed &&
      Object.fromEntries(
        Object.entries(r.printed as Record<string, Obj>).map(
          ([key, { value, as_printed, qualifier, period, unit, measures }]) => {
            printedKeys[key] ??= { measures, unit };
            return [
              key,
              {
                value,
                as_printed,
                ...(qualifier === null ? {} : { qualifier }),
                ...(period === r.period ? {} : { period }),
              },
            ];
          },
        ),
      ),
  });
  const compact =
    tool === 'compare_states'
      ? {
          ...body,
          series: Object.fromEntries(
            Object.entries(body.series as Record<string, Obj[]>).map(([s, rows]) => [s, rows.map(row)]),
          ),
        }
      : { ...body, data: body.data.map(row) };
  return { ...compact, printed_keys: printedKeys };
}

/**
 * One printed figure as its key's line must show it: the period (a year to date ending in the row's
 * month as itself, else the row's), ~ when rounded, the words in quotes (else the value), then any other
 * qualifier the words do not say and any other period covered.
 */
function printedWords(entry: Obj, rowPeriod: string): string {
  const words = typeof entry.as_printed === 'string' ? JSON.stringify(entry.as_printed) : String(entry.value);
  const ytd = /^(\d{4})-01\.\.(\d{2})$/.exec(entry.period ?? '');
  const ofRow = ytd !== null && rowPeriod === `${ytd[1]}-${ytd[2]}`;
  const covered = entry.period !== undefined && entry.period !== rowPeriod && !ofRow ? `covers ${entry.period}` : null;
  const qualifier =
    entry.qualifier && entry.qualifier !== 'rounded' && !words.toLowerCase().includes(entry.qualifier.toLowerCase())
      ? entry.qualifier
      : null;
  const notes = [qualifier, covered].filter(Boolean);
  return `${ofRow ? entry.period : rowPeriod} ${entry.qualifier === 'rounded' ? '~' : ''}${words}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/** The line of a printed key (a state's, in a comparison). */
const printedLine = (lines: string[], key: string, state: string | null) =>
  lines.find((l) => (state ? l.startsWith(`${state} ${key}: `) : l.startsWith(`${key} `) || l.startsWith(`${key}:`)));

const digits = (cell: string) => cell.replace(/[,_\s]/g, '');

/** Every row present once, every non-null series figure exact in its column on its row's line, null empty, every printed figure with its words on that line. */
function expectEveryFigure(tool: string, body: Obj, text: string, only?: Set<string>) {
  const compare = tool === 'compare_states';
  const { columns, rows } = tableOf(text, compare);
  const lines = text.split('\n');
  const blocks = blocksOf(tool, body);
  const all = blocks.flatMap(([, rs]) => rs);
  // only the series columns that hold a figure somewhere in the answer
  expect(columns.filter((c) => (SERIES_FIELDS as readonly string[]).includes(c))).toEqual(
    SERIES_FIELDS.filter((f) => all.some((r) => r[f] !== null)),
  );
  let checked = 0;
  for (const [state, rs] of blocks)
    for (const r of rs) {
      const key = compare ? `${state}|${r.period}` : r.period;
      if (only && !only.has(key)) continue;
      const cells = rows.get(key);
      expect(cells, `the line of ${key}`).toBeDefined();
      for (const field of SERIES_FIELDS) {
        const value = r[field];
        if (value === null) {
          if (columns.includes(field)) expect(['', '-']).toContain(cells![columns.indexOf(field)]);
          continue;
        }
        expect(String(value)).not.toMatch(/e/i);
        expect(digits(cells![columns.indexOf(field)]), `${key} ${field}`).toBe(String(value));
        checked++;
      }
      for (const [k, entry] of Object.entries((r.printed ?? {}) as Record<string, Obj>)) {
        const line = printedLine(lines, k, state);
        expect(line, `the line of printed ${k}`).toBeDefined();
        const figure = printedWords(entry, r.period);
        const at = line!.indexOf(`: ${figure}`) >= 0 ? line!.indexOf(`: ${figure}`) : line!.indexOf(`; ${figure}`);
        expect(at, `${key} printed ${k}: ${figure}`).toBeGreaterThan(0);
        expect(['', ';'], `${key} printed ${k} whole`).toContain(line!.charAt(at + 2 + figure.length));
        checked++;
      }
    }
  return checked;
}

function expectPublications(body: Obj, text: string) {
  const lines = text.split('\n');
  body.publications.forEach((p: Obj, i: number) => {
    const line = lines.find((l) => l.startsWith(`[${i + 1}] `));
    expect(line, `publication ${i + 1}`).toBeDefined();
    for (const v of [p.publisher, p.title, p.report_date, p.url]) expect(line).toContain(v);
  });
}

// ---- the series tools ----------------------------------------------------------------------------

const SERIES_CALLS: [string, Record<string, string>][] = [
  ['get_premium', { state: 'TX' }],
  ['get_premium_sample', { state: 'TX' }],
  ['get_premium_sample', {}],
  ['compare_states', { states: 'TX,FL,CA' }],
];

describe('series answers: the compact text holds every figure', () => {
  for (const [tool, query] of SERIES_CALLS)
    it(`${tool} ${new URLSearchParams(query)}: at most half the JSON, every figure in its row, every printed figure's words, every publication`, async () => {
      const { body, text } = await call(tool, query);
      const rowCount = blocksOf(tool, body).reduce((n, [, rs]) => n + rs.length, 0);
      expect(rowCount).toBeGreaterThan(5);
      // half the JSON as served, and half its §9 form (the shorter, once that change lands)
      expect(text.length * 2).toBeLessThanOrEqual(JSON.stringify(body).length);
      expect(text.length * 2).toBeLessThanOrEqual(JSON.stringify(sectionNineForm(tool, body)).length);
      expect(text.length).toBeLessThanOrEqual(TEXT_LIMIT_CHARS);
      expect(text).not.toMatch(/Left out/);
      expect(expectEveryFigure(tool, body, text)).toBeGreaterThan(rowCount);
      expectPublications(body, text);

      // The first line: what was asked, and the basis and count unit /v1/coverage gives for it.
      const first = text.split('\n')[0];
      expect(first).toContain(tool);
      expect(first).toContain(`line ${body.line}`);
      expect(first).toContain(`granularity ${body.granularity}`);
      for (const [state, rs] of blocksOf(tool, body)) {
        const code = state ?? body.state;
        expect(first).toContain(code);
        const { basis, count_unit } = await periodType(code, body.granularity);
        expect(first).toContain(basis);
        if (count_unit) expect(first).toContain(`counts ${count_unit}`);
        expect(first).toContain(`${rs.length} rows ${rs[0].period}..${rs.at(-1)!.period}`);
      }
      expect(first).toContain(`report_date ${body.report_date}`);
      expect(first).toContain(`data_as_of ${body.data_as_of}`);
      if (tool !== 'compare_states') expect(first).toContain('statewide');
    });

  it('the sample defaults to FL, as the route does', async () => {
    const { text } = await call('get_premium_sample');
    expect(text.split('\n')[0]).toMatch(/^get_premium_sample: FL, /);
  });

  it('an answer with no rows says so in one line, and that nothing was published', async () => {
    const { body, text } = await call('get_premium', { state: 'TX', from: '1990-01', to: '1990-12' });
    expect(body.data).toEqual([]);
    const first = text.split('\n')[0];
    expect(first).toContain('no rows: nothing was published for this query');
    expect(first).toContain('from 1990-01, to 1990-12');
    expect(text).not.toMatch(/^period\|/m);
  });

  it('numbers are written in full, never with an exponent (SYNTHETIC values)', () => {
    const row = {
      period: '2024-01',
      premium: 1.5e21,
      policy_count: 12345678901234,
      new_business_premium: null,
      renewal_premium: null,
      new_business_policy_pct: 5e-7,
      renewal_policy_pct: 99.99,
      printed: { premium_yoy_pct: { value: 2.5, as_printed: null } },
    };
    const body = {
      state: 'TX',
      line: 'all',
      county: null,
      granularity: 'month',
      data: [row],
      publications: [],
      report_date: null,
      data_as_of: null,
      source: 'SYNTHETIC',
      printed_keys: { premium_yoy_pct: { measures: 'change in premium', unit: 'percent' } },
    };
    const text = textOf('get_premium', { state: 'TX', line: 'all' }, body);
    expect(text).toContain('\n2024-01|1500000000000000000000|12345678901234|0.0000005|99.99\n');
    expect(text).toContain('\npremium_yoy_pct = change in premium (percent): 2024-01 2.5\n');
  });
});

// ---- the cap ---------------------------------------------------------------------------------------

/** SYNTHETIC: the real TX rows repeated under made-up monthly periods from 1950-01 (a year to date moved with its row), so a series passes the cap. */
function syntheticRows(real: Obj[], count: number): Obj[] {
  return Array.from({ length: count }, (_, i) => {
    const source = real[i % real.length];
    const year = 1950 + Math.floor(i / 12);
    const month = String((i % 12) + 1).padStart(2, '0');
    const period = `${year}-${month}`;
    const moved = (p: string | undefined) => (p === undefined ? p : /\.\./.test(p) ? `${year}-01..${month}` : period);
    const printed =
      source.printed &&
      Object.fromEntries(
        Object.entries(source.printed as Record<string, Obj>).map(([k, e]) => [
          k,
          { ...e, ...(e.period === undefined ? {} : { period: moved(e.period) }) },
        ]),
      );
    return { ...source, period, printed };
  });
}

/**
 * Nothing cut: every line of the capped text is a whole line of the full rendering, or a printed key's
 * line holding the last whole figures of the full one (the earliest left out), or the note.
 */
function expectWholeLines(capped: string, full: string, note: string) {
  const fullLines = full.split('\n');
  const whole = new Set(fullLines);
  for (const line of capped.split('\n')) {
    if (line === note || whole.has(line)) continue;
    const prefix = line.slice(0, line.indexOf(': ') + 2);
    const of = fullLines.find((l) => l.startsWith(prefix));
    expect(of, line.slice(0, 80)).toBeDefined();
    expect(of!.endsWith(`; ${line.slice(prefix.length)}`), line.slice(0, 80)).toBe(true);
  }
}

/** No figure of a left-out row anywhere but in the first line's range of the answer and the note's. */
function expectLeftOut(text: string, note: string, periods: string[]) {
  const rest = text
    .split('\n')
    .slice(1)
    .filter((l) => l !== note)
    .join('\n');
  for (const p of periods) expect(new RegExp(`(^|[^\\d.])${p}(?![\\d.])`).test(rest), p).toBe(false);
}

describe('the 20,000-token cap', () => {
  it('get_premium (SYNTHETIC, 600 months): under the cap, the earliest rows left out whole, counted, with the from/to call that gets them', async () => {
    const { body: real } = await call('get_premium', { state: 'TX' });
    const body = { ...real, data: syntheticRows(real.data, 600) };
    const params = { state: 'TX', line: 'all' };
    const full = textOf('get_premium', params, body, Number.POSITIVE_INFINITY);
    expect(full.length).toBeGreaterThan(TEXT_LIMIT_CHARS);
    const text = textOf('get_premium', params, body);
    expect(text.length).toBeLessThanOrEqual(TEXT_LIMIT_CHARS);

    const { rows } = tableOf(text, false);
    const kept = [...rows.keys()];
    const periods = body.data.map((r: Obj) => r.period as string);
    const left = periods.length - kept.length;
    expect(left).toBeGreaterThan(0);
    // the latest rows are kept, in order; the earliest are left out
    expect(kept).toEqual(periods.slice(left));
    const note = text.split('\n').find((l) => l.startsWith('Left out'))!;
    expect(note).toContain(`${left} rows of ${periods.length}`);
    expect(note).toContain(`${periods[0]}..${periods[left - 1]}`);
    expect(note).toContain(`to=${periods[left - 1]}`);
    expect(note).toContain('granularity=quarter');
    // nothing cut: every kept row's figures intact on its line, every line a whole line of the full text
    expectEveryFigure('get_premium', body, text, new Set(kept));
    expectWholeLines(text, full, note);
    expectLeftOut(text, note, periods.slice(0, left));
    expectPublications(body, text);
  });

  it('compare_states (SYNTHETIC, three states of 300 months): the earliest periods of any state go first; the note names each state and the calls', async () => {
    const { body: real } = await call('compare_states', { states: 'TX,FL,CA' });
    const series = Object.fromEntries(
      Object.keys(real.series).map((s) => [s, syntheticRows(real.series.TX, 300 - (s === 'CA' ? 100 : 0))]),
    );
    const body = { ...real, series };
    const params = { states: ['TX', 'FL', 'CA'], line: 'all', granularity: 'month' };
    const full = textOf('compare_states', params, body, Number.POSITIVE_INFINITY);
    expect(full.length).toBeGreaterThan(TEXT_LIMIT_CHARS);
    const text = textOf('compare_states', params, body);
    expect(text.length).toBeLessThanOrEqual(TEXT_LIMIT_CHARS);
    const { rows } = tableOf(text, true);
    const keptPeriods = [...rows.keys()].map((k) => k.split('|')[1]);
    const all = Object.entries(series).flatMap(([s, rs]) => rs.map((r) => `${s}|${r.period}`));
    const leftOut = all.filter((k) => !rows.has(k));
    expect(leftOut.length).toBeGreaterThan(0);
    const latestLeft = leftOut
      .map((k) => k.split('|')[1])
      .sort()
      .at(-1)!;
    expect(keptPeriods.every((p) => p >= latestLeft)).toBe(true);
    const note = text.split('\n').find((l) => l.startsWith('Left out'))!;
    expect(note).toContain(`${leftOut.length} rows of ${all.length}`);
    for (const s of ['TX', 'FL']) expect(note).toContain(`${s} 1950-01..`);
    expect(note).toContain(`to=${latestLeft}`);
    expect(note).toMatch(/states=TX\b/);
    expectEveryFigure('compare_states', body, text, new Set(rows.keys()));
    expectWholeLines(text, full, note);
    expect(text).toMatch(/^TX premium_ytd: \d{4}-01\.\.\d{2} /m);
  });
});

// ---- summary, insurers, and the generic rendering ------------------------------------------------

/** Every scalar leaf of a value, as text could show it: a number as JSON writes it, a string as is (or JSON-escaped, inside a nested cell). */
function leaves(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [String(value)];
}

const shown = (text: string, leaf: string) =>
  [
    leaf,
    leaf.replaceAll('|', '\\|'),
    JSON.stringify(leaf).slice(1, -1),
    JSON.stringify(leaf).slice(1, -1).replaceAll('|', '\\|'),
  ].some((form) => text.includes(form));

describe('summary and insurers', () => {
  it('get_summary TX 2024: every figure as key: value, the prior year, the basis, every publication', async () => {
    const { body, text } = await call('get_summary', { state: 'TX', year: '2024' });
    const lines = text.split('\n');
    for (const k of [...SERIES_FIELDS, 'yoy_premium_pct', 'yoy_policy_count_pct', 'yoy_basis'])
      expect(lines).toContain(`${k}: ${body[k] ?? '-'}`);
    expect(lines[0]).toContain(`basis ${body.basis} (${body.months_available} months available)`);
    expect(text).toContain(`prior_year ${body.prior_year.year}: premium ${body.prior_year.premium}`);
    expect(text.split('\n')[0]).toContain((await periodType('TX', 'month')).basis);
    for (const leaf of leaves(body)) expect(shown(text, leaf), leaf).toBe(true);
    expectPublications(body, text);
  });

  it('get_top_insurers (SYNTHETIC list): a ranked table of the columns that hold something, every figure in full, and the publications', () => {
    const insurers = Array.from({ length: 12 }, (_, i) => ({
      rank: i + 1,
      name: `SYNTHETIC Insurer ${i + 1} | Co.`,
      premium: 98765432.1 - i * 1000,
      policy_count: i % 2 ? null : 1000 + i,
      market_share_pct: null,
    }));
    const body = {
      state: 'FL',
      period: '2024',
      ranking: { entity: 'company', basis: 'SYNTHETIC premium', ranks_listed: 12 },
      insurers,
      unranked: [],
      publications: [
        {
          publisher: 'SYNTHETIC',
          title: 'A made-up list',
          url: 'https://example.test/list',
          report_date: '2025-01-02',
          report_date_basis: 'printed',
        },
      ],
      report_date: '2025-01-02',
      data_as_of: '2024-12-31',
      source: 'SYNTHETIC',
    };
    const text = textOf('get_top_insurers', { state: 'FL', period: '2024' }, body);
    const lines = text.split('\n');
    // market_share_pct is null in every row: no column says nothing.
    expect(lines).toContain('rank|name|premium|policy_count');
    for (const r of insurers)
      expect(lines).toContain(`${r.rank}|${r.name.replace('|', '\\|')}|${r.premium}|${r.policy_count ?? ''}`);
    expect(lines[0]).toContain('company ranking as printed: ranks 1-12 (the whole list). Basis: SYNTHETIC premium.');
    expectPublications(body, text);
  });

  it('get_top_insurers US 2022 (real): a partial list says so, the unranked line apart, every value of the answer in the text', async () => {
    const { body, text } = await call('get_top_insurers', { state: 'US', period: '2022' });
    const lines = text.split('\n');
    expect(lines[0]).toContain('group ranking as printed: ranks 1-13 of the 25 the publication ranks (a partial list)');
    const unranked = lines.indexOf('Printed beside the ranking without a rank (1):');
    expect(unranked).toBeGreaterThan(0);
    expect(lines[unranked + 2]).toMatch(/^Lloyd's Market\|15482880000\|15\.7\|/);
    expect(lines).toContain('rank|name|premium|market_share_pct|note');
    expect(lines).toContain('1|Berkshire Hathaway Insurance Group|6903760000|7|');
    for (const leaf of leaves(body)) expect(shown(text, leaf), leaf).toBe(true);
    expectPublications(body, text);
  });
});

describe('every other tool: the generic rendering shows every value', () => {
  const GENERIC: [string, Record<string, string>, string][] = [
    ['list_lines', { state: 'FL' }, 'lines'],
    ['get_coverage', {}, 'coverage'],
    ['list_publications', { state: 'TX' }, 'publications'],
    ['get_solvency_sample', {}, 'recent_fines'],
    ['get_syndicates_sample', {}, 'examples'],
  ];
  for (const [tool, query, rowsKey] of GENERIC)
    it(`${tool}: every scalar leaf in the text, each ${rowsKey} item's on one line`, async () => {
      const { body, text } = await call(tool, query);
      expect(text.length).toBeLessThanOrEqual(TEXT_LIMIT_CHARS);
      const all = leaves(body);
      expect(all.length).toBeGreaterThan(10);
      for (const leaf of all) expect(shown(text, leaf), leaf).toBe(true);
      const lines = text.split('\n');
      for (const item of body[rowsKey] as Obj[]) {
        const own = leaves(item);
        expect(
          lines.some((l) => own.every((leaf) => shown(l, leaf))),
          JSON.stringify(item).slice(0, 120),
        ).toBe(true);
      }
      for (const [k, v] of Object.entries(body))
        if (v === null || typeof v !== 'object') expect(lines).toContain(`${k}: ${v === null ? '-' : v}`);
    });

  it('list_rate_filings (SYNTHETIC, capped): the earliest filings left out whole, with the to= call', async () => {
    const { body: real } = await call('list_rate_filings');
    const data = Array.from({ length: 1200 }, (_, i) => ({
      ...real.data[i % real.data.length],
      bucket_date: `${2030 - Math.floor(i / 12)}-${String(12 - (i % 12)).padStart(2, '0')}-15`,
    }));
    const body = { ...real, data };
    const full = textOf('list_rate_filings', {}, body, Number.POSITIVE_INFINITY);
    expect(full.length).toBeGreaterThan(TEXT_LIMIT_CHARS);
    const text = textOf('list_rate_filings', {}, body);
    expect(text.length).toBeLessThanOrEqual(TEXT_LIMIT_CHARS);
    const note = text.split('\n').find((l) => l.startsWith('Left out'))!;
    const count = Number(/(\d+) rows of 1200/.exec(note)![1]);
    const leftOut = data
      .slice(data.length - count)
      .map((r) => r.bucket_date)
      .sort();
    expect(note).toContain(`to=${leftOut.at(-1)}`);
    expectWholeLines(text, full, note);
    // the newest filings are the ones kept
    expect(text).toContain(data[0].bucket_date);
    expect(text).not.toContain(`|${data.at(-1)!.bucket_date}`);
  });
});
