// The routes' query parameters, as zod schemas: what each route takes, its checks and the words of their
// errors, and each parameter's description and example for /openapi.json and the MCP tools (the further
// datasets' are in contract-datasets.ts). Parameter schemas carry no component id: they are listed inline.
import { z } from 'zod';
import { GRANULARITIES, isIsoDate } from './periods.ts';
import { WHOLE_MESSAGE, checkRange, stateParam, statesListParam } from './contract-shared.ts';

// ---- shared query parameters ------------------------------------------------------------------

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const monthParam = (bound: string) =>
  z
    .string()
    .regex(MONTH, 'a month YYYY-MM (01-12), e.g. 2024-01')
    .meta({
      description: bound.includes('lower')
        ? `${bound}, \`YYYY-MM\`, on the first month of a row's period (as FRED does): with granularity=year, ` +
          `from=2024-06 excludes 2024 and to=2024-06 includes it.`
        : `${bound}, \`YYYY-MM\`, on the first month of a row's period, as for from.`,
      example: '2024-01',
    });
const lineParam = z
  .string()
  .min(1, 'a line: all, a source_code, a line name or a category (see /v1/lines)')
  .default('all')
  .meta({
    description:
      '`all` (the all-lines figures the source publishes, not a sum of lines), a source_code, a line name or a ' +
      'category (the sum, vintage by vintage, of its lines with a row for the period); case-insensitive, first ' +
      'match wins. `category:<name>` asks for the category only, where a line has its name (FL line 1000 is ' +
      '"Commercial Property"). Unknown → 404; see /v1/lines.',
    example: 'all',
  });
const granularityParam = z.enum(GRANULARITIES, { error: 'one of month, quarter, half_year, year' }).meta({
  description:
    "Quarter and year rows are the source's own where it publishes them, else summed from months when every " +
    'month is present (a summed field is null when any month has it null). Default month (year with county).',
  example: 'year',
});
const reportDateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD, e.g. 2024-03-01')
  .refine(isIsoDate, 'a real calendar date YYYY-MM-DD')
  .meta({
    description:
      'As-of pinning: each period as published on or before this date (each field from the latest report ' +
      'printing it). Periods first published later are absent; a date before every publication gives data: []. ' +
      "Omitted: each period's latest report.",
    example: '2024-03-01',
  });

/**
 * The answer formats of the priced routes (docs/design.md §11). MCP tools take no format: they answer JSON and a text
 * rendering.
 */
const FORMATS = ['json', 'csv'] as const;
/** `format`, its CSV form described: `csv` says what the lines and columns are. */
const formatParamOf = (csv: string) =>
  z
    .enum(FORMATS, { error: 'json or csv' })
    .optional()
    // json is the default: asked for or not, one answer, one canonical query (the payment challenge's resource).
    .transform((f) => (f === 'csv' ? f : undefined))
    .meta({
      description: `json (default) or csv: text/csv, ${csv} Same validation, price and no-charge rule.`,
      example: 'csv',
    });
const formatParam = formatParamOf(
  'long form, one line per figure, exact and printed, each with the report_date and URL of the publication that ' +
    "printed it (a figure summed here from parts: every part's URL, space-separated, and the latest date). " +
    'Columns: state, line, granularity, period, field, value, kind (exact or printed), as_printed, qualifier, ' +
    'measures, unit, report_date, publication_url. An answer with no figure is the header line alone.',
);

// ---- per route ---------------------------------------------------------------------------------

export const linesParams = z.object({ state: stateParam }).strict();

export const premiumParams = z
  .object({
    state: stateParam,
    line: lineParam,
    county: z
      .string()
      .trim()
      .min(1, 'a county name, e.g. Miami-Dade')
      .transform((c) => c.toUpperCase())
      .optional()
      .meta({
        description:
          'County name, case-insensitive, echoed uppercased; omit for statewide. County data is annual: ' +
          'granularity defaults to year, any other → 400. A state without county data (has_county_data in ' +
          '/v1/coverage) or an unknown county → 404.',
        example: 'Miami-Dade',
      }),
    from: monthParam('Inclusive lower bound').optional(),
    to: monthParam('Inclusive upper bound').optional(),
    granularity: granularityParam.optional(),
    report_date: reportDateParam.optional(),
    format: formatParam,
  })
  .strict()
  .superRefine((v, ctx) => {
    checkRange(v, ctx);
    if (v.county && v.granularity && v.granularity !== 'year')
      ctx.addIssue({
        code: 'custom',
        path: ['granularity'],
        params: WHOLE_MESSAGE,
        message:
          `'granularity' ${v.granularity} is not available with 'county': county data is annual; use ` +
          `granularity=year or omit it`,
      });
  });
export type PremiumParams = z.infer<typeof premiumParams>;

export const summaryParams = z
  .object({
    // TX (2024: 12 months summed): FL's 2024 summary is all nulls, its totals printed rounded. A state of the test
    // fixtures too, whose tests call the required examples.
    state: stateParam.meta({ example: 'TX' }),
    year: z
      .string()
      .regex(/^\d{4}$/, 'a year YYYY, e.g. 2024')
      .transform(Number)
      .meta({ description: 'Calendar year, `YYYY`.', example: '2024' }),
  })
  .strict();
export type SummaryParams = z.infer<typeof summaryParams>;

export const MAX_COMPARE_STATES = 15;

/**
 * Parameters that take a comma-separated list in a query string; an MCP tool takes them as a list too (or as one
 * string).
 */
export const LIST_PARAMETERS: readonly string[] = ['states'];

export const compareParams = z
  .object({
    states: statesListParam(MAX_COMPARE_STATES).meta({
      description:
        `Comma-separated state codes, case-insensitive, 1 to ${MAX_COMPARE_STATES} distinct (duplicates are ` +
        `folded). Any unknown state → 404 naming it.`,
      example: 'FL,TX',
    }),
    line: lineParam.meta({
      description:
        'As for /v1/premium, resolved in each state; it must resolve in every listed state, else 404 naming the ' +
        'state. A category is what makes lines comparable across states.',
      example: 'all',
    }),
    from: monthParam('Inclusive lower bound').optional(),
    to: monthParam('Inclusive upper bound').optional(),
    granularity: granularityParam.default('month'),
    report_date: reportDateParam.optional(),
    format: formatParam,
  })
  .strict()
  .superRefine(checkRange);
export type CompareParams = z.infer<typeof compareParams>;

export const insurersParams = z
  .object({
    state: stateParam.meta({
      description:
        "Two-letter state code, case-insensitive (e.g. TX), or US: AM Best's national rankings of surplus lines " +
        'groups and companies, as reprinted (not stamping-office data).',
      example: 'TX',
    }),
    period: z
      .string()
      .regex(
        /^\d{4}(-(0[1-9]|1[0-2]|H[12]))?$/,
        'a month YYYY-MM (01-12), a half-year YYYY-H1 or YYYY-H2, or a year YYYY',
      )
      .meta({
        description:
          'Month `YYYY-MM`, half-year `YYYY-H1`/`YYYY-H2` or year `YYYY`: a ranking a publication printed for ' +
          'that period (or a year summed from 12 complete monthly lists with exact premiums). A period without ' +
          'one → 404 naming those that have one (/v1/coverage lists them as insurer_periods).',
        example: '2021',
      }),
    format: formatParamOf(
      'one line per insurer, ranked then unranked, with the ranking it belongs to and the publication that ' +
        'printed it. Columns: state, period, rank (empty: printed without a rank), name, premium (USD), ' +
        'market_share_pct, as_printed, qualifier, note, entity, basis, report_date, publication_url.',
    ),
  })
  .strict();

export const sampleParams = z
  .object({
    state: stateParam
      .default('FL')
      .meta({ description: 'Two-letter state code, case-insensitive. Default FL.', default: 'FL', example: 'TX' }),
    format: formatParam,
  })
  .strict();

export const publicationsParams = z
  .object({
    state: stateParam.optional().meta({
      description:
        "That state's publications, oldest first; omitted, every state's, newest first: a change feed. A " +
        'two-letter state code, case-insensitive.',
      example: 'FL',
    }),
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD, e.g. 2025-06-01')
      .refine(isIsoDate, 'a real calendar date YYYY-MM-DD, e.g. 2025-06-01')
      .optional()
      .meta({
        description:
          'Only publications whose report_date is on or after this date, `YYYY-MM-DD`: what was published since ' +
          "a client last looked. With state, that state's only.",
        example: '2025-06-01',
      }),
  })
  .strict();
export type PublicationsParams = z.infer<typeof publicationsParams>;
