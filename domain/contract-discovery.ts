// The discovery routes' parameters and answers: a state's lines, the coverage of every state, and the
// publications behind the figures (free routes; route-contracts.ts declares the routes).
import { z } from 'zod';
import { isIsoDate } from './periods.ts';
import { publicationRef, stateParam } from './contract-shared.ts';

const nullableString = z.string().nullable();
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
    note: z.string().nullable().meta({
      description: "How the line is known: where its code or name was printed, and where figures are mapped to it by interpretation (a press or WSIA aggregate read as this line), said so. Null where there is nothing to add.",
    }),
  })
  .strict()
  .meta({ id: 'CoverageLine' });
export const linesResponse = z.array(lineItem).meta({ id: 'CoverageLines', description: 'Ordered by source_code, numeric-aware.' });
export type LineItem = z.infer<typeof lineItem>;

// ---- /v1/coverage ---------------------------------------------------------------------------

export const PERIOD_TYPE_NAMES = ['month', 'quarter', 'half_year', 'year', 'year_to_date'] as const;

export const periodTypeCoverage = z
  .object({
    from: z.string().meta({ description: 'The first period of this type with figures, statewide, for all lines or any one line or category.' }),
    to: z.string().meta({ description: 'The last such period. Periods between from and to may have no figures: periods says how many have, for all lines.' }),
    periods: z.number().int().nonnegative().meta({
      description:
        "How many periods of this type have at least one figure (exact or printed), statewide for all lines, latest vintage: exactly the rows /v1/premium answers for the state at this granularity (line=all, no county, no report_date), so fewer than from..to spans where a series is sparse. 0 when only single lines or categories have figures of this type. year_to_date, not a granularity: the year-to-date spans with an exact level (premium, a new/renewal figure, or a count in this count_unit), the spans from and to bound; each is served in the printed object of /v1/premium's month row of its last month, under the key <metric>_ytd without a qualifier. Rounded year-to-date levels and year-to-date growth rates are printed on month rows too but are not counted here.",
    }),
    latest_report_date: z.string(),
    count_unit: z.enum(['policies', 'transactions', 'items']).nullable().meta({
      description: 'What policy_count counts for this period type; null where no count is published.',
    }),
    basis: z.string().meta({
      description:
        "What the premium of this period type is, and whose compilation: e.g. premium submitted as WSIA compiles the offices' figures, or premium registered with SLA California including taxable fees. Figures on two bases are never mixed in one series: a period type is summed from months only when the two share a basis.",
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
        'Period types with data. month, quarter, half_year and year are granularities of /v1/premium and /v1/compare; year_to_date figures are served in the printed object of the row of their last month.',
    }),
    capabilities: z
      .object({
        has_county_data: z.boolean(),
        has_insurer_data: z.boolean().meta({ description: 'True exactly when /v1/insurers answers 200 for at least one period: those listed in insurer_periods.' }),
        has_new_renewal_split: z.boolean(),
      })
      .strict(),
    insurer_periods: z.array(z.string()).meta({ description: 'The periods /v1/insurers ranks for this state (month YYYY-MM or year YYYY), ascending; empty when none.' }),
  })
  .strict()
  .meta({ id: 'CoverageSummary' });
export const coverageResponse = z.array(coverageItem).meta({ id: 'Coverage', description: 'One item per state, in code order.' });
export type CoverageItem = z.infer<typeof coverageItem>;

// ---- /v1/publications -------------------------------------------------------------------------

export const publicationsParams = z
  .object({
    state: stateParam.optional().meta({
      description:
        "That state's publications, oldest first; omitted, every state's, newest first: a change feed. A two-letter state code, case-insensitive.",
      example: 'FL',
    }),
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD, e.g. 2025-06-01')
      .refine(isIsoDate, 'a real calendar date YYYY-MM-DD, e.g. 2025-06-01')
      .optional()
      .meta({
        description: 'Only publications whose report_date is on or after this date, `YYYY-MM-DD`: what was published since a client last looked. With state, that state\'s only.',
        example: '2025-06-01',
      }),
  })
  .strict();
export type PublicationsParams = z.infer<typeof publicationsParams>;

export const publicationListing = z
  .object({
    state: z.string().meta({
      description: 'The state whose figures it gives. A publication with figures for several states (a WSIA report) is listed once per state, each with that state\'s periods and figure count.',
    }),
    ...publicationRef.shape,
    data_as_of: z.string().meta({ description: 'The date the data of the publication is current to, YYYY-MM-DD.' }),
    secondary: z.boolean().meta({
      description: "True for a press copy of an office's figures: office publications outrank it figure by figure, whatever the dates.",
    }),
    periods: z.partialRecord(z.enum(PERIOD_TYPE_NAMES), z.object({ from: z.string(), to: z.string() }).strict()).meta({
      description: 'The first and last period of each period type it gives figures for, in this state.',
    }),
    figure_count: z.number().int().meta({
      description: 'How many figures of this state were transcribed from it (levels, printed-only figures, lines and insurers alike).',
    }),
  })
  .strict()
  .meta({ id: 'PublicationListing' });

export const publicationsResponse = z
  .object({
    state: nullableString.meta({ description: 'The state asked for; null when none was (every state\'s publications).' }),
    source: nullableString.meta({ description: "The state's source: the stamping office publishing its figures; null without state." }),
    report_dates: z.array(z.string()).meta({
      description:
        'Every distinct report_date of the publications listed, ascending. For one state: the vintages a report_date parameter can pin (each date shows what was published on or before it).',
    }),
    publications: z.array(publicationListing).meta({
      description:
        'Every publication with figures for the state, oldest first: by report_date, then url. Without state, every state\'s, newest first: by report_date descending, then state, then url, then title. With since, only those whose report_date is on or after it, in the same order.',
    }),
  })
  .strict()
  .meta({ id: 'PublicationsResponse' });
export type PublicationsResponse = z.infer<typeof publicationsResponse>;
