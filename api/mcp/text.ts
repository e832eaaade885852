// The text an agent reads in an MCP tool result (DECISIONS §11): not a second copy of the JSON, which
// is in structuredContent, but a compact rendering of it: what was asked, a table of the figures (exact
// ones written in full, printed ones marked as printed with their words) and the publications to cite.
// Every value of the answer is in it, unless the text would pass TEXT_LIMIT_CHARS: then whole rows are
// left out (the earliest periods first), and one line says how many, which, and the narrower call
// that gets them. A row or a number is never cut.
//
// A pure function of the tool's name, its parsed parameters and its structured answer, plus the
// precomputed /v1/coverage body (the basis and count unit of each state's period types), which it
// reads itself. Series rows are in DECISIONS §9's compact form: `printed` entries
// `{ value, as_printed, qualifier?, period? }`, and the answer's `printed_keys` says what each key measures.
import { SERIES_FIELDS } from '../../domain/contract.ts';
import { firstMonthKey, parsePeriod } from '../../domain/periods.ts';
import { requiredFreeBody } from '../store.ts';

/** The most an agent should have to read in one tool result, in tokens (DECISIONS §11). */
export const TEXT_LIMIT_TOKENS = 20_000;
/** The estimate of DECISIONS §11 and `npm run size:mcp`: 4 characters a token. */
export const CHARS_PER_TOKEN = 4;
/** The cap on a rendering's length, in characters (UTF-16 code units, which are never fewer than characters). */
export const TEXT_LIMIT_CHARS = TEXT_LIMIT_TOKENS * CHARS_PER_TOKEN;

/** The tools whose answer is a premium series: one table row per period. */
const SERIES_TOOLS = new Set(['get_premium', 'get_premium_sample', 'compare_states']);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

// ---- writing values ------------------------------------------------------------------------------

/**
 * A number written in full, with the digits JSON gives it but never an exponent: 1.5e+21 is
 * 1500000000000000000000 and 5e-7 is 0.0000005. No rounding, no thousands separators.
 */
export function fullNumber(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, whole, fraction = '', exponent] = m;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** JSON without whitespace, numbers in full: a nested value in a table cell. */
function compactJson(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? fullNumber(value) : 'null';
  if (Array.isArray(value)) return `[${value.map(compactJson).join(',')}]`;
  if (isObj(value))
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${compactJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A value on a `key: value` line: null as `-`, a list of scalars joined, anything nested as compact JSON. */
function plain(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') return fullNumber(value);
  if (typeof value === 'string') return oneLine(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.length ? value.map(plain).join(', ') : '(none)';
  return compactJson(value);
}

const oneLine = (text: string) => text.replace(/\r\n|[\r\n]/g, ' ');

/** A table cell: null empty, `|` escaped so a cell never splits. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return (typeof value === 'string' ? oneLine(value) : typeof value === 'object' ? compactJson(value) : plain(value)).replaceAll('|', '\\|');
}

/** The call's arguments as `name=value` (a list joined with commas), in the order given. */
function argumentsText(params: Obj): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
}

const callText = (tool: string, params: Obj) => {
  const args = argumentsText(params);
  return args ? `${tool} ${args}` : tool;
};

// ---- publications --------------------------------------------------------------------------------

const PUBLICATION_FIELDS = ['publisher', 'title', 'report_date', 'report_date_basis', 'url'];

/**
 * `[n] publisher, title, report_date (estimated), url`, then any further field as `key value`. A date
 * the publication printed is left unmarked (the heading says so), unless `everyBasis` (the generic
 * rendering, which shows every value).
 */
function publicationLines(publications: unknown[], everyBasis = false): string[] {
  if (!publications.length) return ['Publications: none (no figure in this answer).'];
  return [
    everyBasis ? 'Publications (cite by number):' : 'Publications (cite by number; report_date as printed unless marked estimated):',
    ...publications.map((p, i) => {
      const pub = asObj(p);
      const basis = pub.report_date_basis;
      const date = `${plain(pub.report_date)}${basis !== undefined && basis !== null && (everyBasis || basis !== 'printed') ? ` (${plain(basis)})` : ''}`;
      const extra = Object.entries(pub)
        .filter(([k, v]) => !PUBLICATION_FIELDS.includes(k) && v !== undefined)
        .map(([k, v]) => `${k} ${plain(v)}`);
      return `[${i + 1}] ${plain(pub.publisher)}, ${plain(pub.title)}, ${date}, ${plain(pub.url)}${extra.length ? `; ${extra.join('; ')}` : ''}`;
    }),
  ];
}

// ---- what /v1/coverage says of a state's figures ---------------------------------------------------

interface PeriodTypeFacts {
  basis: string | null;
  count_unit: string | null;
}
const coverageByBytes = new WeakMap<Uint8Array, Map<string, Obj>>();

/** The coverage item of each state, parsed once per coverage body; an empty map when the build has none. */
function coverageStates(): Map<string, Obj> {
  let bytes: Uint8Array;
  try {
    bytes = requiredFreeBody('coverage.json');
  } catch {
    return new Map();
  }
  let states = coverageByBytes.get(bytes);
  if (!states) {
    states = new Map();
    try {
      for (const item of asArray(JSON.parse(Buffer.from(bytes).toString('utf8')))) {
        const state = str(asObj(item).state);
        if (state) states.set(state, asObj(item));
      }
    } catch {
      // not JSON: the text says the basis is unknown rather than failing the answer
    }
    coverageByBytes.set(bytes, states);
  }
  return states;
}

function periodTypeFacts(state: string, periodType: string): PeriodTypeFacts | null {
  const facts = asObj(asObj(coverageStates().get(state)?.period_types)[periodType]);
  if (!Object.keys(facts).length) return null;
  return { basis: str(facts.basis), count_unit: str(facts.count_unit) };
}

/** `premium is premium filed with SLTX, policy_count counts policies`: what a state's figures of a period type are. */
function basisText(state: string, periodType: string | null): string {
  if (!periodType) return 'no figures, no basis';
  const facts = periodTypeFacts(state, periodType);
  if (!facts) return `basis unknown: /v1/coverage lists no ${periodType} figures for ${state}`;
  return `premium is ${facts.basis ?? 'of unknown basis'}, policy_count ${facts.count_unit ? `counts ${facts.count_unit}` : 'is not published (no count unit)'}`;
}

// ---- fitting under the cap -----------------------------------------------------------------------

/** A row of a rendering: what it costs in characters, with everything it shows (a line and the newline, and any printed figures). */
interface Sized {
  size: number;
}

/**
 * Which rows to keep so that `fixed` characters, the kept rows and the note on the left-out ones stay
 * within `limit`: rows are left out whole, in `dropOrder`, until they do.
 */
function fit<R extends Sized>(fixed: number, rows: R[], dropOrder: number[], note: (dropped: R[]) => string, limit: number): { kept: R[]; note: string | null } {
  let total = fixed + rows.reduce((sum, r) => sum + r.size, 0);
  if (total <= limit) return { kept: rows, note: null };
  const dropped = new Set<number>();
  const droppedRows = () => rows.filter((_, i) => dropped.has(i));
  // Leave room for the note first (its length depends on what is left out), then check it.
  const RESERVE = 2_000;
  let next = 0;
  while (next < dropOrder.length && total + RESERVE > limit) {
    dropped.add(dropOrder[next]);
    total -= rows[dropOrder[next++]].size;
  }
  let text = note(droppedRows());
  while (next < dropOrder.length && total + text.length + 1 > limit) {
    dropped.add(dropOrder[next]);
    total -= rows[dropOrder[next++]].size;
    text = note(droppedRows());
  }
  return { kept: rows.filter((_, i) => !dropped.has(i)), note: text };
}

/** Publication lines that fit what is left: whole entries, with a line for the rest (only when the list alone is past the cap). */
function fitPublications(lines: string[], room: number, limit: number): string[] {
  const total = lines.reduce((sum, l) => sum + l.length + 1, 0);
  if (total <= room) return lines;
  const out: string[] = [];
  let used = 200; // the closing line
  for (const line of lines) {
    if (used + line.length + 1 > room) break;
    out.push(line);
    used += line.length + 1;
  }
  const left = lines.length - out.length;
  return [...out, `(${left} more publications are left out to stay under ${limitWords(limit)}; every one is in structuredContent.publications.)`];
}

const limitWords = (limit: number) => `${Math.floor(limit / CHARS_PER_TOKEN).toLocaleString('en-US')} tokens`;

// ---- series: get_premium, get_premium_sample, compare_states -------------------------------------

interface PrintedEntry {
  value?: unknown;
  as_printed?: unknown;
  qualifier?: unknown;
  period?: unknown;
}

/** A series row: its line of exact figures, and its printed figures, each destined for its key's line. */
interface SeriesRow extends Sized {
  state: string | null;
  period: string;
  line: string;
  printed: [key: string, text: string][];
}

/** True when `period` is a year to date (`2025-01..07`) ending in the last month of `rowPeriod`: the row it belongs to. */
function isYearToDateOf(period: string, rowPeriod: string): boolean {
  const p = parsePeriod(period);
  const row = parsePeriod(rowPeriod);
  return p?.type === 'year_to_date' && row !== null && row.year === p.year && row.lastMonth === p.lastMonth;
}

/**
 * One printed figure on its key's line: the period (a year to date as itself, `2025-01..07`, else the
 * row's), `~` when the qualifier is `rounded`, the words as printed in quotes (the value when there are
 * none), then in brackets any other qualifier the words do not say and a period covered that is
 * neither: `2017-11 ~"$5.04 billion"`, `2025-05 "more than 151K policies filed"`.
 */
function printedFigure(entry: PrintedEntry, rowPeriod: string): string {
  const words = typeof entry.as_printed === 'string' ? JSON.stringify(oneLine(entry.as_printed)) : plain(entry.value);
  const covered = typeof entry.period === 'string' && entry.period !== rowPeriod ? entry.period : null;
  const yearToDate = covered !== null && isYearToDateOf(covered, rowPeriod);
  const qualifier = typeof entry.qualifier === 'string' ? entry.qualifier : null;
  const rounded = qualifier === 'rounded';
  const notes = [
    qualifier && !rounded && !words.toLowerCase().includes(qualifier.toLowerCase()) ? qualifier : null,
    covered && !yearToDate ? `covers ${covered}` : null,
  ].filter((n) => n !== null);
  return `${yearToDate ? covered : rowPeriod} ${rounded ? '~' : ''}${words}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/** What each printed key the rows use measures, and its unit (the answer's `printed_keys`), by key. */
function printedKeys(body: Obj, rows: Obj[]): Map<string, { measures: unknown; unit: unknown }> {
  const seen = new Set(rows.flatMap((row) => Object.keys(asObj(row.printed))));
  const legend = Object.entries(asObj(body.printed_keys)).filter(([key]) => seen.has(key));
  return new Map(legend.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, v]) => [key, { measures: asObj(v).measures, unit: asObj(v).unit }]));
}

/** The range of periods of some rows: `2017-11..2021-06`, or one period. */
function periodRange(periods: string[]): string {
  if (!periods.length) return '';
  const sorted = [...periods].sort();
  return sorted[0] === sorted.at(-1) ? sorted[0] : `${sorted[0]}..${sorted.at(-1)}`;
}

const rowsWord = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/** The `from`/`to` month a period starts in (what the routes select rows by). */
const startMonth = (period: string) => {
  const p = parsePeriod(period);
  return p ? firstMonthKey(p) : period;
};

/** A coarser granularity than `granularity`, to suggest when rows were left out. */
const COARSER: Record<string, string | undefined> = { month: 'quarter', quarter: 'year', half_year: 'year' };

/**
 * A series answer: the first line (what was asked; basis and count unit from /v1/coverage), the
 * sources, a table of the exact figures (one line per row, only the fields holding a figure), the
 * printed figures one line per key (the key said once, each figure with its row's period), and the
 * publications.
 */
function renderSeries(tool: string, params: Obj, body: Obj, limit: number): string {
  const compare = tool === 'compare_states';
  const granularity = str(body.granularity) ?? str(params.granularity) ?? 'month';
  const blocks: { state: string | null; rows: Obj[] }[] = compare
    ? Object.entries(asObj(body.series)).map(([state, rows]) => ({ state, rows: asArray(rows).map(asObj) }))
    : [{ state: str(body.state) ?? str(params.state), rows: asArray(body.data).map(asObj) }];
  const allRows = blocks.flatMap((b) => b.rows);
  const states = blocks.map((b) => b.state).filter((s): s is string => s !== null);
  const line = plain(body.line ?? params.line ?? 'all');

  // 1. What was asked, and what the figures are.
  const asked = [
    params.from ? `from ${plain(params.from)}` : null,
    params.to ? `to ${plain(params.to)}` : null,
    params.report_date ? `as published on or before ${plain(params.report_date)}` : null,
  ].filter(Boolean);
  const where = compare ? '' : `, ${body.county ? `county ${plain(body.county)}` : 'statewide'}`;
  const counts = blocks.map((b) => `${compare ? `${b.state} ` : ''}${b.rows.length ? `${rowsWord(b.rows.length)} ${periodRange(b.rows.map((r) => String(r.period)))}` : 'no rows'}`);
  const bases = blocks.map((b) => `${compare ? `${b.state}: ` : ''}${basisText(b.state ?? '', b.rows.length || !compare ? granularity : null)}`);
  const provenance = `report_date ${plain(body.report_date)}, data_as_of ${plain(body.data_as_of)}${compare ? " (the earliest state's)" : ''}`;
  const empty = allRows.length === 0;
  const first =
    `${tool}: ${states.join(', ') || '-'}, line ${line}${where}, granularity ${granularity}${asked.length ? ` (${asked.join(', ')})` : ''}${body.sample === true ? ', free sample' : ''}: ` +
    (empty ? 'no rows: nothing was published for this query (no figure to cite). ' : `${counts.join(', ')}. `) +
    `${bases.join('. ')}. ${provenance}.`;

  const head = [first];
  if (compare) head.push(`Sources: ${Object.entries(asObj(body.source)).map(([s, name]) => `${s} ${plain(name)}`).join('; ')}.`);
  else if (body.source !== undefined) head.push(`Source: ${plain(body.source)}.`);
  if (body.note !== undefined) head.push(`Note: ${plain(body.note)}`);
  const publications = publicationLines(asArray(body.publications));
  if (empty) return [...head, ...publications].join('\n');

  // 2. The exact figures: the series fields that hold a figure anywhere in the answer.
  const columns = SERIES_FIELDS.filter((f) => allRows.some((r) => r[f] !== null && r[f] !== undefined));
  head.push(`Exact figures, in full (empty: none):`, [...(compare ? ['state'] : []), 'period', ...columns].join('|'));
  const rows: SeriesRow[] = blocks.flatMap((b) =>
    b.rows.map((r) => {
      const period = String(r.period);
      const text = [...(compare ? [b.state] : []), period, ...columns.map((f) => cell(r[f]))].join('|');
      const printed = Object.entries(asObj(r.printed)).map(([key, e]): [string, string] => [key, printedFigure(asObj(e) as PrintedEntry, period)]);
      return { state: b.state, period, line: text, printed, size: text.length + 1 + printed.reduce((sum, [, p]) => sum + p.length + 2, 0) };
    }),
  );

  // 3. What was printed: one line per key, saying what it measures (in a comparison, a line per state
  // and key, what each key measures said once before them).
  const keys = printedKeys(body, allRows);
  /** ` = what it measures (unit)`; just ` (unit)` where the key is its own name (`premium`). */
  const meaning = (key: string, equals: string) => {
    const { measures, unit } = keys.get(key)!;
    const said = measures === undefined || measures === null ? '' : plain(measures);
    return `${said === key.replaceAll('_', ' ') ? '' : `${equals}${said || '?'}`}${unit === undefined || unit === null ? '' : ` (${plain(unit)})`}`;
  };
  const lineKeys = blocks.flatMap((b) => [...keys.keys()].map((key) => ({ state: b.state, key, prefix: compare ? `${b.state} ${key}: ` : `${key}${meaning(key, ' = ')}: ` })));
  const legend = keys.size
    ? `Printed figures (not exact; never summed), a line per ${compare ? 'state and ' : ''}key: period "words as printed", ~ if rounded, (qualifier) if not in the words; a year to date 2025-01..07 is in row 2025-07${
        compare ? `. Keys: ${[...keys.keys()].map((k) => k + meaning(k, ' = ')).join('; ')}.` : ':'
      }`
    : null;

  // 4. Under the cap: the earliest periods go first (across states, the earliest of any).
  const dropOrder = rows.map((_, i) => i).sort((a, b) => (rows[a].period < rows[b].period ? -1 : rows[a].period > rows[b].period ? 1 : a - b));
  const fixed = [...head, ...(legend ? [legend] : []), ...publications].reduce((sum, l) => sum + l.length + 1, 0) + lineKeys.reduce((sum, k) => sum + k.prefix.length + 1, 0);
  const note = (dropped: SeriesRow[]) => seriesNote(tool, params, body, granularity, blocks, dropped, limit);
  const { kept, note: left } = fit(fixed, rows, dropOrder, note, limit);

  const figures = new Map<string, string[]>();
  for (const r of kept)
    for (const [key, text] of r.printed) {
      const at = `${r.state} ${key}`;
      if (figures.has(at)) figures.get(at)!.push(text);
      else figures.set(at, [text]);
    }
  const printedLines = legend ? [legend] : [];
  for (const { state, key, prefix } of lineKeys) {
    const own = figures.get(`${state} ${key}`);
    if (own) printedLines.push(prefix + own.join('; '));
  }
  const out = [...head, ...kept.map((r) => r.line), ...(printedLines.length > 1 ? printedLines : []), ...(left ? [left] : [])];
  const used = out.reduce((sum, l) => sum + l.length + 1, 0);
  return [...out, ...fitPublications(publications, limit - used, limit)].join('\n');
}

/** The line on rows left out: how many, which periods, and the calls that get them. */
function seriesNote(tool: string, params: Obj, body: Obj, granularity: string, blocks: { state: string | null; rows: Obj[] }[], dropped: SeriesRow[], limit: number): string {
  const total = blocks.reduce((n, b) => n + b.rows.length, 0);
  const perState = blocks
    .map((b) => ({ state: b.state, periods: dropped.filter((d) => d.state === b.state).map((d) => d.period) }))
    .filter((s) => s.periods.length);
  const which = perState.map((s) => `${tool === 'compare_states' ? `${s.state} ` : ''}${periodRange(s.periods)}${tool === 'compare_states' ? ` (${s.periods.length})` : ''}`).join(', ');
  const latest = dropped.map((d) => d.period).sort().at(-1)!;
  const base: Obj =
    tool === 'compare_states'
      ? { states: params.states ?? blocks.map((b) => b.state).join(','), line: params.line ?? body.line, granularity, from: params.from, report_date: params.report_date }
      : { state: params.state ?? body.state, line: params.line ?? body.line, county: params.county, granularity, from: params.from, report_date: params.report_date };
  const calls = [`call ${callText(tool, { ...base, to: startMonth(latest) })}`];
  const coarser = COARSER[granularity];
  if (coarser) calls.push(`${callText(tool, { ...base, granularity: coarser, to: params.to })} for fewer rows`);
  if (tool === 'compare_states' && perState.length > 1) calls.push(`one state per call (states=${perState[0].state}, ...)`);
  if (tool === 'get_premium_sample') calls.push('get_premium for the full series');
  return `Left out: ${rowsWord(dropped.length)} of ${total}, the earliest (${which}), with their printed figures, to stay under ${limitWords(limit)}; they are in structuredContent. For them: ${calls.join('; or ')}.`;
}

// ---- get_summary ---------------------------------------------------------------------------------

const SUMMARY_SHOWN = new Set(['state', 'year', 'basis', 'months_available', 'prior_year', 'report_date', 'data_as_of', 'source', 'publications']);

function renderSummary(tool: string, params: Obj, body: Obj, limit: number): string {
  const state = str(body.state) ?? str(params.state) ?? '';
  const periodType = body.basis === 'annual_report' ? 'year' : body.basis ? 'month' : null;
  const prior = asObj(body.prior_year);
  const lines = [
    `${tool}: ${state} ${plain(body.year ?? params.year)}, statewide all lines, basis ${plain(body.basis)} (${plain(body.months_available)} months available); ${basisText(state, periodType)}. report_date ${plain(body.report_date)}, data_as_of ${plain(body.data_as_of)}.`,
    `Source: ${plain(body.source)}.`,
    'Figures (exact, in full; -: none):',
    ...Object.entries(body)
      .filter(([k]) => !SUMMARY_SHOWN.has(k))
      .map(([k, v]) => `${k}: ${plain(v)}`),
    `prior_year ${plain(prior.year)}: ${Object.entries(prior)
      .filter(([k]) => k !== 'year')
      .map(([k, v]) => `${k} ${plain(v)}`)
      .join(', ')}`,
  ];
  const used = lines.reduce((sum, l) => sum + l.length + 1, 0);
  return [...lines, ...fitPublications(publicationLines(asArray(body.publications)), limit - used, limit)].join('\n');
}

// ---- get_top_insurers ----------------------------------------------------------------------------

/** The columns of `rows` that hold a value in some row: a column empty in every row says nothing. */
const filledColumns = (rows: Obj[]) => unionKeys(rows).filter((c) => rows.some((r) => r[c] !== null && r[c] !== undefined && r[c] !== ''));

function renderInsurers(tool: string, params: Obj, body: Obj, limit: number): string {
  const state = str(body.state) ?? str(params.state) ?? '';
  const period = str(body.period) ?? str(params.period) ?? '';
  const insurers = asArray(body.insurers).map(asObj);
  const unranked = asArray(body.unranked).map(asObj);
  const ranking = asObj(body.ranking);
  const of = typeof ranking.ranks_in_publication === 'number' ? ` of the ${ranking.ranks_in_publication} the publication ranks (a partial list)` : ' (the whole list)';
  const head = [
    `${tool}: ${state} ${period}, ${plain(ranking.entity)} ranking as printed: ranks 1-${plain(ranking.ranks_listed)}${of}. Basis: ${plain(ranking.basis)}. Premiums in USD, exact unless as_printed and qualifier say how they were printed. report_date ${plain(body.report_date)}, data_as_of ${plain(body.data_as_of)}.`,
    `Source: ${plain(body.source)}.`,
  ];
  const extras = Object.entries(body).filter(([k]) => !['state', 'period', 'ranking', 'insurers', 'unranked', 'report_date', 'data_as_of', 'source', 'publications'].includes(k));
  head.push(...extras.map(([k, v]) => `${k}: ${plain(v)}`));
  const tableOf = (rows: Obj[]) => {
    const columns = filledColumns(rows);
    return { columns: columns.join('|'), lines: rows.map((r) => columns.map((c) => cell(r[c])).join('|')) };
  };
  if (unranked.length) {
    const table = tableOf(unranked);
    head.push(`Printed beside the ranking without a rank (${unranked.length}):`, table.columns, ...table.lines);
  }
  const publications = publicationLines(asArray(body.publications));
  if (!insurers.length) return [...head, 'No insurer ranked.', ...publications].join('\n');
  const table = tableOf(insurers);
  head.push(table.columns);
  const rows = table.lines.map((text, i) => ({ text, rank: insurers[i].rank, size: text.length + 1 }));
  const fixed = [...head, ...publications].reduce((sum, l) => sum + l.length + 1, 0);
  // The lowest ranks go first: no narrower call exists, the whole list is in structuredContent.
  const dropOrder = rows.map((_, i) => rows.length - 1 - i);
  const { kept, note } = fit(fixed, rows, dropOrder, (dropped) => `Left out: the ${rowsWord(dropped.length)} ranked lowest (ranks ${plain(dropped.at(-1)?.rank)}..${plain(dropped[0]?.rank)}), to stay under ${limitWords(limit)}; the whole list is in structuredContent.insurers.`, limit);
  const text = [...head, ...kept.map((r) => r.text), ...(note ? [note] : [])];
  const used = text.reduce((sum, l) => sum + l.length + 1, 0);
  return [...text, ...fitPublications(publications, limit - used, limit)].join('\n');
}

// ---- every other tool: a generic rendering ------------------------------------------------------

function unionKeys(rows: Obj[]): string[] {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** The field by which a dataset's rows are dated, to leave out the earliest first. */
const DATE_FIELDS = ['period', 'bucket_date', 'report_date'];

/** The narrower calls that get a dataset's left-out rows. */
function datasetCalls(tool: string, params: Obj, droppedDates: string[]): string {
  const latest = [...droppedDates].sort().at(-1);
  if (latest && (tool === 'list_rate_filings' || tool === 'get_rate_activity'))
    return `call ${callText(tool, { ...params, to: tool === 'get_rate_activity' ? startMonth(latest) : latest })}, or narrow it by ${tool === 'list_rate_filings' ? 'state, company or toi' : 'states'}`;
  if (latest && tool === 'list_enforcement_actions') {
    const years = [...new Set(droppedDates)].sort();
    return `call ${callText(tool, { ...params, year: years[0] })}${years.length > 1 ? ` (one call per year, ${years[0]} to ${years.at(-1)})` : ''}, or narrow it by state, action_type or insurer`;
  }
  return `narrow the call's filters (${callText(tool, params)})`;
}

function renderGeneric(tool: string, params: Obj, body: unknown, limit: number): string {
  const root: Obj = isObj(body) ? body : { answer: body };
  const first = `${callText(tool, params)}:`;
  const scalars: string[] = [];
  const tables: { key: string; rows: Obj[]; columns: string[] }[] = [];
  for (const [key, value] of Object.entries(root)) {
    if (key === 'publications' && Array.isArray(value)) continue;
    if (Array.isArray(value) && value.length && value.every(isObj)) tables.push({ key, rows: value, columns: unionKeys(value) });
    else if (Array.isArray(value) && !value.length) scalars.push(`${key}: (none)`);
    else scalars.push(`${key}: ${plain(value)}`);
  }
  const publications = Array.isArray(root.publications) ? publicationLines(root.publications, true) : [];

  // Each table's rows, one line each; the largest table gives up its earliest rows first.
  type TableLine = Sized & { text: string; table: number; date: string | null };
  const rows: TableLine[] = [];
  const heads: string[][] = tables.map((t) => [`${t.key} (${rowsWord(t.rows.length)}):`, t.columns.join('|')]);
  const dateFields = tables.map((t) => DATE_FIELDS.find((f) => t.rows.every((r) => typeof r[f] === 'string')) ?? null);
  tables.forEach((t, ti) =>
    t.rows.forEach((r) => {
      const text = t.columns.map((c) => cell(r[c])).join('|');
      rows.push({ table: ti, date: dateFields[ti] ? String(r[dateFields[ti]!]) : null, text, size: text.length + 1 });
    }),
  );
  const tableSize = (ti: number) => rows.filter((r) => r.table === ti).reduce((sum, r) => sum + r.text.length, 0);
  const order = tables.map((_, ti) => ti).sort((a, b) => tableSize(b) - tableSize(a));
  const dropOrder = order.flatMap((ti) => {
    const own = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.table === ti);
    // dated rows: the earliest first; undated: the last first
    return (dateFields[ti] ? own.sort((a, b) => (a.r.date! < b.r.date! ? -1 : a.r.date! > b.r.date! ? 1 : b.i - a.i)) : own.reverse()).map(({ i }) => i);
  });
  const fixed = [first, ...scalars, ...heads.flat(), ...publications].reduce((sum, l) => sum + l.length + 1, 0);
  const note = (dropped: TableLine[]) =>
    tables
      .map((t, ti) => ({ t, ti, gone: dropped.filter((d) => d.table === ti) }))
      .filter(({ gone }) => gone.length)
      .map(
        ({ t, ti, gone }) =>
          `Left out of ${t.key}: ${rowsWord(gone.length)} of ${t.rows.length}${dateFields[ti] ? `, the earliest (${dateFields[ti]} ${periodRange(gone.map((g) => g.date!))})` : ', the last'}, to stay under ${limitWords(limit)}; they are in structuredContent.${t.key}. For them: ${datasetCalls(tool, params, gone.map((g) => g.date!).filter(Boolean))}.`,
      )
      .join('\n');
  const { kept, note: left } = fit(fixed, rows, dropOrder, note, limit);
  const out = [first, ...scalars];
  tables.forEach((_, ti) => out.push(...heads[ti], ...kept.filter((r) => r.table === ti).map((r) => r.text)));
  if (left) out.push(left);
  const used = out.reduce((sum, l) => sum + l.length + 1, 0);
  return [...out, ...fitPublications(publications, limit - used, limit)].join('\n');
}

// ---- the entry point -----------------------------------------------------------------------------

/**
 * The text of a tool result: `tool` is the tool's name (its route's operationId), `params` the
 * parameters as the route parsed them (defaults applied; a list such as `states` as an array or a
 * comma-separated string; `{}` or null for a tool without parameters), `body` the structuredContent
 * (for list_lines and get_coverage the wrapped object, `{ lines }`, `{ coverage }`). `limit` is the
 * cap in characters. Never throws: an answer of an unexpected shape gets the generic rendering.
 */
export function textOf(tool: string, params: Record<string, unknown> | null | undefined, body: unknown, limit: number = TEXT_LIMIT_CHARS): string {
  const args = isObj(params) ? params : {};
  if (isObj(body)) {
    try {
      if (SERIES_TOOLS.has(tool) && (Array.isArray(body.data) || isObj(body.series))) return renderSeries(tool, args, body, limit);
      if (tool === 'get_summary') return renderSummary(tool, args, body, limit);
      if (tool === 'get_top_insurers' && Array.isArray(body.insurers)) return renderInsurers(tool, args, body, limit);
    } catch {
      // an unexpected shape: the generic rendering below shows every value all the same
    }
  }
  return renderGeneric(tool, args, body, limit);
}
