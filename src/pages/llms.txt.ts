import type { APIRoute } from 'astro';
import { llmsText } from '../../api/llms.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { buildCoverage } from '../llms-coverage.ts';

export const prerender = true;
export const GET: APIRoute = async ({ site }) =>
  new Response(llmsText({ site: site!, coverage: await buildCoverage(), terms: paymentTerms() }), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
