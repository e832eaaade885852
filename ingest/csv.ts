// Reads a CSV file (optionally preceded by `# key: value` header lines) into rows whose fields know
// their line and column, so validation errors can point at the exact spot. csv-parse reads the records
// (RFC 4180), a batch of lines at a time as the rows are iterated, so reading stops near a file's
// problem limit instead of parsing a junk file to its end. A record is one line (no data file breaks a
// field across lines): a line csv-parse cannot read as one record on its own is named, and the lines
// after it are read apart from it.
import { CsvError, parse } from 'csv-parse/sync';
import type { Problems } from './errors.ts';

interface Cell {
  value: string;
  line: number;
  column: number;
}
type Row = { line: number; cells: Record<string, Cell> };
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

/** Lines given to csv-parse at once: reading stops at most this far past a file's problem limit. */
const BATCH_LINES = 1000;
const OPTIONS = {
  record_delimiter: '\n', // a CR is text: a CRLF's CR is cut off before
  relax_column_count: true, // the field count is checked against the CSV header, not the first record
} as const;

/**
 * csv-parse's records of `lines` (non-empty, without their line ends), one a line; null if it cannot
 * read them so: an error, or fewer records than lines (a quoted field ran on past its line end).
 */
function parseBatch(lines: string[]): string[][] | null {
  try {
    const records = parse(`${lines.join('\n')}\n`, OPTIONS);
    return records.length === lines.length ? records : null;
  } catch (e) {
    if (e instanceof CsvError) return null;
    throw e;
  }
}

/** csv-parse's fields of one line, or where and why it cannot read them. */
function parseLine(line: string): string[] | { column: number; message: string } {
  try {
    // With `raw`, csv-parse gives { record, raw } (its types say string[]), and its errors the text read.
    return (parse(`${line}\n`, { ...OPTIONS, raw: true }) as unknown as { record: string[] }[])[0].record;
  } catch (e) {
    if (!(e instanceof CsvError)) throw e;
    return notCsv(e);
  }
}

/**
 * The (1-based) column each of csv-parse's `fields` starts at in the line it read them from: a field
 * is as wide as its value, or, read quoted, two quotes and one per doubled quote wider; a comma follows.
 */
function fieldColumns(fields: string[], line: string): number[] {
  let at = 0;
  return fields.map((value) => {
    const start = at;
    at += (line[at] === '"' ? value.length + 2 + value.split('"').length - 1 : value.length) + 1;
    return start + 1;
  });
}

/** Where and why csv-parse could not read a line on its own, in the ingest's words. */
function notCsv(e: CsvError): { column: number; message: string } {
  // `raw`: the line as far as csv-parse read it, up to the character it stopped at.
  const raw = e.raw as string;
  switch (e.code) {
    case 'INVALID_OPENING_QUOTE':
      return {
        column: raw.length,
        message: 'a quote inside an unquoted field: quote the whole field and double the quote ("")',
      };
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { column: raw.length + 1, message: 'expected a comma after the closing quote of a field' };
    case 'CSV_QUOTE_NOT_CLOSED': {
      // Field `index` opened the quote; `bytes` is where csv-parse last ended a field: the comma before it.
      const start = (e.index as number) > 0 ? (e.bytes as number) + 1 : 0;
      return {
        column: Buffer.from(raw).subarray(0, start).toString().length + 1,
        message: 'this quoted field is not closed on its line (a field cannot span lines)',
      };
    }
    default:
      throw e; // the options above give no other error
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
    problems.add(
      file,
      1,
      1,
      `the file is empty: expected ${opts.metaHeader ? "'# key: value' header lines, then " : ''}the CSV ` +
        `header ${columns.join(',')}`,
    );
    return null;
  }
  if (!text.endsWith('\n')) {
    const lines = text.split('\n');
    problems.add(
      file,
      lines.length,
      lines.at(-1)!.length + 1,
      'the file does not end with a line end: it may be cut short (every line, the last one too, ends with a newline)',
    );
    return null;
  }
  // Without the line ends (CRLF or LF); lines[i] is line i + 1.
  const lines = text
    .slice(0, -1)
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
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
  const head = parseLine(lines[at]);
  if (!Array.isArray(head)) {
    problems.add(file, headerLine, head.column, `not valid CSV: ${head.message}`);
    return null;
  }
  const header = head.map((h) => h.trim());
  const starts = fieldColumns(head, lines[at]);
  let headerOk = true;
  for (const c of columns) {
    if (!header.includes(c)) {
      problems.add(file, headerLine, 1, `missing column '${c}': expected the CSV header ${columns.join(',')}`);
      headerOk = false;
    }
  }
  header.forEach((h, i) => {
    if (!columns.includes(h)) {
      problems.add(file, headerLine, starts[i], `unknown column '${h}': expected only ${columns.join(',')}`);
      headerOk = false;
    }
  });
  if (!headerOk) return null;
  const recordCount = lines.slice(at + 1).filter((l) => l !== '').length;
  return { file, meta, rows: readRows(file, lines, at + 1, header, problems), recordCount };
}

/**
 * The rows from `lines[from]` on, until the file has given its problem limit. A batch csv-parse cannot
 * read a record a line is read again line by line, so that each error is about its own line and the
 * lines after it are read apart from it.
 */
function* readRows(file: string, lines: string[], from: number, header: string[], problems: Problems): Generator<Row> {
  for (let next = from; next < lines.length && !problems.full(file);) {
    const at: number[] = []; // the batch's lines, by index in `lines`: blank lines are no records
    for (; next < lines.length && at.length < BATCH_LINES; next++) if (lines[next] !== '') at.push(next);
    const batch = parseBatch(at.map((i) => lines[i]));
    for (const [k, i] of at.entries()) {
      if (problems.full(file)) return;
      const line = i + 1;
      const fields = batch ? batch[k] : parseLine(lines[i]);
      if (!Array.isArray(fields)) {
        problems.add(file, line, fields.column, `not valid CSV: ${fields.message}`);
        continue;
      }
      if (fields.length !== header.length) {
        problems.add(file, line, 1, `expected ${header.length} fields (${header.join(',')}), found ${fields.length}`);
        continue;
      }
      const columns = fieldColumns(fields, lines[i]);
      const cells: Record<string, Cell> = {};
      header.forEach((h, c) => (cells[h] = { value: fields[c], line, column: columns[c] }));
      yield { line, cells };
    }
  }
}
