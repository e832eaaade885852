// The further datasets' part of the contract (docs/design.md §18-20, §6-7
// and §10): receiverships and enforcement, admitted-market rate filings, Lloyd's syndicates. The item
// shapes are those of docs/design.md §18-20; every answer also lists the publications its records come from.
import { z } from 'zod';
import { GRANULARITIES } from './periods.ts';
import {
  checkRange,
  nullableNumber,
  nullableString,
  publicationRef,
  stateParam,
  statesListParam,
} from './contract-shared.ts';

/**
 * The enforcement action types (data/README.md): fine, examination and investigation (docs/design.md §18), and the
 * licence actions and orders.
 */
export const ACTION_TYPE_NAMES = [
  'fine',
  'examination',
  'investigation',
  'license_suspension',
  'license_revocation',
  'license_denial',
  'cease_and_desist',
  'consent_order',
] as const;
export const COVERAGE_CATEGORY_NAMES = ['auto', 'property', 'liability', 'package', 'workers_comp', 'other'] as const;

const dateOrYear = nullableString.meta({
  description: '`YYYY-MM-DD`, or a bare year `YYYY` where the source gives only a year; null when not printed.',
});
const isoDate = nullableString.meta({ description: '`YYYY-MM-DD`; null when the source prints none.' });

const datasetProvenance = {
  report_date: nullableString.meta({
    description: 'The latest publication date among the records summarised (null when there are none).',
  }),
  data_as_of: nullableString.meta({ description: 'The date the data of that latest publication is current to.' }),
  source: z.string().meta({ description: 'Where the records come from, in words.' }),
  coverage_note: z.string().meta({ description: 'What the records cover, and what they do not.' }),
  note: z.string().meta({ description: 'What the paid routes add, and the rules of the dataset.' }),
  publications: z
    .array(publicationRef)
    .meta({ description: 'Every publication whose records this answer shows, by report_date then url.' }),
};

// ---- receiverships and enforcement -------------------------------------------------------------

const liquidationItem = z
  .object({
    state: z.string().meta({ description: "The receiver's state." }),
    company_name: z.string(),
    naic_code: nullableString,
    status: z
      .string()
      .meta({ description: 'liquidation, rehabilitation, conservation or closed, as the receiver lists it.' }),
    coverage_type: nullableString,
    case_number: nullableString,
    guaranty_associations: z.array(z.string()).nullable(),
    domicile: nullableString,
    rehabilitation_date: dateOrYear,
    liquidation_date: dateOrYear,
    policy_cancellation_date: dateOrYear,
    claims_deadline: dateOrYear,
    discharge_date: dateOrYear,
    detail_url: z.string().meta({ description: "The estate's page, else the publication's." }),
  })
  .strict()
  .meta({ id: 'Receivership' });
export type LiquidationItem = z.infer<typeof liquidationItem>;

const fineItem = z
  .object({
    state: z.string().meta({ description: "The regulator's state." }),
    company_name: z.string(),
    naic_code: nullableString,
    action_type: z.string().meta({
      description:
        'fine, examination, investigation, license_suspension, license_revocation, license_denial, ' +
        'cease_and_desist or consent_order. Examinations and investigations carry no penalty (fine_amount null).',
    }),
    line_of_insurance: nullableString,
    fine_amount: nullableNumber.meta({ description: 'USD, as printed; null where the action carries none.' }),
    reason: nullableString.meta({ description: 'Free text, as printed; may be truncated.' }),
    license_type: nullableString,
    case_number: nullableString,
    period: z.string().meta({ description: 'The year the regulator lists the action under.' }),
  })
  .strict()
  .meta({ id: 'EnforcementAction' });
export type FineItem = z.infer<typeof fineItem>;

export const solvencySampleResponse = z
  .object({
    sample: z.literal(true),
    receivership_count: z.number(),
    active_receiverships: z
      .number()
      .meta({ description: 'Receiverships not closed (no discharge date, status other than closed).' }),
    enforcement_years: z.object({ from: z.number(), to: z.number() }).strict().nullable(),
    recent_liquidations: z.array(liquidationItem),
    recent_fines: z.array(fineItem),
    ...datasetProvenance,
  })
  .strict()
  .meta({ id: 'SolvencySample' });
export type SolvencySampleResponse = z.infer<typeof solvencySampleResponse>;

// ---- rate filings -------------------------------------------------------------------------------

const filingItem = z
  .object({
    state: z.string(),
    serff_tracking: nullableString.meta({
      description: 'The SERFF tracking number; null where the source prints none.',
    }),
    company_name: z.string(),
    naic_code: nullableString,
    toi_code: nullableString,
    toi_name: z.string(),
    coverage_category: z.string().meta({ description: 'auto, property, liability, package, workers_comp or other.' }),
    product_name: nullableString.meta({ description: 'As printed; null where the source names no product.' }),
    rate_change_pct: nullableNumber.meta({
      description: 'The overall rate change, percent; null for a filing with no overall percentage.',
    }),
    received_date: isoDate,
    closed_date: isoDate,
    effective_date_new: isoDate,
    effective_date_renewal: isoDate,
    status: z.string().meta({ description: 'closed or pending.' }),
    disposition: nullableString,
  })
  .strict()
  .meta({ id: 'RateFiling' });
export type FilingItem = z.infer<typeof filingItem>;

export const ratesSampleResponse = z
  .object({
    sample: z.literal(true),
    states: z.array(
      z
        .object({
          state: z.string(),
          filing_count: z.number(),
          received_date_range: z
            .object({ from: z.string(), to: z.string() })
            .strict()
            .nullable()
            .meta({ description: 'Null where the source prints no received date.' }),
        })
        .strict(),
    ),
    recent_large_increases: z.array(filingItem),
    ...datasetProvenance,
  })
  .strict()
  .meta({ id: 'RatesSample' });
export type RatesSampleResponse = z.infer<typeof ratesSampleResponse>;

// ---- Lloyd's syndicates ---------------------------------------------------------------------------

const syndicateYear = z
  .object({
    year_of_account: z.number(),
    capacity_gbp_000: nullableNumber.meta({ description: 'Capacity in thousands of GBP: not premium written.' }),
    estimated_result_pct: z.object({ worst: z.number(), best: z.number() }).strict().nullable().meta({
      description:
        'The published forecast range, % on capacity (not USD, not audited); null: no forecast published yet.',
    }),
  })
  .strict()
  .meta({ id: 'SyndicateYear' });

const syndicateItem = z
  .object({
    syndicate_no: z.string(),
    syndicate_name: nullableString,
    managing_agent: nullableString,
    pseudonym: nullableString,
    status: nullableString,
    years: z.array(syndicateYear),
  })
  .strict()
  .meta({ id: 'Syndicate' });
export type SyndicateItem = z.infer<typeof syndicateItem>;

export const syndicatesSampleResponse = z
  .object({
    sample: z.literal(true),
    syndicate_count: z.number(),
    with_forecast_count: z.number(),
    forecast_years: z.object({ from: z.number(), to: z.number() }).strict().nullable(),
    edition: nullableString.meta({ description: 'The forecast edition of the latest publication, as printed.' }),
    examples: z.array(syndicateItem),
    ...datasetProvenance,
  })
  .strict()
  .meta({ id: 'SyndicatesSample' });
export type SyndicatesSampleResponse = z.infer<typeof syndicatesSampleResponse>;

// ---- the full, priced routes (docs/design.md §7: 0.10 USD each) -------------------------------------

const nameParam = (what: string, example: string) =>
  z
    .string()
    .trim()
    .min(2, `${what} of at least 2 characters`)
    .max(120, `${what} of at most 120 characters`)
    .meta({
      description:
        `${what}, matched by normalized name: case, punctuation, a leading "the" and suffixes such as Inc., Co., ` +
        `Corp. ignored, "&" as "and".`,
      example,
    });
const yearParam = z
  .string()
  .regex(/^\d{4}$/, 'a year YYYY, e.g. 2023')
  .transform(Number)
  .meta({ description: 'A year, `YYYY`.', example: '2023' });
const dateBound = (bound: string, example: string) =>
  z
    .string()
    .regex(
      /^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/,
      'a month YYYY-MM or a date YYYY-MM-DD, e.g. 2024-01 or 2024-01-15',
    )
    .meta({
      description: bound.includes('lower')
        ? `${bound} on the bucketing date (received date, else closed date, else the publication date): a month ` +
          `\`YYYY-MM\` (the whole month) or a date \`YYYY-MM-DD\`.`
        : `${bound} on the bucketing date, as for from: a month \`YYYY-MM\` (the whole month) or a date ` +
          `\`YYYY-MM-DD\`.`,
      example,
    });
const monthBound = (bound: string, example: string) =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month YYYY-MM (01-12), e.g. 2024-01')
    .meta({ description: `${bound}, \`YYYY-MM\`, on the bucketing month.`, example });
const syndicateParam = z
  .string()
  .regex(/^0*\d{1,4}$/, "a Lloyd's syndicate number, e.g. 2791")
  .meta({ description: "A Lloyd's syndicate number.", example: '2791' });

const fullProvenance = {
  report_date: datasetProvenance.report_date,
  data_as_of: datasetProvenance.data_as_of,
  source: datasetProvenance.source,
  note: datasetProvenance.note,
  publications: datasetProvenance.publications,
};

export const solvencyParams = z
  .object({ insurer: nameParam('The carrier name', 'Maidstone Insurance Company') })
  .strict();
export type SolvencyParams = z.infer<typeof solvencyParams>;

export const solvencyResponse = z
  .object({
    insurer: z.string().meta({ description: 'The name asked for, as given.' }),
    normalized_name: z.string().meta({ description: 'What was matched.' }),
    receiverships: z.array(liquidationItem),
    enforcement_actions: z.array(fineItem),
    ...fullProvenance,
  })
  .strict()
  .meta({ id: 'SolvencyDossier' });
export type SolvencyResponse = z.infer<typeof solvencyResponse>;

export const enforcementParams = z
  .object({
    // Together, the examples ask for a record the data has (FL's 2025 fines after hurricanes Ian and Idalia).
    action_type: z
      .enum(ACTION_TYPE_NAMES)
      .optional()
      .meta({ description: 'Only actions of this type; `fine` for monetary penalties.', example: 'fine' }),
    state: stateParam.optional().meta({ description: "The regulator's two-letter state code.", example: 'FL' }),
    year: yearParam.optional().meta({ description: 'The year the regulator lists the action under.', example: '2025' }),
    insurer: nameParam('A carrier name', 'American Coastal').optional(),
  })
  .strict();
export type EnforcementParams = z.infer<typeof enforcementParams>;

export const enforcementResponse = z
  .object({
    data: z.array(fineItem).meta({ description: 'By year (newest first), state, then company name.' }),
    ...fullProvenance,
  })
  .strict()
  .meta({ id: 'EnforcementLedger' });
export type EnforcementResponse = z.infer<typeof enforcementResponse>;

const filingRecord = filingItem
  .extend({
    record_kind: z
      .enum(['filing', 'annual_disclosure'])
      .meta({ description: "filing, or annual_disclosure for a state's per-company annual rate disclosures." }),
    bucket_date: z.string().meta({
      description: 'The date the filing entered the public record: received, else closed, else the publication date.',
    }),
  })
  .meta({ id: 'RateFilingRecord' });
export type FilingRecord = z.infer<typeof filingRecord>;

export const ratesParams = z
  .object({
    // Together, the examples ask for filings the data has (Citizens' FL homeowners rates of 2021).
    state: stateParam.optional(),
    company: nameParam('A company name', 'Citizens').optional(),
    toi: z.string().trim().min(2, 'a type of insurance of at least 2 characters').max(120).optional().meta({
      description: 'Type of insurance: a TOI code, or words of its name, case-insensitive.',
      example: 'Homeowners',
    }),
    coverage_category: z
      .enum(COVERAGE_CATEGORY_NAMES)
      .optional()
      .meta({ description: 'Only filings of this coverage category.', example: 'property' }),
    from: dateBound('Inclusive lower bound', '2021-01').optional(),
    to: dateBound('Inclusive upper bound', '2021-12').optional(),
    status: z
      .enum(['closed', 'pending'])
      .optional()
      .meta({ description: 'Only closed, or only pending, filings.', example: 'closed' }),
  })
  .strict()
  .superRefine(checkRange);
export type RatesParams = z.infer<typeof ratesParams>;

export const ratesResponse = z
  .object({
    data: z.array(filingRecord).meta({ description: 'By bucketing date (newest first), state, then company.' }),
    ...fullProvenance,
  })
  .strict()
  .meta({ id: 'RateFilings' });
export type RatesResponse = z.infer<typeof ratesResponse>;

export const rateActivityParams = z
  .object({
    // Together, the examples ask for buckets the data has (FL 2014-Q3, TX 2014-Q1).
    states: statesListParam(60)
      .optional()
      .meta({ description: 'Comma-separated state codes; omitted: every state with filings.', example: 'FL,TX' }),
    from: monthBound('Inclusive lower bound', '2014-01').optional(),
    to: monthBound('Inclusive upper bound', '2014-12').optional(),
    granularity: z
      .enum(GRANULARITIES)
      .default('quarter')
      .meta({ description: 'Bucket by month, quarter (the default), half_year or year.', example: 'quarter' }),
  })
  .strict()
  .superRefine(checkRange);
export type RateActivityParams = z.infer<typeof rateActivityParams>;

export const rateActivityResponse = z
  .object({
    granularity: z.enum(GRANULARITIES),
    data: z
      .array(
        z
          .object({
            state: z.string(),
            period: z
              .string()
              .meta({ description: '`YYYY-MM`, `YYYY-Qn`, `YYYY-H1`/`YYYY-H2` or `YYYY`, by granularity.' }),
            filing_count: z
              .number()
              .meta({ description: 'Every filing bucketed there, with or without an overall rate change.' }),
            avg_rate_change_pct: nullableNumber.meta({
              description:
                'Mean of the filings with an overall rate change, rounded to 2 decimals; null when none has one.',
            }),
            share_increasing: nullableNumber.meta({
              description:
                'Share (0-1, 4 decimals) of the filings with a rate change that increase; null when none has one.',
            }),
            share_decreasing: nullableNumber.meta({ description: 'The same for decreases.' }),
          })
          .strict(),
      )
      .meta({ description: 'By state, then period. Only buckets with filings.' }),
    ...fullProvenance,
  })
  .strict()
  .meta({ id: 'RateActivity' });
export type RateActivityResponse = z.infer<typeof rateActivityResponse>;

const eligibilityItem = z
  .object({
    state: nullableString.meta({
      description: "Whose list: a state's, or null for the NAIC Quarterly Listing of Alien Insurers.",
    }),
    list: z.string().meta({ description: "The list's name, as printed." }),
    company_name: z.string(),
    syndicate_no: nullableString,
    alien_id: nullableString,
    naic_code: nullableString,
    domicile: nullableString,
    eligible_since: nullableString,
    status: nullableString,
  })
  .strict()
  .meta({ id: 'Eligibility' });
export type EligibilityItem = z.infer<typeof eligibilityItem>;

export const syndicatesParams = z
  .object({
    // Together, the examples ask for a syndicate the data has: 2791 is managed by Managing Agency Partners.
    syndicate: syndicateParam.optional(),
    managing_agent: nameParam('A managing agent', 'Managing Agency Partners').optional(),
  })
  .strict();
export type SyndicatesParams = z.infer<typeof syndicatesParams>;

export const syndicatesResponse = z
  .object({
    data: z.array(
      syndicateItem
        .extend({
          eligibility: z
            .array(eligibilityItem)
            .meta({ description: 'Eligibility list entries for this syndicate number.' }),
        })
        .meta({ id: 'SyndicateDossier' }),
    ),
    ...fullProvenance,
  })
  .strict()
  .meta({ id: 'Syndicates' });
export type SyndicatesResponse = z.infer<typeof syndicatesResponse>;

export const eligibilityParams = z
  .object({
    syndicate: syndicateParam.optional(),
    insurer: nameParam('An insurer name', 'Starr').optional(),
  })
  .strict();
export type EligibilityParams = z.infer<typeof eligibilityParams>;

export const eligibilityResponse = z
  .object({ data: z.array(eligibilityItem), ...fullProvenance })
  .strict()
  .meta({ id: 'EligibilityListings' });
export type EligibilityResponse = z.infer<typeof eligibilityResponse>;
