// The prepaid channels' claim run, on demand (api/payment/claim-cron.ts): Vercel's cron calls it on the schedule
// src/vercel-crons.ts declares; on the Node server the claims run on a timer of their own (server/start-up.ts).
import type { APIRoute } from 'astro';
import { claimCron } from '../../../api/payment/claim-cron.ts';
import { responseOf } from '../../../api/wire-answer.ts';

export const prerender = false;
export const ALL: APIRoute = async ({ request }) => responseOf(await claimCron(request));
