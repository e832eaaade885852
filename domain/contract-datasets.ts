// The further datasets' part of the contract (SPEC.md "Free sample summary" sections, DECISIONS §6-7
// and §10): receiverships and enforcement, admitted-market rate filings, Lloyd's syndicates. The item
// shapes are SPEC's; every answer also lists the publications its records come from.
import { z } from 'zod';
import { publicationRef } from './contract-shared.ts';

const nullableString = z.string().nullable();
const nullableNumber = z.number().nullable();
const dateOrYear = nullableString.meta({ description: '`YYYY-MM-DD`, or a bare year `YYYY` where the source gives only a year; null when not printed.' });
const isoDate = nullableString.meta({ description: '`YYYY-MM-DD`; null when the source prints none.' });

const datasetProvenance = {
  report_date: nullableString.meta({ description: 'The latest publication date among the records summarised (null when there are none).' }),
  data_as_of: nullableString.meta({ description: 'The date the data of that latest publication is current to.' }),
  source: z.string().meta({ description: 'Where the records come from, in words.' }),
  coverage_note: z.string().meta({ description: 'What the records cover, and what they do not.' }),
  note: z.string().meta({ description: 'What the paid routes add, and the rules of the dataset.' }),
  publications: z.array(publicationRef).meta({ description: 'Every publication whose records this answer shows, by report_date then url.' }),
};

// ---- receiverships and enforcement -------------------------------------------------------------

export const liquidationItem = z
  .object({
    state: z.string().meta({ description: "The receiver's state." }),
    company_name: z.string(),
    naic_code: nullableString,
    status: z.string().meta({ description: 'liquidation, rehabilitation, conservation or closed, as the receiver lists it.' }),
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

export const fineItem = z
  .object({
    state: z.string().meta({ description: "The regulator's state." }),
    company_name: z.string(),
    naic_code: nullableString,
    action_type: z.string().meta({
      description: 'fine, examination, investigation, license_suspension, license_revocation, license_denial, cease_and_desist or consent_order. Examinations and investigations carry no penalty (fine_amount null).',
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
    active_receiverships: z.number().meta({ description: 'Receiverships not closed (no discharge date, status other than closed).' }),
    enforcement_years: z.object({ from: z.number(), to: z.number() }).strict().nullable(),
    recent_liquidations: z.array(liquidationItem),
    recent_fines: z.array(fineItem),
    ...datasetProvenance,
  })
  .strict()
  .meta({ id: 'SolvencySample' });
export type SolvencySampleResponse = z.infer<typeof solvencySampleResponse>;

// ---- rate filings -------------------------------------------------------------------------------

export const filingItem = z
  .object({
    state: z.string(),
    serff_tracking: nullableString.meta({ description: 'The SERFF tracking number; null where the source prints none.' }),
    company_name: z.string(),
    naic_code: nullableString,
    toi_code: nullableString,
    toi_name: z.string(),
    coverage_category: z.string().meta({ description: 'auto, property, liability, package, workers_comp or other.' }),
    product_name: nullableString.meta({ description: 'As printed; null where the source names no product.' }),
    rate_change_pct: nullableNumber.meta({ description: 'The overall rate change, percent; null for a filing with no overall percentage.' }),
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
          received_date_range: z.object({ from: z.string(), to: z.string() }).strict().nullable().meta({ description: 'Null where the source prints no received date.' }),
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

export const syndicateYear = z
  .object({
    year_of_account: z.number(),
    capacity_gbp_000: nullableNumber.meta({ description: 'Capacity in thousands of GBP: not premium written.' }),
    estimated_result_pct: z
      .object({ worst: z.number(), best: z.number() })
      .strict()
      .nullable()
      .meta({ description: 'The published forecast range, % on capacity (not USD, not audited); null: no forecast published yet.' }),
  })
  .strict()
  .meta({ id: 'SyndicateYear' });

export const syndicateItem = z
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
