// /v1/bulk/datapackage.json: the bulk files described as a Frictionless (Tabular) Data Package, so that
// tools that read data packages (frictionless, DuckDB extensions, pandas helpers) learn the columns, their
// types and meaning, the files' sizes and hashes, and the publications behind them without paying.
import { SERIES_FIELDS } from '../domain/contract.ts';
import { UNITS } from '../domain/metrics.ts';
import type { PublicationRef } from '../domain/shard-types.ts';
import type { BulkColumn } from '../domain/contract-shared.ts';

type Field = {
  name: BulkColumn;
  type: 'string' | 'number' | 'date' | 'boolean';
  description: string;
  constraints?: { required?: boolean; enum?: string[] };
};

const required = { required: true };

/** The table's columns, in file order (BULK_COLUMNS). */
const BULK_FIELDS: readonly Field[] = [
  {
    name: 'state',
    type: 'string',
    description: 'Two-letter code of the state whose stamping office published the figure.',
    constraints: required,
  },
  {
    name: 'line',
    type: 'string',
    description:
      "`all` (statewide, all lines), a coverage line's source code as the office publishes it (see /v1/lines), " +
      "or `category:<name>` for a cross-state category summed from the state's lines. Spelt as /v1/premium's " +
      '`line` parameter takes it.',
    constraints: required,
  },
  { name: 'county', type: 'string', description: 'The county, for county series; empty for statewide figures.' },
  {
    name: 'granularity',
    type: 'string',
    description: "The series' period type.",
    constraints: { required: true, enum: ['month', 'quarter', 'half_year', 'year'] },
  },
  {
    name: 'period',
    type: 'string',
    description:
      'The period the figure covers: `YYYY-MM`, `YYYY-Qn`, `YYYY-H1`/`YYYY-H2`, `YYYY`, or a year to date ' +
      '`YYYY-MM..MM`.',
    constraints: required,
  },
  {
    name: 'field',
    type: 'string',
    description:
      `For kind=exact, one of the series fields (${SERIES_FIELDS.join(', ')}); for kind=printed, the printed key ` +
      `(see the answer's printed_keys on /v1/premium). What it measures is in \`measures\`.`,
    constraints: required,
  },
  {
    name: 'value',
    type: 'number',
    description:
      'The figure, in `unit`. For kind=printed, the value of the words as printed (`$1.2B` is 1200000000); never ' +
      'exact.',
    constraints: required,
  },
  {
    name: 'kind',
    type: 'string',
    description:
      '`exact`: the figure in full, as published or summed to the cent from published parts; `printed`: rounded, ' +
      'qualified or otherwise only as printed (never summed, never a series field).',
    constraints: { required: true, enum: ['exact', 'printed'] },
  },
  {
    name: 'as_printed',
    type: 'string',
    description:
      'The words as the publication printed them (`$1.2B`, `+12.6%`); empty where the figure is exact and the ' +
      'publication gave it in full.',
  },
  {
    name: 'qualifier',
    type: 'string',
    description:
      'The qualifier the publication put on a printed figure (`rounded`, `about`, `more than`, ...); empty when none.',
  },
  { name: 'measures', type: 'string', description: 'What the figure measures, in words.', constraints: required },
  {
    name: 'unit',
    type: 'string',
    description: 'The unit of `value`.',
    constraints: { required: true, enum: [...UNITS] },
  },
  {
    name: 'report_date',
    type: 'date',
    description:
      'The date the publication that printed this very figure was published: the vintage. A figure summed from ' +
      'parts names the latest of their dates.',
    constraints: required,
  },
  {
    name: 'publication_url',
    type: 'string',
    description:
      "The URL of the publication that printed the figure; a figure summed from parts names every part's " +
      'publication, URLs separated by a space.',
    constraints: required,
  },
  {
    name: 'latest',
    type: 'boolean',
    description:
      'True where the API answers this very figure today (without report_date); false for an earlier vintage, ' +
      'which /v1/premium answers with report_date.',
    constraints: required,
  },
];

const schema = { fields: BULK_FIELDS, missingValues: [''] };

export interface BulkFacts {
  /** The publications the rows cite. */
  sources: readonly PublicationRef[];
  /** The newest data_as_of of any figure: the data's version. */
  dataAsOf: string;
  csv: { bytes: number; hash: string };
  parquet: { bytes: number; hash: string };
}

export function bulkDataPackage({ sources, dataAsOf, csv, parquet }: BulkFacts) {
  return {
    profile: 'tabular-data-package',
    name: 'us-surplus-lines-premium',
    title: 'U.S. surplus lines premium and policy counts, as the state stamping offices published them',
    description:
      'Every figure of every publication the service transcribed, one row per figure and vintage, for each ' +
      'state, line, county, period type and period. ' +
      'Rows with latest=true are what the API answers today; the others are earlier vintages (GET /v1/premium ' +
      'with report_date). ' +
      'The files are priced (x402, 5.00 USD each): GET /v1/bulk/premium.csv and /v1/bulk/premium.parquet; this ' +
      'descriptor is free. ' +
      'No publication transcribed states a licence for its figures, and none is claimed here: each row names the ' +
      'publication to cite.',
    version: dataAsOf,
    data_as_of: dataAsOf,
    keywords: ['surplus lines', 'excess and surplus', 'insurance', 'premium', 'stamping office'],
    sources: sources.map((p) => ({ title: `${p.publisher}: ${p.title} (${p.report_date})`, path: p.url })),
    resources: [
      {
        name: 'premium-csv',
        path: 'premium.csv',
        profile: 'tabular-data-resource',
        title: 'Every figure, every vintage (CSV)',
        format: 'csv',
        mediatype: 'text/csv',
        encoding: 'utf-8',
        dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true },
        price_usd: '5.00',
        ...csv,
        schema,
      },
      {
        name: 'premium-parquet',
        path: 'premium.parquet',
        profile: 'tabular-data-resource',
        title:
          'Every figure, every vintage (Parquet: value as double, report_date as date, latest as boolean; empty ' +
          'text as null)',
        format: 'parquet',
        mediatype: 'application/vnd.apache.parquet',
        price_usd: '5.00',
        ...parquet,
        schema,
      },
    ],
  };
}
