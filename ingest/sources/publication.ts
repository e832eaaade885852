// Parser for a publication file: `# key: value` header (the report's identity), then one row per
// figure as printed. See data/README.md for the format.
import { type Period, isIsoDate, lastDay, parsePeriod } from '../../domain/periods.ts';
import type { Problems } from '../errors.ts';
import { slug } from '../shards.ts';
import type { CsvFile } from '../csv.ts';
import { METRICS, type Metric } from '../../domain/metrics.ts';
import { isPrintedMetric, type Figure, type Line, type State, figureKey } from '../model-types.ts';
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

/** Reports a problem at a cell of the row being read. */
type Fail = (cell: string, message: string) => void;
type Cells = Record<string, { value: string; line: number; column: number }>;

export function parsePublication(
  csv: CsvFile,
  id: string,
  context: PublicationContext,
  problems: Problems,
): { pub: Publication; figures: Figure[] } | null {
  const header = parseHeader(csv, id, context.today, problems, [], 'figure rows');
  if (!header) return null;
  const { pub } = header;
  const limits = periodLimits(pub);
  const figures: Figure[] = [];
  const seen = new Map<string, { value: string; line: number }>();
  for (const { line, cells } of csv.rows) {
    const figure = readFigure(cells, line, { pub, limits }, context, problems);
    if (!figure) continue;
    const raw = cells.value.value;
    // One figure per state, period, line, county, insurer and metric: a second is a slip or a conflict.
    const key = figureKey(figure);
    const prior = seen.get(key);
    if (prior) problems.add(csv.file, line, figure.valueColumn, duplicateMessage(figure, raw, prior));
    else {
      seen.set(key, { value: raw, line });
      figures.push(figure);
    }
  }
  return { pub, figures };
}

/** The figure a row gives, or null when it has a problem (each is reported at its cell). */
function readFigure(
  c: Cells,
  line: number,
  { pub, limits }: { pub: Publication; limits: PeriodLimits },
  context: PublicationContext,
  problems: Problems,
): Figure | null {
  const { states, lines } = context;
  let ok = true;
  const fail: Fail = (cell, message) => {
    problems.add(pub.file, c[cell].line, c[cell].column, message);
    ok = false;
  };
  const state = states.get(c.state.value);
  if (!state) fail('state', `unknown state '${c.state.value}': expected one of ${[...states.keys()].join(', ')}`);
  const period = readPeriod(c.period.value, limits, fail);
  const metric = c.metric.value as Metric;
  if (!METRICS.includes(metric))
    fail('metric', `unknown metric '${c.metric.value}': expected one of ${METRICS.join(', ')}`);
  const lineCode = c.line.value;
  if (state && lineCode !== 'all' && !lines.get(state.code)?.has(lineCode))
    fail(
      'line',
      `unknown line '${lineCode}' for ${state.code}: expected 'all' or a source_code of lines/${state.code}.csv`,
    );
  const county = readCounty(c.county.value, state, period, { file: pub.file, line }, context.counties, fail);
  const insurer = c.insurer.value.trim() || null;
  const insurerMetric = metric === 'insurer_premium' || metric === 'insurer_policies';
  if (insurerMetric && !insurer) fail('insurer', `metric ${metric} needs the insurer's name`);
  if (!insurerMetric && insurer)
    fail('insurer', `an insurer name goes with metric insurer_premium or insurer_policies, not ${metric}`);
  const { raw, qualifier, printed } = readValue(c, metric, fail);

  if (!ok || !state || !period) return null;
  return {
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
  };
}

/** The dates a publication's periods must have ended by: its data_as_of and report_date, each when it is a date. */
interface PeriodLimits {
  dataAsOf: string | null;
  reportDate: string | null;
}

/** Read once per publication, not once per row. */
const periodLimits = ({ dataAsOf, reportDate }: Publication): PeriodLimits => ({
  dataAsOf: isIsoDate(dataAsOf) ? dataAsOf : null,
  reportDate: isIsoDate(reportDate) ? reportDate : null,
});

/** A row's period, when it reads as one: it must have ended by the publication's data_as_of and report_date. */
function readPeriod(text: string, { dataAsOf, reportDate }: PeriodLimits, fail: Fail): Period | null {
  const period = parsePeriod(text);
  if (!period)
    fail('period', `malformed period '${text}': expected YYYY-MM, YYYY-Qn, YYYY-H1, YYYY-H2, YYYY or YYYY-01..MM`);
  else if (dataAsOf && lastDay(period) > dataAsOf)
    fail('period', `period ${period.key} ends after the publication's data_as_of ${dataAsOf}`);
  // Not only through data_as_of: when data_as_of is wrong too (after report_date, or not a date),
  // the row that prints a period not yet ended on the report_date is named as well.
  else if (reportDate && lastDay(period) > reportDate)
    fail(
      'period',
      `period ${period.key} ends after the publication's report_date ${reportDate}: a report cannot print ` +
        `a period that had not ended`,
    );
  return period;
}

/**
 * A row's county, if it names one: annual rows only, and spelled as the rows before it spelled it (`counties`,
 * which learns each new spelling and where it was first seen).
 */
function readCounty(
  text: string,
  state: State | undefined,
  period: Period | null,
  at: { file: string; line: number },
  counties: PublicationContext['counties'],
  fail: Fail,
): string | null {
  const county = text.trim() || null;
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
  else if (countyKey && !sameFolder) counties.set(countyKey, { name: county!.toUpperCase(), ...at });
  return county;
}

/** A row's value with its qualifier and the words printed, each checked against the metric and the others. */
function readValue(c: Cells, metric: Metric, fail: Fail): { raw: string; qualifier: string; printed: string } {
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
  return { raw, qualifier, printed };
}

/** A second figure for what an earlier line gave: the same value, or a conflicting one. */
function duplicateMessage(figure: Figure, raw: string, prior: { value: string; line: number }): string {
  const { metric, state, period } = figure;
  return prior.value === raw
    ? `duplicate figure: line ${prior.line} already gives ${metric} for ${state} ${period.key}`
    : `conflicting duplicate figure: ${raw} here, ${prior.value} on line ${prior.line} ` +
        `for ${metric} ${state} ${period.key}`;
}
