// The text an agent reads in an MCP tool result (docs/design.md §11): not a second copy of the JSON, which
// is in structuredContent, but a compact rendering of it: what was asked, a table of the figures (exact
// ones written in full, printed ones marked as printed with their words) and the publications to cite.
// Every value of the answer is in it, unless the text would pass TEXT_LIMIT_CHARS: then whole rows are
// left out (the earliest periods first), and one line says how many, which, and the narrower call
// that gets them. A row or a number is never cut.
//
// A pure function of the tool's name, its parsed parameters and its structured answer, plus the
// precomputed /v1/coverage body (the basis and count unit of each state's period types), which it
// reads itself. Series rows are in docs/design.md §9's compact form: `printed` entries
// `{ value, as_printed, qualifier?, period? }`, and the answer's `printed_keys` says what each key measures.
export { insurersText } from './insurers.ts';
export { seriesText } from './series.ts';
export { CHARS_PER_TOKEN, TEXT_LIMIT_CHARS, TEXT_LIMIT_TOKENS } from './shared.ts';
export { summaryText } from './summary.ts';
export { tableText } from './table.ts';
