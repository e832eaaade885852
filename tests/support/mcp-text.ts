// What an MCP tool result's text must be (docs/design.md §11), whichever client reads it.
import { expect } from 'vitest';

/**
 * The text a model reads is no copy of the JSON, which structuredContent carries, but it holds every number
 * of the answer written in full (a printed figure by the words it was printed in), every short text with a
 * digit in it (dates, periods, words as printed) and every URL to cite.
 */
export function expectTextHolds(text: string, body: unknown) {
  expect(() => JSON.parse(text)).toThrow();
  const leaves = (value: unknown): unknown[] => {
    if (value === null || typeof value !== 'object') return [value];
    const entry = value as { value?: unknown; as_printed?: unknown };
    if (typeof entry.as_printed === 'string') return [entry.as_printed];
    return Object.values(value).flatMap(leaves);
  };
  for (const leaf of leaves(body)) {
    if (typeof leaf === 'number') expect(text, String(leaf)).toContain(String(leaf));
    if (typeof leaf === 'string' && ((/\d/.test(leaf) && leaf.length < 40) || /^https?:\/\//.test(leaf)))
      expect(text).toContain(leaf);
  }
}
