// Schemas and columns the market routes (contract.ts), the further datasets (contract-datasets.ts) and the bulk files
// (contract-bulk.ts) share.
import { z } from 'zod';
import { echo } from './echo.ts';

const STATE_CODE = /^[A-Za-z]{2}$/;

/** A number, or null (each use says when). */
export const nullableNumber = z.number().nullable();
/** A text, or null (each use says when). */
export const nullableString = z.string().nullable();

/** A series answer's CSV header (format=csv): one line per figure, each naming the publication that printed it. */
export const CSV_COLUMNS = [
  'state',
  'line',
  'granularity',
  'period',
  'field',
  'value',
  'kind',
  'as_printed',
  'qualifier',
  'measures',
  'unit',
  'report_date',
  'publication_url',
] as const;

/**
 * The bulk files' columns (/v1/bulk/premium.csv): a CSV answer's, the county after the line, and whether the latest
 * vintage shows the figure.
 */
export const BULK_COLUMNS = [...CSV_COLUMNS.slice(0, 2), 'county', ...CSV_COLUMNS.slice(2), 'latest'] as const;
export type BulkColumn = (typeof BULK_COLUMNS)[number];

export const stateParam = z
  .string()
  .regex(STATE_CODE, 'a two-letter state code such as FL')
  .transform((s) => s.toUpperCase())
  .meta({ description: 'Two-letter state code, case-insensitive (e.g. FL, tx).', example: 'FL' });

/** Marks an issue whose message is the whole error message (it names its parameters itself). */
export const WHOLE_MESSAGE = { wholeMessage: true } as const;

/** `states`: comma-separated codes, case-insensitive, 1 to `max` distinct (duplicates folded). */
export const statesListParam = (max: number) =>
  z.string().transform((text, ctx) => {
    const parts = text.split(',').map((c) => c.trim());
    const bad = parts.find((c) => !stateParam.safeParse(c).success);
    const codes = [...new Set(parts.map((c) => c.toUpperCase()))];
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        params: WHOLE_MESSAGE,
        message:
          `invalid 'states' ${echo(text)}: ${echo(bad)} is not a two-letter state code; expected comma-separated ` +
          `codes such as FL,TX`,
      });
      return z.NEVER;
    }
    if (codes.length > max) {
      ctx.addIssue({
        code: 'custom',
        params: WHOLE_MESSAGE,
        message: `'states' lists ${codes.length} distinct states: expected 1 to ${max}`,
      });
      return z.NEVER;
    }
    return codes;
  });

export const publicationRef = z
  .object({
    publisher: z.string().meta({
      description: 'Who issued the document: a stamping office, WSIA, or the press outlet that reported the figures.',
    }),
    title: z.string(),
    url: z.string(),
    report_date: z.string().meta({ description: 'The day it was published, YYYY-MM-DD.' }),
    report_date_basis: z.enum(['printed', 'estimated']).meta({
      description: "printed: the document shows the date; estimated: inferred from the publisher's documented cadence.",
    }),
  })
  .strict()
  .meta({ id: 'Publication' });

/** from <= to, where a month bound (`YYYY-MM`) stands for its whole month. */
export function checkRange(v: { from?: string; to?: string }, ctx: z.RefinementCtx) {
  if (v.from && v.to && v.from.slice(0, v.to.length) > v.to)
    ctx.addIssue({
      code: 'custom',
      path: ['from'],
      params: WHOLE_MESSAGE,
      message: `'from' ${v.from} is after 'to' ${v.to}: expected from <= to`,
    });
}
