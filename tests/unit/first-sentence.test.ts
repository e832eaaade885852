// Messages quote a description's first sentence whole (issue 23: "expected Two-letter state code,
// case-insensitive (e.g" was cut at the abbreviation's period).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { callHandler } from '../support/handlers.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { firstSentence } from '../../domain/first-sentence.ts';

describe('firstSentence', () => {
  it('ends at the first period or colon that ends a sentence', () => {
    expect(firstSentence('Calendar year. Defaults to the latest.')).toBe('Calendar year.');
    expect(firstSentence('One of: a, b.', { colon: true })).toBe('One of:');
    expect(firstSentence('One of: a, b.')).toBe('One of: a, b.');
    expect(firstSentence('No period at all')).toBe('No period at all');
  });

  it('does not end inside parentheses, at an abbreviation, or at a period inside a word or number', () => {
    expect(firstSentence('Two-letter state code, case-insensitive (e.g. FL, tx). More.')).toBe(
      'Two-letter state code, case-insensitive (e.g. FL, tx).',
    );
    expect(firstSentence('A code (see below. It varies) here. Next.')).toBe('A code (see below. It varies) here.');
    expect(firstSentence('Lines, i.e. coverage lines, etc. and more. Next.')).toBe(
      'Lines, i.e. coverage lines, etc. and more.',
    );
    expect(firstSentence('A rate of 4.5 percent, v1.2. Next.')).toBe('A rate of 4.5 percent, v1.2.');
  });
});

describe('a missing required parameter', () => {
  const required = ROUTE_CONTRACTS.flatMap((route) =>
    Object.entries(route.params?.shape ?? {})
      .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
      .map(([name]) => ({ route, name })),
  );

  it('exists on some route (the check below means something)', () => expect(required.length).toBeGreaterThan(3));

  for (const { route, name } of required)
    it(`${route.path} without '${name}': the message quotes what it expects whole`, async () => {
      // Every other required parameter given its example, so the one left out is the one named.
      const exampleOf = (n: string) =>
        String(((route.params!.shape[n] as z.ZodType).meta?.() as { example?: unknown } | undefined)?.example ?? 'x');
      const others = required
        .filter((r) => r.route === route && r.name !== name)
        .map((r) => `${r.name}=${encodeURIComponent(exampleOf(r.name))}`);
      const response = await callHandler(`http://localhost${route.path}?${others.join('&')}`);
      const { message } = ((await response.json()) as { error: { message: string } }).error;
      expect(response.status).toBe(400);
      expect(message).toContain(`missing required parameter '${name}': expected `);
      const description = ((route.params!.shape[name] as z.ZodType).meta?.() as { description?: string }).description!;
      const expected = message.slice(message.indexOf(': expected ') + ': expected '.length);
      // Parentheses balanced, and what it quotes is the description's own opening, word for word (up to the first letter's case).
      expect(expected.split('(').length).toBe(expected.split(')').length);
      expect(description.toLowerCase().startsWith(expected.toLowerCase())).toBe(true);
      expect(expected).not.toMatch(/\b(e\.g|i\.e)$/);
    });
});
