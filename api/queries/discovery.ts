// The free discovery routes: answers the ingest precomputed, read as they are (coverage, a state's lines, its
// 13-month sample as JSON and CSV, the bulk files' data package).
import { csvFileName } from '../../domain/csv-answer.ts';
import { coverageRoute, datapackageRoute, linesRoute, sampleRoute } from '../../domain/route-contracts.ts';
import { freeStateBody, requiredFreeBody } from '../store.ts';
import { freeOperation } from '../operation.ts';
import { seriesText } from '../text/index.ts';

export const coverage = freeOperation(coverageRoute, () => requiredFreeBody('coverage.json'));

export const lines = freeOperation(linesRoute, ({ state }) => freeStateBody('lines', state));

export const sample = freeOperation(sampleRoute, ({ state }) => freeStateBody('sample', state), {
  csv: ({ state }) => ({ text: freeStateBody('sample', state, 'csv'), fileName: csvFileName('premium-sample', state) }),
  text: seriesText({ fullSeries: 'get_premium' }),
});

export const datapackage = freeOperation(datapackageRoute, () => requiredFreeBody('bulk/datapackage.json'));
