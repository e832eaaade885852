// Issue 24 on the real dataset (data/), through /v1/premium in-process: shortened citations no longer hide
// the exact figures they shorten, and the third round of stored pages is served. The expected figures were
// read off the cited pages (the `search` tool's stored copies), not off our files or our code.
import { describe, expect, it } from 'vitest';
import { premiumAnswer as premium, premiumMonth as month } from '../support/premium-answers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

useShardsOf(REAL_DATA);

const urls = (body: { publications: { url: string }[] }) => body.publications.map((p) => p.url);

describe('no exact figure hidden by a shortened citation (docs/design.md §1)', () => {
  it('TX June 2021: $947,480,000 in the latest answer; SLTX’s March 2022 "$947.5M" is neither printed nor cited', async () => {
    // https://www.surpluslinereporter.com/surplus-lines-writings-top-results-of-all-prior-midyears/: "$947.48 million"
    const { body, row } = await month('2021-06');
    expect(row.premium).toBe(947480000);
    expect(row.printed?.premium).toBeUndefined();
    expect(urls(body)).not.toContain(
      'https://staging.sltx.org/news/enews/texas-surplus-lines-premiums-reach-an-unprecedented-970-3m-in-march-2022',
    );
    expect(body.publications.every((p) => p.report_date <= '2021-08-09')).toBe(true);
    // as of 2021-09-01 as before
    expect((await month('2021-06', '2021-09-01')).row.premium).toBe(947480000);
  });

  it('TX February 2020: $502,930,000 in the latest answer; "$503 million" (SLTX, 2021-01-26) is not printed', async () => {
    // https://www.insurancejournal.com/news/southcentral/2020/09/30/584504.htm: "$502.93 million"
    const { row } = await month('2020-02');
    expect(row.premium).toBe(502930000);
    expect(row.printed?.premium).toBeUndefined();
    expect((await month('2020-02', '2021-02-01')).row.premium).toBe(502930000);
  });

  it('TX May 2020: a printing that disagrees beyond its precision ("$772.8M" for $772.88M) still restates it, until SLTX prints it in full', async () => {
    expect((await month('2020-05', '2021-02-01')).row.premium).toBe(772880000); // "$773 million" agrees
    const truncated = (await month('2020-05', '2021-05-01')).row;
    expect(truncated.premium).toBeNull();
    expect(truncated.printed?.premium).toEqual({ value: 772800000, as_printed: '$772.8M', qualifier: 'rounded' });
    expect((await month('2020-05')).row.premium).toBe(772880000);
  });
});

describe('SLTX pages of months the API lacked', () => {
  it('TX April 2021: $747.99M and 62,618 policies, from SLTX’s own release', async () => {
    // https://sltx.org/news/archive-news/747-99m-in-texas-surplus-lines-premiums-reported-in-april
    const { body, row } = await month('2021-04');
    expect([row.premium, row.policy_count]).toEqual([747990000, 62618]);
    expect(row.printed).toMatchObject({
      transactions: { value: 93949, as_printed: '(93,949)' },
      premium_ytd: { value: 2750000000, as_printed: '$2.75B', qualifier: 'rounded', period: '2021-01..04' },
      policies_ytd: { value: 223204, period: '2021-01..04' },
      premium_yoy_pct: { value: 0.8 },
    });
    expect(body.publications).toEqual([
      expect.objectContaining({
        publisher: 'SLTX',
        url: 'https://sltx.org/news/archive-news/747-99m-in-texas-surplus-lines-premiums-reported-in-april',
        report_date_basis: 'estimated',
      }),
    ]);
  });

  it('TX May 2023: 58,065 policies; the premium printed only as "$1.35B"', async () => {
    // https://staging.sltx.org/news/enews/may-2023-filings-reach-1-35b
    const { body, row } = await month('2023-05');
    expect([row.premium, row.policy_count]).toEqual([null, 58065]);
    expect(row.printed?.premium).toEqual({ value: 1350000000, as_printed: '$1.35B', qualifier: 'rounded' });
    expect(row.printed?.avg_premium_per_item).toEqual({ value: 15017, as_printed: '$15,017' });
    expect(urls(body)).toEqual(['https://staging.sltx.org/news/enews/may-2023-filings-reach-1-35b']);
  });
});

describe('press copies, where no office page printed the figure', () => {
  it('TX July 2019: "July at $768.2mn" is served at the precision printed: 4 significant digits, so the premium itself', async () => {
    // https://cyberrisk-insurer.com/news/texas-surplus-lines-premium-surges-16-in-first-nine-months. Printed
    // to 0.1 million, the precision of SLTX's own 2019 releases ("$499.5 million", Q1 2019): exact under
    // data/README.md's rule (4 significant digits, no qualifier), as "$741.7mn" and "$702.3mn" were before.
    const { body, row } = await month('2019-07');
    expect(row.premium).toBe(768200000);
    expect(urls(body)).toEqual([
      'https://cyberrisk-insurer.com/news/texas-surplus-lines-premium-surges-16-in-first-nine-months',
    ]);
  });

  it('TX June and May 2019: $692.9mn and $681.6mn (The Insurer, Cyber Risk Insurer)', async () => {
    expect((await month('2019-06')).row).toMatchObject({
      premium: 692900000,
      printed: { premium_yoy_pct: { value: 15.1 } },
    });
    expect((await month('2019-05')).row.premium).toBe(681600000);
  });

  it('TX February 2019: SLTX’s own "$410.1 million" is cited, not the later press copy of it', async () => {
    const { body, row } = await month('2019-02');
    expect(row.premium).toBe(410100000);
    expect(urls(body)).toEqual(['https://www.sltx.org/news/archive-news/texas-sl-premium-up-in-2019-q1/']);
  });

  it('TX 2012 and 2014 years: the premium printed with "more than", the filings exact but printed beside the policies TX months count', async () => {
    // Texas years count what Texas months count, policies (docs/design.md §3): the filings (transactions) are printed entries.
    const body = await premium('state=TX&granularity=year&from=2012-01&to=2014-12');
    const byPeriod = Object.fromEntries(body.data.map((r) => [r.period, r]));
    expect(byPeriod['2012']).toMatchObject({
      premium: null,
      policy_count: null,
      printed: {
        premium: { value: 4000000000, as_printed: 'more than $4 billion', qualifier: 'more than' },
        transactions: { value: 824798, as_printed: '824,798' },
      },
    });
    expect(byPeriod['2014']).toMatchObject({
      premium: null,
      policy_count: null,
      printed: {
        premium: { value: 5000000000, qualifier: 'more than' },
        transactions: { value: 925277, as_printed: '925,277' },
      },
    });
    expect(body.printed_keys.transactions).toMatchObject({ unit: 'count' });
  });

  it('TX May 2015, 2016, 2017 and May 2018: printed rounded, never in the premium field', async () => {
    for (const [period, value] of [
      ['2015-05', 434000000],
      ['2016-05', 510000000],
      ['2017-05', 535000000],
      ['2018-05', 681000000],
    ] as const) {
      const { row } = await month(period);
      expect(row.premium, period).toBeNull();
      expect(row.printed?.premium, period).toMatchObject({ value, qualifier: 'rounded' });
    }
  });

  it('FL February 2024: the growth FSLSO reported, and "128,500" served as printed, its meaning ambiguous', async () => {
    const { row } = await month('2024-02', undefined, 'FL');
    expect(row.printed).toMatchObject({
      premium_yoy_pct: { value: 66 },
      policies_yoy_pct: { value: 41, qualifier: 'almost' },
      policies: { value: 128500, qualifier: 'ambiguous' },
    });
    expect([row.premium, row.policy_count]).toEqual([null, null]);
  });
});
