// Issue 41 on the real dataset (data/), through /v1/premium in-process: the fourth round of stored pages. The
// expected figures were read off the cited pages (the `search` tool's stored copies), not off our files or our code.
import { describe, expect, it } from 'vitest';
import { HANDLERS } from '../../api/dispatch.ts';
import { premiumAnswer as premium, premiumMonth as month } from '../support/premium-answers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

/** The JSON answer of a free route, checked 200. */
async function answer(path: string) {
  const res = await HANDLERS[path.split('?')[0]](new Request(`http://service.test${path}`));
  expect(res.status).toBe(200);
  return res.json();
}

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

const OFFICE_Q1_2020 = 'https://www.sltx.org/news/enews/texas-records-1-67b-in-es-premium-during-2020-q1/';

describe("SLTX's own Q1 2020 release (Apr 3, 2020)", () => {
  // https://www.sltx.org/news/enews/texas-records-1-67b-in-es-premium-during-2020-q1/: "Apr 3, 2020 | eNews",
  // "SLTX found $1.67 billion in excess and surplus lines (E&S) premium was recorded in Texas during the first
  // three months of 2020. This is a 14.5% increase over premium recorded in the first quarter of 2019", "Totals
  // in January, February, and March have all hit new highs this year at $540.0 million, $502.9 million, and
  // $622.7 million in premium, respectively", "total filings made during the first quarter decreased 0.42%
  // compared to the first quarter of 2019. SLTX recorded 259,952 filings to date in 2020, compared to 261,056
  // in the first three months of 2019 and 251,977 in this quarter in 2018."
  it('TX January 2020: $540.0 million, a month that had no all-lines figure, known from 2020-04-03', async () => {
    const { body, row } = await month('2020-01');
    expect(row.premium).toBe(540000000);
    expect(body.publications).toEqual([expect.objectContaining({ publisher: 'SLTX', url: OFFICE_Q1_2020, report_date: '2020-04-03', report_date_basis: 'printed' })]);
    expect(body.report_date).toBe('2020-04-03');
    expect((await premium('state=TX&from=2020-01&to=2020-01&report_date=2020-04-02')).data).toEqual([]);
  });

  it('TX February and March 2020: the office figures from 2020-04-03, the press copies’ finer ones from their dates', async () => {
    const asPublished = await premium('state=TX&from=2020-02&to=2020-03&report_date=2020-04-03');
    expect(asPublished.data.map((r) => [r.period, r.premium])).toEqual([['2020-02', 502900000], ['2020-03', 622700000]]);
    expect(asPublished.publications.map((p) => p.url)).toEqual([OFFICE_Q1_2020]);
    const latest = await premium('state=TX&from=2020-02&to=2020-03');
    expect(latest.data.map((r) => [r.period, r.premium])).toEqual([['2020-02', 502930000], ['2020-03', 622750000]]);
    // the office's shorter printings are not shown once the finer ones are out (docs/design.md §1)
    expect(latest.data.map((r) => r.printed?.premium)).toEqual([undefined, undefined]);
  });

  it('TX Q1 2020: its months summed, and what the release printed for the quarter beside them', async () => {
    const body = await premium('state=TX&granularity=quarter&from=2018-01&to=2020-03');
    const q = Object.fromEntries(body.data.map((r) => [r.period, r]));
    expect(q['2020-Q1'].premium).toBe(540000000 + 502930000 + 622750000);
    // filings are SLTX's transactions (every filing, endorsements and cancellations too): Texas quarters count policies
    expect(q['2020-Q1'].policy_count).toBeNull();
    expect(q['2020-Q1'].printed).toMatchObject({
      premium: { value: 1670000000, as_printed: '$1.67 billion', qualifier: 'rounded' },
      premium_yoy_pct: { value: 14.5, as_printed: '14.5% increase' },
      transactions: { value: 259952, as_printed: '259,952' },
      transactions_yoy_pct: { value: -0.42, as_printed: 'decreased 0.42%' },
    });
    expect(q['2019-Q1'].printed).toMatchObject({ transactions: { value: 261056, as_printed: '261,056' } });
    // first printed by SLTX's Q1 2019 page (Apr 4, 2019): "filings increased 3.6% from 251,977 to 261,056"
    const asOf2019 = await premium('state=TX&granularity=quarter&from=2019-01&to=2019-03&report_date=2019-04-04');
    expect(asOf2019.data[0].printed).toMatchObject({ transactions: { value: 261056 }, transactions_yoy_pct: { value: 3.6, as_printed: 'filings increased 3.6%' } });
    expect(asOf2019.publications.map((p) => p.url)).toEqual(['https://www.sltx.org/news/archive-news/texas-sl-premium-up-in-2019-q1/']);
    expect(q['2018-Q1'].printed).toMatchObject({ transactions: { value: 251977, as_printed: '251,977' } });
    expect(body.publications.map((p) => p.url)).toContain(OFFICE_Q1_2020);
  });

  it('shows in the change feed and in the coverage of Texas', async () => {
    const feed = await answer('/v1/publications?since=2020-04-03');
    expect(feed.publications).toContainEqual(expect.objectContaining({
      state: 'TX', publisher: 'SLTX', url: OFFICE_Q1_2020, report_date: '2020-04-03', secondary: false,
      periods: expect.objectContaining({ month: { from: '2020-01', to: '2020-03' }, quarter: { from: '2018-Q1', to: '2020-Q1' } }),
    }));
    expect((await answer('/v1/publications?state=TX')).report_dates).toContain('2020-04-03');
    const tx = (await answer('/v1/coverage')).find((s: { state: string }) => s.state === 'TX');
    expect(tx.period_types.quarter).toMatchObject({ from: '2018-Q1', count_unit: 'policies' });
  });
});
