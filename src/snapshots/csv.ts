// A snapshot page's figures as CSV (RFC 4180): one row per figure shown, with its publication.
import { cite } from '../../api/queries/series.ts';
import type { Snapshot } from './model.ts';

const COLUMNS = [
  'state',
  'line',
  'granularity',
  'period',
  'field',
  'measures',
  'covers',
  'value',
  'unit',
  'exact',
  'as_printed',
  'qualifier',
  'as_of',
  'publisher',
  'title',
  'report_date',
  'url',
];

const cell = (v: string | number | boolean | null) => {
  const text = v === null ? '' : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function snapshotCsv(s: Snapshot): string {
  const rows = s.figures.map((f) => {
    const pub = f.sources.length ? cite([f.sources[0]])[0] : null;
    return [
      f.state,
      f.line,
      f.granularity,
      f.period,
      f.field,
      f.measures,
      f.covers,
      f.value,
      f.unit,
      f.exact,
      f.asPrinted,
      f.qualifier,
      f.asOf,
      pub?.publisher ?? null,
      pub?.title ?? null,
      pub?.report_date ?? null,
      pub?.url ?? null,
    ];
  });
  return [COLUMNS, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
