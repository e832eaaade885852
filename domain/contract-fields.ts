// The parts of the answers declared once and shared by the routes of contract.ts: the error body every route
// answers with, and the fields the market answers are built from (a series row, the printed figures and their
// legend, the provenance of every figure). contract.ts loads this module after the bulk files' and the datasets'
// and before declaring its own answers: /openapi.json lists its components in that order.
import { z } from 'zod';
import { UNITS } from './metrics.ts';
import { nullableNumber, nullableString, publicationRef } from './contract-shared.ts';

export const errorBody = z
  .object({
    error: z.object({
      code: z.enum(['invalid_request', 'not_found', 'internal']),
      message: z.string(),
    }),
  })
  .meta({ id: 'Error', description: '400 → invalid_request, 404 → not_found, 500 → internal.' });
export type ErrorBody = z.infer<typeof errorBody>;

// ---- a series row: the exact figures, and what the publications printed beside them -----------

const printedFigure = z
  .object({
    value: z.number().meta({
      description:
        'The figure as printed, expanded ("$9.99B" → 9990000000, "+99.9%" → 99.9: invented examples). Never ' +
        'summed or used to derive another figure.',
    }),
    as_printed: nullableString.meta({
      description:
        'The words as printed, e.g. "$9.99B", "nearly $999M", "+99.9%" (invented examples); null where the ' +
        'publication gave the bare number.',
    }),
    qualifier: z
      .string()
      .optional()
      .meta({
        description:
          'Present only when the figure is not exact: rounded (fewer than 4 significant digits), the word printed ' +
          '(about, nearly, more than, ...), ambiguous, other basis. Absent for an exact figure that has no series ' +
          'field (a growth rate, a share, an average, a count in another unit).',
      }),
    period: z.string().optional().meta({
      description:
        "Present only when it differs from the row's period: a year to date (`YYYY-01..MM`) ending in the row's month.",
    }),
  })
  .strict()
  .meta({ id: 'PrintedFigure', description: "What the key measures and its unit are in the answer's printed_keys." });
const printedFigures = z.record(z.string(), printedFigure);
export type PrintedFigure = z.infer<typeof printedFigure>;
export type PrintedFigures = z.infer<typeof printedFigures>;

export const printedKeys = z.record(z.string(), z.object({ measures: z.string(), unit: z.enum(UNITS) }).strict()).meta({
  id: 'PrintedKeys',
  description:
    "The legend of the printed entries: for every key the answer's printed objects use (and no other), what it " +
    'measures and its unit (USD, count or percent). Said once per answer, never row by row. A key ending in _ytd ' +
    'is a year to date.',
});

export const seriesRow = z
  .object({
    period: z.string().meta({ description: '`YYYY-MM`, `YYYY-Qn` or `YYYY`, by granularity.' }),
    premium: nullableNumber.meta({
      description:
        'Exact premium in USD. Null where the publication printed no exact figure (only a rounded or qualified ' +
        'one, or counts only); back-filled when a later report prints it.',
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
        'What the publications printed for this very period that is not an exact series figure: rounded or ' +
        'qualified levels ("$9.99B", "nearly $999M": invented examples), published growth rates, shares of ' +
        'premium and of items, averages, counts in another unit, and year-to-date figures ending in this month ' +
        '(key suffix _ytd). Keyed by metric (premium, policies, items, premium_yoy_pct, avg_premium_per_item, ' +
        "...); what each key measures and its unit are in the answer's printed_keys. Latest vintage as of " +
        'report_date, office publications before press copies. Null when there is none. Rows summed from months ' +
        'carry only what a source printed for the summed period itself.',
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

// ---- provenance: the publications behind every figure an answer shows ------------------------

export const publications = z.array(publicationRef).meta({
  description:
    'Every publication whose figures this answer shows (summed rows: those of every summed part), so each figure ' +
    'can be cited. Ordered by report_date, then url. Empty when no figure is returned.',
});

export const provenance = {
  publications,
  report_date: nullableString.meta({
    description: 'The latest publication date among the figures returned (null when there are none).',
  }),
  data_as_of: nullableString.meta({
    description: 'The date the data of that latest publication is current to (null when no figures are returned).',
  }),
  source: nullableString.meta({ description: "The state's source: the stamping office publishing its figures." }),
};
