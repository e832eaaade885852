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
import { insurersText } from './insurers.ts';
import { seriesText } from './series.ts';
import type { TextRenderer } from './shared.ts';
import { summaryText } from './summary.ts';
import { tableText } from './table.ts';

export { insurersText } from './insurers.ts';
export { type SeriesForm, seriesText } from './series.ts';
export { CHARS_PER_TOKEN, TEXT_LIMIT_CHARS, TEXT_LIMIT_TOKENS, type TextCall, type TextRenderer, fullNumber } from './shared.ts';
export { summaryText } from './summary.ts';
export { type LeftOutCalls, tableText } from './table.ts';

/**
 * TEMPORARY: the renderer of each tool, by its name (its route's operationId), until each operation
 * names its own renderer; then this lookup and renderOf go.
 */
export const RENDERER_OF_TOOL: Record<string, TextRenderer> = {
  get_premium: seriesText(),
  get_summary: summaryText,
  compare_states: seriesText({ byState: true }),
  get_top_insurers: insurersText,
  get_solvency: tableText(),
  list_enforcement_actions: tableText({ reach: 'year', narrowBy: 'state, action_type or insurer' }),
  list_rate_filings: tableText({ reach: 'to', narrowBy: 'state, company or toi' }),
  get_rate_activity: tableText({ reach: 'to_month', narrowBy: 'states' }),
  get_syndicate: tableText(),
  get_eligibility: tableText(),
  get_premium_sample: seriesText({ fullSeries: 'get_premium' }),
  list_lines: tableText(),
  list_publications: tableText(),
  get_solvency_sample: tableText(),
  get_rates_sample: tableText(),
  get_syndicates_sample: tableText(),
  get_coverage: tableText(),
};

const GENERIC = tableText();

/** The renderer of a tool (TEMPORARY, with RENDERER_OF_TOOL); a name it does not list gets the generic rendering. */
export const renderOf = (tool: string): TextRenderer => RENDERER_OF_TOOL[tool] ?? GENERIC;
