// GET /cron/claims (CLAIMS_CRON_PATH in api/paths.ts): one run of the prepaid channels' claims, settlement and idle
// refunds (./claims.ts), for a scheduler (Vercel's cron, which calls it with `Authorization: Bearer <CRON_SECRET>`; or
// any other). Refused without CRON_SECRET set (503) or with another secret (401): a run spends the facilitator's gas.
import { timingSafeEqual } from 'node:crypto';
import { CORS_HEADERS } from '../responses.ts';
import { type WireAnswer, wireAnswer } from '../wire-answer.ts';
import { configuredGate, configuredSettings } from './configured.ts';

const json = (status: number, body: unknown, extra: Record<string, string> = {}) =>
  wireAnswer(
    status,
    { ...CORS_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...extra },
    JSON.stringify(body),
  );
const refusal = (status: number, message: string, extra: Record<string, string> = {}) =>
  json(status, { error: { code: status === 401 ? 'unauthorized' : 'internal', message } }, extra);

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function claimCron(
  request: Request,
  env: Record<string, string | undefined> = process.env,
): Promise<WireAnswer> {
  if (request.method !== 'GET')
    return refusal(405, `method '${request.method}' is not allowed: use GET`, { Allow: 'GET' });
  const secret = env.CRON_SECRET;
  if (!secret)
    return refusal(
      503,
      'claims are refused: set CRON_SECRET (the scheduler sends it as Authorization: Bearer <CRON_SECRET>)',
    );
  if (!sameSecret(request.headers.get('authorization') ?? '', `Bearer ${secret}`))
    return refusal(401, 'claims need Authorization: Bearer <CRON_SECRET>', { 'WWW-Authenticate': 'Bearer' });
  const nothing = (note: string) => json(200, { claims: [], refunds: [], failures: [], note });
  const gate = await configuredGate();
  if (!gate) return nothing('the payment gate is off (X402_PAY_TO unset)');
  const { claimGateChannels } = await import('./claims.ts');
  const run = await claimGateChannels(gate, (await configuredSettings(env))!);
  if (!run) return nothing('batch-settlement is not offered: no channels to claim');
  return json(run.failures.length ? 500 : 200, run);
}
