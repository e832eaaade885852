// The data files' CSV, read by the tests with a reader of their own: what they check about the ingest's
// output is worked out from the files, never from the ingest's code.

/** One CSV line into fields: a field may be quoted, with "" for a quote. */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote in ${line}`);
        field += line.slice(i, q);
        i = q + 1;
        if (line[i] === '"') {
          field += '"';
          i++;
        } else break;
      }
    } else {
      const c = line.indexOf(',', i);
      field = c < 0 ? line.slice(i) : line.slice(i, c);
      i = c < 0 ? line.length : c;
    }
    out.push(field);
    if (i >= line.length) return out;
    i++; // the comma
  }
}

/** A CSV file's records as objects keyed by its header: lines starting with '#' and blank lines left out. */
export function csvRecords(text: string): { header: Record<string, string>; records: Record<string, string>[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header: Record<string, string> = {};
  const records: Record<string, string>[] = [];
  let columns: string[] | null = null;
  for (const line of lines) {
    if (line.startsWith('#')) {
      const m = /^#\s*([^:]+):\s?(.*)$/.exec(line);
      if (m) header[m[1].trim()] = m[2].trim();
      continue;
    }
    if (!line.trim()) continue;
    const fields = csvFields(line);
    if (!columns) columns = fields.map((f) => f.trim());
    else records.push(Object.fromEntries(columns.map((c, i) => [c, fields[i] ?? ''])));
  }
  return { header, records };
}
