// Parser for a publication file: `# key: value` header (the report's identity), then one row per
// figure as printed. See data/README.md for the format.
import { isIsoDate, lastDay, parsePeriod } from '../../domain/periods.ts';
import type { Problems } from '../errors.ts';
import { slug } from '../shards.ts';
import type { CsvFile } from '../csv.ts';
import { METRICS, type Metric } from '../../domain/metrics.ts';
import { isPrintedMetric, type Figure, type Line, type State } from '../model-types.ts';
import { type Publication, parseHeader } from './header.ts';
import { valueProblem } from './values.ts';

export const PUBLICATION_COLUMNS = [
  'state',
  'period',
  'line',
  'county',
  'insurer',
  'metric',
  'value',
  'qualifier',
  'printed',
  'note',
] as const;
const QUALIFIER = /^[a-z]+( [a-z]+)*$/;

/** What the publications of one run share, to check each file against those read before it. */
export interface PublicationContext {
  states: Map<string, State>;
  lines: Map<string, Map<string, Omit<Line, 'id'>>>;
  /** Today (UTC), `YYYY-MM-DD`: no report is dated after it. */
  today: string;
  /** County spellings seen so far, by `state|folder`. */
  counties: Map<string, { name: string; file: string; line: number }>;
}

export function parsePublication(
  csv: CsvFile,
  id: string,
  context: PublicationContext,
  problems: Problems,
): { pub: Publication; figures: Figure[] } | null {
  const { states, lines, counties } = context;
  const { file } = csv;
  const header = parseHeader(csv, id, context.today, problems, [], 'figure rows');
  if (!header) return null;
  const { pub } = header;

  const dataAsOfIsDate = isIsoDate(pub.dataAsOf);
  const reportDateIsDate = isIsoDate(pub.reportDate);
  const figures: Figure[] = [];
  const seen = new Map<string, { value: string; line: number }>();
  for (const { line, cells } of csv.rows) {
    const c = cells;
    let ok = true;
    const fail = (cell: string, message: string) => {
      problems.add(file, c[cell].line, c[cell].column, message);
      ok = false;
    };

    const state = states.get(c.state.value);
    if (!state) fail('state', `unknown state '${c.state.value}': expected one of ${[...states.keys()].join(', ')}`);
    const period = parsePeriod(c.period.value);
    if (!period)
      fail(
        'period',
        `malformed period '${c.period.value}': expected YYYY-MM, YYYY-Qn, YYYY-H1, YYYY-H2, YYYY or YYYY-01..MM`,
      );
    else if (dataAsOfIsDate && lastDay(period) > pub.dataAsOf)
      fail('period', `period ${period.key} ends after the publication's data_as_of ${pub.dataAsOf}`);
    // Not only through data_as_of: when data_as_of is wrong too (after report_date, or not a date),
    // the row that prints a period not yet ended on the report_date is named as well.
    else if (reportDateIsDate && lastDay(period) > pub.reportDate)
      fail(
        'period',
        `period ${period.key} ends after the publication's report_date ${pub.reportDate}: a report cannot print ` +
          `a period that had not ended`,
      );
    const metric = c.metric.value as Metric;
    if (!METRICS.includes(metric))
      fail('metric', `unknown metric '${c.metric.value}': expected one of ${METRICS.join(', ')}`);
    const lineCode = c.line.value;
    if (state && lineCode !== 'all' && !lines.get(state.code)?.has(lineCode))
      fail(
        'line',
        `unknown line '${lineCode}' for ${state.code}: expected 'all' or a source_code of lines/${state.code}.csv`,
      );
    const county = c.county.value.trim() || null;
    if (county && period && period.type !== 'year')
      fail('county', `county rows are annual only: expected period YYYY, got ${period.key}`);
    // Two spellings of one county ("ST. LUCIE", "ST LUCIE") would share a shard folder and one would be lost.
    const countyKey = county && state ? `${state.code}|${slug(county)}` : null;
    const sameFolder = countyKey ? counties.get(countyKey) : undefined;
    if (county && sameFolder && sameFolder.name !== county.toUpperCase())
      fail(
        'county',
        `county '${county}' and '${sameFolder.name}' (${sameFolder.file}:${sameFolder.line}) are spelled ` +
          `differently but name the same folder '${slug(county)}': write the county one way`,
      );
    else if (countyKey && !sameFolder) counties.set(countyKey, { name: county!.toUpperCase(), file, line });
    const insurer = c.insurer.value.trim() || null;
    const insurerMetric = metric === 'insurer_premium' || metric === 'insurer_policies';
    if (insurerMetric && !insurer) fail('insurer', `metric ${metric} needs the insurer's name`);
    if (!insurerMetric && insurer)
      fail('insurer', `an insurer name goes with metric insurer_premium or insurer_policies, not ${metric}`);

    const raw = c.value.value;
    const qualifier = c.qualifier.value.trim();
    const printed = c.printed.value.trim();
    const valueError = valueProblem(raw, metric, !!qualifier, printed || null);
    if (valueError) fail('value', valueError);
    else if (qualifier && !QUALIFIER.test(qualifier))
      fail('qualifier', `expected empty, 'rounded' or the qualifier word printed (e.g. 'about'), got '${qualifier}'`);
    if (!printed && (qualifier || (METRICS.includes(metric) && isPrintedMetric(metric))))
      fail(
        'printed',
        `the words as printed are needed for ${qualifier ? 'a qualified figure' : `a published ${metric}`}: e.g. ` +
          `'$1.24B', 'nearly $830M', '+12.6%', as the publication prints them`,
      );

    if (!ok || !state || !period) continue;
    const key = [state.code, period.key, lineCode, county?.toUpperCase() ?? '', insurer ?? '', metric].join('|');
    const prior = seen.get(key);
    if (prior) {
      problems.add(
        file,
        line,
        c.value.column,
        prior.value === raw
          ? `duplicate figure: line ${prior.line} already gives ${metric} for ${state.code} ${period.key}`
          : `conflicting duplicate figure: ${raw} here, ${prior.value} on line ${prior.line} ` +
              `for ${metric} ${state.code} ${period.key}`,
      );
      continue;
    }
    seen.set(key, { value: raw, line });
    figures.push({
      pub,
      state: state.code,
      period,
      line: lineCode,
      county: county?.toUpperCase() ?? null,
      insurer,
      metric,
      value: Number(raw),
      exact: !qualifier,
      qualifier: qualifier || null,
      printed: printed || null,
      fileLine: line,
      valueColumn: c.value.column,
    });
  }
  return { pub, figures };
}
