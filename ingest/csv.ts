// Reads a CSV file (optionally preceded by `# key: value` header lines) into rows whose fields know
// their line and column, so validation errors can point at the exact spot. A record is one line (RFC
// 4180 quoting within the line; no data file breaks a field across lines), so the reader goes line by
// line and stops at a file's problem limit instead of parsing a junk file to its end.
import type { Problems } from './errors.ts';

export interface Cell {
  value: string;
  line: number;
  column: number;
}
export type Row = { line: number; cells: Record<string, Cell> };
export interface MetaEntry {
  value: string;
  line: number;
  /** Column where the value starts. */
  column: number;
}
export interface CsvFile {
  file: string;
  meta: Map<string, MetaEntry>;
  /** Read as they are iterated, once; a row that is not valid CSV or has a wrong field count is a problem instead. */
  rows: Iterable<Row>;
  /** Records (non-empty lines) after the CSV header, whether or not they make a row. */
  recordCount: number;
}

/**
 * A copy of `text` that holds no reference to the string it was cut from: V8 keeps a longer substring
 * as a slice of its parent, so a publication's title or URL would keep the whole file's text alive for
 * as long as the publication is kept (the whole build), hundreds of MB over a large folder.
 */
const ownCopy = (text: string) => Buffer.from(text).toString();

type SplitLine = { fields: string[]; columns: number[] } | { column: number; message: string };

/** The fields of one line and the (1-based) column each starts at, or where the line stops being CSV. */
function splitLine(text: string): SplitLine {
  const fields: string[] = [];
  const columns: number[] = [];
  for (let i = 0; ; i++) {
    columns.push(i + 1);
    if (text[i] === '"') {
      const start = i;
      let value = '';
      for (let from = i + 1; ; ) {
        const close = text.indexOf('"', from);
        if (close < 0) return { column: start + 1, message: 'this quoted field is not closed on its line (a field cannot span lines)' };
        value += text.slice(from, close);
        i = close + 1;
        if (text[i] !== '"') break;
        value += '"'; // "" is a quote inside a quoted field
        from = i + 1;
      }
      if (i < text.length && text[i] !== ',') return { column: i + 1, message: 'expected a comma after the closing quote of a field' };
      fields.push(value);
    } else {
      const comma = text.indexOf(',', i);
      const end = comma < 0 ? text.length : comma;
      const quote = text.slice(i, end).indexOf('"');
      if (quote >= 0) return { column: i + quote + 1, message: 'a quote inside an unquoted field: quote the whole field and double the quote ("")' };
      fields.push(text.slice(i, end));
      i = end;
    }
    if (i >= text.length) return { fields, columns };
  }
}

/**
 * Parses `text`; problems go to `problems` and the rows that can be read are returned.
 * `columns` lists the required header, in any order; unknown columns are problems too.
 * The text must end with a line end: a file cut short in the middle of a line is refused.
 */
export function readCsv(
  file: string,
  text: string,
  columns: readonly string[],
  problems: Problems,
  opts: { metaHeader?: boolean } = {},
): CsvFile | null {
  const meta = new Map<string, MetaEntry>();
  if (text.trim() === '') {
    problems.add(file, 1, 1, `the file is empty: expected ${opts.metaHeader ? "'# key: value' header lines, then " : ''}the CSV header ${columns.join(',')}`);
    return null;
  }
  if (!text.endsWith('\n')) {
    const lines = text.split('\n');
    problems.add(file, lines.length, lines.at(-1)!.length + 1, 'the file does not end with a line end: it may be cut short (every line, the last one too, ends with a newline)');
    return null;
  }
  // Without the line ends (CRLF or LF); lines[i] is line i + 1.
  const lines = text.slice(0, -1).split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  let first = 0;
  if (opts.metaHeader) {
    while (first < lines.length && lines[first].startsWith('#') && !problems.full(file)) {
      const m = lines[first].match(/^#\s*([a-z_]+):\s?(.*?)\s*$/);
      if (!m) problems.add(file, first + 1, 1, "expected a header line '# key: value'");
      else if (meta.has(m[1])) problems.add(file, first + 1, 3, `header '${m[1]}' is given twice`);
      else {
        const colon = lines[first].indexOf(':');
        const column = m[2] ? lines[first].indexOf(m[2], colon) + 1 : colon + 2;
        meta.set(m[1], { value: ownCopy(m[2]), line: first + 1, column });
      }
      first++;
    }
    if (problems.full(file)) return null;
  }
  let at = first;
  while (at < lines.length && lines[at] === '') at++;
  if (at === lines.length) {
    problems.add(file, first + 1, 1, `expected the CSV header ${columns.join(',')}`);
    return null;
  }
  const headerLine = at + 1;
  const split = splitLine(lines[at]);
  if ('message' in split) {
    problems.add(file, headerLine, split.column, `not valid CSV: ${split.message}`);
    return null;
  }
  const header = split.fields.map((h) => h.trim());
  let headerOk = true;
  for (const c of columns) {
    if (!header.includes(c)) {
      problems.add(file, headerLine, 1, `missing column '${c}': expected the CSV header ${columns.join(',')}`);
      headerOk = false;
    }
  }
  header.forEach((h, i) => {
    if (!columns.includes(h)) {
      problems.add(file, headerLine, split.columns[i], `unknown column '${h}': expected only ${columns.join(',')}`);
      headerOk = false;
    }
  });
  if (!headerOk) return null;
  const recordCount = lines.slice(at + 1).filter((l) => l !== '').length;
  return { file, meta, rows: readRows(file, lines, at + 1, header, problems), recordCount };
}

/** The rows from `lines[from]` on, until the file has given its problem limit. */
function* readRows(file: string, lines: string[], from: number, header: string[], problems: Problems): Generator<Row> {
  for (let i = from; i < lines.length && !problems.full(file); i++) {
    if (lines[i] === '') continue;
    const line = i + 1;
    const record = splitLine(lines[i]);
    if ('message' in record) {
      problems.add(file, line, record.column, `not valid CSV: ${record.message}`);
      continue;
    }
    if (record.fields.length !== header.length) {
      problems.add(file, line, 1, `expected ${header.length} fields (${header.join(',')}), found ${record.fields.length}`);
      continue;
    }
    const cells: Record<string, Cell> = {};
    header.forEach((h, k) => (cells[h] = { value: record.fields[k], line, column: record.columns[k] }));
    yield { line, cells };
  }
}
