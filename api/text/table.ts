// The generic rendering, of any answer: each list of objects a table, every other value `key: value`;
// also what every other kind of answer falls back to when its answer is not of its shape.
import {
  type Obj,
  type Sized,
  type TextRenderer,
  callText,
  cell,
  fit,
  fitPublications,
  isObj,
  limitWords,
  paramsOf,
  periodRange,
  plain,
  publicationLines,
  rowsWord,
  startMonth,
  unionKeys,
} from './shared.ts';

/**
 * What the note on left-out rows offers besides narrower filters, as the operation states it: the
 * parameter that reaches the left-out rows by their dates, and the filters that narrow the call.
 */
export interface LeftOutCalls {
  /**
   * `to` the latest date left out (`to_month`: the month it starts in), or `year` the earliest year left out, a call
   * per year.
   */
  reach: 'to' | 'to_month' | 'year';
  /** The filters that narrow the call, as the note words them: `state, company or toi`. */
  narrowBy: string;
}

/** The field by which a dataset's rows are dated, to leave out the earliest first. */
const DATE_FIELDS = ['period', 'bucket_date', 'report_date'];

/** The narrower calls that get a dataset's left-out rows. */
function datasetCalls(tool: string, params: Obj, droppedDates: string[], leftOut: LeftOutCalls | undefined): string {
  const latest = [...droppedDates].sort().at(-1);
  if (latest && leftOut?.reach === 'year') {
    const years = [...new Set(droppedDates)].sort();
    return (
      `call ${callText(tool, { ...params, year: years[0] })}` +
      `${years.length > 1 ? ` (one call per year, ${years[0]} to ${years.at(-1)})` : ''}, ` +
      `or narrow it by ${leftOut.narrowBy}`
    );
  }
  if (latest && leftOut)
    return (
      `call ${callText(tool, { ...params, to: leftOut.reach === 'to_month' ? startMonth(latest) : latest })}, or ` +
      `narrow it by ${leftOut.narrowBy}`
    );
  return `narrow the call's filters (${callText(tool, params)})`;
}

function renderGeneric(
  tool: string,
  params: Obj,
  body: unknown,
  limit: number,
  leftOut: LeftOutCalls | undefined,
): string {
  const root: Obj = isObj(body) ? body : { answer: body };
  const first = `${callText(tool, params)}:`;
  const scalars: string[] = [];
  const tables: { key: string; rows: Obj[]; columns: string[] }[] = [];
  for (const [key, value] of Object.entries(root)) {
    if (key === 'publications' && Array.isArray(value)) continue;
    if (Array.isArray(value) && value.length && value.every(isObj))
      tables.push({ key, rows: value, columns: unionKeys(value) });
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
      rows.push({ table: ti, date: dateFields[ti] ? String(r[dateFields[ti]]) : null, text, size: text.length + 1 });
    }),
  );
  const tableSize = (ti: number) => rows.filter((r) => r.table === ti).reduce((sum, r) => sum + r.text.length, 0);
  const order = tables.map((_, ti) => ti).sort((a, b) => tableSize(b) - tableSize(a));
  const dropOrder = order.flatMap((ti) => {
    const own = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.table === ti);
    // dated rows: the earliest first; undated: the last first
    return (
      dateFields[ti]
        ? own.sort((a, b) => (a.r.date! < b.r.date! ? -1 : a.r.date! > b.r.date! ? 1 : b.i - a.i))
        : own.reverse()
    ).map(({ i }) => i);
  });
  const fixed = [first, ...scalars, ...heads.flat(), ...publications].reduce((sum, l) => sum + l.length + 1, 0);
  const note = (dropped: TableLine[]) =>
    tables
      .map((t, ti) => ({ t, ti, gone: dropped.filter((d) => d.table === ti) }))
      .filter(({ gone }) => gone.length)
      .map(
        ({ t, ti, gone }) =>
          `Left out of ${t.key}: ${rowsWord(gone.length)} ` +
          `of ${t.rows.length}` +
          (dateFields[ti]
            ? `, the earliest (${dateFields[ti]} ${periodRange(gone.map((g) => g.date!))})`
            : ', the last') +
          `, ` +
          `to stay under ${limitWords(limit)}; they are in structuredContent.${t.key}. For ` +
          `them: ${datasetCalls(tool, params, gone.map((g) => g.date!).filter(Boolean), leftOut)}.`,
      )
      .join('\n');
  const { kept, note: left } = fit(fixed, rows, dropOrder, note, limit);
  const out = [first, ...scalars];
  tables.forEach((_, ti) => out.push(...heads[ti], ...kept.filter((r) => r.table === ti).map((r) => r.text)));
  if (left) out.push(left);
  const used = out.reduce((sum, l) => sum + l.length + 1, 0);
  return [...out, ...fitPublications(publications, limit - used, limit)].join('\n');
}

/** The generic rendering; `leftOut` is what its note on left-out rows offers (without it, narrower filters). */
export const tableText =
  (leftOut?: LeftOutCalls): TextRenderer =>
  (call, body, limit) =>
    renderGeneric(call.tool, paramsOf(call), body, limit, leftOut);

/** A rendering of one kind of answer: the tool's name, its parameters (`{}` for none), the answer. */
type KindRendering = (tool: string, params: Obj, body: Obj, limit: number) => string;

/**
 * The renderer of one kind of answer, which reads the answers `fits` accepts: any other answer, or
 * one it fails on, gets the generic rendering (without hints), which shows every value.
 */
export function orTable(fits: (body: Obj) => boolean, render: KindRendering): TextRenderer {
  const table = tableText();
  return (call, body, limit) => {
    if (isObj(body) && fits(body)) {
      try {
        return render(call.tool, paramsOf(call), body, limit);
      } catch {
        // an unexpected shape: the generic rendering below shows every value all the same
      }
    }
    return table(call, body, limit);
  };
}
