// For test files whose cases provoke logged warnings and errors on purpose (a refused payment, an
// unreachable store): they are kept, not printed, so a green run shows nothing that looks like trouble;
// each case can read them, and a line no pattern expects fails the case instead of passing unseen.
import { afterEach, beforeEach, vi } from 'vitest';

export function capturedConsole(expected: RegExp[]): { lines: () => string[] } {
  let lines: string[] = [];
  let restore = () => {};
  beforeEach(() => {
    lines = [];
    const spies = (['warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' '))),
    );
    restore = () => spies.forEach((spy) => spy.mockRestore());
  });
  afterEach(() => {
    restore();
    const unexpected = lines.filter((line) => !expected.some((pattern) => pattern.test(line)));
    if (unexpected.length) throw new Error(`logged unexpectedly:\n${unexpected.join('\n')}`);
  });
  return { lines: () => lines };
}
