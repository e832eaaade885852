// The pieces every rendering of a tool result's text shares: values written in full, the call as
// text, the publication lines, what /v1/coverage says of a state's figures, and the fitting of rows
// under the cap.
import { firstMonthKey, parsePeriod } from '../../domain/periods.ts';
import type { CoverageItem } from '../../domain/contract.ts';
import { coverage } from '../store.ts';

/** The most an agent should have to read in one tool result, in tokens (docs/design.md §11). */
export const TEXT_LIMIT_TOKENS = 20_000;
/** The estimate of docs/design.md §11 and `npm run size:mcp`: 4 characters a token. */
export const CHARS_PER_TOKEN = 4;
/** The cap on a rendering's length, in characters (UTF-16 code units, which are never fewer than characters). */
export const TEXT_LIMIT_CHARS = TEXT_LIMIT_TOKENS * CHARS_PER_TOKEN;

/**
 * What was called: `tool` is the tool's name (its route's operationId), `params` the parameters as
 * the route parsed them (defaults applied; a list such as `states` as an array or a comma-separated
 * string; `{}` or null for a tool without parameters).
 */
export interface TextCall {
  tool: string;
  params?: Record<string, unknown> | null;
}

/**
 * The text of a tool result: `body` is the structuredContent (for list_lines and get_coverage the
 * wrapped object, `{ lines }`, `{ coverage }`). `limit` is the cap in characters. Never throws: an
 * answer of an unexpected shape gets the generic rendering.
 */
export type TextRenderer = (call: TextCall, body: unknown, limit: number) => string;

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** A call's parameters as the renderings read them: an object, `{}` for none. */
export const paramsOf = (call: TextCall): Obj => (isObj(call.params) ? call.params : {});

// ---- writing values ------------------------------------------------------------------------------

/**
 * A number written in full, with the digits JSON gives it but never an exponent: 1.5e+21 is
 * 1500000000000000000000 and 5e-7 is 0.0000005. No rounding, no thousands separators.
 */
function fullNumber(n: number): string {
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
export function plain(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') return fullNumber(value);
  if (typeof value === 'string') return oneLine(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return value.length ? value.map(plain).join(', ') : '(none)';
  return compactJson(value);
}

export const oneLine = (text: string) => text.replace(/\r\n|[\r\n]/g, ' ');

/** A table cell: null empty, `|` escaped so a cell never splits. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return (
    typeof value === 'string' ? oneLine(value) : typeof value === 'object' ? compactJson(value) : plain(value)
  ).replaceAll('|', '\\|');
}

/** The call's arguments as `name=value` (a list joined with commas), in the order given. */
function argumentsText(params: Obj): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
}

export const callText = (tool: string, params: Obj) => {
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
export function publicationLines(publications: unknown[], everyBasis = false): string[] {
  if (!publications.length) return ['Publications: none (no figure in this answer).'];
  return [
    everyBasis
      ? 'Publications (cite by number):'
      : 'Publications (cite by number; report_date as printed unless marked estimated):',
    ...publications.map((p, i) => {
      const pub = asObj(p);
      const basis = pub.report_date_basis;
      const marked = basis !== undefined && basis !== null && (everyBasis || basis !== 'printed');
      const date = `${plain(pub.report_date)}${marked ? ` (${plain(basis)})` : ''}`;
      const extra = Object.entries(pub)
        .filter(([k, v]) => !PUBLICATION_FIELDS.includes(k) && v !== undefined)
        .map(([k, v]) => `${k} ${plain(v)}`);
      const more = extra.length ? `; ${extra.join('; ')}` : '';
      return `[${i + 1}] ${plain(pub.publisher)}, ${plain(pub.title)}, ${date}, ${plain(pub.url)}${more}`;
    }),
  ];
}

// ---- what /v1/coverage says of a state's figures ---------------------------------------------------

interface PeriodTypeFacts {
  basis: string | null;
  count_unit: string | null;
}
const statesOfCoverage = new WeakMap<readonly CoverageItem[], Map<string, Obj>>();

/** The coverage item of each state (the store parses coverage.json once); an empty map when the build has none. */
function coverageStates(): Map<string, Obj> {
  let items: readonly CoverageItem[];
  try {
    items = coverage();
  } catch {
    return new Map();
  }
  let states = statesOfCoverage.get(items);
  if (!states)
    statesOfCoverage.set(items, (states = new Map(items.map((item) => [item.state, item as unknown as Obj]))));
  return states;
}

function periodTypeFacts(state: string, periodType: string): PeriodTypeFacts | null {
  const facts = asObj(asObj(coverageStates().get(state)?.period_types)[periodType]);
  if (!Object.keys(facts).length) return null;
  return { basis: str(facts.basis), count_unit: str(facts.count_unit) };
}

/** `premium is premium filed with SLTX, policy_count counts policies`: what a state's figures of a period type are. */
export function basisText(state: string, periodType: string | null): string {
  if (!periodType) return 'no figures, no basis';
  const facts = periodTypeFacts(state, periodType);
  if (!facts) return `basis unknown: /v1/coverage lists no ${periodType} figures for ${state}`;
  return (
    `premium is ${facts.basis ?? 'of unknown basis'}, ` +
    `policy_count ${facts.count_unit ? `counts ${facts.count_unit}` : 'is not published (no count unit)'}`
  );
}

// ---- fitting under the cap -----------------------------------------------------------------------

/**
 * A row of a rendering: what it costs in characters, with everything it shows (a line and the newline, and any printed
 * figures).
 */
export interface Sized {
  size: number;
}

/**
 * Which rows to keep so that `fixed` characters, the kept rows and the note on the left-out ones stay
 * within `limit`: rows are left out whole, in `dropOrder`, until they do.
 */
export function fit<R extends Sized>(
  fixed: number,
  rows: R[],
  dropOrder: number[],
  note: (dropped: R[]) => string,
  limit: number,
): { kept: R[]; note: string | null } {
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

/**
 * Publication lines that fit what is left: whole entries, with a line for the rest (only when the list alone is past
 * the cap).
 */
export function fitPublications(lines: string[], room: number, limit: number): string[] {
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
  return [
    ...out,
    `(${left} more publications are left out to stay under ${limitWords(limit)}; every one is in ` +
      `structuredContent.publications.)`,
  ];
}

export const limitWords = (limit: number) => `${Math.floor(limit / CHARS_PER_TOKEN).toLocaleString('en-US')} tokens`;

// ---- rows and periods ----------------------------------------------------------------------------

/** The range of periods of some rows: `2017-11..2021-06`, or one period. */
export function periodRange(periods: string[]): string {
  if (!periods.length) return '';
  const sorted = [...periods].sort();
  return sorted[0] === sorted.at(-1) ? sorted[0] : `${sorted[0]}..${sorted.at(-1)}`;
}

export const rowsWord = (n: number) => `${n} row${n === 1 ? '' : 's'}`;

/** The `from`/`to` month a period starts in (what the routes select rows by). */
export const startMonth = (period: string) => {
  const p = parsePeriod(period);
  return p ? firstMonthKey(p) : period;
};

export function unionKeys(rows: Obj[]): string[] {
  const keys: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  return keys;
}
