// A premium series (a state's, a sample of it, or several states' side by side): one table row per period.
import { SERIES_FIELDS } from '../../domain/contract.ts';
import { parsePeriod } from '../../domain/periods.ts';
import {
  type Obj,
  type Sized,
  type TextRenderer,
  asArray,
  asObj,
  basisText,
  callText,
  cell,
  fit,
  fitPublications,
  isObj,
  limitWords,
  oneLine,
  periodRange,
  plain,
  publicationLines,
  rowsWord,
  startMonth,
  str,
} from './shared.ts';
import { orTable } from './table.ts';

/** How a series answer is laid out, and what the note on its left-out rows offers besides narrower calls. */
export interface SeriesForm {
  /** A series per state (`series`, keyed by state code), each row shown with its state; else one state's `data`. */
  byState?: boolean;
  /**
   * The tool whose answer is the whole series, when this one is a part of it (a sample): the note on left-out rows
   * names it.
   */
  fullSeries?: string;
}

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

/** One state's rows (`state` null when the answer names none). */
interface Block {
  state: string | null;
  rows: Obj[];
}

/** A printed key's line: whose and which key, and what the line starts with. */
interface PrintedLineKey {
  state: string | null;
  key: string;
  prefix: string;
}

/**
 * True when `period` is a year to date (`2025-01..07`) ending in the last month of `rowPeriod`: the row it belongs to.
 */
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
  const noted = notes.length ? ` (${notes.join(', ')})` : '';
  return `${yearToDate ? covered : rowPeriod} ${rounded ? '~' : ''}${words}${noted}`;
}

/** What each printed key the rows use measures, and its unit (the answer's `printed_keys`), by key. */
function printedKeys(body: Obj, rows: Obj[]): Map<string, { measures: unknown; unit: unknown }> {
  const seen = new Set(rows.flatMap((row) => Object.keys(asObj(row.printed))));
  const legend = Object.entries(asObj(body.printed_keys)).filter(([key]) => seen.has(key));
  return new Map(
    legend
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, v]) => [key, { measures: asObj(v).measures, unit: asObj(v).unit }]),
  );
}
/** A coarser granularity than `granularity`, to suggest when rows were left out. */
const COARSER: Record<string, string | undefined> = { month: 'quarter', quarter: 'year', half_year: 'year' };

/**
 * A series answer: the first line (what was asked; basis and count unit from /v1/coverage), the
 * sources, a table of the exact figures (one line per row, only the fields holding a figure), the
 * printed figures one line per key (the key said once, each figure with its row's period), and the
 * publications.
 */
function renderSeries(tool: string, params: Obj, body: Obj, limit: number, form: SeriesForm): string {
  const compare = form.byState === true;
  const granularity = str(body.granularity) ?? str(params.granularity) ?? 'month';
  const blocks: Block[] = compare
    ? Object.entries(asObj(body.series)).map(([state, rows]) => ({ state, rows: asArray(rows).map(asObj) }))
    : [{ state: str(body.state) ?? str(params.state), rows: asArray(body.data).map(asObj) }];
  const allRows = blocks.flatMap((b) => b.rows);

  // 1. What was asked, and what the figures are.
  const head = seriesHead(tool, params, body, blocks, granularity, compare);
  const publications = publicationLines(asArray(body.publications));
  if (allRows.length === 0) return [...head, ...publications].join('\n');

  // 2. The exact figures: the series fields that hold a figure anywhere in the answer.
  const columns = SERIES_FIELDS.filter((f) => allRows.some((r) => r[f] !== null && r[f] !== undefined));
  head.push(`Exact figures, in full (empty: none):`, [...(compare ? ['state'] : []), 'period', ...columns].join('|'));
  const rows = seriesRows(blocks, columns, compare);

  // 3. What was printed: one line per key, saying what it measures (in a comparison, a line per state
  // and key, what each key measures said once before them).
  const { lineKeys, legend } = printedLayout(body, blocks, compare);

  // 4. Under the cap: the earliest periods go first (across states, the earliest of any).
  const dropOrder = rows
    .map((_, i) => i)
    .sort((a, b) => (rows[a].period < rows[b].period ? -1 : rows[a].period > rows[b].period ? 1 : a - b));
  const fixed =
    [...head, ...(legend ? [legend] : []), ...publications].reduce((sum, l) => sum + l.length + 1, 0) +
    lineKeys.reduce((sum, k) => sum + k.prefix.length + 1, 0);
  const note = (dropped: SeriesRow[]) => seriesNote(tool, params, body, granularity, blocks, dropped, limit, form);
  const { kept, note: left } = fit(fixed, rows, dropOrder, note, limit);

  const printed = printedLines(kept, lineKeys, legend);
  const out = [...head, ...kept.map((r) => r.line), ...(printed.length > 1 ? printed : []), ...(left ? [left] : [])];
  const used = out.reduce((sum, l) => sum + l.length + 1, 0);
  return [...out, ...fitPublications(publications, limit - used, limit)].join('\n');
}

/** The lines before the table: what was asked and what the figures are, their sources, and the answer's note. */
function seriesHead(
  tool: string,
  params: Obj,
  body: Obj,
  blocks: Block[],
  granularity: string,
  compare: boolean,
): string[] {
  const states = blocks.map((b) => b.state).filter((s): s is string => s !== null);
  const line = plain(body.line ?? params.line ?? 'all');
  const asked = [
    params.from ? `from ${plain(params.from)}` : null,
    params.to ? `to ${plain(params.to)}` : null,
    params.report_date ? `as published on or before ${plain(params.report_date)}` : null,
  ].filter(Boolean);
  const where = compare ? '' : `, ${body.county ? `county ${plain(body.county)}` : 'statewide'}`;
  const counts = blocks.map(
    (b) =>
      (compare ? `${b.state} ` : '') +
      (b.rows.length ? `${rowsWord(b.rows.length)} ${periodRange(b.rows.map((r) => String(r.period)))}` : 'no rows'),
  );
  const bases = blocks.map(
    (b) =>
      `${compare ? `${b.state}: ` : ''}${basisText(b.state ?? '', b.rows.length || !compare ? granularity : null)}`,
  );
  const provenance =
    `report_date ${plain(body.report_date)}, ` +
    `data_as_of ${plain(body.data_as_of)}${compare ? " (the earliest state's)" : ''}`;
  const empty = blocks.every((b) => b.rows.length === 0);
  const first =
    `${tool}: ${states.join(', ') || '-'}, line ${line}${where}, ` +
    `granularity ${granularity}${asked.length ? ` (${asked.join(', ')})` : ''}` +
    `${body.sample === true ? ', free sample' : ''}: ` +
    (empty ? 'no rows: nothing was published for this query (no figure to cite). ' : `${counts.join(', ')}. `) +
    `${bases.join('. ')}. ${provenance}.`;

  const head = [first];
  if (compare)
    head.push(
      `Sources: ${Object.entries(asObj(body.source))
        .map(([s, name]) => `${s} ${plain(name)}`)
        .join('; ')}.`,
    );
  else if (body.source !== undefined) head.push(`Source: ${plain(body.source)}.`);
  if (body.note !== undefined) head.push(`Note: ${plain(body.note)}`);
  return head;
}

/** The rows, each as its table line of exact figures (only `columns`) and its printed figures. */
function seriesRows(blocks: Block[], columns: string[], compare: boolean): SeriesRow[] {
  return blocks.flatMap((b) =>
    b.rows.map((r) => {
      const period = String(r.period);
      const text = [...(compare ? [b.state] : []), period, ...columns.map((f) => cell(r[f]))].join('|');
      const printed = Object.entries(asObj(r.printed)).map(([key, e]): [string, string] => [
        key,
        printedFigure(asObj(e) as PrintedEntry, period),
      ]);
      return {
        state: b.state,
        period,
        line: text,
        printed,
        size: text.length + 1 + printed.reduce((sum, [, p]) => sum + p.length + 2, 0),
      };
    }),
  );
}

/**
 * The printed figures' lines, before the figures are put on them: a line per key (per state and key in a
 * comparison), and the legend above them (null when no row has a printed figure).
 */
function printedLayout(
  body: Obj,
  blocks: Block[],
  compare: boolean,
): { lineKeys: PrintedLineKey[]; legend: string | null } {
  const keys = printedKeys(
    body,
    blocks.flatMap((b) => b.rows),
  );
  /** ` = what it measures (unit)`; just ` (unit)` where the key is its own name (`premium`). */
  const meaning = (key: string, equals: string) => {
    const { measures, unit } = keys.get(key)!;
    const said = measures === undefined || measures === null ? '' : plain(measures);
    const what = said === key.replaceAll('_', ' ') ? '' : `${equals}${said || '?'}`;
    return `${what}${unit === undefined || unit === null ? '' : ` (${plain(unit)})`}`;
  };
  const lineKeys = blocks.flatMap((b) =>
    [...keys.keys()].map((key) => ({
      state: b.state,
      key,
      prefix: compare ? `${b.state} ${key}: ` : `${key}${meaning(key, ' = ')}: `,
    })),
  );
  const legend = keys.size
    ? `Printed figures (not exact; never summed), a line per ${compare ? 'state and ' : ''}key: period "words as ` +
      `printed", ~ if rounded, (qualifier) if not in the words; a year to date 2025-01..07 is in row ` +
      `2025-07${compare ? `. Keys: ${[...keys.keys()].map((k) => k + meaning(k, ' = ')).join('; ')}.` : ':'}`
    : null;
  return { lineKeys, legend };
}

/** The legend, then each key's line holding the printed figures of the rows kept (a line with none left out). */
function printedLines(kept: SeriesRow[], lineKeys: PrintedLineKey[], legend: string | null): string[] {
  const figures = new Map<string, string[]>();
  for (const r of kept)
    for (const [key, text] of r.printed) {
      const at = `${r.state} ${key}`;
      if (figures.has(at)) figures.get(at)!.push(text);
      else figures.set(at, [text]);
    }
  const lines = legend ? [legend] : [];
  for (const { state, key, prefix } of lineKeys) {
    const own = figures.get(`${state} ${key}`);
    if (own) lines.push(prefix + own.join('; '));
  }
  return lines;
}

/** The line on rows left out: how many, which periods, and the calls that get them. */
function seriesNote(
  tool: string,
  params: Obj,
  body: Obj,
  granularity: string,
  blocks: Block[],
  dropped: SeriesRow[],
  limit: number,
  form: SeriesForm,
): string {
  const compare = form.byState === true;
  const total = blocks.reduce((n, b) => n + b.rows.length, 0);
  const perState = blocks
    .map((b) => ({ state: b.state, periods: dropped.filter((d) => d.state === b.state).map((d) => d.period) }))
    .filter((s) => s.periods.length);
  const which = perState
    .map((s) => `${compare ? `${s.state} ` : ''}${periodRange(s.periods)}${compare ? ` (${s.periods.length})` : ''}`)
    .join(', ');
  const latest = dropped
    .map((d) => d.period)
    .sort()
    .at(-1)!;
  const base: Obj = compare
    ? {
        states: params.states ?? blocks.map((b) => b.state).join(','),
        line: params.line ?? body.line,
        granularity,
        from: params.from,
        report_date: params.report_date,
      }
    : {
        state: params.state ?? body.state,
        line: params.line ?? body.line,
        county: params.county,
        granularity,
        from: params.from,
        report_date: params.report_date,
      };
  const calls = [`call ${callText(tool, { ...base, to: startMonth(latest) })}`];
  const coarser = COARSER[granularity];
  if (coarser) calls.push(`${callText(tool, { ...base, granularity: coarser, to: params.to })} for fewer rows`);
  if (compare && perState.length > 1) calls.push(`one state per call (states=${perState[0].state}, ...)`);
  if (form.fullSeries) calls.push(`${form.fullSeries} for the full series`);
  return (
    `Left out: ${rowsWord(dropped.length)} of ${total}, the earliest (${which}), with their printed figures, to ` +
    `stay under ${limitWords(limit)}; they are in structuredContent. For them: ${calls.join('; or ')}.`
  );
}

/** A series renderer of the given form; it reads an answer with its rows (`data`) or its series by state (`series`). */
export const seriesText = (form: SeriesForm = {}): TextRenderer =>
  orTable(
    (body) => Array.isArray(body.data) || isObj(body.series),
    (tool, params, body, limit) => renderSeries(tool, params, body, limit, form),
  );
