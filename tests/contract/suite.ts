// The contract of the free discovery routes, on the fixture dataset (tests/fixtures/data). Run twice:
// in-process through the handlers, and over HTTP against the built server. Expected values are read
// off the fixture files by hand.
import { describe, expect, it } from 'vitest';
import { coverageResponse, errorBody, linesResponse } from '../../api/contract.ts';

export type Call = (path: string, init?: RequestInit) => Promise<Response>;

async function expectError(res: Response, status: number, code: string, mentions: string[]) {
  expect(res.status).toBe(status);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  const body = errorBody.strict().parse(await res.json());
  expect(body.error.code).toBe(code);
  for (const word of mentions) expect(body.error.message).toContain(word);
}

export function contractSuite(call: Call) {
  describe('GET /v1/coverage', () => {
    it('lists every state of states.csv, in code order, with the period types it publishes', async () => {
      const res = await call('/v1/coverage');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(res.headers.get('access-control-expose-headers')).toContain('PAYMENT-REQUIRED');
      const body = coverageResponse.parse(await res.json());
      expect(body.map((s) => s.state)).toEqual(['FL', 'NY', 'TX']);
      const [fl, ny, tx] = body;
      expect(fl).toMatchObject({ name: 'Florida', stamping_office: 'Florida Surplus Lines Service Office', stamping_office_name_basis: 'confirmed' });
      // Months Jan-Mar 2024; the March newsletter (2024-04-01) is the latest publication.
      expect(fl.period_types.month).toEqual({ from: '2024-01', to: '2024-03', latest_report_date: '2024-04-01', count_unit: 'policies' });
      // 2023-Q4 printed by the source; 2024-Q1 summed once March exists.
      expect(fl.period_types.quarter).toEqual({ from: '2023-Q4', to: '2024-Q1', latest_report_date: '2024-04-01', count_unit: 'policies' });
      expect(fl.period_types.year).toBeUndefined(); // 2024 is incomplete; 2023 exists only per county
      expect(fl.capabilities).toEqual({ has_county_data: true, has_insurer_data: true, has_new_renewal_split: true });
      expect(ny.period_types).toEqual({});
      expect(ny.capabilities).toEqual({ has_county_data: false, has_insurer_data: false, has_new_renewal_split: false });
      expect(tx.stamping_office_name_basis).toBe('unconfirmed');
      expect(tx.period_types.year).toEqual({ from: '2023', to: '2023', latest_report_date: '2024-02-10', count_unit: 'items' });
      expect(tx.period_types.half_year).toEqual({ from: '2023-H1', to: '2023-H1', latest_report_date: '2024-02-10', count_unit: null });
    });

    it('ignores any query string, answering the same bytes', async () => {
      const plain = await (await call('/v1/coverage')).text();
      const res = await call('/v1/coverage?state=FL&anything=1&anything=2');
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(plain);
    });

    it('answers HEAD with the headers and no body, and OPTIONS as a CORS preflight', async () => {
      const get = await call('/v1/coverage');
      const head = await call('/v1/coverage', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
      expect(await head.text()).toBe('');
      const pre = await call('/v1/coverage', { method: 'OPTIONS', headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'GET' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
      expect(pre.headers.get('access-control-allow-headers')).toContain('PAYMENT-SIGNATURE');
    });

    it('refuses other methods with 405 and Allow', async () => {
      const res = await call('/v1/coverage', { method: 'DELETE' });
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      await expectError(res, 405, 'invalid_request', ['DELETE', 'GET']);
    });
  });

  describe('GET /v1/lines', () => {
    it("returns the state's taxonomy ordered by source_code, numeric-aware, with the registry's ids", async () => {
      const res = await call('/v1/lines?state=FL');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      const body = linesResponse.parse(await res.json());
      // lines/FL.csv lists 10, 2, 5000, Contingency; line-ids.csv gives 2→1, 10→2, 5000→3, Contingency→4.
      expect(body).toEqual([
        { id: 1, source_code: '2', name: 'Commercial Property', category: 'Commercial Property' },
        { id: 2, source_code: '10', name: 'Builders Risk', category: 'Commercial Property' },
        { id: 3, source_code: '5000', name: 'Commercial General Liability', category: 'General Liability' },
        { id: 4, source_code: 'Contingency', name: 'Contingency', category: null },
      ]);
    });

    it('takes the state code case-insensitively', async () => {
      expect(await (await call('/v1/lines?state=fl')).text()).toBe(await (await call('/v1/lines?state=FL')).text());
    });

    it('answers an empty list for a known state whose office publishes no taxonomy', async () => {
      const res = await call('/v1/lines?state=NY');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });

    it('404s an unknown state, naming it', async () => {
      await expectError(await call('/v1/lines?state=ZZ'), 404, 'not_found', ['ZZ']);
    });

    it('400s a missing, malformed, empty, unknown or repeated parameter, naming it', async () => {
      await expectError(await call('/v1/lines'), 400, 'invalid_request', ["'state'", 'missing']);
      await expectError(await call('/v1/lines?state='), 400, 'invalid_request', ["'state'", 'two-letter']);
      await expectError(await call('/v1/lines?state=F1'), 400, 'invalid_request', ["'state'", 'F1', 'two-letter']);
      await expectError(await call('/v1/lines?state=FLA'), 400, 'invalid_request', ["'state'", 'FLA']);
      await expectError(await call('/v1/lines?state=FL&line=all'), 400, 'invalid_request', ["'line'", "'state'"]);
      await expectError(await call('/v1/lines?state=FL&state=TX'), 400, 'invalid_request', ["'state'", 'more than once']);
    });

    it('refuses a path trick in the state code as a malformed code', async () => {
      await expectError(await call('/v1/lines?state=..%2Fcoverage'), 400, 'invalid_request', ["'state'"]);
    });
  });
}
