// An insurer ranking as printed: a ranked table of the columns that hold something, the unranked apart.
import {
  type Obj,
  type TextRenderer,
  asArray,
  asObj,
  cell,
  fit,
  fitPublications,
  limitWords,
  plain,
  publicationLines,
  rowsWord,
  str,
  unionKeys,
} from './shared.ts';
import { orTable } from './table.ts';

/** The columns of `rows` that hold a value in some row: a column empty in every row says nothing. */
const filledColumns = (rows: Obj[]) =>
  unionKeys(rows).filter((c) => rows.some((r) => r[c] !== null && r[c] !== undefined && r[c] !== ''));

function renderInsurers(tool: string, params: Obj, body: Obj, limit: number): string {
  const state = str(body.state) ?? str(params.state) ?? '';
  const period = str(body.period) ?? str(params.period) ?? '';
  const insurers = asArray(body.insurers).map(asObj);
  const unranked = asArray(body.unranked).map(asObj);
  const ranking = asObj(body.ranking);
  const of =
    typeof ranking.ranks_in_publication === 'number'
      ? ` of the ${ranking.ranks_in_publication} the publication ranks (a partial list)`
      : ' (the whole list)';
  const head = [
    `${tool}: ${state} ${period}, ${plain(ranking.entity)} ranking as printed: ranks ` +
      `1-${plain(ranking.ranks_listed)}${of}. Basis: ${plain(ranking.basis)}. Premiums in USD, exact unless ` +
      `as_printed and qualifier say how they were printed. report_date ${plain(body.report_date)}, ` +
      `data_as_of ${plain(body.data_as_of)}.`,
    `Source: ${plain(body.source)}.`,
  ];
  const extras = Object.entries(body).filter(
    ([k]) =>
      ![
        'state',
        'period',
        'ranking',
        'insurers',
        'unranked',
        'report_date',
        'data_as_of',
        'source',
        'publications',
      ].includes(k),
  );
  head.push(...extras.map(([k, v]) => `${k}: ${plain(v)}`));
  const tableOf = (rows: Obj[]) => {
    const columns = filledColumns(rows);
    return { columns: columns.join('|'), lines: rows.map((r) => columns.map((c) => cell(r[c])).join('|')) };
  };
  if (unranked.length) {
    const table = tableOf(unranked);
    head.push(`Printed beside the ranking without a rank (${unranked.length}):`, table.columns, ...table.lines);
  }
  const publications = publicationLines(asArray(body.publications));
  if (!insurers.length) return [...head, 'No insurer ranked.', ...publications].join('\n');
  const table = tableOf(insurers);
  head.push(table.columns);
  const rows = table.lines.map((text, i) => ({ text, rank: insurers[i].rank, size: text.length + 1 }));
  const fixed = [...head, ...publications].reduce((sum, l) => sum + l.length + 1, 0);
  // The lowest ranks go first: no narrower call exists, the whole list is in structuredContent.
  const dropOrder = rows.map((_, i) => rows.length - 1 - i);
  const { kept, note } = fit(
    fixed,
    rows,
    dropOrder,
    (dropped) =>
      `Left out: the ${rowsWord(dropped.length)} ranked lowest ` +
      `(ranks ${plain(dropped.at(-1)?.rank)}..${plain(dropped[0]?.rank)}), to stay under ${limitWords(limit)}; ` +
      `the whole list is in structuredContent.insurers.`,
    limit,
  );
  const text = [...head, ...kept.map((r) => r.text), ...(note ? [note] : [])];
  const used = text.reduce((sum, l) => sum + l.length + 1, 0);
  return [...text, ...fitPublications(publications, limit - used, limit)].join('\n');
}

/** An answer with its list of `insurers`. */
export const insurersText: TextRenderer = orTable((body) => Array.isArray(body.insurers), renderInsurers);
