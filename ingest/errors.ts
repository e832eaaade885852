// Every ingest problem names the file, line and column and what was expected.

export interface Problem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** Thrown after validation when any problem was found; nothing has been written. */
export class IngestError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[]) {
    super(`${problems.length} problem(s) in the data:\n${problems.map(formatProblem).join('\n')}`);
    this.name = 'IngestError';
    this.problems = problems;
  }
}

/** Collects problems so one run reports all of them. */
export class Problems {
  readonly list: Problem[] = [];
  add(file: string, line: number, column: number, message: string): void {
    this.list.push({ file, line, column, message });
  }
  throwIfAny(): void {
    if (this.list.length) throw new IngestError(this.list);
  }
}
