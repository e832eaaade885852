// Parsers for the registries of data/: states, categories, line taxonomies and the line-id registry.
import type { Problems } from '../errors.ts';
import type { CsvFile } from '../csv.ts';
import type { Line, NameBasis, State } from '../model-types.ts';

const NAME_BASIS: Record<string, NameBasis> = {
  confirmed: 'confirmed',
  seen: 'seen_in_press',
  unconfirmed: 'unconfirmed',
};
export const STATES_COLUMNS = [
  'code',
  'name',
  'stamping_office',
  'acronym',
  'name_confirmed',
  'website',
  'office_source_url',
] as const;
export const CATEGORIES_COLUMNS = ['category', 'description'] as const;
export const LINES_COLUMNS = ['source_code', 'name', 'category', 'source_url', 'note'] as const;
export const LINE_IDS_COLUMNS = ['id', 'state', 'source_code'] as const;
export const BASES_COLUMNS = ['state', 'period_type', 'basis', 'note'] as const;
const PERIOD_TYPES = ['month', 'quarter', 'half_year', 'year', 'year_to_date'];

export function parseStates(csv: CsvFile, problems: Problems): Map<string, State> {
  const states = new Map<string, State>();
  for (const { cells } of csv.rows) {
    const { code, name, stamping_office: office, acronym, name_confirmed: basis } = cells;
    if (!/^[A-Z]{2}$/.test(code.value))
      problems.add(csv.file, code.line, code.column, `expected a two-letter uppercase state code, got '${code.value}'`);
    else if (states.has(code.value))
      problems.add(csv.file, code.line, code.column, `state ${code.value} is listed twice`);
    if (!name.value) problems.add(csv.file, name.line, name.column, 'expected the state name');
    if (!office.value) problems.add(csv.file, office.line, office.column, "expected the stamping office's name");
    const nameBasis = NAME_BASIS[basis.value];
    if (!nameBasis)
      problems.add(
        csv.file,
        basis.line,
        basis.column,
        `expected one of ${Object.keys(NAME_BASIS).join(', ')}, got '${basis.value}'`,
      );
    states.set(code.value, {
      code: code.value,
      name: name.value,
      office: office.value,
      nameBasis,
      source: acronym.value ? `${office.value} (${acronym.value})` : office.value,
    });
  }
  return states;
}

export function parseCategories(csv: CsvFile, problems: Problems): string[] {
  const categories: string[] = [];
  const seen = new Set<string>();
  for (const { cells } of csv.rows) {
    const c = cells.category;
    if (!c.value) problems.add(csv.file, c.line, c.column, 'expected a category name');
    else if (seen.has(c.value.toLowerCase()))
      problems.add(csv.file, c.line, c.column, `category '${c.value}' is listed twice`);
    seen.add(c.value.toLowerCase());
    categories.push(c.value);
  }
  return categories;
}

/** Parses one `lines/<STATE>.csv`; ids are joined in later from the registry. */
export function parseLines(
  csv: CsvFile,
  state: string,
  categories: string[],
  problems: Problems,
): Map<string, Omit<Line, 'id'>> {
  const lines = new Map<string, Omit<Line, 'id'>>();
  for (const { cells } of csv.rows) {
    const { source_code: code, name, category, note } = cells;
    if (!code.value) problems.add(csv.file, code.line, code.column, 'expected a source_code');
    else if (code.value.toLowerCase() === 'all')
      problems.add(csv.file, code.line, code.column, "'all' is reserved for all-lines figures");
    else if ([...lines.keys()].some((k) => k.toLowerCase() === code.value.toLowerCase()))
      problems.add(csv.file, code.line, code.column, `source_code '${code.value}' is listed twice`);
    if (!name.value) problems.add(csv.file, name.line, name.column, 'expected the line name');
    if (category.value && !categories.includes(category.value))
      problems.add(
        csv.file,
        category.line,
        category.column,
        `unknown category '${category.value}': expected one of categories.csv (${categories.join(', ')}) or empty`,
      );
    lines.set(code.value, {
      state,
      sourceCode: code.value,
      name: name.value,
      category: category.value || null,
      note: note.value.trim() || null,
    });
  }
  return lines;
}

/** Parses line-ids.csv into `STATE source_code` → id, checking that ids are unique positive integers. */
export function parseLineIds(csv: CsvFile, problems: Problems): Map<string, number> {
  const ids = new Map<string, number>();
  const used = new Set<number>();
  for (const { cells } of csv.rows) {
    const { id, state, source_code: code } = cells;
    const n = Number(id.value);
    if (!/^[1-9]\d*$/.test(id.value))
      problems.add(csv.file, id.line, id.column, `expected a positive whole number, got '${id.value}'`);
    else if (used.has(n)) problems.add(csv.file, id.line, id.column, `id ${n} is given twice: ids are never reused`);
    const key = `${state.value} ${code.value}`;
    if (ids.has(key)) problems.add(csv.file, code.line, code.column, `line ${state.value} '${code.value}' has two ids`);
    used.add(n);
    ids.set(key, n);
  }
  return ids;
}

/**
 * Parses bases.csv into `STATE|period_type` → basis: what the premium of that state and period type is
 * (e.g. submitted premium as WSIA compiles it, or registered premium with fees as SLA California reports
 * it). One basis per state and period type, so no series mixes two.
 */
export function parseBases(csv: CsvFile, states: Map<string, State>, problems: Problems): Map<string, string> {
  const bases = new Map<string, string>();
  for (const { cells } of csv.rows) {
    const { state, period_type: type, basis } = cells;
    if (!states.has(state.value))
      problems.add(
        csv.file,
        state.line,
        state.column,
        `unknown state '${state.value}': expected a code from states.csv`,
      );
    if (!PERIOD_TYPES.includes(type.value))
      problems.add(csv.file, type.line, type.column, `expected one of ${PERIOD_TYPES.join(', ')}, got '${type.value}'`);
    if (!basis.value.trim())
      problems.add(
        csv.file,
        basis.line,
        basis.column,
        'expected the basis: what the premium of this state and period type is, and whose compilation it is',
      );
    const key = `${state.value}|${type.value}`;
    if (bases.has(key))
      problems.add(
        csv.file,
        state.line,
        state.column,
        `${state.value} ${type.value} is listed twice: one basis per state and period type`,
      );
    bases.set(key, basis.value.trim());
  }
  return bases;
}
