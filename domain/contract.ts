// The one declaration of the API contract: the answers of the market and discovery routes (their parameters
// are in contract-params.ts, the further datasets' in contract-datasets.ts, the bulk files' in
// contract-bulk.ts, the error body and the fields these answers share in contract-fields.ts; route-contracts.ts
// declares the routes). Handlers validate with these, types come from them, the ingest checks the free bodies it
// precomputes against them, and the OpenAPI document is generated from them.
import { z } from 'zod';
// /openapi.json lists its components in the order the process declared their schemas: this module loads the
// bulk files' and the datasets', then the shared fields', before declaring its own.
import './contract-bulk.ts';
import './contract-datasets.ts';
import { printedKeys, provenance, publications, seriesRow } from './contract-fields.ts';
import { GRANULARITIES } from './periods.ts';
import { nullableNumber, nullableString, publicationRef } from './contract-shared.ts';

export {
  SERIES_FIELDS,
  errorBody,
  type ErrorBody,
  type PrintedFigure,
  type PrintedFigures,
  type SeriesField,
  type SeriesRow,
  type SeriesValues,
} from './contract-fields.ts';

// ---- /v1/lines ------------------------------------------------------------------------------

const lineItem = z
  .object({
    id: z.number().int().meta({ description: 'Stable id: a line keeps it across rebuilds.' }),
    source_code: z.string().meta({
      description: "The office's coverage code; where a publication names a line without a code, the name as printed.",
    }),
    name: z.string(),
    category: z.string().nullable().meta({ description: 'Project-wide cross-state category; null where none fits.' }),
    note: z
      .string()
      .nullable()
      .meta({
        description:
          'How the line is known: where its code or name was printed, and where figures are mapped to it by ' +
          'interpretation (a press or WSIA aggregate read as this line), said so. Null where there is nothing to ' +
          'add.',
      }),
  })
  .strict()
  .meta({ id: 'CoverageLine' });
export const linesResponse = z
  .array(lineItem)
  .meta({ id: 'CoverageLines', description: 'Ordered by source_code, numeric-aware.' });
export type LineItem = z.infer<typeof lineItem>;

// ---- /v1/coverage ---------------------------------------------------------------------------

export const PERIOD_TYPE_NAMES = ['month', 'quarter', 'half_year', 'year', 'year_to_date'] as const;

const periodTypeCoverage = z
  .object({
    from: z.string().meta({
      description: 'The first period of this type with figures, statewide, for all lines or any one line or category.',
    }),
    to: z.string().meta({
      description:
        'The last such period. Periods between from and to may have no figures: periods says how many have, for ' +
        'all lines.',
    }),
    periods: z
      .number()
      .int()
      .nonnegative()
      .meta({
        description:
          'How many periods of this type have at least one figure (exact or printed), statewide for all lines, ' +
          'latest vintage: exactly the rows /v1/premium answers for the state at this granularity (line=all, no ' +
          'county, no report_date), so fewer than from..to spans where a series is sparse. 0 when only single ' +
          'lines or categories have figures of this type. year_to_date, not a granularity: the year-to-date spans ' +
          'with an exact level (premium, a new/renewal figure, or a count in this count_unit), the spans from and ' +
          "to bound; each is served in the printed object of /v1/premium's month row of its last month, under the " +
          'key <metric>_ytd without a qualifier. Rounded year-to-date levels and year-to-date growth rates are ' +
          'printed on month rows too but are not counted here.',
      }),
    latest_report_date: z.string(),
    count_unit: z.enum(['policies', 'transactions', 'items']).nullable().meta({
      description: 'What policy_count counts for this period type; null where no count is published.',
    }),
    basis: z.string().meta({
      description:
        'What the premium of this period type is, and whose compilation: e.g. premium submitted as WSIA compiles ' +
        "the offices' figures, or premium registered with SLA California including taxable fees. Figures on two " +
        'bases are never mixed in one series: a period type is summed from months only when the two share a ' +
        'basis.',
    }),
  })
  .strict();

export const coverageItem = z
  .object({
    state: z.string(),
    name: z.string(),
    stamping_office: z.string(),
    stamping_office_name_basis: z.enum(['confirmed', 'seen_in_press', 'unconfirmed']).meta({
      description:
        "How well the office's name is attested in the sources: official, seen in the press, or not confirmed.",
    }),
    period_types: z.partialRecord(z.enum(PERIOD_TYPE_NAMES), periodTypeCoverage).meta({
      description:
        'Period types with data. month, quarter, half_year and year are granularities of /v1/premium and ' +
        '/v1/compare; year_to_date figures are served in the printed object of the row of their last month.',
    }),
    capabilities: z
      .object({
        has_county_data: z.boolean(),
        has_insurer_data: z.boolean().meta({
          description:
            'True exactly when /v1/insurers answers 200 for at least one period: those listed in insurer_periods.',
        }),
        has_new_renewal_split: z.boolean(),
      })
      .strict(),
    insurer_periods: z.array(z.string()).meta({
      description:
        'The periods /v1/insurers ranks for this state (month YYYY-MM or year YYYY), ascending; empty when none.',
    }),
  })
  .strict()
  .meta({ id: 'CoverageSummary' });
export const coverageResponse = z
  .array(coverageItem)
  .meta({ id: 'Coverage', description: 'One item per state, in code order.' });
export type CoverageItem = z.infer<typeof coverageItem>;

// ---- /v1/premium ------------------------------------------------------------------------------

export const premiumResponse = z
  .object({
    state: z.string(),
    line: z.string().meta({ description: "`all`, the matched line's source_code, or the category name." }),
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

const SUMMARY_BASES = ['monthly_sum', 'annual_report', 'partial_monthly_sum'] as const;

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
    months_available: z
      .number()
      .int()
      .meta({
        description:
          'Months of the year whose monthly statewide all-lines row holds at least one exact figure in the six ' +
          'series fields (premium, policy_count, new_business_premium, renewal_premium, new_business_policy_pct, ' +
          'renewal_policy_pct). A month with only printed figures is not counted: it has nothing to sum.',
      }),
    basis: z
      .enum(SUMMARY_BASES)
      .nullable()
      .meta({
        description:
          'First that applies: monthly_sum (all 12 months have premium; the months are summed), annual_report (a ' +
          'year-level row the source published), monthly_sum again when all 12 months are published but some lack ' +
          'a premium (premium then null), partial_monthly_sum (fewer than 12 months, summed: may understate the ' +
          'year), else null with every figure null. In a sum, a field is null when any summed month has it null.',
      }),
    prior_year: z
      .object({
        year: z.number().int(),
        premium: nullableNumber,
        policy_count: nullableNumber,
        months_available: z
          .number()
          .int()
          .meta({
            description:
              "The prior year's months counted the same way (at least one exact figure); like-for-like, only among " +
              "the current year's calendar months when basis is partial_monthly_sum.",
          }),
      })
      .strict()
      .meta({
        description:
          'Like-for-like: when basis is partial_monthly_sum the prior year is summed over the same calendar ' +
          'months (months_available counts those it has); otherwise it uses its own basis.',
      }),
    yoy_premium_pct: nullableNumber.meta({
      description:
        '(premium / prior premium - 1) x 100, 2 decimals. Null when either side is null, the prior is 0, or the ' +
        'two sides do not cover the same span (the same calendar months, or both a full year): a change across ' +
        'unequal spans, such as 10 months against 7, is never published as a growth rate. yoy_basis says which.',
    }),
    yoy_policy_count_pct: nullableNumber.meta({ description: 'The same for policy_count.' }),
    yoy_basis: z
      .enum(['same_months', 'full_years', 'unequal_spans'])
      .nullable()
      .meta({
        description:
          'How the two years compare: same_months (the same calendar months on both sides), full_years (a full ' +
          'year on each side: 12 months or a published year), unequal_spans (growth withheld: null yoy_*), or null ' +
          'when either side has no figures.',
      }),
    ...provenance,
  })
  .strict()
  .meta({ id: 'SummaryResponse' });
export type SummaryResponse = z.infer<typeof summaryResponse>;

// ---- /v1/compare ------------------------------------------------------------------------------

export const compareResponse = z
  .object({
    line: z.string().meta({
      description:
        'As /v1/premium echoes it (all, a source_code or a category name) when every state resolves it the same ' +
        'way; otherwise the parameter as given.',
    }),
    granularity: z.enum(GRANULARITIES),
    series: z.record(z.string(), z.array(seriesRow)).meta({
      description: 'Keyed by state code, in the order given. Each series equals the /v1/premium answer for that state.',
    }),
    printed_keys: printedKeys,
    report_date: nullableString.meta({
      description: 'The latest publication date across states (null when no state has figures).',
    }),
    data_as_of: nullableString.meta({
      description:
        "The earliest of the states' data_as_of: every series is current at least to it (null when no state has " +
        'figures).',
    }),
    source: z.record(z.string(), nullableString).meta({ description: "Each state's source, keyed by state code." }),
    publications,
  })
  .strict()
  .meta({ id: 'CompareResponse' });
export type CompareResponse = z.infer<typeof compareResponse>;

// ---- /v1/insurers -----------------------------------------------------------------------------

/**
 * How a premium was printed, on an insurer whose premium is rounded or qualified (docs/design.md §9, §12); absent when
 * exact.
 */
const printedAs = {
  as_printed: z
    .string()
    .optional()
    .meta({
      description:
        'Only where the premium was printed rounded or qualified: the words as printed (e.g. $1.78bn); premium is ' +
        'then that printed value.',
    }),
  qualifier: z
    .string()
    .optional()
    .meta({ description: 'With as_printed: rounded, or the qualifier word printed (about, nearly, ...).' }),
};
const marketShare = nullableNumber.meta({
  description:
    'The share of the market printed beside it, in percent, as printed; null where none is printed (never ' +
    'computed here).',
});

const insurerItem = z
  .object({
    rank: z
      .number()
      .int()
      .meta({
        description:
          'As the publication printed it: 1 is the largest premium. (A year summed here from monthly lists: ranked ' +
          'by premium, ties by name.)',
      }),
    name: z.string().meta({ description: 'As printed, a possessive dropped ("Chubb\'s" → "Chubb").' }),
    premium: z.number().meta({
      description: 'USD (a table in thousands multiplied out); exact unless as_printed says how it was printed.',
    }),
    policy_count: nullableNumber,
    market_share_pct: marketShare,
    ...printedAs,
    note: z
      .string()
      .optional()
      .meta({
        description:
          'What a reader needs about this line, where the data says something: how the name was printed, what the ' +
          'stored copy cut.',
      }),
  })
  .strict()
  .meta({ id: 'InsurerItem' });

const unrankedInsurer = z
  .object({
    name: z.string(),
    premium: z.number().meta({ description: 'USD, as for a ranked insurer.' }),
    market_share_pct: marketShare,
    ...printedAs,
    note: z.string().meta({
      description: 'Why the publication gives it no rank (AM Best: "because of its unique structure", Lloyd\'s).',
    }),
  })
  .strict()
  .meta({ id: 'UnrankedInsurer' });

export const rankingInfo = z
  .object({
    entity: z
      .enum(['company', 'group'])
      .meta({ description: 'What is ranked: insurance companies, or groups of them.' }),
    basis: z.string().meta({
      description:
        'What the premium is and whose ranking it is (e.g. direct premiums written in the U.S. surplus lines ' +
        'market, AM Best).',
    }),
    ranks_listed: z.number().int().meta({ description: 'How many ranks this answer lists.' }),
    ranks_in_publication: z
      .number()
      .int()
      .optional()
      .meta({
        description:
          'Only where the publication ranks more than the source shows (AM Best ranks 25; a copy that stops at ' +
          'rank 13 lists 13): this list is then partial.',
      }),
  })
  .strict()
  .meta({ id: 'Ranking' });

export const insurersResponse = z
  .object({
    state: z.string().meta({ description: 'The state code, or US for a national ranking.' }),
    period: z.string(),
    ranking: rankingInfo,
    insurers: z.array(insurerItem).meta({
      description: 'The ranked insurers, rank 1 first, as the publication printed them (often a top-N: see ranking).',
    }),
    unranked: z.array(unrankedInsurer).meta({
      description:
        "Insurers the publication prints beside its ranking without a rank (AM Best's Lloyd's line); often " +
        'empty. Never given a rank here.',
    }),
    ...provenance,
    source: nullableString.meta({
      description:
        'Who published the ranking: the publication named as its source (an office, or a press or institute ' +
        'reprint, which says whose ranking it is).',
    }),
  })
  .strict()
  .meta({ id: 'InsurersResponse' });
export type InsurersResponse = z.infer<typeof insurersResponse>;

// ---- /v1/premium/sample -----------------------------------------------------------------------

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

// ---- /v1/publications -------------------------------------------------------------------------

const publicationListing = z
  .object({
    state: z.string().meta({
      description:
        'The state whose figures it gives. A publication with figures for several states (a WSIA report) is ' +
        "listed once per state, each with that state's periods and figure count.",
    }),
    ...publicationRef.shape,
    data_as_of: z.string().meta({ description: 'The date the data of the publication is current to, YYYY-MM-DD.' }),
    secondary: z.boolean().meta({
      description:
        "True for a press copy of an office's figures: office publications outrank it figure by figure, whatever " +
        'the dates.',
    }),
    periods: z.partialRecord(z.enum(PERIOD_TYPE_NAMES), z.object({ from: z.string(), to: z.string() }).strict()).meta({
      description: 'The first and last period of each period type it gives figures for, in this state.',
    }),
    figure_count: z
      .number()
      .int()
      .meta({
        description:
          'How many figures of this state were transcribed from it (levels, printed-only figures, lines and ' +
          'insurers alike).',
      }),
  })
  .strict()
  .meta({ id: 'PublicationListing' });

export const publicationsResponse = z
  .object({
    state: nullableString.meta({
      description: "The state asked for; null when none was (every state's publications).",
    }),
    source: nullableString.meta({
      description: "The state's source: the stamping office publishing its figures; null without state.",
    }),
    report_dates: z.array(z.string()).meta({
      description:
        'Every distinct report_date of the publications listed, ascending. For one state: the vintages a ' +
        'report_date parameter can pin (each date shows what was published on or before it).',
    }),
    publications: z.array(publicationListing).meta({
      description:
        'Every publication with figures for the state, oldest first: by report_date, then url. Without state, ' +
        "every state's, newest first: by report_date descending, then state, then url, then title. With since, " +
        'only those whose report_date is on or after it, in the same order.',
    }),
  })
  .strict()
  .meta({ id: 'PublicationsResponse' });
export type PublicationsResponse = z.infer<typeof publicationsResponse>;
