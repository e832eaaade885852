// The one declaration of the API contract (SPEC.md + DECISIONS.md): every route's parameters and
// response bodies. Handlers validate with these, types come from them, the ingest checks the free
// bodies it precomputes against them, and the OpenAPI document is generated from them.
import { z } from 'zod';

export const STATE_CODE = /^[A-Za-z]{2}$/;

export const stateParam = z
  .string()
  .regex(STATE_CODE, 'a two-letter state code such as FL')
  .transform((s) => s.toUpperCase())
  .meta({ description: 'Two-letter state code, case-insensitive (e.g. FL, tx).', example: 'FL' });

export const errorBody = z
  .object({
    error: z.object({
      code: z.enum(['invalid_request', 'not_found', 'internal']),
      message: z.string(),
    }),
  })
  .meta({ id: 'Error', description: '400 → invalid_request, 404 → not_found, 500 → internal.' });
export type ErrorBody = z.infer<typeof errorBody>;

const nullableNumber = z.number().nullable();

export const seriesRow = z
  .object({
    period: z.string().meta({ description: '`YYYY-MM`, `YYYY-Qn` or `YYYY`, by granularity.' }),
    premium: nullableNumber.meta({
      description:
        'Exact premium in USD. Null where the publication printed no exact figure (only a rounded or qualified one, or counts only); back-filled when a later report prints it.',
    }),
    policy_count: nullableNumber.meta({
      description: "The source's count in its own unit (policies, transactions or items; see /v1/coverage count_unit).",
    }),
    new_business_premium: nullableNumber,
    renewal_premium: nullableNumber,
    new_business_policy_pct: nullableNumber.meta({
      description: 'New-business share of the policy count, 0-100. Only on all-lines rows whose source prints it.',
    }),
    renewal_policy_pct: nullableNumber.meta({ description: 'Renewal share of the policy count, 0-100. Same rule.' }),
  })
  .strict()
  .meta({ id: 'SeriesRow' });
export type SeriesRow = z.infer<typeof seriesRow>;
export type SeriesValues = Omit<SeriesRow, 'period'>;
export const SERIES_FIELDS = [
  'premium',
  'policy_count',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
] as const satisfies readonly (keyof SeriesValues)[];
export type SeriesField = (typeof SERIES_FIELDS)[number];

// ---- /v1/lines ------------------------------------------------------------------------------

export const linesParams = z.object({ state: stateParam }).strict();

export const lineItem = z
  .object({
    id: z.number().int().meta({ description: 'Stable id: a line keeps it across rebuilds.' }),
    source_code: z.string().meta({
      description: "The office's coverage code; where a publication names a line without a code, the name as printed.",
    }),
    name: z.string(),
    category: z.string().nullable().meta({ description: 'Project-wide cross-state category; null where none fits.' }),
  })
  .strict()
  .meta({ id: 'CoverageLine' });
export const linesResponse = z.array(lineItem).meta({ description: 'Ordered by source_code, numeric-aware.' });
export type LineItem = z.infer<typeof lineItem>;

// ---- /v1/coverage ---------------------------------------------------------------------------

export const PERIOD_TYPE_NAMES = ['month', 'quarter', 'half_year', 'year', 'year_to_date'] as const;

export const periodTypeCoverage = z
  .object({
    from: z.string(),
    to: z.string(),
    latest_report_date: z.string(),
    count_unit: z.enum(['policies', 'transactions', 'items']).nullable().meta({
      description: 'What policy_count counts for this period type; null where no count is published.',
    }),
  })
  .strict();

export const coverageItem = z
  .object({
    state: z.string(),
    name: z.string(),
    stamping_office: z.string(),
    stamping_office_name_basis: z.enum(['confirmed', 'seen_in_press', 'unconfirmed']).meta({
      description: "How well the office's name is attested in the sources: official, seen in the press, or not confirmed.",
    }),
    period_types: z.partialRecord(z.enum(PERIOD_TYPE_NAMES), periodTypeCoverage).meta({
      description:
        'Period types with data. month/quarter/year are served by /v1/premium; half_year and year_to_date are published figures kept for reference.',
    }),
    capabilities: z
      .object({
        has_county_data: z.boolean(),
        has_insurer_data: z.boolean(),
        has_new_renewal_split: z.boolean(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'CoverageSummary' });
export const coverageResponse = z.array(coverageItem);
export type CoverageItem = z.infer<typeof coverageItem>;

// ---- /v1/premium/sample -----------------------------------------------------------------------

export const sampleParams = z.object({ state: stateParam.default('FL') }).strict();

const nullableString = z.string().nullable();
export const sampleResponse = z
  .object({
    state: z.string(),
    line: z.string(),
    granularity: z.string(),
    sample: z.boolean(),
    data: z.array(seriesRow),
    report_date: nullableString,
    data_as_of: nullableString,
    source: nullableString,
    note: z.string(),
  })
  .strict()
  .meta({ id: 'SamplePremiumResponse' });
export type SampleResponse = z.infer<typeof sampleResponse>;
