// /.well-known/x402, the x402 discovery document (api/well-known-x402.ts), on demand: this puts the path in
// the server build and in Vercel's routes to the function, so both targets answer it with the same handler
// and the free routes' exact headers (a prerendered file would get each host's default headers, and a
// prerendered endpoint needs a file extension in its name). The body is made on the first request, on the
// site Astro gives (SITE_URL at build) and the payment gate's terms, and kept. Astro loads this page on its first
// request, and with it the terms' modules: viem's units, x402's asset table, and the registered schemes whose names
// the document lists (api/payment/schemes.ts, which load x402's scheme servers). It is the one free path that loads
// any of the payment stack, so that no other keeps a cold start waiting for it.
import type { APIRoute } from 'astro';
import type { Handler } from '../../../api/http.ts';
import { paymentTerms } from '../../../api/payment/terms.ts';
import { wellKnownX402Handler } from '../../../api/well-known-x402.ts';
import { responseOf } from '../../../api/wire-answer.ts';

export const prerender = false;

let handler: Handler | undefined;
export const ALL: APIRoute = async ({ request, site }) =>
  responseOf(await (handler ??= wellKnownX402Handler(site!, () => paymentTerms()))(request));
