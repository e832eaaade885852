// /v1/premium answered in process on whatever shards the test file serves (tests/support/shards.ts), checked 200 and
// parsed by the contract's schema: shared by the real-data tests.
import { expect } from 'vitest';
import { callHandler } from './handlers.ts';
import { premiumResponse } from '../../domain/contract.ts';

/** The answer to `/v1/premium?<query>`. */
export async function premiumAnswer(query: string) {
  const res = await callHandler(`http://service.test/v1/premium?${query}`);
  expect(res.status).toBe(200);
  return premiumResponse.parse(await res.json());
}

/** The one row of `state` (TX by default) for `period`, as of `date` when given, and the whole answer. */
export async function premiumMonth(period: string, date?: string, state = 'TX') {
  const body = await premiumAnswer(`state=${state}&from=${period}&to=${period}${date ? `&report_date=${date}` : ''}`);
  expect(body.data.map((r) => r.period)).toEqual([period]);
  return { body, row: body.data[0] };
}
