// The first sentence of a description, for messages and tool descriptions that quote it: whole, never cut
// inside parentheses or at an abbreviation's period ("(e.g. FL, tx)" must not become "(e.g").

/** Abbreviations whose period does not end a sentence. */
const ABBREVIATIONS = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|no)$/i;

/**
 * `text` up to and including the first `.` or `:` (when `colon`) that ends a sentence: followed by a space or the end,
 * outside parentheses, not an abbreviation's. The whole text when none does.
 */
export function firstSentence(text: string, { colon = false } = {}): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if ((c === '.' || (colon && c === ':')) && depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1]))) {
      if (c === '.' && ABBREVIATIONS.test(text.slice(0, i))) continue;
      return text.slice(0, i + 1);
    }
  }
  return text;
}
