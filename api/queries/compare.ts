// /v1/compare: the /v1/premium answer of each listed state, keyed by state. Every state and the line
// in every state are resolved (404) before any series is read.
import type { CompareParams } from '../../domain/contract-params.ts';
import type { CompareResponse } from '../../domain/contract.ts';
import { csvFileName, seriesCsv } from '../../domain/csv-answer.ts';
import { printedKeysOf } from '../../domain/metrics.ts';
import type { CsvAnswer } from '../responses.ts';
import { cite, csvSeries, readSeries, resolveLine, stateIndex } from './series.ts';
import { compareRoute } from '../../domain/route-contracts.ts';
import { pricedOperation } from '../operation.ts';
import { seriesText } from '../text/index.ts';

/** Resolves every state and its line now (404), and returns the answer to compute once paid. */
function prepareCompare(params: CompareParams): () => CompareResponse {
  const resolved = params.states.map((state) => {
    const entry = stateIndex(state);
    return { state, entry, line: resolveLine(state, entry, params.line) };
  });
  return () => {
    const series: CompareResponse['series'] = {};
    const source: CompareResponse['source'] = {};
    const latest: { reportDate: string; dataAsOf: string }[] = [];
    const publications: number[] = [];
    for (const { state, entry, line } of resolved) {
      const answer = readSeries({
        state,
        lineDir: line.dir,
        countyDir: null,
        granularity: params.granularity,
        from: params.from,
        to: params.to,
        reportDate: params.report_date,
      });
      series[state] = answer.data;
      source[state] = entry.source;
      if (answer.latest) latest.push(answer.latest);
      publications.push(...answer.publications);
    }
    const lineEchoes = new Set(resolved.map((r) => r.line.echo));
    return {
      // One state: its own echo. Several: the same echo where all agree (all, a category), else the parameter.
      line: lineEchoes.size === 1 ? [...lineEchoes][0] : params.line,
      granularity: params.granularity,
      series,
      printed_keys: printedKeysOf(Object.values(series).flat()),
      report_date: latest.length
        ? latest
            .map((l) => l.reportDate)
            .sort()
            .at(-1)!
        : null,
      data_as_of: latest.length ? latest.map((l) => l.dataAsOf).sort()[0] : null,
      source,
      publications: cite(publications),
    };
  };
}

/** The answer as CSV: every state's lines, in the order given; `line` is each state's own echo of the parameter. */
function compareCsv(body: CompareResponse, params: CompareParams): CsvAnswer {
  const series = Object.entries(body.series).map(([state, rows]) =>
    csvSeries(state, resolveLine(state, stateIndex(state), params.line).echo, body.granularity, rows),
  );
  return {
    text: seriesCsv(series),
    fileName: csvFileName('compare', ...Object.keys(body.series), body.line, body.granularity),
  };
}

export const compare = pricedOperation(compareRoute, prepareCompare, {
  csv: compareCsv,
  text: seriesText({ byState: true }),
});
