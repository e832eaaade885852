// Conditional requests (docs/design.md §14) on every route, run in process and over HTTP against the built server
// (tests/contract/in-process.test.ts, http.test.ts), gate off. Every 200 carries a strong ETag, a hash of
// its body, and Last-Modified, the newest report_date it cites (else the newest of the build's publications),
// both worked out here from the answer itself; a request naming the ETag (or not modified since) gets 304 with no body.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { exampleQuery } from '../../api/llms.ts';
import type { Call } from './suite.ts';

/** Each route's example query, and the CSV forms of the routes that take format=csv. */
const TARGETS = [
  ...ROUTE_CONTRACTS.map((r) => (exampleQuery(r) ? `${r.path}?${exampleQuery(r)}` : r.path)),
  '/v1/premium?state=FL&granularity=quarter&format=csv',
  '/v1/premium/sample?state=FL&format=csv',
  '/v1/compare?states=FL,IL&format=csv',
];

/** Every `report_date` string anywhere in a JSON value. */
function reportDates(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) reportDates(v, out);
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (key === 'report_date' && typeof v === 'string') out.push(v);
      else reportDates(v, out);
    }
  return out;
}

const httpDate = (date: string) => new Date(`${date}T00:00:00Z`).toUTCString();
const newest = (dates: string[]) => dates.reduce<string | null>((a, d) => (a === null || d > a ? d : a), null);

export function conditionalSuite(call: Call) {
  /** The build's newest report_date: the newest of every publication with figures. */
  async function buildDate(): Promise<string> {
    const feed = (await (await call('/v1/publications')).json()) as { report_dates: string[] };
    return feed.report_dates.at(-1)!;
  }

  /** The Last-Modified an answer should carry: the newest report_date of its JSON (a CSV's: its JSON twin's), else the build's. */
  async function expectedLastModified(target: string, body: Buffer, type: string): Promise<string> {
    let json: unknown = null;
    if (type.startsWith('application/json')) json = JSON.parse(body.toString('utf8'));
    else if (target.includes('format=csv')) json = await (await call(target.replace(/[&?]format=csv/, ''))).json();
    return httpDate((json !== null && newest(reportDates(json))) || (await buildDate()));
  }

  describe('conditional requests: ETag and Last-Modified on every 200, and 304', () => {
    it.each(TARGETS)(
      '%s: a strong ETag (the SHA-256 of the body, ETAG_KEY unset) and the Last-Modified of what it cites',
      async (target) => {
        const res = await call(target);
        expect(res.status).toBe(200);
        const body = Buffer.from(await res.arrayBuffer());
        expect(res.headers.get('etag')).toBe(`"${createHash('sha256').update(body).digest('hex')}"`);
        expect(res.headers.get('last-modified')).toBe(
          await expectedLastModified(target, body, res.headers.get('content-type')!),
        );
        // HEAD says the same.
        const head = await call(target, { method: 'HEAD' });
        expect([head.headers.get('etag'), head.headers.get('last-modified')]).toEqual([
          res.headers.get('etag'),
          res.headers.get('last-modified'),
        ]);
      },
    );

    it.each(TARGETS)(
      '%s: its ETag back in If-None-Match, by GET and HEAD, is a 304 with no body, its validators and caching',
      async (target) => {
        const res = await call(target);
        const etag = res.headers.get('etag')!;
        for (const method of ['GET', 'HEAD']) {
          const again = await call(target, { method, headers: { 'If-None-Match': etag } });
          expect(again.status, method).toBe(304);
          expect(await again.text()).toBe('');
          expect(again.headers.get('etag')).toBe(etag);
          expect(again.headers.get('last-modified')).toBe(res.headers.get('last-modified'));
          expect(again.headers.get('cache-control')).toBe(res.headers.get('cache-control'));
          expect(again.headers.get('access-control-allow-origin')).toBe('*');
          expect(again.headers.get('content-type')).toBeNull();
        }
      },
    );

    it("an entity-tag list, a weak tag, `*` and a coding's tag match; another tag, a changed byte, a bad date and an older date do not", async () => {
      const target = '/v1/premium?state=FL';
      const res = await call(target);
      const etag = res.headers.get('etag')!;
      const lastModified = Date.parse(res.headers.get('last-modified')!);
      const status = async (headers: Record<string, string>) => (await call(target, { headers })).status;
      const changed = `"${etag.slice(1, -2)}${etag.at(-2) === '0' ? '1' : '0'}"`;
      expect(await status({ 'If-None-Match': `"abc", ${etag}` })).toBe(304);
      expect(await status({ 'If-None-Match': `W/${etag}` })).toBe(304);
      expect(await status({ 'If-None-Match': `${etag.slice(0, -1)}-br"` })).toBe(304);
      expect(await status({ 'If-None-Match': `${etag.slice(0, -1)}-gzip"` })).toBe(304);
      expect(await status({ 'If-None-Match': '*' })).toBe(304);
      expect(await status({ 'If-None-Match': changed })).toBe(200);
      expect(await status({ 'If-None-Match': etag.slice(1, -1) })).toBe(200); // unquoted: not an entity tag
      expect(await status({ 'If-Modified-Since': new Date(lastModified).toUTCString() })).toBe(304);
      expect(await status({ 'If-Modified-Since': new Date(lastModified - 1000).toUTCString() })).toBe(200);
      expect(await status({ 'If-Modified-Since': 'yesterday' })).toBe(200);
      // Only an HTTP-date is a date (RFC 9110 5.6.7): its three forms, and nothing Date.parse would also take.
      const later = new Date(lastModified + 86_400_000);
      const [, dd, mon, yyyy] = later.toUTCString().match(/^\w{3}, (\d{2}) (\w{3}) (\d{4})/)!;
      const weekday = later.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
      expect(await status({ 'If-Modified-Since': `${weekday}, ${dd}-${mon}-${yyyy.slice(2)} 00:00:00 GMT` })).toBe(304);
      expect(
        await status({
          'If-Modified-Since': `${weekday.slice(0, 3)} ${mon} ${String(Number(dd)).padStart(2, ' ')} 00:00:00 ${yyyy}`,
        }),
      ).toBe(304);
      for (const loose of [
        '2100',
        '2100-01-01',
        'Fri, 01 Jan 2100',
        'Fri, 31 Feb 2100 00:00:00 GMT',
        'Fri, 01 Jan 2100 00:00:00 +0000',
      ])
        expect(await status({ 'If-Modified-Since': loose }), loose).toBe(200);
      // If-None-Match decides when both are sent.
      expect(
        await status({ 'If-None-Match': changed, 'If-Modified-Since': new Date(lastModified).toUTCString() }),
      ).toBe(200);
    });

    it('a bad query or an unknown state is still its 400 or 404 whatever the request holds', async () => {
      for (const [target, code] of [
        ['/v1/premium?state=FL&granularity=decade', 400],
        ['/v1/premium?state=ZZ', 404],
        ['/v1/lines?state=ZZ', 404],
        ['/v1/bulk/premium.csv?format=csv', 400],
        ['/v1/nope', 404],
      ] as const) {
        const res = await call(target, { headers: { 'If-None-Match': '*' } });
        expect(res.status, target).toBe(code);
        expect(res.headers.get('etag'), target).toBeNull();
      }
    });

    it('answers that differ have different ETags: each format, each query, each file', async () => {
      const byEtag = new Map<string, string[]>();
      for (const target of TARGETS) {
        const etag = (await call(target)).headers.get('etag')!;
        byEtag.set(etag, [...(byEtag.get(etag) ?? []), target]);
      }
      expect([...byEtag.values()].filter((targets) => targets.length > 1)).toEqual([]);
    });
  });
}
