// Reads one data file into CSV records, or says what is wrong with it: its size, its encoding, its CSV.
// Problems name a file by its path relative to the working directory.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type CsvFile, readCsv } from './csv.ts';
import { decodeText } from './encoding.ts';
import type { Problems } from './errors.ts';

/**
 * The largest data file the ingest reads: the largest real publication is a few KB, so anything near
 * this is not a publication (a 50 MB junk file once took half a minute and gigabytes to reject).
 */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** How problems name a file: relative to the working directory. */
export const shown = (path: string) => relative(process.cwd(), path) || path;

/** The `.csv` files below `dir`, in name order, folder by folder; none when it does not exist. */
export function listCsv(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listCsv(path);
    return name.endsWith('.csv') ? [path] : [];
  });
}

/** The file's records, or null after adding the problem that stops it from being read. */
export function readDataFile(
  path: string,
  columns: readonly string[],
  problems: Problems,
  metaHeader = false,
): CsvFile | null {
  let bytes: Buffer;
  try {
    const size = statSync(path).size;
    if (size > MAX_FILE_BYTES) {
      problems.add(
        shown(path),
        1,
        1,
        `the file is ${size} bytes, over the ${MAX_FILE_BYTES}-byte (5 MB) limit for a data file: is it the ` +
          `right file?`,
      );
      return null;
    }
    bytes = readFileSync(path);
  } catch {
    problems.add(shown(path), 1, 1, 'the file is missing');
    return null;
  }
  const text = decodeText(shown(path), bytes, problems);
  return text === null ? null : readCsv(shown(path), text, columns, problems, { metaHeader });
}
