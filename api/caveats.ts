// The rules a user of the data needs, written once: the OpenAPI description (api/openapi.ts) and
// /llms.txt (api/llms.ts) both quote them from here.

/** What every figure is: the opening sentence of both documents. */
export const PROVENANCE =
  'Figures come from state surplus-lines stamping-office publications; every figure is one a publication ' +
  'printed, at the precision it printed.';

export interface Caveat {
  name: string;
  text: string;
  /** A free or example query of this service that shows the rule at work (llms.txt links it). */
  example: string;
}

const VINTAGES: Caveat = {
  name: 'Vintages',
  text:
    'Every version of a restated figure is kept. Each period shows its latest report by default; ' +
    '`report_date=YYYY-MM-DD` (/v1/premium, /v1/compare) shows it as published by that date, field by field (a ' +
    'field back-filled later is null before; later periods absent). A shorter printing agreeing with a finer one ' +
    'to its last digit (`$622.7M`, `$622.75M`) is no restatement: the finer stands once published.',
  example: '/v1/publications?state=FL',
};

const RESPONSE_DATES: Caveat = {
  name: 'Response dates',
  text:
    '`report_date` is the latest publication date among the figures returned, `data_as_of` the date that ' +
    "publication's data is current to, `source` the state's stamping office. With no figures, both dates are null.",
  example: '/v1/premium/sample?state=FL',
};

const NULLS: Caveat = {
  name: 'Nulls',
  text:
    '`premium` is null where the publication printed only counts, or only a rounded or qualified figure; it is ' +
    'back-filled when a later report prints it. `policy_count` counts the unit the source counts (policies, ' +
    'transactions or items: see `count_unit` in /v1/coverage). The two new/renewal shares are null unless the ' +
    'source prints shares of the policy count.',
  example: '/v1/coverage',
};

const ROLL_UPS: Caveat = {
  name: 'Roll-ups',
  text:
    "Quarter and year rows are the source's own where it publishes them; otherwise they are summed from months, " +
    'only for periods whose every month is present, money to the cent. A summed field is null when any month has ' +
    'it null.',
  example: '/v1/premium?state=FL&granularity=quarter',
};

const CATEGORIES: Caveat = {
  name: 'Categories',
  text:
    "Every line belongs to one cross-state category; `line=<category>` sums the state's lines in that category " +
    'that have a row for the period, vintage by vintage. `category:<name>` selects the category where a line has ' +
    'the same name.',
  example: '/v1/lines?state=FL',
};

const PARTIAL_YEARS: Caveat = {
  name: 'Partial years',
  text:
    "/v1/premium/summary says its `basis`: all 12 months summed, the source's annual row, or a partial sum of the " +
    'months available (which may understate the year); year-over-year is like-for-like.',
  // TX 2025: a partial year (the months published so far) and its like-for-like growth; FL's 2024 has no exact figure
  // to show.
  example: '/v1/premium/summary?state=TX&year=2025',
};

const PRINTED: Caveat = {
  name: 'Exact and printed figures',
  text:
    'The six series fields hold exact figures only, so `premium` is often null. What a publication printed ' +
    'otherwise for the period (a rounded or qualified level such as "$1.1B", a growth rate, a share, an average, ' +
    "a count in another unit, a year-to-date figure) is in the row's `printed` object (`{value, as_printed, " +
    "qualifier?, period?}`: the words as printed; a period only when not the row's); what each key measures and " +
    'its unit are said once per answer, in `printed_keys`. Printed figures are never summed or used to derive ' +
    "another; an office's figure outranks a press copy.",
  example: '/v1/premium/sample?state=FL',
};

/** Partial years and growth in one, for llms.txt: the OpenAPI rule, and what `yoy_basis` says. */
const PARTIAL_YEARS_AND_GROWTH: Caveat = {
  ...PARTIAL_YEARS,
  name: 'Partial years and growth',
  text:
    `${PARTIAL_YEARS.text} Growth (\`yoy_*\`) is published only across equal spans (\`yoy_basis\`: \`full_years\` ` +
    `or \`same_months\`), else null (\`unequal_spans\`).`,
};

const HALF_YEARS: Caveat = {
  name: 'Half-years',
  text:
    "`granularity=half_year` (periods `YYYY-H1`, `YYYY-H2`) reaches WSIA's semiannual figures, the one source " +
    'covering every office; for most states it is the only series, and a sparse one: `periods` in /v1/coverage ' +
    'says how many periods of each type have figures, often far fewer than its `from`..`to` span.',
  example: '/v1/premium?state=AZ&granularity=half_year',
};

const BASES: Caveat = {
  name: 'Bases',
  text:
    "/v1/coverage gives each state's period types with the premium `basis` (CA months: premium registered with SLA " +
    'California including fees; CA half-years: premium submitted, as WSIA compiles it) and the `count_unit` of ' +
    "`policy_count`. Quarter, half-year and year rows are the source's own, else summed from complete months (a " +
    'year also from H1 + H2) on the same basis; a sum with a null part is null.',
  example: '/v1/coverage',
};

const PUBLICATIONS: Caveat = {
  name: 'Publications',
  text:
    'Every data answer lists the `publications` (publisher, title, URL, `report_date`) behind its figures, to ' +
    "cite; /v1/publications lists a state's, with the `report_dates` that `report_date` can pin, or, without " +
    "`state`, every state's, newest first (`since=YYYY-MM-DD`: only those published on or after that date).",
  example: '/v1/publications?state=TX',
};

/** The data rules of the OpenAPI description, in its order. */
export const OPENAPI_CAVEATS: readonly Caveat[] = [
  VINTAGES,
  RESPONSE_DATES,
  NULLS,
  ROLL_UPS,
  CATEGORIES,
  PARTIAL_YEARS,
];

/** The data rules of /llms.txt, in its order. */
export const LLMS_CAVEATS: readonly Caveat[] = [
  VINTAGES,
  PRINTED,
  HALF_YEARS,
  BASES,
  CATEGORIES,
  PARTIAL_YEARS_AND_GROWTH,
  PUBLICATIONS,
];

/** A caveat as a bullet of the OpenAPI description. */
export const caveatBullet = (c: Caveat) => `- **${c.name}.** ${c.text}`;

/** Conditional requests (docs/design.md §14), said once for OpenAPI, llms.txt and the README's test of them. */
export const CONDITIONAL_SENTENCE =
  'every 200 answer carries a strong `ETag` (a hash of its body: its SHA-256, or for a priced JSON or CSV answer ' +
  'an HMAC-SHA256 when the deployment sets a key, so that a free 304 confirms no guess of its figures; a ' +
  'compressed answer names its coding: `"<hex>-br"`) and `Last-Modified` (the newest `report_date` it cites, ' +
  'else the newest of the build). Send the ETag back in `If-None-Match` and an unchanged answer is `304 Not ' +
  'Modified` with no body: after validation (a bad query is still 400), before payment, so on priced routes a ' +
  '304 is never charged, HEAD included. A changed answer is a 200 with a new ETag. `If-Modified-Since` (an ' +
  'HTTP-date, used only without `If-None-Match`) compares publication dates: a correction, or an older ' +
  'publication transcribed later, changes an answer without moving its `Last-Modified`, so poll with the ETag. ' +
  'MCP tool results carry none (a JSON-RPC answer to a POST); poll over HTTP.';

/** The same in short, for llms.txt. */
export const CONDITIONAL_SHORT =
  "Re-checking is free: send a 200's `ETag` back in `If-None-Match`; unchanged is 304, no body, no charge.";
