// Parser for a published insurer ranking (data/README.md, "Rankings"): the shared `# key: value` header,
// the ranking's own (state or US, period, entity, basis, ranks in the publication), then one row per line
// the publication printed, ranked or printed beside the ranking without a rank. Checked as figures are:
// every problem names its file, line and column, and a file with any problem gives no ranking.
import { NATIONAL } from '../../domain/insurers.ts';
import { isIsoDate, lastDay, parsePeriod } from '../../domain/periods.ts';
import type { Problems } from '../errors.ts';
import type { CsvFile } from '../csv.ts';
import type { State } from '../model-types.ts';
import { type Publication, parseHeader } from './header.ts';
import { valueProblem } from './values.ts';

export const RANKING_COLUMNS = [
  'rank',
  'name',
  'premium',
  'market_share_pct',
  'qualifier',
  'printed',
  'unit',
  'note',
] as const;
/** The headers a ranking file gives beyond a publication's. */
const RANKING_HEADERS = ['state', 'period', 'entity', 'basis'] as const;
const ENTITIES = ['company', 'group'] as const;
/** What a printed premium counts, and the factor to USD. */
const UNITS: Record<string, number> = { USD: 1, 'USD thousands': 1000 };
const QUALIFIER = /^[a-z]+( [a-z]+)*$/;
const SHARE = /^\d{1,3}(\.\d{1,2})?$/;
/** Shares printed to one decimal each may sum a little over 100 by rounding: 0.05 a line at most. */
const SHARE_ROUNDING = 0.05;

/** One line of a ranking, as printed. */
export interface RankingLine {
  /** The printed rank; null for an insurer printed beside the ranking without one. */
  rank: number | null;
  name: string;
  /** USD (a table in thousands multiplied out). */
  premium: number;
  marketSharePct: number | null;
  /** Null when the premium is exact; else `rounded` or the word printed. */
  qualifier: string | null;
  printed: string;
  note: string | null;
  fileLine: number;
}

export interface PublishedRanking {
  pub: Publication;
  /** A state code, or NATIONAL. */
  state: string;
  period: string;
  entity: (typeof ENTITIES)[number];
  basis: string;
  /** How many ranks the publication's whole ranking has, when the source shows fewer; else null. */
  ranksInPublication: number | null;
  /** In rank order. */
  ranked: RankingLine[];
  unranked: RankingLine[];
}

/** The number a printed premium shows, when it is a plain amount (`6,903,760`, `$15,482,880`); else null. */
function plainAmount(printed: string): number | null {
  const m = printed.match(/^\$?(\d{1,3}(?:,\d{3})*|\d+)(\.\d+)?$/);
  return m ? Number(m[1].replaceAll(',', '') + (m[2] ?? '')) : null;
}

/** Reports a problem at a line and column of the file. */
type Fail = (line: number, column: number, message: string) => void;
type Column = (typeof RANKING_COLUMNS)[number];
/** A row's cells, their values trimmed. */
type Cells = Record<Column, { value: string; line: number; column: number }>;
/** Reports a problem at a cell of the row being read. */
type CellProblem = (column: Column, message: string) => void;
/** The names and ranks of the sound lines read so far, each with the line that gave it. */
interface Taken {
  names: Map<string, number>;
  ranks: Map<number, number>;
}

export function parseRanking(
  csv: CsvFile,
  id: string,
  states: ReadonlyMap<string, State>,
  today: string,
  problems: Problems,
): PublishedRanking | null {
  const { file, meta } = csv;
  const header = parseHeader(csv, id, today, problems, RANKING_HEADERS, 'ranking rows', ['ranks_in_publication']);
  if (!header) return null;
  const { extra } = header;
  // Ids are `rankings/<publisher>/<name>`: a press copy is one under rankings/press/.
  const pub = { ...header.pub, secondary: id.split('/')[1] === 'press' };
  let ok = true;
  const fail: Fail = (line, column, message) => {
    problems.add(file, line, column, message);
    ok = false;
  };

  checkRankingHeaders(extra, pub.dataAsOf, states, meta, fail);
  const entity = extra.entity as PublishedRanking['entity'];
  const lines = readRankingLines(csv.rows, problems, fail);
  const ranked = lines.filter((entry) => entry.rank !== null).sort((a, b) => a.rank! - b.rank!);
  const unranked = lines.filter((entry) => entry.rank === null);
  // Checks across the lines, once every line is sound (a line refused would show as a rank left out).
  if (ok) checkAcrossLines(lines, ranked, meta.get('rows')!.line, fail);
  const ranksInPublication = readRanksInPublication(extra, meta, ranked.length, fail);
  const { state, period, basis } = extra;
  return ok ? { pub, state, period, entity, basis, ranksInPublication, ranked, unranked } : null;
}

/** The ranking's own headers: a state known (or NATIONAL), a period ended by data_as_of, an entity known. */
function checkRankingHeaders(
  extra: Record<string, string>,
  dataAsOf: string,
  states: ReadonlyMap<string, State>,
  meta: CsvFile['meta'],
  fail: Fail,
): void {
  const at = (key: string) => meta.get(key)!;
  const state = extra.state;
  if (state !== NATIONAL && !states.has(state))
    fail(
      at('state').line,
      at('state').column,
      `unknown state '${state}': expected one of ${[...states.keys()].join(', ')}, or ${NATIONAL} for a national ` +
        `ranking`,
    );
  const period = parsePeriod(extra.period);
  if (!period || !['month', 'half_year', 'year'].includes(period.type))
    fail(
      at('period').line,
      at('period').column,
      `malformed period '${extra.period}': expected a month YYYY-MM, a half-year YYYY-H1 or YYYY-H2, or a year YYYY`,
    );
  else if (isIsoDate(dataAsOf) && lastDay(period) > dataAsOf)
    fail(
      at('period').line,
      at('period').column,
      `period ${period.key} ends after the publication's data_as_of ${dataAsOf}`,
    );
  if (!(ENTITIES as readonly string[]).includes(extra.entity))
    fail(
      at('entity').line,
      at('entity').column,
      `unknown entity '${extra.entity}': expected ${ENTITIES.join(' or ')} (what the ranking ranks)`,
    );
}

/** The sound lines of a ranking, in file order; each problem of a line is reported at its cell. */
function readRankingLines(rows: CsvFile['rows'], problems: Problems, fail: Fail): RankingLine[] {
  const lines: RankingLine[] = [];
  const taken: Taken = { names: new Map(), ranks: new Map() };
  for (const { line, cells } of rows) {
    const before = problems.list.length;
    const trimmed = Object.fromEntries(
      RANKING_COLUMNS.map((name) => [name, { ...cells[name], value: cells[name].value.trim() }]),
    ) as Cells;
    const problem: CellProblem = (name, message) => fail(cells[name].line, cells[name].column, message);
    checkRankAndName(trimmed, taken, problem);
    checkPremium(trimmed, problem);
    // A line with a problem is left out: it takes no name or rank from the lines after it.
    if (problems.list.length > before) continue;
    const entry = rankingLine(trimmed, line);
    taken.names.set(entry.name.toLowerCase(), line);
    if (entry.rank !== null) taken.ranks.set(entry.rank, line);
    lines.push(entry);
  }
  return lines;
}

/** Who a line ranks: a rank well formed and not taken (or none, with a note saying why), a name not taken. */
function checkRankAndName({ rank, name, note }: Cells, taken: Taken, problem: CellProblem): void {
  if (rank.value && !/^[1-9]\d{0,2}$/.test(rank.value))
    problem('rank', `expected a rank 1, 2, ... (or empty for an insurer printed without a rank), got '${rank.value}'`);
  const rankNumber = rank.value ? Number(rank.value) : null;
  if (rankNumber !== null && taken.ranks.has(rankNumber))
    problem('rank', `rank ${rankNumber} twice: first on line ${taken.ranks.get(rankNumber)}`);
  if (rankNumber === null && !note.value)
    problem('note', 'an insurer printed without a rank needs a note saying why it has none');
  if (!name.value) problem('name', 'name is required: the insurer as printed');
  else if (taken.names.has(name.value.toLowerCase()))
    problem('name', `'${name.value}' twice in one ranking: first on line ${taken.names.get(name.value.toLowerCase())}`);
}

/** What a line says of the premium: its qualifier, words printed, unit, amount (against the words) and share. */
function checkPremium(
  { premium, market_share_pct: share, qualifier, printed, unit }: Cells,
  problem: CellProblem,
): void {
  if (qualifier.value && !QUALIFIER.test(qualifier.value))
    problem('qualifier', `expected 'rounded' or the qualifier word as printed (lower case), got '${qualifier.value}'`);
  if (!printed.value) problem('printed', 'printed is required: the premium as the publication printed it');
  const factor = UNITS[unit.value];
  if (factor === undefined)
    problem(
      'unit',
      `unknown unit '${unit.value}': expected ${Object.keys(UNITS).join(' or ')} (what the printed number counts)`,
    );
  const premiumProblem = valueProblem(premium.value, 'insurer_premium', qualifier.value !== '', printed.value || null);
  if (premiumProblem) problem('premium', premiumProblem);
  else if (factor !== undefined) {
    const shown = plainAmount(printed.value);
    // A plain printed amount fixes the premium: a slip in either shows.
    if (shown !== null && Math.abs(shown * factor - Number(premium.value)) >= 0.005)
      problem(
        'premium',
        `${premium.value} is not what '${printed.value}' in ${unit.value} is (${shown * factor}): expected the ` +
          `printed amount${factor === 1 ? '' : ' multiplied out'}`,
      );
  }
  if (share.value && (!SHARE.test(share.value) || Number(share.value) > 100))
    problem(
      'market_share_pct',
      `a market share must be a percentage from 0 to 100 as printed, such as 7.0, got '${share.value}'`,
    );
}

/** A sound line as the ranking keeps it. */
function rankingLine(cells: Cells, fileLine: number): RankingLine {
  return {
    rank: cells.rank.value ? Number(cells.rank.value) : null,
    name: cells.name.value,
    premium: Number(cells.premium.value),
    marketSharePct: cells.market_share_pct.value ? Number(cells.market_share_pct.value) : null,
    qualifier: cells.qualifier.value || null,
    printed: cells.printed.value,
    note: cells.note.value || null,
    fileLine,
  };
}

/**
 * The lines taken together: the shares sum to 100 at most, and the ranks (`ranked`, in rank order) run 1, 2, 3, ...
 * in order of premium, with rank 1 among them.
 */
function checkAcrossLines(lines: RankingLine[], ranked: RankingLine[], rowsLine: number, fail: Fail): void {
  // Summed in file order, as printed.
  const shares = lines.reduce((sum, entry) => sum + (entry.marketSharePct ?? 0), 0);
  if (shares > 100 + SHARE_ROUNDING * lines.length)
    fail(
      rowsLine,
      1,
      `the market shares of the ${lines.length} lines sum to ${Math.round(shares * 100) / 100}%: above 100, so one ` +
        `is mistyped`,
    );
  ranked.forEach((entry, i) => {
    if (entry.rank !== i + 1)
      fail(
        entry.fileLine,
        1,
        `rank ${entry.rank} follows rank ${i === 0 ? 'none' : ranked[i - 1].rank}: ranks run 1, 2, 3, ... with ` +
          `none left out (a line skipped?)`,
      );
    const above = ranked[i - 1];
    // Exact premiums fix the order; a rounded one may tie its neighbour within its precision.
    if (above && !above.qualifier && !entry.qualifier && entry.premium > above.premium)
      fail(
        entry.fileLine,
        3,
        `rank ${entry.rank}'s premium ${entry.premium} is above rank ${above.rank}'s ${above.premium}: ranks ` +
          `out of order against the premiums`,
      );
  });
  if (!ranked.length) fail(1, 1, 'a ranking with no ranked line: expected at least rank 1');
}

/** The ranks_in_publication header, when given: more ranks than the `listed` ones, else a problem. */
function readRanksInPublication(
  extra: Record<string, string>,
  meta: CsvFile['meta'],
  listed: number,
  fail: Fail,
): number | null {
  const given = extra.ranks_in_publication;
  if (given === undefined) return null;
  if (/^[1-9]\d{0,2}$/.test(given) && Number(given) > listed) return Number(given);
  const entry = meta.get('ranks_in_publication')!;
  fail(
    entry.line,
    entry.column,
    `ranks_in_publication: expected how many ranks the whole ranking has, more than the ${listed} ` +
      `listed here (leave it out when the list is whole), got '${given}'`,
  );
  return null;
}
