// Reads a CSV file (optionally preceded by `# key: value` header lines) into rows whose fields know
// their line and column, so validation errors can point at the exact spot.
import { parse } from 'csv-parse/sync';
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
  rows: Row[];
}

/** Start columns (1-based) of each field in a raw CSV record line, honouring quotes. */
function fieldColumns(raw: string): number[] {
  const starts = [1];
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) starts.push(i + 2);
  }
  return starts;
}

/**
 * Parses `text`; problems go to `problems` and the rows that could be read are returned.
 * `columns` lists the required header, in any order; unknown columns are problems too.
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
  const lines = text.split('\n');
  let first = 0;
  if (opts.metaHeader) {
    while (first < lines.length && lines[first].startsWith('#')) {
      const m = lines[first].match(/^#\s*([a-z_]+):\s?(.*?)\s*$/);
      if (!m) problems.add(file, first + 1, 1, "expected a header line '# key: value'");
      else if (meta.has(m[1])) problems.add(file, first + 1, 3, `header '${m[1]}' is given twice`);
      else {
        const colon = lines[first].indexOf(':');
        const column = m[2] ? lines[first].indexOf(m[2], colon) + 1 : colon + 2;
        meta.set(m[1], { value: m[2], line: first + 1, column });
      }
      first++;
    }
  }
  let records: { record: string[]; info: { lines: number }; raw: string }[];
  try {
    records = parse(text, { from_line: first + 1, info: true, raw: true, skip_empty_lines: true, relax_column_count: true }) as unknown as typeof records;
  } catch (e) {
    const err = e as { lines?: number; column?: number; message: string };
    problems.add(file, err.lines ?? first + 1, (err.column ?? 0) + 1, `not valid CSV: ${err.message}`);
    return null;
  }
  if (records.length === 0) {
    problems.add(file, first + 1, 1, `expected the CSV header ${columns.join(',')}`);
    return null;
  }
  const header = records[0].record.map((h) => h.trim());
  const headerLine = records[0].info.lines;
  let headerOk = true;
  for (const c of columns) {
    if (!header.includes(c)) {
      problems.add(file, headerLine, 1, `missing column '${c}': expected the CSV header ${columns.join(',')}`);
      headerOk = false;
    }
  }
  header.forEach((h, i) => {
    if (!columns.includes(h)) {
      problems.add(file, headerLine, fieldColumns(records[0].raw)[i] ?? 1, `unknown column '${h}': expected only ${columns.join(',')}`);
      headerOk = false;
    }
  });
  if (!headerOk) return null;

  const rows: Row[] = [];
  for (const { record, info, raw } of records.slice(1)) {
    // info.lines is the line where the record ends; records here are single-line.
    const line = info.lines;
    const starts = fieldColumns(raw.replace(/\r?\n$/, ''));
    if (record.length !== header.length) {
      problems.add(file, line, 1, `expected ${header.length} fields (${header.join(',')}), found ${record.length}`);
      continue;
    }
    const cells: Record<string, Cell> = {};
    header.forEach((h, i) => (cells[h] = { value: record[i], line, column: starts[i] ?? 1 }));
    rows.push({ line, cells });
  }
  return { file, meta, rows };
}
