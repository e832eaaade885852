// /v1/premium: one state's series for a line (or category) and optional county, as of a date.
import type { PremiumParams } from '../../domain/contract-params.ts';
import type { PremiumResponse } from '../../domain/contract.ts';
import { csvFileName, seriesCsv } from '../../domain/csv-answer.ts';
import { printedKeysOf } from '../../domain/metrics.ts';
import type { CsvAnswer } from '../responses.ts';
import { cite, csvSeries, readSeries, resolveCounty, resolveLine, stateIndex } from './series.ts';
import { premiumRoute } from '../../domain/route-contracts.ts';
import { pricedOperation } from '../operation.ts';
import { seriesText } from '../text/index.ts';

/** Resolves state, line and county now (404), and returns the answer to compute once paid. */
function preparePremium(params: PremiumParams): () => PremiumResponse {
  const { state } = params;
  const entry = stateIndex(state);
  const line = resolveLine(state, entry, params.line);
  const county = params.county ? resolveCounty(state, entry, params.county) : null;
  const granularity = params.granularity ?? (county ? 'year' : 'month');
  return () => {
    const { data, latest, publications } = readSeries({
      state,
      lineDir: line.dir,
      countyDir: county?.dir ?? null,
      granularity,
      from: params.from,
      to: params.to,
      reportDate: params.report_date,
    });
    return {
      state,
      line: line.echo,
      county: county?.name ?? null,
      granularity,
      data,
      printed_keys: printedKeysOf(data),
      report_date: latest?.reportDate ?? null,
      data_as_of: latest?.dataAsOf ?? null,
      source: entry.source,
      publications: cite(publications),
    };
  };
}

/** The answer as CSV: one line per figure with its publication. */
const premiumCsv = (body: PremiumResponse): CsvAnswer => ({
  text: seriesCsv([csvSeries(body.state, body.line, body.granularity, body.data)]),
  fileName: csvFileName('premium', body.state, body.line, ...(body.county ? [body.county] : []), body.granularity),
});

export const premium = pricedOperation(premiumRoute, preparePremium, { csv: premiumCsv, text: seriesText() });
