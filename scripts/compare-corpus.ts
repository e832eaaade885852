// What scripts/compare-servers.ts sends: every route of the contract with its declared example query and a few
// other queries, each asked in every way the server answers differently (GET, HEAD, each coding, each
// conditional form), and the free pages beside the API. The spellings, refusals, connections and MCP requests
// are in compare-corpus-edges.ts and compare-corpus-mcp.ts.
import { examplePath } from '../api/llms.ts';
import { ROUTE_CONTRACTS } from '../domain/route-contracts.ts';
import { rawRequestBytes } from '../tests/support/raw-http.ts';
import { type Case, type Target, headerOf } from './compare-wire.ts';

export type HeaderList = [string, string][];

/** One request on its own connection, Host naming the server it goes to. */
export const ask = (name: string, method: string, target: string, headers: HeaderList = [], body?: string): Case => ({
  name,
  requests: (t: Target) => [rawRequestBytes(method, target, t.host, headers, body)],
});

/**
 * Further queries per operation, beside the contract's example: other parameters, the CSV form, lower-case codes,
 * an empty answer (no figure, not charged). Written on the real data; on other data some are 404s, compared alike.
 */
const MORE_QUERIES: Record<string, string[]> = {
  get_premium: [
    'state=TX&granularity=year',
    'state=fl&granularity=quarter&from=2024-01&to=2024-12',
    'state=CA&granularity=half_year',
    'state=FL&report_date=2025-01-31',
    'state=TX&line=Commercial%20Fire',
    'state=FL&format=csv',
    'state=NY&granularity=month&format=csv',
    'state=TX&from=1990-01&to=1990-12',
    'granularity=year&state=TX',
  ],
  get_summary: ['state=TX&year=2025', 'state=FL&year=2024', 'state=ca&year=2023'],
  compare_states: [
    'states=FL,TX&granularity=half_year',
    'states=FL,TX,CA,NY&granularity=year',
    'states=FL,TX&format=csv',
    'states=fl,FL,tx',
  ],
  get_top_insurers: ['state=US&period=2022', 'state=FL&period=2024-H1', 'state=TX&period=2021&format=csv'],
  get_solvency: ['insurer=Nobody%20Such%20Company', 'insurer=maidstone%20insurance'],
  list_enforcement_actions: ['', 'action_type=fine', 'state=ma', 'year=2023'],
  list_rate_filings: ['', 'state=TX', 'coverage_category=property', 'from=2024-01&to=2024-06'],
  get_rate_activity: ['', 'granularity=month', 'states=FL,TX&granularity=year'],
  get_syndicate: ['', 'syndicate=0033', 'managing_agent=Hiscox'],
  get_eligibility: ['', 'insurer=Harbor%20Excess'],
  get_premium_sample: ['', 'state=FL', 'state=CA', 'state=AZ', 'state=tx'],
  list_lines: ['state=TX', 'state=ca'],
  list_publications: ['', 'state=TX', 'state=FL&since=2024-01-01'],
  get_solvency_sample: ['x=1'],
  get_rates_sample: ['x=1'],
  get_coverage: ['state=FL'],
};

/** Every route's example target, then its further ones, each once. */
function routeTargets(): string[] {
  const targets = ROUTE_CONTRACTS.flatMap((route) => [
    examplePath(route),
    ...(MORE_QUERIES[route.operationId] ?? []).map((q) => (q ? `${route.path}?${q}` : route.path)),
  ]);
  return [...new Set(targets)];
}

/** The free pages beside the API: the site, its machine-readable documents, a snapshot page, the feed. */
const PAGES = [
  '/',
  '/llms.txt',
  '/openapi.json',
  '/.well-known/x402',
  '/snapshots/',
  '/snapshots/2026-01/',
  '/snapshots/2019-01/',
  '/snapshots/2026-01/figures.csv',
  '/snapshots/feed.xml',
  '/sitemap.xml',
  '/robots.txt',
  '/favicon.svg',
];

/** A request naming an earlier answer's ETag or Last-Modified (this server's, or the old one's), else `"none"`. */
function echoing(name: string, method: string, target: string, echo: Echo, extra: HeaderList = []): Case {
  const value = (t: Target) => headerOf((echo.before ? t.before : t.answers).get(echo.of), echo.header) ?? '"none"';
  return { name, requests: (t) => [rawRequestBytes(method, target, t.host, [...extra, [echo.as, value(t)]])] };
}

/** Which earlier answer (a case name), which of its headers, sent back as which request header. */
interface Echo {
  of: string;
  header: string;
  as: string;
  /** The old server's answer, sent to both: a tag a client kept from before the change must still match. */
  before?: boolean;
}

/**
 * A target asked every way that answers it differently: GET and HEAD, br, gzip and identity, and conditionally with
 * the ETag and Last-Modified the same server's first answer gave (a coded answer's tag too), the old server's ETag
 * (a tag kept from before the change still matches), `*` and a stale tag.
 */
function variantsOf(target: string): Case[] {
  const get = `GET ${target}`;
  const br = `${get} [br]`;
  const etag: Echo = { of: get, header: 'etag', as: 'If-None-Match' };
  return [
    ask(get, 'GET', target),
    ask(`HEAD ${target}`, 'HEAD', target),
    ask(br, 'GET', target, [['Accept-Encoding', 'br']]),
    ask(`${get} [gzip]`, 'GET', target, [['Accept-Encoding', 'gzip, deflate']]),
    ask(`${get} [identity]`, 'GET', target, [['Accept-Encoding', 'identity']]),
    ask(`HEAD ${target} [br]`, 'HEAD', target, [['Accept-Encoding', 'br']]),
    echoing(`${get} [If-None-Match: its ETag]`, 'GET', target, etag),
    echoing(`HEAD ${target} [If-None-Match: its ETag]`, 'HEAD', target, etag),
    echoing(`${get} [If-None-Match: the old server's ETag]`, 'GET', target, { ...etag, before: true }),
    echoing(`${get} [br, If-None-Match: its br ETag]`, 'GET', target, { of: br, header: 'etag', as: 'If-None-Match' }, [
      ['Accept-Encoding', 'br'],
    ]),
    echoing(`${get} [If-Modified-Since: its Last-Modified]`, 'GET', target, {
      of: get,
      header: 'last-modified',
      as: 'If-Modified-Since',
    }),
    ask(`${get} [If-None-Match: *]`, 'GET', target, [['If-None-Match', '*']]),
    ask(`${get} [If-None-Match: a stale tag]`, 'GET', target, [['If-None-Match', '"0000"']]),
  ];
}

/** The routes and pages, each in every variant. */
export const routeCases = (): Case[] => [...routeTargets(), ...PAGES].flatMap(variantsOf);
