import type { APIRoute } from 'astro';
import { llmsText } from '../../api/llms.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { buildCoverage } from '../llms-coverage.ts';

export const prerender = true;

/**
 * The deployment's public origin, read at build time: SITE_URL itself, not Astro's `site`, which
 * astro.config.mjs defaults to http://127.0.0.1:4321, an address no reader elsewhere (or on another port) can follow.
 * Unset or empty: null, and the links are paths on whatever server serves the file.
 */
const llmsSite = (): string | null => process.env.SITE_URL || null;

export const GET: APIRoute = async () =>
  new Response(llmsText({ site: llmsSite(), coverage: await buildCoverage(), terms: paymentTerms() }), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
