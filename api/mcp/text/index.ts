// The text an agent reads in an MCP tool result (DECISIONS §11): not a second copy of the JSON, which
// is in structuredContent, but a compact rendering of it: what was asked, a table of the figures (exact
// ones written in full, printed ones marked as printed with their words) and the publications to cite.
// Every value of the answer is in it, unless the text would pass TEXT_LIMIT_CHARS: then whole rows are
// left out (the earliest periods first), and one line says how many, which, and the narrower call
// that gets them. A row or a number is never cut.
//
// A pure function of the tool's name, its parsed parameters and its structured answer, plus the
// precomputed /v1/coverage body (the basis and count unit of each state's period types), which it
// reads itself. Series rows are in DECISIONS §9's compact form: `printed` entries
// `{ value, as_printed, qualifier?, period? }`, and the answer's `printed_keys` says what each key measures.
import { renderGeneric } from './table.ts';
import { renderInsurers } from './insurers.ts';
import { renderSeries } from './series.ts';
import { TEXT_LIMIT_CHARS, isObj } from './shared.ts';
import { renderSummary } from './summary.ts';

export { CHARS_PER_TOKEN, TEXT_LIMIT_CHARS, TEXT_LIMIT_TOKENS, fullNumber } from './shared.ts';

/** The tools whose answer is a premium series: one table row per period. */
const SERIES_TOOLS = new Set(['get_premium', 'get_premium_sample', 'compare_states']);

/**
 * The text of a tool result: `tool` is the tool's name (its route's operationId), `params` the
 * parameters as the route parsed them (defaults applied; a list such as `states` as an array or a
 * comma-separated string; `{}` or null for a tool without parameters), `body` the structuredContent
 * (for list_lines and get_coverage the wrapped object, `{ lines }`, `{ coverage }`). `limit` is the
 * cap in characters. Never throws: an answer of an unexpected shape gets the generic rendering.
 */
export function textOf(tool: string, params: Record<string, unknown> | null | undefined, body: unknown, limit: number = TEXT_LIMIT_CHARS): string {
  const args = isObj(params) ? params : {};
  if (isObj(body)) {
    try {
      if (SERIES_TOOLS.has(tool) && (Array.isArray(body.data) || isObj(body.series))) return renderSeries(tool, args, body, limit);
      if (tool === 'get_summary') return renderSummary(tool, args, body, limit);
      if (tool === 'get_top_insurers' && Array.isArray(body.insurers)) return renderInsurers(tool, args, body, limit);
    } catch {
      // an unexpected shape: the generic rendering below shows every value all the same
    }
  }
  return renderGeneric(tool, args, body, limit);
}
