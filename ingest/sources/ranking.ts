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
  const fail = (line: number, column: number, message: string) => {
    problems.add(file, line, column, message);
    ok = false;
  };
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
  else if (isIsoDate(pub.dataAsOf) && lastDay(period) > pub.dataAsOf)
    fail(
      at('period').line,
      at('period').column,
      `period ${period.key} ends after the publication's data_as_of ${pub.dataAsOf}`,
    );
  const entity = extra.entity as PublishedRanking['entity'];
  if (!(ENTITIES as readonly string[]).includes(entity))
    fail(
      at('entity').line,
      at('entity').column,
      `unknown entity '${extra.entity}': expected ${ENTITIES.join(' or ')} (what the ranking ranks)`,
    );

  const ranked: RankingLine[] = [];
  const unranked: RankingLine[] = [];
  const names = new Map<string, number>();
  const ranks = new Map<number, number>();
  let shares = 0;
  for (const { line, cells } of csv.rows) {
    const before = problems.list.length;
    const cell = (name: (typeof RANKING_COLUMNS)[number]) => ({ ...cells[name], value: cells[name].value.trim() });
    const problem = (name: (typeof RANKING_COLUMNS)[number], message: string) =>
      fail(cells[name].line, cells[name].column, message);
    const [rank, name, premium, share, qualifier, printed, unit, note] = RANKING_COLUMNS.map(cell);

    if (rank.value && !/^[1-9]\d{0,2}$/.test(rank.value))
      problem(
        'rank',
        `expected a rank 1, 2, ... (or empty for an insurer printed without a rank), got '${rank.value}'`,
      );
    const rankNumber = rank.value ? Number(rank.value) : null;
    if (rankNumber !== null && ranks.has(rankNumber))
      problem('rank', `rank ${rankNumber} twice: first on line ${ranks.get(rankNumber)}`);
    if (rankNumber === null && !note.value)
      problem('note', 'an insurer printed without a rank needs a note saying why it has none');
    if (!name.value) problem('name', 'name is required: the insurer as printed');
    else if (names.has(name.value.toLowerCase()))
      problem('name', `'${name.value}' twice in one ranking: first on line ${names.get(name.value.toLowerCase())}`);
    if (qualifier.value && !QUALIFIER.test(qualifier.value))
      problem(
        'qualifier',
        `expected 'rounded' or the qualifier word as printed (lower case), got '${qualifier.value}'`,
      );
    if (!printed.value) problem('printed', 'printed is required: the premium as the publication printed it');
    const factor = UNITS[unit.value];
    if (factor === undefined)
      problem(
        'unit',
        `unknown unit '${unit.value}': expected ${Object.keys(UNITS).join(' or ')} (what the printed number counts)`,
      );
    const premiumProblem = valueProblem(
      premium.value,
      'insurer_premium',
      qualifier.value !== '',
      printed.value || null,
    );
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
    if (problems.list.length > before) continue;

    names.set(name.value.toLowerCase(), line);
    const entry: RankingLine = {
      rank: rankNumber,
      name: name.value,
      premium: Number(premium.value),
      marketSharePct: share.value ? Number(share.value) : null,
      qualifier: qualifier.value || null,
      printed: printed.value,
      note: note.value || null,
      fileLine: line,
    };
    if (entry.marketSharePct !== null) shares += entry.marketSharePct;
    if (rankNumber === null) unranked.push(entry);
    else {
      ranks.set(rankNumber, line);
      ranked.push(entry);
    }
  }
  // Checks across the lines, once every line is sound (a line refused would show as a rank left out).
  if (ok) {
    const lines = ranked.length + unranked.length;
    if (shares > 100 + SHARE_ROUNDING * lines)
      fail(
        at('rows').line,
        1,
        `the market shares of the ${lines} lines sum to ${Math.round(shares * 100) / 100}%: above 100, so one is ` +
          `mistyped`,
      );
    ranked.sort((a, b) => a.rank! - b.rank!);
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
  let ranksInPublication: number | null = null;
  if (extra.ranks_in_publication !== undefined) {
    const entry = at('ranks_in_publication');
    if (!/^[1-9]\d{0,2}$/.test(extra.ranks_in_publication) || Number(extra.ranks_in_publication) <= ranked.length)
      fail(
        entry.line,
        entry.column,
        `ranks_in_publication: expected how many ranks the whole ranking has, more than the ${ranked.length} ` +
          `listed here (leave it out when the list is whole), got '${extra.ranks_in_publication}'`,
      );
    else ranksInPublication = Number(extra.ranks_in_publication);
  }
  return ok
    ? { pub, state, period: extra.period, entity, basis: extra.basis, ranksInPublication, ranked, unranked }
    : null;
}
