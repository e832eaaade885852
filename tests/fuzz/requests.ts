// Request generators for the property-based suites of issue 9 (api.test.ts in process, http.test.ts
// over HTTP), and what docs/design.md lets each request get back. Queries are built from the
// contract's parameters, well-formed and far beyond; paths in every spelling of a /v1 route; odd
// methods and headers. Each request keeps the query it meant to send, so a property can ask more of a
// well-formed query than "no 5xx".
import fc from 'fast-check';
import { expect } from 'vitest';
import { MAX_COMPARE_STATES } from '../../domain/contract-params.ts';
import { errorBody } from '../../domain/contract.ts';
import { ROUTE_CONTRACTS, type RouteContract } from '../../domain/route-contracts.ts';
import { GRANULARITIES } from '../../domain/periods.ts';
import { ACTION_TYPE_NAMES, COVERAGE_CATEGORY_NAMES } from '../../domain/contract-datasets.ts';

/** Cases per property: FUZZ_RUNS (`npm run fuzz` sets 100000), else what keeps both files well under a minute. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
/** A test's time limit, from its count, so a long `npm run fuzz` is never cut short by vitest. */
export const timeoutFor = (runs: number, msPerCase: number) => 30_000 + runs * msPerCase;
/** Failures print the seed, the shrinking path and the shrunk request. */
export const FC_OPTIONS = { verbose: fc.VerbosityLevel.Verbose } as const;

/** Liveness, not speed: any answer slower than this is a hang. */
export const ANSWER_MS = 5_000;
/** Error messages quote client input cut to 80 characters (api/echo.ts): a whole message stays small. */
const MAX_MESSAGE_BYTES = 1_024;

export const ORIGIN = 'http://service.test';
export const FREE_CACHE = 'public, max-age=3600';
export const PRICED_CACHE = 'private, no-store';
const ALLOW = 'GET, HEAD, OPTIONS';

/** tests/fixtures/data/states.csv. */
const FIXTURE_STATES: readonly string[] = ['FL', 'IL', 'NY', 'TX'];
/** Well-formed codes the fixture does not have. */
const OTHER_STATES = ['CA', 'ZZ', 'PR', 'DC', 'QQ'];

/** Resolves with `promise`, or rejects once `ms` have passed without it. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** For oneof: a failure shrinks towards the first, simplest kind of value, not only within its own kind. */
const SHRINK_TO_FIRST = { withCrossShrink: true };

/** Mostly `usual`, sometimes one of `odd`. */
const mostly = <T>(usual: T, ...odd: T[]) =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(usual) }, fc.constantFrom(...odd));

// ---- parameter values ---------------------------------------------------------------------------

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Mostly the fixture's years, sometimes any four digits. */
const year = fc
  .oneof({ weight: 3, arbitrary: fc.integer({ min: 2021, max: 2025 }) }, fc.integer({ min: 0, max: 9999 }))
  .map((y) => pad(y, 4));
const month = fc.tuple(year, fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${pad(m, 2)}`);
const calendarDate = fc
  .oneof(
    {
      weight: 3,
      arbitrary: fc.date({
        min: new Date('2023-01-01T00:00:00Z'),
        max: new Date('2024-12-31T00:00:00Z'),
        noInvalidDate: true,
      }),
    },
    fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
  )
  .map((d) => d.toISOString().slice(0, 10));
/** Mostly the fixture's states, in any case, so that queries reach its data. */
const stateCode = fc.oneof(
  { weight: 6, arbitrary: fc.mixedCase(fc.constantFrom(...FIXTURE_STATES)) },
  fc.mixedCase(fc.constantFrom(...OTHER_STATES)),
  fc.stringMatching(/^[A-Za-z]{2}$/),
);
/** tests/fixtures/data/lines/FL.csv and categories.csv, in several spellings, and lines no state has. */
const line = fc.oneof(
  { weight: 4, arbitrary: fc.constant('all') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'ALL',
      '2',
      '10',
      '5000',
      'Contingency',
      'builders risk',
      'Commercial Property',
      'general liability',
      'category:Commercial Property',
      'CATEGORY:general liability',
      'Marine',
    ),
  },
  fc.stringMatching(/^[A-Za-z0-9:-][A-Za-z0-9 :-]{0,15}$/),
);
const county = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('Miami-Dade', 'miami-dade', 'BROWARD', 'Broward', 'Orange') },
  fc.stringMatching(/^[A-Za-z][A-Za-z -]{0,15}$/),
);

/** Well-formed company names: 2 to 30 characters, starting with two letters. */
const companyName = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'Acme Casualty Co',
      'ACME CASUALTY COMPANY, INC.',
      'Harbor Mutual',
      'The Summit Life & Health Co.',
      'Nobody Insurance',
    ),
  },
  fc.stringMatching(/^[A-Za-z]{2}[A-Za-z .&,-]{0,28}$/),
);

/** Values each parameter of the contract accepts (docs/design.md §3-4, §15). */
const WELL_FORMED: Record<string, fc.Arbitrary<string>> = {
  state: stateCode,
  states: fc
    .tuple(
      fc.oneof(
        {
          weight: 3,
          arbitrary: fc.array(fc.mixedCase(fc.constantFrom(...FIXTURE_STATES)), { minLength: 1, maxLength: 4 }),
        },
        fc.array(stateCode, { minLength: 1, maxLength: MAX_COMPARE_STATES }),
      ),
      mostly(',', ', ', ' ,'),
    )
    .map(([codes, comma]) => codes.join(comma)),
  line,
  county,
  from: month,
  to: month,
  granularity: fc.constantFrom(...GRANULARITIES),
  report_date: calendarDate,
  since: fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom('2024-03-01', '2024-04-01', '2000-01-01', '2099-12-31') },
    calendarDate,
  ),
  year,
  // The fixture's insurer rankings: FL 2024-01; IL 2023 and its months, 2024-01 and 2024-02.
  period: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('2024-01', '2023', '2023-06', '2024-02') }, year, month),
  // The further datasets (tests/fixtures/data/datasets): names in several spellings, and names no record has.
  insurer: companyName,
  company: companyName,
  managing_agent: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('Fixture Managing Agency', 'fixture managing', 'Other Agency') },
    companyName,
  ),
  action_type: fc.constantFrom(...ACTION_TYPE_NAMES),
  coverage_category: fc.constantFrom(...COVERAGE_CATEGORY_NAMES),
  toi: fc.constantFrom('Homeowners', 'homeowners', '04.0', 'Private Passenger Auto', 'auto', 'Cyber'),
  status: fc.constantFrom('closed', 'pending'),
  syndicate: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('1234', '5678', '01234') },
    fc.integer({ min: 0, max: 9999 }).map(String),
  ),
  format: fc.constantFrom('json', 'csv'),
};

const TEN_KB = 10_240;
/** Beyond the contract: wrong types, huge and empty values, unicode, percent-encoding, 10 kB. */
const junk = fc.oneof(
  SHRINK_TO_FIRST,
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1.5',
    '1e999',
    'NaN',
    'Infinity',
    'null',
    'true',
    '[]',
    '{}',
    '["FL"]',
    '{"$gt":""}',
    '__proto__',
    'constructor',
    '9'.repeat(400),
    '2024-13',
    '2024-00',
    '2024-1',
    '2024-02-30',
    '2023-02-29',
    '+2024',
    '２０２４',
    'ＦＬ',
    'ﬂ',
    'FL\u0301',
    '\u202eLF',
    '\u200fFL',
    'F\u200bL',
    '\u{1D405}\u{1D40B}',
    '\u{1F1FA}\u{1F1F8}',
    'FL\u0000',
    'FL\n',
    'İ',
    'ß',
    '../coverage',
    '%',
    '%zz',
    '%E0%A4%A',
    '%2541',
    '%252541',
    '%C0%AE',
    'FL,,TX',
    'FL,',
    ',',
    'FL;TX',
    'FL TX',
    [...FIXTURE_STATES, ...OTHER_STATES, 'AL', 'AK', 'AZ', 'AR', 'CO', 'CT', 'DE'].join(','),
  ),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }).map((s) => s.repeat(Math.ceil(TEN_KB / s.length))),
);

// ---- queries --------------------------------------------------------------------------------------

const keysOf = (route: RouteContract) => (route.params ? Object.keys(route.params.shape) : []);
const requiredKeysOf = (route: RouteContract) =>
  keysOf(route).filter((k) => !route.params!.shape[k].safeParse(undefined).success);
const ALL_KEYS = [...new Set(ROUTE_CONTRACTS.flatMap(keysOf))];
const STRANGE_KEYS = [
  'State',
  'STATE',
  'state[]',
  'state[0]',
  'states[]',
  '',
  ' state',
  'state ',
  'callback',
  'format',
  '__proto__',
  'constructor',
  'toString',
  'x402',
  'limit',
];

/** How a key or value is written in the query: as it is, or encoded one of several ways (some change it). */
const WRITINGS = {
  component: encodeURIComponent,
  raw: (s: string) => s,
  form: (s: string) => encodeURIComponent(s).replaceAll('%20', '+'),
  everyByte: (s: string) =>
    [...new TextEncoder().encode(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  twice: (s: string) => encodeURIComponent(encodeURIComponent(s)),
} as const;
const writing = mostly<keyof typeof WRITINGS>('component', 'raw', 'form', 'everyByte', 'twice');

/** One query parameter as meant: its key, its value, and whether the value is one the contract accepts. */
export type Pair = [key: string, value: string, wellFormed: boolean];

const wellFormedPair = (keys: string[]) =>
  fc.constantFrom(...keys).chain((k) => WELL_FORMED[k].map((v): Pair => [k, v, true]));
const junkPair = (keys: string[]) =>
  fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...(keys.length ? keys : ALL_KEYS)),
        fc.constantFrom(...ALL_KEYS, ...STRANGE_KEYS),
        fc.string({ unit: 'binary', maxLength: 12 }),
      ),
      junk,
    )
    .map(([k, v]): Pair => [k, v, false]);

/**
 * A route's query: its parameters (required ones nearly always, each optional one a third of the
 * time), often one of them given a junk value instead, then sometimes a few more, repeated or unknown.
 */
function pairsFor(route: RouteContract): fc.Arbitrary<Pair[]> {
  const keys = keysOf(route);
  const required = new Set(requiredKeysOf(route));
  const own = fc.tuple(
    ...keys.map((k) =>
      fc.oneof(
        { weight: required.has(k) ? 1 : 2, arbitrary: fc.constant(undefined) },
        { weight: required.has(k) ? 19 : 1, arbitrary: WELL_FORMED[k].map((v): Pair => [k, v, true]) },
      ),
    ),
  );
  const spoilt = fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, fc.tuple(fc.nat(), junk));
  const extra = fc.array(fc.oneof(junkPair(keys), ...(keys.length ? [wellFormedPair(keys)] : [])), { maxLength: 4 });
  return fc
    .tuple(own, spoilt, fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, extra))
    .map(([mine, spoil, more]) => {
      const pairs = mine.filter((p) => p !== undefined);
      if (spoil && pairs.length) pairs[spoil[0] % pairs.length] = [pairs[spoil[0] % pairs.length][0], spoil[1], false];
      return [...pairs, ...more];
    });
}

const writtenQuery = (pairs: Pair[]) =>
  fc
    .tuple(
      fc.array(writing, { minLength: pairs.length, maxLength: pairs.length }),
      mostly('&', '&&', ';'),
      mostly('?', '??', '?&'),
    )
    .map(([how, joiner, mark]) => {
      if (pairs.length === 0) return '';
      const text = pairs
        .map(([k, v], i) =>
          v === '' && how[i] === 'raw' ? WRITINGS.raw(k) : `${WRITINGS[how[i]](k)}=${WRITINGS[how[i]](v)}`,
        )
        .join(joiner);
      return `${mark}${text}`;
    });

// ---- paths ----------------------------------------------------------------------------------------

/** `path` with its character at `i` percent-encoded (hex in either case). */
const encodeAt = (path: string, i: number, lower: boolean) => {
  const hex = path.charCodeAt(i).toString(16).padStart(2, '0');
  return `${path.slice(0, i)}%${lower ? hex : hex.toUpperCase()}${path.slice(i + 1)}`;
};

/** Every spelling of a route's path: as is, trailing slash, case, doubled slashes, dot segments, encoded, `;params`, backslashes. */
function spellingOf(path: string): fc.Arbitrary<string> {
  const at = fc.integer({ min: 1, max: path.length - 1 });
  return fc.oneof(
    SHRINK_TO_FIRST,
    { weight: 20, arbitrary: fc.constant(path) },
    fc.constant(`${path}/`),
    fc.mixedCase(fc.constant(path)),
    fc.constantFrom(...[...path.matchAll(/\//g)].map((m) => `${path.slice(0, m.index)}/${path.slice(m.index)}`)),
    fc.constantFrom(
      `/.${path}`,
      `/x/..${path}`,
      `${path.replace('/v1/', '/v1/./')}`,
      `${path.replace('/v1/', '/v1/x/../')}`,
      `${path.replace('/v1/', '/v1/%2e/')}`,
      `${path.replace('/v1/', '/v1/x/%2E%2E/')}`,
      `${path}/.`,
    ),
    fc.tuple(at, fc.boolean()).map(([i, lower]) => encodeAt(path, i, lower)),
    fc.tuple(at, fc.boolean()).map(([i, lower]) => encodeAt(encodeAt(path, i, lower), i, lower)),
    fc.constantFrom(`${path};`, `${path};a=b`, `${path.replace('/v1', '/v1;v=2')}`, `${path}%3B`),
    fc.constantFrom(path.replaceAll('/', '\\'), path.replace('/v1/', '/v1\\'), `${path}\\`),
  );
}

/** Paths under /v1 that are no route: near misses, other datasets' names, random segments. */
const unknownApiPath = fc.oneof(
  SHRINK_TO_FIRST,
  fc.constantFrom(
    '/v1',
    '/v1/',
    '/v1/premiums',
    '/v1/premium/sample/x',
    '/v1/premium/summary/',
    '/v1/coverage.json',
    '/v1/openapi.json',
    '/v1/solvency',
    '/v1/rates/sample',
    '/v1/%',
    '/v1/%zz',
    '/v1/%00',
    '/v1/..%2F..%2Fetc%2Fpasswd',
    '/v1;x',
    '/V1',
    '/v1\\',
  ),
  fc.webSegment().map((s) => `/v1/${s}`),
  fc.string({ unit: 'binary', maxLength: 16 }).map((s) => `/v1/${encodeURIComponent(s)}`),
  fc
    .string({ unit: 'binary', minLength: 1, maxLength: 4 })
    .map((s) => `/v1/${encodeURIComponent(s.repeat(Math.ceil(TEN_KB / s.length)))}`),
);

// ---- methods and headers ----------------------------------------------------------------------

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,20}$/;
// These requests carry the lowercase method 'patch' on purpose; undici warns once per process that it is likely a
// 405 (UNDICI-FETCH-patch). That case is the point, not trouble: the one warning is dropped, every other printed.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
  if ((rest[0] as { code?: string } | undefined)?.code === 'UNDICI-FETCH-patch') return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
};

/** What fetch's Request refuses to carry (it throws). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
/** Every method a Request can carry: the usual ones in any case, WebDAV and others, any token. */
export const requestMethod = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  { weight: 3, arbitrary: fc.constantFrom('HEAD', 'OPTIONS') },
  fc.constantFrom(
    'POST',
    'PUT',
    'DELETE',
    'PATCH',
    'get',
    'Head',
    'options',
    'post',
    'patch',
    'PROPFIND',
    'M-SEARCH',
    'QUERY',
    'PURGE',
    'BREW',
    'A'.repeat(TEN_KB),
  ),
  fc.stringMatching(TOKEN).filter((m) => !FORBIDDEN_METHODS.has(m.toUpperCase())),
);

/** The method a Request ends up with: fetch uppercases these six, whatever their case, and no other. */
export function normalizedMethod(method: string): string {
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'].includes(upper) ? upper : method;
}

/** A header value a Request and Node's client both carry: Latin-1 without ASCII control characters. */
const headerValue = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
});
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
export const junkPaymentHeader = fc.oneof(
  headerValue,
  fc.base64String({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => b64(JSON.stringify(v) ?? 'null')),
  fc.constant(b64('{}')),
);

/** Headers a client might send, sensible and not: content negotiation, caching, CORS, forwarding, payment, framing. */
const oddHeader: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(
    fc.constantFrom(
      'Accept',
      'Accept-Encoding',
      'Accept-Language',
      'Range',
      'If-None-Match',
      'If-Modified-Since',
      'Cache-Control',
      'Pragma',
      'Origin',
      'Referer',
      'Access-Control-Request-Method',
      'Access-Control-Request-Headers',
      'Content-Type',
      'Cookie',
      'Authorization',
      'User-Agent',
      'Forwarded',
      'X-Forwarded-For',
      'X-Forwarded-Host',
      'X-Forwarded-Proto',
      'X-HTTP-Method-Override',
      'X-Original-URL',
      'X-Rewrite-URL',
      'Content-Length',
      'Transfer-Encoding',
      'Connection',
      'Expect',
      'Upgrade',
      'TE',
    ),
    fc.oneof(
      fc.constantFrom(
        'text/html',
        '*/*',
        'application/json;q=0',
        'gzip, br',
        'bytes=0-1',
        'bytes=-1',
        '*',
        'DELETE',
        'POST',
        '/v1/coverage',
        'https://evil.example',
        'null',
        '0',
        '-1',
        'chunked',
        'close',
        'websocket',
        '100-continue',
        'Mozilla/5.0',
      ),
      headerValue,
      fc.constant('x'.repeat(TEN_KB)),
    ),
  ),
  fc.tuple(
    fc.constantFrom('PAYMENT-SIGNATURE', 'X-PAYMENT', 'PAYMENT-RESPONSE', 'PAYMENT-REQUIRED'),
    junkPaymentHeader,
  ),
  fc.tuple(fc.stringMatching(TOKEN), headerValue),
);
const oddHeaders = fc.oneof(
  { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
  fc.array(oddHeader, { maxLength: 4 }),
);

// ---- requests -------------------------------------------------------------------------------------

/** A request as generated: the target exactly as written, and the query it meant (empty when it spells no route's path). */
export interface FuzzRequest {
  method: string;
  target: string;
  headers: [string, string][];
  body?: string;
  meant: Pair[];
}

/** A request to one of `routes`, its path in any spelling and its query from the route's parameters. */
export const targetFor = (routes: readonly RouteContract[]) =>
  fc
    .constantFrom(...routes)
    .chain((route) =>
      pairsFor(route).chain((pairs) =>
        fc
          .tuple(spellingOf(route.path), writtenQuery(pairs))
          .map(([path, query]) => ({ target: `${path}${query}`, meant: pairs })),
      ),
    );
/** A request to a path under /v1 that is no route, with any route's query. */
const unknownTarget = fc
  .tuple(
    unknownApiPath,
    fc
      .constantFrom(...ROUTE_CONTRACTS)
      .chain(pairsFor)
      .chain(writtenQuery),
  )
  .map(([path, query]) => ({ target: `${path}${query}`, meant: [] as Pair[] }));

/** Any request under /v1: mostly to routes, in any method, with odd headers and sometimes a body. */
export const apiRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(SHRINK_TO_FIRST, { weight: 4, arbitrary: targetFor(ROUTE_CONTRACTS) }, unknownTarget),
    requestMethod,
    oddHeaders,
    fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, junk),
  )
  .map(([{ target, meant }, method, headers, body]) => ({
    method,
    target,
    headers,
    meant,
    // fetch refuses a body on GET and HEAD.
    ...(body !== undefined && !['GET', 'HEAD'].includes(normalizedMethod(method)) ? { body } : {}),
  }));

/** The request as a fetch RequestInit. */
export const initOf = (r: FuzzRequest): RequestInit => ({ method: r.method, headers: r.headers, body: r.body });

// ---- what a request may get -------------------------------------------------------------------------

export const routeOf = (pathname: string): RouteContract | undefined =>
  ROUTE_CONTRACTS.find((r) => r.path === pathname);

/** Parameters as the handler reads them: keys and values of the URL's query, in order. */
const parsedPairs = (url: URL) => [...url.searchParams];

/**
 * What the query is, read from the URL the service gets: `refused` when it has a key the route does
 * not take or a key twice (400 on every route with parameters, docs/design.md §4); `wellFormed` when it
 * reads back exactly as meant, every value was a well-formed one, every required key is there and the
 * cross-parameter rules hold (from <= to; county only with year granularity); else `any`.
 */
function queryKind(route: RouteContract, url: URL, meant: Pair[]): 'refused' | 'wellFormed' | 'any' {
  const pairs = parsedPairs(url);
  const keys = keysOf(route);
  const seen = new Set<string>();
  for (const [k] of pairs) {
    if (!keys.includes(k) || seen.has(k)) return 'refused';
    seen.add(k);
  }
  const asMeant = pairs.length === meant.length && pairs.every(([k, v], i) => k === meant[i][0] && v === meant[i][1]);
  if (!asMeant || !meant.every(([, , ok]) => ok) || !requiredKeysOf(route).every((k) => seen.has(k))) return 'any';
  const value = Object.fromEntries(pairs);
  if (value.from && value.to && value.from > value.to) return 'any';
  if (value.county !== undefined && value.granularity !== undefined && value.granularity !== 'year') return 'any';
  return 'wellFormed';
}

/** The further datasets' routes with parameters: no state of theirs is ever a 404. */
const DATASET_ROUTES = new Set([
  '/v1/solvency',
  '/v1/enforcement',
  '/v1/rates',
  '/v1/rates/activity',
  '/v1/syndicates',
  '/v1/eligibility',
]);

/** The states a well-formed query names, uppercased. */
const statesNamed = (url: URL) =>
  (url.searchParams.get('states') ?? url.searchParams.get('state') ?? 'FL')
    .split(',')
    .map((s) => s.trim().toUpperCase());

/**
 * The statuses docs/design.md allows for a request with the gate on or off: 204 for OPTIONS,
 * 405 for a method other than GET and HEAD, the JSON 404 for a path that is no route, and a route's own
 * statuses otherwise (402 only when priced and gated, never 500 or 503 with intact shards and a working
 * facilitator). A query refused by name is 400; a well-formed one is never 400, and is 404 for a state
 * the fixture does not have.
 */
export function allowedStatuses(r: FuzzRequest, url: URL, gateOn: boolean): number[] {
  const statuses = unconditionalStatuses(r, url, gateOn);
  // If-None-Match: * names any answer held, and may be answered 304 where the answer would be (docs/design.md §14); the
  // generated values are no other answer's ETag and no HTTP-date, so nothing else may be a 304.
  const ifNoneMatch = r.headers.filter(([name]) => name.toLowerCase() === 'if-none-match').map(([, value]) => value);
  const any = ifNoneMatch.length > 0 && ifNoneMatch.join(', ').trim() === '*';
  return any && (statuses.includes(200) || statuses.includes(402)) ? [...statuses, 304] : statuses;
}

function unconditionalStatuses(r: FuzzRequest, url: URL, gateOn: boolean): number[] {
  const method = normalizedMethod(r.method);
  if (method === 'OPTIONS') return [204];
  if (method !== 'GET' && method !== 'HEAD') return [405];
  const route = routeOf(url.pathname);
  if (!route) return [404];
  if (!route.params) return [200];
  const kind = queryKind(route, url, r.meant);
  if (kind === 'refused') return [400];
  const unpaid = route.priceUsd && gateOn;
  // A dataset route's state is a filter: any state is answered, with no records where there are none.
  if (DATASET_ROUTES.has(route.path)) return kind === 'wellFormed' ? [unpaid ? 402 : 200] : [400, unpaid ? 402 : 200];
  const answered = unpaid ? [402, 404] : [200, 404];
  if (kind === 'wellFormed') return statesNamed(url).every((s) => FIXTURE_STATES.includes(s)) ? answered : [404];
  return [400, ...answered];
}

/** The error body of docs/design.md §4 with nothing else in it, at either level. */
const strictErrorBody = errorBody.extend({ error: errorBody.shape.error.strict() }).strict();

/** An error answer's headers: JSON, never stored, and Allow on a 405. */
export function expectErrorHeaders(status: number, headers: { get(name: string): string | null }): void {
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('content-type')).toMatch(/^application\/json/);
  if (status === 405) expect(headers.get('allow')).toBe(ALLOW);
}

/** An error answer's body: that of docs/design.md §4, strictly, its code the status's (docs/design.md §4), its message bounded. */
export function expectErrorBody(status: number, text: string): void {
  const { error } = strictErrorBody.parse(JSON.parse(text));
  expect(error.code).toBe(status === 404 ? 'not_found' : 'invalid_request');
  expect(Buffer.byteLength(error.message)).toBeLessThan(MAX_MESSAGE_BYTES);
}
