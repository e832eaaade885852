// A route's parameters checked against its contract schema, from a query string or an MCP call's arguments:
// unknown and repeated parameters refused by name, schema failures naming the parameter and what was expected.
import type { z } from 'zod';
import { echo } from '../domain/echo.ts';
import { invalidRequest } from '../domain/errors.ts';
import { firstSentence } from '../domain/first-sentence.ts';

/** Parses the query string with a route's parameter schema. */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S): z.infer<S> {
  const allowed = Object.keys(schema.shape);
  const values: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (!allowed.includes(key)) throw unknownParameter(key, allowed);
    if (key in values) throw invalidRequest(`parameter '${key}' is given more than once: give it once`);
    values[key] = value;
  }
  return parseValues(values, schema);
}

export const unknownParameter = (name: string, allowed: readonly string[]) =>
  invalidRequest(
    `unknown parameter ${echo(name)}: ` +
      (allowed.length ? `expected only ${allowed.map((k) => `'${k}'`).join(', ')}` : 'this route takes no parameters'),
  );

/**
 * Checks parameter values (as a query string gives them: text) with a route's schema; errors name the parameter and
 * what was expected.
 */
export function parseValues<S extends z.ZodObject>(values: Record<string, string>, schema: S): z.infer<S> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue.path[0] ?? '');
  // Cross-parameter rules write their whole message ("give exactly one of ..."), even about a parameter
  // not sent; single-value checks say what was expected.
  if (issue.code === 'custom' && issue.params?.wholeMessage) throw invalidRequest(issue.message);
  if (!(name in values)) throw invalidRequest(`missing required parameter '${name}': ${describe(schema, name)}`);
  throw invalidRequest(`invalid '${name}' ${echo(values[name])}: expected ${issue.message}`);
}

/** What a parameter expects: the first sentence of its description, whole. */
function describe(schema: z.ZodObject, name: string): string {
  const meta = (schema.shape[name] as z.ZodType).meta?.() as { description?: string } | undefined;
  if (!meta?.description) return 'see /openapi.json';
  const first = firstSentence(meta.description, { colon: true }).replace(/[.:]$/, '');
  // "expected Two-letter state code" reads as a sentence once its first word is lower-cased (not an acronym such as
  // ISO).
  return `expected ${/^[A-Z][a-z]/.test(first) ? first[0].toLowerCase() + first.slice(1) : first}`;
}
