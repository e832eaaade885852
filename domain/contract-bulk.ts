// The bulk files' side of the contract (/v1/bulk/...): the whole premium table in one file, and the data
// package that describes it. Their answers are files, not JSON answers: OpenAPI names their media types.
import { z } from 'zod';
import { BULK_COLUMNS } from './contract-shared.ts';

/**
 * The bulk files take no parameters: anything in the query string is refused, so a priced download is never bought
 * under a name it ignored.
 */
export const bulkParams = z.object({}).strict();

const EVERY_FIGURE =
  'Every figure of every publication: every state, line, county, period type, period and vintage, one row per ' +
  'figure, the rows the API answers today marked latest=true (earlier vintages: /v1/premium with report_date).';

export const bulkCsvResponse = z.string().meta({
  id: 'BulkPremiumCsv',
  description:
    `${EVERY_FIGURE} RFC 4180 CSV (CRLF line ends), header \`${BULK_COLUMNS.join(',')}\`; ` +
    `/v1/bulk/datapackage.json describes each column.`,
});

export const bulkParquetResponse = z.string().meta({
  id: 'BulkPremiumParquet',
  description:
    `${EVERY_FIGURE} Apache Parquet, the CSV's columns typed: value DOUBLE, report_date DATE, latest BOOLEAN, text ` +
    `UTF-8 (an empty CSV cell is null).`,
  contentMediaType: 'application/vnd.apache.parquet',
});

const dataResource = z
  .object({
    name: z.string(),
    path: z
      .string()
      .meta({ description: 'The file, relative to this descriptor: premium.csv is /v1/bulk/premium.csv.' }),
    format: z.enum(['csv', 'parquet']),
    mediatype: z.string(),
    bytes: z.number().int().nonnegative().meta({ description: "The file's size in bytes, uncompressed." }),
    hash: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .meta({ description: "The file's SHA-256, `sha256:<hex>`: the hex is also the file's ETag." }),
    price_usd: z.string().meta({ description: 'What the file costs, per download (x402).' }),
    schema: z
      .object({
        fields: z.array(z.object({ name: z.enum(BULK_COLUMNS), type: z.string(), description: z.string() }).loose()),
      })
      .loose(),
  })
  .loose();

export const dataPackageResponse = z
  .object({
    profile: z.literal('tabular-data-package'),
    name: z.string(),
    title: z.string(),
    description: z.string(),
    version: z
      .string()
      .meta({ description: "The data's version: its data_as_of, the newest date any figure is current to." }),
    data_as_of: z.string(),
    sources: z
      .array(z.object({ title: z.string(), path: z.string() }))
      .meta({ description: 'Every publication a row cites, with its URL.' }),
    resources: z.array(dataResource),
  })
  .loose()
  .meta({
    id: 'DataPackage',
    description:
      'A Frictionless Tabular Data Package (https://specs.frictionlessdata.io/tabular-data-package/) describing ' +
      'the bulk files: columns with types, units and meaning, sources, version, sizes and hashes.',
  });
