// Figures parked on disk by state while the data folder is read, so that a build holds one state's
// figures at a time, not the whole folder's: one text file per state in `dir`, one line per figure, in
// the order added. Fields are split by U+001F and a null is written as NUL, neither of which a data
// file can hold (ingest/encoding.ts refuses control characters), and lines by LF, which no field can
// hold (a CSV field cannot span lines).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Period, parsePeriod } from '../domain/periods.ts';
import type { Metric } from '../domain/metrics.ts';
import type { Figure } from './model-types.ts';
import type { Publication } from './sources/header.ts';

const SEP = '\x1F';
/** Null, told from an empty text: NUL is refused in data files too. */
const NULL = '\0';
/** Lines held before they are appended to their files: a bound on memory whatever the number of states. */
const BUFFER_CHARS = 8 * 1024 * 1024;

const text = (s: string | null) => s ?? NULL;
const orNull = (s: string) => (s === NULL ? null : s);
// String() round-trips every double but -0 (a change of "-0.0" percent), which is kept as written.
const num = (n: number) => (Object.is(n, -0) ? '-0' : String(n));

export class Spill {
  private readonly dir: string;
  private readonly bufferChars: number;
  /** Figures are written with their publication's number here, and read back with the same object. */
  private readonly publications: Publication[] = [];
  private readonly pubIndex = new Map<Publication, number>();
  private readonly fileNumber = new Map<string, number>();
  private readonly pending = new Map<string, string[]>();
  private pendingChars = 0;

  constructor(dir: string, bufferChars = BUFFER_CHARS) {
    this.dir = dir;
    this.bufferChars = bufferChars;
    mkdirSync(dir, { recursive: true });
  }

  add(f: Figure): void {
    let pub = this.pubIndex.get(f.pub);
    if (pub === undefined) {
      pub = this.publications.push(f.pub) - 1;
      this.pubIndex.set(f.pub, pub);
    }
    const line = [
      pub,
      f.period.key,
      f.line,
      text(f.county),
      text(f.insurer),
      f.metric,
      num(f.value),
      f.exact ? '1' : '',
      text(f.qualifier),
      text(f.printed),
      f.fileLine,
      f.valueColumn,
    ].join(SEP);
    const lines = this.pending.get(f.state);
    if (lines) lines.push(line);
    else this.pending.set(f.state, [line]);
    this.pendingChars += line.length + 1;
    if (this.pendingChars > this.bufferChars) this.flush();
  }

  /** The figures of `state`, in the order they were added: a Period object per period, shared by its figures. */
  read(state: string): Figure[] {
    this.flush();
    let content: string;
    try {
      content = readFileSync(this.file(state), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []; // a state with no figures
      throw e;
    }
    const periods = new Map<string, Period>();
    const figures: Figure[] = [];
    for (const line of content.split('\n')) {
      if (line === '') continue;
      const [pub, key, lineCode, county, insurer, metric, value, exact, qualifier, printed, fileLine, valueColumn] =
        line.split(SEP);
      let period = periods.get(key);
      if (!period) periods.set(key, (period = parsePeriod(key)!));
      figures.push({
        pub: this.publications[Number(pub)],
        state,
        period,
        line: lineCode,
        county: orNull(county),
        insurer: orNull(insurer),
        metric: metric as Metric,
        value: Number(value),
        exact: exact === '1',
        qualifier: orNull(qualifier),
        printed: orNull(printed),
        fileLine: Number(fileLine),
        valueColumn: Number(valueColumn),
      });
    }
    return figures;
  }

  /** Files are numbered, not named by state: a code states.csv refuses (`a/b`) still reaches here. */
  private file(state: string): string {
    let n = this.fileNumber.get(state);
    if (n === undefined) this.fileNumber.set(state, (n = this.fileNumber.size));
    return join(this.dir, `${n}.txt`);
  }

  private flush(): void {
    for (const [state, lines] of this.pending) appendFileSync(this.file(state), lines.join('\n') + '\n');
    this.pending.clear();
    this.pendingChars = 0;
  }
}
