// How the further datasets match company names (the sources publish no NAIC number): the ingest
// stores each record's normalized name, and the API normalizes the name asked for the same way.

/**
 * Lower case, `&` as `and`, punctuation dropped, a leading "the" and trailing corporate suffixes (inc,
 * incorporated, corp, corporation, co, company, ltd, limited, llc) removed, spaces collapsed.
 */
export function normalizeName(name: string): string {
  let out = name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  out = out.replace(/^the /, '');
  for (let previous = ''; previous !== out;) {
    previous = out;
    out = out.replace(/ (inc|incorporated|corp|corporation|co|company|ltd|limited|llc)$/, '');
  }
  return out;
}
