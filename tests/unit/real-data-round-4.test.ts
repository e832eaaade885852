// Issue 41 on the real dataset (data/), through /v1/premium in-process: the fourth round of stored pages. The
// expected figures were read off the cited pages (the `search` tool's stored copies), not off our files or our code.
import { describe, expect, it } from 'vitest';
import { premiumMonth as month } from '../support/premium-answers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

const OFFICE_JUNE_2021 = 'https://www.sltx.org/news/enews/texas-surplus-lines-premiums-reach-all-time-high-of-947-48m/';

describe("SLTX's own pages in place of the press copies", () => {
  it("TX June 2021: $947.48M, 95,183 transactions and 64,654 policies from SLTX's page of Jul 8, 2021 (office before press)", async () => {
    // https://www.sltx.org/news/enews/texas-surplus-lines-premiums-reach-all-time-high-of-947-48m/: "Jul 8, 2021 |
    // Archive News", "$947.48M in premium reported in June", "transactions filed (95,183)", "policies filed (64,654)",
    // "62.9% of premium reported this month is attributed to renewal policies".
    const { body, row } = await month('2021-06');
    expect([row.premium, row.policy_count]).toEqual([947480000, 64654]);
    expect(row.printed).toMatchObject({
      transactions: { value: 95183, as_printed: '(95,183)' },
      renewal_premium_pct: { value: 62.9, as_printed: '62.9%' },
      new_business_premium_pct: { value: 37, as_printed: 'nearly 37%', qualifier: 'nearly' },
    });
    const office = body.publications.find((p) => p.url === OFFICE_JUNE_2021);
    expect(office).toMatchObject({ publisher: 'SLTX', report_date: '2021-07-08', report_date_basis: 'printed' });
    // The press reprints of the same figures (Insurance Journal, 2021-08-02) are kept as records, no longer cited.
    expect(body.publications.map((p) => p.url)).not.toContain('https://www.insurancejournal.com/news/southcentral/2021/08/02/625420.htm');
    // Known from the office's own date on.
    const asPublished = await month('2021-06', '2021-07-08');
    expect(asPublished.row.premium).toBe(947480000);
    expect(asPublished.body.publications.map((p) => p.url)).toContain(OFFICE_JUNE_2021);
  });
});
