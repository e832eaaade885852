// Issue 41 on the real dataset (data/), through /v1/premium in-process: the fourth round of stored pages. The
// expected figures were read off the cited pages (the `search` tool's stored copies), not off our files or our code.
import { describe, expect, it } from 'vitest';
import { callHandler } from '../support/handlers.ts';
import { premiumAnswer as premium, premiumMonth as month } from '../support/premium-answers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

/** The JSON answer of a free route, checked 200. */
async function answer(path: string) {
  const res = await callHandler(`http://service.test${path}`);
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
    expect(body.publications.map((p) => p.url)).not.toContain(
      'https://www.insurancejournal.com/news/southcentral/2021/08/02/625420.htm',
    );
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
    expect(body.publications).toEqual([
      expect.objectContaining({
        publisher: 'SLTX',
        url: OFFICE_Q1_2020,
        report_date: '2020-04-03',
        report_date_basis: 'printed',
      }),
    ]);
    expect(body.report_date).toBe('2020-04-03');
    expect((await premium('state=TX&from=2020-01&to=2020-01&report_date=2020-04-02')).data).toEqual([]);
  });

  it('TX February and March 2020: the office figures from 2020-04-03, the press copies’ finer ones from their dates', async () => {
    const asPublished = await premium('state=TX&from=2020-02&to=2020-03&report_date=2020-04-03');
    expect(asPublished.data.map((r) => [r.period, r.premium])).toEqual([
      ['2020-02', 502900000],
      ['2020-03', 622700000],
    ]);
    expect(asPublished.publications.map((p) => p.url)).toEqual([OFFICE_Q1_2020]);
    const latest = await premium('state=TX&from=2020-02&to=2020-03');
    expect(latest.data.map((r) => [r.period, r.premium])).toEqual([
      ['2020-02', 502930000],
      ['2020-03', 622750000],
    ]);
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
    expect(asOf2019.data[0].printed).toMatchObject({
      transactions: { value: 261056 },
      transactions_yoy_pct: { value: 3.6, as_printed: 'filings increased 3.6%' },
    });
    expect(asOf2019.publications.map((p) => p.url)).toEqual([
      'https://www.sltx.org/news/archive-news/texas-sl-premium-up-in-2019-q1/',
    ]);
    expect(q['2018-Q1'].printed).toMatchObject({ transactions: { value: 251977, as_printed: '251,977' } });
    expect(body.publications.map((p) => p.url)).toContain(OFFICE_Q1_2020);
  });

  it('shows in the change feed and in the coverage of Texas', async () => {
    const feed = await answer('/v1/publications?since=2020-04-03');
    expect(feed.publications).toContainEqual(
      expect.objectContaining({
        state: 'TX',
        publisher: 'SLTX',
        url: OFFICE_Q1_2020,
        report_date: '2020-04-03',
        secondary: false,
        periods: expect.objectContaining({
          month: { from: '2020-01', to: '2020-03' },
          quarter: { from: '2018-Q1', to: '2020-Q1' },
        }),
      }),
    );
    expect((await answer('/v1/publications?state=TX')).report_dates).toContain('2020-04-03');
    const tx = (await answer('/v1/coverage')).find((s: { state: string }) => s.state === 'TX');
    expect(tx.period_types.quarter).toMatchObject({ from: '2018-Q1', count_unit: 'policies' });
  });
});

describe('FSLSO’s insurer newsletter of November 11, 2022', () => {
  // https://createsend.com/t/r-F418F2045AF5FC382540EF23F30FEDED: "November 11, 2022", "Commercial Property remained
  // the top coverage by premium for the third consecutive time this year, with the total premium reaching
  // $1,081,893,416 across 46,356 policies. ... Commercial Property also accounted for 36% of the total Florida
  // marketplace premium."
  it('FL Q3 2022, Commercial Property (code 1000): $1,081,893,416 across 46,356 policies, 36% of the market', async () => {
    const body = await premium('state=FL&line=1000&granularity=quarter&from=2022-07&to=2022-09');
    expect(body.data).toHaveLength(1);
    const [row] = body.data;
    expect([row.period, row.premium, row.policy_count]).toEqual(['2022-Q3', 1081893416, 46356]);
    expect(row.printed).toEqual({
      state_premium_share_pct: { value: 36, as_printed: '36% of the total Florida marketplace premium' },
    });
    expect(body.printed_keys.state_premium_share_pct).toEqual({
      measures: "share of the state's all-lines premium for the period",
      unit: 'percent',
    });
    expect(body.publications).toEqual([
      expect.objectContaining({
        publisher: 'FSLSO',
        url: 'https://createsend.com/t/r-F418F2045AF5FC382540EF23F30FEDED',
        report_date: '2022-11-11',
        report_date_basis: 'printed',
      }),
    ]);
    expect(
      (await premium('state=FL&line=1000&granularity=quarter&from=2022-07&to=2022-09&report_date=2022-11-10')).data,
    ).toEqual([]);
  });
});

const CYBER_RISK_INSURER =
  'https://cyberrisk-insurer.com/news/texas-surplus-lines-premium-surges-16-in-first-nine-months';

describe('policy counts by kind on a page already cited (Cyber Risk Insurer, SLTX’s figures to September 2019)', () => {
  // https://cyberrisk-insurer.com/news/texas-surplus-lines-premium-surges-16-in-first-nine-months: "an increase in
  // surplus lines cyber liability coverage from 3,935 policies and approximately $78mn in cyber premium in 2017 to
  // 5,008 policies with premiums totalling roughly $90mn in 2018"; "a 28.3 percent increase in the number of
  // policies filed for exempt commercial purchasers, with 1,873 policies in the first three quarters of 2019
  // compared with 1,460 in 2018".
  it('TX cyber liability: 3,935 policies in 2017 and 5,008 in 2018 (the premiums printed, approximate)', async () => {
    const body = await premium('state=TX&line=Cyber%20Liability&granularity=year&from=2017-01&to=2018-12');
    const byYear = Object.fromEntries(body.data.map((r) => [r.period, r]));
    expect(byYear['2017']).toMatchObject({
      premium: null,
      policy_count: 3935,
      printed: { premium: { value: 78000000, as_printed: 'approximately $78mn', qualifier: 'approximately' } },
    });
    expect(byYear['2018']).toMatchObject({
      premium: null,
      policy_count: 5008,
      printed: { premium: { value: 90000000, as_printed: 'roughly $90mn', qualifier: 'roughly' } },
    });
    expect(body.publications).toEqual([
      expect.objectContaining({ url: CYBER_RISK_INSURER, report_date: '2019-10-01' }),
    ]);
  });

  it('TX exempt commercial purchasers: 1,873 policies in the first three quarters of 2019, a printed count of its own kind', async () => {
    const { body, row } = await month('2019-09');
    expect(row.printed?.exempt_purchaser_policies_ytd).toEqual({
      value: 1873,
      as_printed: '1,873 policies',
      period: '2019-01..09',
    });
    expect(body.publications.map((p) => p.url)).toContain(CYBER_RISK_INSURER);
    expect(body.printed_keys.exempt_purchaser_policies_ytd).toEqual({
      measures: 'policies filed for exempt commercial purchasers, year to date',
      unit: 'count',
    });
    // "1,460 in 2018": the period is not printed, so the qualifier says so
    const { row: sept2018 } = await month('2018-09');
    expect(sept2018.printed?.exempt_purchaser_policies_ytd).toEqual({
      value: 1460,
      as_printed: '1,460 in 2018',
      qualifier: 'ambiguous',
      period: '2018-01..09',
    });
  });
});

describe('rounded figures for years without one', () => {
  it('FL 2019: "$6.7 billion" (Florida Politics, from FSLSO records), printed and never in the premium field', async () => {
    // https://floridapolitics.com/archives/382445-florida-surplus-lines-association-celebrates-60th-anniversary:
    // "surplus lines annual written premium in Florida has grown from $143.7 million in 1998, to $6.7 billion in 2019"
    const body = await premium('state=FL&granularity=year&from=2019-01&to=2019-12');
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      period: '2019',
      premium: null,
      printed: { premium: { value: 6700000000, as_printed: '$6.7 billion', qualifier: 'rounded' } },
    });
    expect(body.publications).toEqual([
      expect.objectContaining({ publisher: 'Florida Politics', report_date_basis: 'estimated' }),
    ]);
  });

  it('TX 2007: "more than $3.7 billion" on SLSOT’s own site, dated no earlier than the page can be', async () => {
    // http://www.slsot.org/SLinsurance.htm: "Texas is currently the fourth largest surplus lines insurance market in
    // the US, with premiums totaling more than $3.7 billion in 2007."
    const body = await premium('state=TX&granularity=year&from=2007-01&to=2007-12');
    expect(body.data[0]).toMatchObject({
      period: '2007',
      premium: null,
      printed: { premium: { value: 3700000000, as_printed: 'more than $3.7 billion', qualifier: 'more than' } },
    });
    expect(body.publications).toEqual([
      expect.objectContaining({
        publisher: 'SLTX',
        url: 'http://www.slsot.org/SLinsurance.htm',
        report_date: '2008-12-31',
        report_date_basis: 'estimated',
      }),
    ]);
  });

  it('TX cyber liability 2015 and 2016: "$49 million" and "$66 million" (Insurance Journal, July 24, 2017)', async () => {
    // https://amp.insurancejournal.com/magazines/mag-features/2017/07/24/458121.htm: "In 2016, $66 million in cyber
    // liability was written in Texas, which is a 35 percent increase from $49 million in 2015."
    const body = await premium('state=TX&line=Cyber%20Liability&granularity=year&from=2015-01&to=2016-12');
    expect(body.data.map((r) => [r.period, r.premium, r.printed?.premium?.as_printed])).toEqual([
      ['2015', null, '$49 million'],
      ['2016', null, '$66 million'],
    ]);
    expect(body.data[1].printed?.premium_yoy_pct).toEqual({ value: 35, as_printed: 'a 35 percent increase' });
    expect(body.publications).toEqual([
      expect.objectContaining({
        url: 'https://amp.insurancejournal.com/magazines/mag-features/2017/07/24/458121.htm',
        report_date: '2017-07-24',
      }),
    ]);
  });
});

describe('the change feed and the coverage show every publication of this round', () => {
  it.each([
    ['TX', 'https://www.sltx.org/news/enews/texas-records-1-67b-in-es-premium-during-2020-q1/', '2020-04-03'],
    [
      'TX',
      'https://www.sltx.org/news/enews/texas-surplus-lines-premiums-reach-all-time-high-of-947-48m/',
      '2021-07-08',
    ],
    ['FL', 'https://createsend.com/t/r-F418F2045AF5FC382540EF23F30FEDED', '2022-11-11'],
    [
      'FL',
      'https://floridapolitics.com/archives/382445-florida-surplus-lines-association-celebrates-60th-anniversary',
      '2020-12-31',
    ],
    ['TX', 'https://amp.insurancejournal.com/magazines/mag-features/2017/07/24/458121.htm', '2017-07-24'],
    ['TX', 'http://www.slsot.org/SLinsurance.htm', '2008-12-31'],
  ])('%s %s (%s)', async (state, url, date) => {
    const feed = await answer(`/v1/publications?since=${date}`);
    expect(feed.publications).toContainEqual(expect.objectContaining({ state, url, report_date: date }));
    expect((await answer(`/v1/publications?state=${state}`)).report_dates).toContain(date);
  });

  it('coverage: Texas years from 2007, Florida quarters of Commercial Property in 2022', async () => {
    const coverage = await answer('/v1/coverage');
    const tx = coverage.find((s: { state: string }) => s.state === 'TX');
    expect(tx.period_types.year).toMatchObject({ from: '2007', count_unit: 'policies' });
    const fl = await premium('state=FL&line=1000&granularity=quarter&from=2022-01&to=2022-12');
    expect(fl.data.map((r) => r.period)).toEqual(['2022-Q3']);
  });
});
