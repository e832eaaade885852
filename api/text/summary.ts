// A year's statewide totals: each figure as `key: value`, the prior year's on one line.
import {
  type Obj,
  type TextRenderer,
  asArray,
  asObj,
  basisText,
  fitPublications,
  plain,
  publicationLines,
  str,
} from './shared.ts';
import { orTable } from './table.ts';

const SUMMARY_SHOWN = new Set([
  'state',
  'year',
  'basis',
  'months_available',
  'prior_year',
  'report_date',
  'data_as_of',
  'source',
  'publications',
]);

function renderSummary(tool: string, params: Obj, body: Obj, limit: number): string {
  const state = str(body.state) ?? str(params.state) ?? '';
  const periodType = body.basis === 'annual_report' ? 'year' : body.basis ? 'month' : null;
  const prior = asObj(body.prior_year);
  const lines = [
    `${tool}: ${state} ${plain(body.year ?? params.year)}, statewide all lines, basis ${plain(body.basis)} ` +
      `(${plain(body.months_available)} months available); ${basisText(state, periodType)}. ` +
      `report_date ${plain(body.report_date)}, data_as_of ${plain(body.data_as_of)}.`,
    `Source: ${plain(body.source)}.`,
    'Figures (exact, in full; -: none):',
    ...Object.entries(body)
      .filter(([k]) => !SUMMARY_SHOWN.has(k))
      .map(([k, v]) => `${k}: ${plain(v)}`),
    `prior_year ${plain(prior.year)}: ${Object.entries(prior)
      .filter(([k]) => k !== 'year')
      .map(([k, v]) => `${k} ${plain(v)}`)
      .join(', ')}`,
  ];
  const used = lines.reduce((sum, l) => sum + l.length + 1, 0);
  return [...lines, ...fitPublications(publicationLines(asArray(body.publications)), limit - used, limit)].join('\n');
}

/** Any object answer is read as a summary (a missing figure shows as `-`). */
export const summaryText: TextRenderer = orTable(() => true, renderSummary);
