// The one declaration of the API contract: the market routes' parameters and response bodies (the
// discovery routes' are in contract-discovery.ts, the further datasets' in contract-datasets.ts, the bulk
// files' in contract-bulk.ts; route-contracts.ts declares the routes). Handlers validate with these, types
// come from them, the ingest checks the free bodies it precomputes against them, and the OpenAPI document
// is generated from them.
import { z } from 'zod';
import { GRANULARITIES, isIsoDate } from './periods.ts';
import { UNITS } from './metrics.ts';
import { STATE_CODE, WHOLE_MESSAGE, checkRange, publicationRef, stateParam, statesListParam } from './contract-shared.ts';

export { STATE_CODE, WHOLE_MESSAGE, publicationRef, stateParam };


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
const nullableString = z.string().nullable();

export const printedFigure = z
  .object({
    value: z.number().meta({ description: 'The figure as printed, expanded ("$9.99B" → 9990000000, "+99.9%" → 99.9: invented examples). Never summed or used to derive another figure.' }),
    as_printed: nullableString.meta({ description: 'The words as printed, e.g. "$9.99B", "nearly $999M", "+99.9%" (invented examples); null where the publication gave the bare number.' }),
    qualifier: z.string().optional().meta({
      description: 'Present only when the figure is not exact: rounded (fewer than 4 significant digits), the word printed (about, nearly, more than, ...), ambiguous, other basis. Absent for an exact figure that has no series field (a growth rate, a share, an average, a count in another unit).',
    }),
    period: z.string().optional().meta({ description: "Present only when it differs from the row's period: a year to date (`YYYY-01..MM`) ending in the row's month." }),
  })
  .strict()
  .meta({ id: 'PrintedFigure', description: 'What the key measures and its unit are in the answer\'s printed_keys.' });
export const printedFigures = z.record(z.string(), printedFigure);
export type PrintedFigure = z.infer<typeof printedFigure>;
export type PrintedFigures = z.infer<typeof printedFigures>;

export const printedKeys = z
  .record(z.string(), z.object({ measures: z.string(), unit: z.enum(UNITS) }).strict())
  .meta({
    id: 'PrintedKeys',
    description:
      'The legend of the printed entries: for every key the answer\'s printed objects use (and no other), what it measures and its unit (USD, count or percent). Said once per answer, never row by row. A key ending in _ytd is a year to date.',
  });
export type PrintedKeys = z.infer<typeof printedKeys>;

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
    printed: printedFigures.nullable().meta({
      description:
        'What the publications printed for this very period that is not an exact series figure: rounded or qualified levels ("$9.99B", "nearly $999M": invented examples), published growth rates, shares of premium and of items, averages, counts in another unit, and year-to-date figures ending in this month (key suffix _ytd). Keyed by metric (premium, policies, items, premium_yoy_pct, avg_premium_per_item, ...); what each key measures and its unit are in the answer\'s printed_keys. Latest vintage as of report_date, office publications before press copies. Null when there is none. Rows summed from months carry only what a source printed for the summed period itself.',
    }),
  })
  .strict()
  .meta({ id: 'SeriesRow' });
export type SeriesRow = z.infer<typeof seriesRow>;
export type SeriesValues = Omit<SeriesRow, 'period' | 'printed'>;
export const SERIES_FIELDS = [
  'premium',
  'policy_count',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
] as const satisfies readonly (keyof SeriesValues)[];
export type SeriesField = (typeof SERIES_FIELDS)[number];


const publications = z.array(publicationRef).meta({
  description:
    'Every publication whose figures this answer shows (summed rows: those of every summed part), so each figure can be cited. Ordered by report_date, then url. Empty when no figure is returned.',
});

const provenance = {
  publications,
  report_date: nullableString.meta({ description: 'The latest publication date among the figures returned (null when there are none).' }),
  data_as_of: nullableString.meta({
    description: 'The date the data of that latest publication is current to (null when no figures are returned).',
  }),
  source: nullableString.meta({ description: "The state's source: the stamping office publishing its figures." }),
};

// ---- shared query parameters ------------------------------------------------------------------

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const monthParam = (bound: string) =>
  z
    .string()
    .regex(MONTH, 'a month YYYY-MM (01-12), e.g. 2024-01')
    .meta({
      description: bound.includes('lower')
        ? `${bound}, \`YYYY-MM\`, on the first month of a row's period (as FRED does): with granularity=year, from=2024-06 excludes 2024 and to=2024-06 includes it.`
        : `${bound}, \`YYYY-MM\`, on the first month of a row's period, as for from.`,
      example: '2024-01',
    });
const lineParam = z
  .string()
  .min(1, 'a line: all, a source_code, a line name or a category (see /v1/lines)')
  .default('all')
  .meta({
    description:
      '`all` (the all-lines figures the source publishes, not a sum of lines), a source_code, a line name or a category (the sum, vintage by vintage, of its lines with a row for the period); case-insensitive, first match wins. `category:<name>` asks for the category only, where a line has its name (FL line 1000 is "Commercial Property"). Unknown → 404; see /v1/lines.',
    example: 'all',
  });
const granularityParam = z
  .enum(GRANULARITIES, { error: 'one of month, quarter, half_year, year' })
  .meta({
    description:
      'Quarter and year rows are the source\'s own where it publishes them, else summed from months when every month is present (a summed field is null when any month has it null). Default month (year with county).',
    example: 'year',
  });
const reportDateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD, e.g. 2024-03-01')
  .refine(isIsoDate, 'a real calendar date YYYY-MM-DD')
  .meta({
    description:
      'As-of pinning: each period as published on or before this date (each field from the latest report printing it). Periods first published later are absent; a date before every publication gives data: []. Omitted: each period\'s latest report.',
    example: '2024-03-01',
  });

/** The answer formats of the priced routes (docs/design.md §11). MCP tools take no format: they answer JSON and a text rendering. */
export const FORMATS = ['json', 'csv'] as const;
/** `format`, its CSV form described: `csv` says what the lines and columns are. */
const formatParamOf = (csv: string) =>
  z
    .enum(FORMATS, { error: 'json or csv' })
    .optional()
    // json is the default: asked for or not, one answer, one canonical query (the payment challenge's resource).
    .transform((f) => (f === 'csv' ? f : undefined))
    .meta({ description: `json (default) or csv: text/csv, ${csv} Same validation, price and no-charge rule.`, example: 'csv' });
const formatParam = formatParamOf(
  "long form, one line per figure, exact and printed, each with the report_date and URL of the publication that printed it (a figure summed here from parts: every part's URL, space-separated, and the latest date). Columns: state, line, granularity, period, field, value, kind (exact or printed), as_printed, qualifier, measures, unit, report_date, publication_url. An answer with no figure is the header line alone.",
);

// ---- /v1/premium ------------------------------------------------------------------------------

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
          'County name, case-insensitive, echoed uppercased; omit for statewide. County data is annual: granularity defaults to year, any other → 400. A state without county data (has_county_data in /v1/coverage) or an unknown county → 404.',
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
        message: `'granularity' ${v.granularity} is not available with 'county': county data is annual; use granularity=year or omit it`,
      });
  });
export type PremiumParams = z.infer<typeof premiumParams>;

export const premiumResponse = z
  .object({
    state: z.string(),
    line: z.string().meta({ description: '`all`, the matched line\'s source_code, or the category name.' }),
    county: nullableString.meta({ description: 'The county parameter uppercased; null means statewide.' }),
    granularity: z.enum(GRANULARITIES),
    data: z.array(seriesRow).meta({ description: 'Ordered by period, ascending. Empty when nothing matches.' }),
    printed_keys: printedKeys,
    ...provenance,
  })
  .strict()
  .meta({ id: 'PremiumResponse' });
export type PremiumResponse = z.infer<typeof premiumResponse>;

// ---- /v1/premium/summary ----------------------------------------------------------------------

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

export const SUMMARY_BASES = ['monthly_sum', 'annual_report', 'partial_monthly_sum'] as const;

export const summaryResponse = z
  .object({
    state: z.string(),
    year: z.number().int(),
    premium: nullableNumber,
    policy_count: nullableNumber,
    new_business_premium: nullableNumber,
    renewal_premium: nullableNumber,
    new_business_policy_pct: nullableNumber,
    renewal_policy_pct: nullableNumber,
    months_available: z.number().int().meta({
      description:
        'Months of the year whose monthly statewide all-lines row holds at least one exact figure in the six series fields (premium, policy_count, new_business_premium, renewal_premium, new_business_policy_pct, renewal_policy_pct). A month with only printed figures is not counted: it has nothing to sum.',
    }),
    basis: z.enum(SUMMARY_BASES).nullable().meta({
      description:
        'First that applies: monthly_sum (all 12 months have premium; the months are summed), annual_report (a year-level row the source published), monthly_sum again when all 12 months are published but some lack a premium (premium then null), partial_monthly_sum (fewer than 12 months, summed: may understate the year), else null with every figure null. In a sum, a field is null when any summed month has it null.',
    }),
    prior_year: z
      .object({
        year: z.number().int(),
        premium: nullableNumber,
        policy_count: nullableNumber,
        months_available: z.number().int().meta({
          description: "The prior year's months counted the same way (at least one exact figure); like-for-like, only among the current year's calendar months when basis is partial_monthly_sum.",
        }),
      })
      .strict()
      .meta({
        description:
          'Like-for-like: when basis is partial_monthly_sum the prior year is summed over the same calendar months (months_available counts those it has); otherwise it uses its own basis.',
      }),
    yoy_premium_pct: nullableNumber.meta({
      description:
        '(premium / prior premium - 1) x 100, 2 decimals. Null when either side is null, the prior is 0, or the two sides do not cover the same span (the same calendar months, or both a full year): a change across unequal spans, such as 10 months against 7, is never published as a growth rate. yoy_basis says which.',
    }),
    yoy_policy_count_pct: nullableNumber.meta({ description: 'The same for policy_count.' }),
    yoy_basis: z.enum(['same_months', 'full_years', 'unequal_spans']).nullable().meta({
      description:
        'How the two years compare: same_months (the same calendar months on both sides), full_years (a full year on each side: 12 months or a published year), unequal_spans (growth withheld: null yoy_*), or null when either side has no figures.',
    }),
    ...provenance,
  })
  .strict()
  .meta({ id: 'SummaryResponse' });
export type SummaryResponse = z.infer<typeof summaryResponse>;

// ---- /v1/compare ------------------------------------------------------------------------------

export const MAX_COMPARE_STATES = 15;

/** Parameters that take a comma-separated list in a query string; an MCP tool takes them as a list too (or as one string). */
export const LIST_PARAMETERS: readonly string[] = ['states'];

export const compareParams = z
  .object({
    states: statesListParam(MAX_COMPARE_STATES).meta({
        description: `Comma-separated state codes, case-insensitive, 1 to ${MAX_COMPARE_STATES} distinct (duplicates are folded). Any unknown state → 404 naming it.`,
        example: 'FL,TX',
      }),
    line: lineParam.meta({
      description: 'As for /v1/premium, resolved in each state; it must resolve in every listed state, else 404 naming the state. A category is what makes lines comparable across states.',
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

export const compareResponse = z
  .object({
    line: z.string().meta({
      description: "As /v1/premium echoes it (all, a source_code or a category name) when every state resolves it the same way; otherwise the parameter as given.",
    }),
    granularity: z.enum(GRANULARITIES),
    series: z.record(z.string(), z.array(seriesRow)).meta({
      description: 'Keyed by state code, in the order given. Each series equals the /v1/premium answer for that state.',
    }),
    printed_keys: printedKeys,
    report_date: nullableString.meta({ description: 'The latest publication date across states (null when no state has figures).' }),
    data_as_of: nullableString.meta({
      description: "The earliest of the states' data_as_of: every series is current at least to it (null when no state has figures).",
    }),
    source: z.record(z.string(), nullableString).meta({ description: "Each state's source, keyed by state code." }),
    publications,
  })
  .strict()
  .meta({ id: 'CompareResponse' });
export type CompareResponse = z.infer<typeof compareResponse>;

// ---- /v1/insurers -----------------------------------------------------------------------------

export const insurersParams = z
  .object({
    state: stateParam.meta({
      description: "Two-letter state code, case-insensitive (e.g. TX), or US: AM Best's national rankings of surplus lines groups and companies, as reprinted (not stamping-office data).",
      example: 'TX',
    }),
    period: z
      .string()
      .regex(/^\d{4}(-(0[1-9]|1[0-2]|H[12]))?$/, 'a month YYYY-MM (01-12), a half-year YYYY-H1 or YYYY-H2, or a year YYYY')
      .meta({
        description:
          "Month `YYYY-MM`, half-year `YYYY-H1`/`YYYY-H2` or year `YYYY`: a ranking a publication printed for that period (or a year summed from 12 complete monthly lists with exact premiums). A period without one → 404 naming those that have one (/v1/coverage lists them as insurer_periods).",
        example: '2021',
      }),
    format: formatParamOf(
      'one line per insurer, ranked then unranked, with the ranking it belongs to and the publication that printed it. Columns: state, period, rank (empty: printed without a rank), name, premium (USD), market_share_pct, as_printed, qualifier, note, entity, basis, report_date, publication_url.',
    ),
  })
  .strict();
export type InsurersParams = z.infer<typeof insurersParams>;

/** How a premium was printed, on an insurer whose premium is rounded or qualified (docs/design.md §9, §12); absent when exact. */
const printedAs = {
  as_printed: z.string().optional().meta({ description: 'Only where the premium was printed rounded or qualified: the words as printed (e.g. $1.78bn); premium is then that printed value.' }),
  qualifier: z.string().optional().meta({ description: 'With as_printed: rounded, or the qualifier word printed (about, nearly, ...).' }),
};
const marketShare = nullableNumber.meta({ description: 'The share of the market printed beside it, in percent, as printed; null where none is printed (never computed here).' });

export const insurerItem = z
  .object({
    rank: z.number().int().meta({ description: 'As the publication printed it: 1 is the largest premium. (A year summed here from monthly lists: ranked by premium, ties by name.)' }),
    name: z.string().meta({ description: 'As printed, a possessive dropped ("Chubb\'s" → "Chubb").' }),
    premium: z.number().meta({ description: 'USD (a table in thousands multiplied out); exact unless as_printed says how it was printed.' }),
    policy_count: nullableNumber,
    market_share_pct: marketShare,
    ...printedAs,
    note: z.string().optional().meta({ description: 'What a reader needs about this line, where the data says something: how the name was printed, what the stored copy cut.' }),
  })
  .strict()
  .meta({ id: 'InsurerItem' });

export const unrankedInsurer = z
  .object({
    name: z.string(),
    premium: z.number().meta({ description: 'USD, as for a ranked insurer.' }),
    market_share_pct: marketShare,
    ...printedAs,
    note: z.string().meta({ description: 'Why the publication gives it no rank (AM Best: "because of its unique structure", Lloyd\'s).' }),
  })
  .strict()
  .meta({ id: 'UnrankedInsurer' });

export const rankingInfo = z
  .object({
    entity: z.enum(['company', 'group']).meta({ description: 'What is ranked: insurance companies, or groups of them.' }),
    basis: z.string().meta({ description: 'What the premium is and whose ranking it is (e.g. direct premiums written in the U.S. surplus lines market, AM Best).' }),
    ranks_listed: z.number().int().meta({ description: 'How many ranks this answer lists.' }),
    ranks_in_publication: z.number().int().optional().meta({ description: 'Only where the publication ranks more than the source shows (AM Best ranks 25; a copy that stops at rank 13 lists 13): this list is then partial.' }),
  })
  .strict()
  .meta({ id: 'Ranking' });

export const insurersResponse = z
  .object({
    state: z.string().meta({ description: 'The state code, or US for a national ranking.' }),
    period: z.string(),
    ranking: rankingInfo,
    insurers: z.array(insurerItem).meta({ description: 'The ranked insurers, rank 1 first, as the publication printed them (often a top-N: see ranking).' }),
    unranked: z.array(unrankedInsurer).meta({ description: 'Insurers the publication prints beside its ranking without a rank (AM Best\'s Lloyd\'s line); often empty. Never given a rank here.' }),
    ...provenance,
    source: nullableString.meta({ description: 'Who published the ranking: the publication named as its source (an office, or a press or institute reprint, which says whose ranking it is).' }),
  })
  .strict()
  .meta({ id: 'InsurersResponse' });
export type InsurersResponse = z.infer<typeof insurersResponse>;

// ---- /v1/premium/sample -----------------------------------------------------------------------

export const sampleParams = z
  .object({
    state: stateParam.default('FL').meta({ description: 'Two-letter state code, case-insensitive. Default FL.', default: 'FL', example: 'TX' }),
    format: formatParam,
  })
  .strict();

export const sampleResponse = z
  .object({
    state: z.string(),
    line: z.string(),
    granularity: z.string(),
    sample: z.boolean(),
    data: z.array(seriesRow),
    printed_keys: printedKeys,
    ...provenance,
    note: z.string(),
  })
  .strict()
  .meta({ id: 'SamplePremiumResponse' });
export type SampleResponse = z.infer<typeof sampleResponse>;
