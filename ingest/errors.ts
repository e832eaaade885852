// Every ingest problem names the file, line and column and what was expected.

export interface Problem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** How many problems one file may give before the ingest stops reading it: enough to show a pattern. */
const MAX_PROBLEMS_PER_FILE = 50;
/** How many problems a report lists; the rest are counted in one line. */
const MAX_PROBLEMS_SHOWN = 50;

function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** The first MAX_PROBLEMS_SHOWN problems, one a line, then `... and N more problems` if any were left out. */
export function formatProblems(problems: readonly Problem[]): string[] {
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN).map(formatProblem);
  const rest = problems.length - shown.length;
  return rest > 0 ? [...shown, `... and ${rest} more problem${rest === 1 ? '' : 's'}`] : shown;
}

/** Thrown after validation when any problem was found; the previous build is untouched. */
export class IngestError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`${problems.length} problem(s) in the data:\n${formatProblems(problems).join('\n')}`);
    this.name = 'IngestError';
    this.problems = problems;
  }
}

/**
 * Collects problems so one run reports all of them, but at most MAX_PROBLEMS_PER_FILE per file (a junk
 * file would otherwise give one per line): the last is followed by a note that the file was given up on,
 * and readers ask `full(file)` to stop reading it.
 */
export class Problems {
  readonly list: Problem[] = [];
  private readonly perFile = new Map<string, number>();
  add(file: string, line: number, column: number, message: string): void {
    const n = (this.perFile.get(file) ?? 0) + 1;
    if (n > MAX_PROBLEMS_PER_FILE) return;
    this.perFile.set(file, n);
    this.list.push({ file, line, column, message });
    if (n === MAX_PROBLEMS_PER_FILE)
      this.list.push({
        file,
        line,
        column: 1,
        message: `the ingest stops reading a file after ${MAX_PROBLEMS_PER_FILE} problems: fix these and run it again`,
      });
  }
  /** True once the file has given MAX_PROBLEMS_PER_FILE problems: read no further. */
  full(file: string): boolean {
    return (this.perFile.get(file) ?? 0) >= MAX_PROBLEMS_PER_FILE;
  }
  /**
   * Appends the problems of `other`, which were collected apart (a build checks files in another order
   * than it reports them); its files are not this one's, so no file's count is shared.
   */
  append(other: Problems): void {
    this.list.push(...other.list);
    for (const [file, n] of other.perFile) this.perFile.set(file, n);
  }
  throwIfAny(): void {
    if (this.list.length) throw new IngestError(this.list);
  }
}
