// Schemas the market routes (contract.ts) and the further datasets (contract-datasets.ts) share.
import { z } from 'zod';

export const publicationRef = z
  .object({
    publisher: z.string().meta({ description: 'Who issued the document: a stamping office, WSIA, or the press outlet that reported the figures.' }),
    title: z.string(),
    url: z.string(),
    report_date: z.string().meta({ description: 'The day it was published, YYYY-MM-DD.' }),
    report_date_basis: z.enum(['printed', 'estimated']).meta({
      description: 'printed: the document shows the date; estimated: inferred from the publisher\'s documented cadence.',
    }),
  })
  .strict()
  .meta({ id: 'Publication' });
