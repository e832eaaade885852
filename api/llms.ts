// /llms.txt (llmstxt.org): what an agent needs to use the service, generated from the contract
// (domain/contract.ts), the coverage the build serves and the payment terms, so it cannot drift from
// them. Served prerendered (src/pages/llms.txt.ts). Format: `# title`, a `> ` summary, plain
// paragraphs, then `## ` sections of `- [name](url): note` links, every URL absolute on the deployment's
// site when the build has one, else a path on whatever server serves the file.
import { type CoverageItem, PERIOD_TYPE_NAMES } from '../domain/contract.ts';
import { ROUTE_CONTRACTS, type RouteContract } from '../domain/route-contracts.ts';
import { CONDITIONAL_SHORT, LLMS_CAVEATS } from './caveats.ts';
import { exampleInput } from './json-schemas.ts';
import { LIST_CACHE_HINT } from './mcp/list-cache.ts';
import { wrapKeyOf } from './mcp/tool-definition.ts';
import { TEXT_LIMIT_TOKENS } from './text/index.ts';
import { type QueryParameter, queryParameters } from './openapi.ts';
import {
  MCP_PAYMENT_META,
  MCP_PAYMENT_RESPONSE_META,
  type PaymentTerms,
  SCHEMES_SENTENCE,
  X402_SCHEMES,
  X402_VERSION,
  atomicAmount,
  networkName,
} from './payment/terms.ts';
import { readableQuery } from './paid-execution.ts';

export interface LlmsInput {
  /**
   * The deployment's public origin (SITE_URL): every link is absolute on it. Absent, every link is a path
   * (`/v1/coverage`), which a reader resolves against the server that served the file, whatever its host and port.
   */
  site?: URL | string | null;
  /** The /v1/coverage body of the build. */
  coverage: readonly CoverageItem[];
  terms: PaymentTerms;
  /** The snapshot pages the site has. */
  snapshots?: readonly SnapshotPage[];
}

interface SnapshotPage {
  name: string;
  path: string;
  note: string;
}

/** The /snapshots pages (src/pages/snapshots/), free and for people. */
const SNAPSHOT_PAGES: readonly SnapshotPage[] = [
  {
    name: 'Monthly snapshots',
    path: '/snapshots/',
    note: 'a cited page per month (`/snapshots/YYYY-MM/`, its `figures.csv`)',
  },
  { name: 'Feed', path: '/snapshots/feed.xml', note: 'Atom' },
];

/**
 * A route's example query: its required parameters' examples, or, for a route with none required, the
 * examples of the parameters its contract names in `exampleParams`, else of every parameter (the sample's
 * state). Empty for a route without parameters.
 */
export function exampleQuery(route: RouteContract): string {
  if (!route.params) return '';
  const required = exampleInput(route.params);
  if (Object.keys(required).length) return readableQuery(required);
  const shown = queryParameters(route.params).filter(
    (p) => !route.exampleParams || route.exampleParams.includes(p.name),
  );
  return readableQuery(Object.fromEntries(shown.map((p) => [p.name, p.example])));
}

export const examplePath = (route: RouteContract) => {
  const query = exampleQuery(route);
  return query ? `${route.path}?${query}` : route.path;
};

/** The first sentence of a description, parentheses left out: a parameter's short note. */
function firstSentence(text: string): string {
  const plain = text.replace(/\s*\([^()]*\)/g, '');
  const end = plain.search(/\.(\s|$)/);
  return (end === -1 ? plain : plain.slice(0, end)).trim();
}

/** What a parameter is, in a few words: its values for an enum, else the first sentence of its description. */
function parameterWhat(p: QueryParameter): string {
  const values = (p.schema as { enum?: string[] }).enum;
  return values ? `one of ${values.join(', ')}` : firstSentence(p.description ?? '');
}

/** A parameter's note; a long one already given in full on an earlier route is referred to as `as for <route>`. */
function parameterNote(p: QueryParameter, route: RouteContract, seen: Map<string, string>): string {
  const schema = p.schema as { default?: string | number | boolean; enum?: string[] };
  const values = schema.enum;
  // A query parameter's example is a scalar, as its default.
  const shown = p.example as string | number | boolean | undefined;
  const facts = [
    p.required ? 'required' : 'optional',
    ...(schema.default !== undefined ? [`default ${String(schema.default)}`] : []),
  ];
  // The example, unless the route's example link shows it, it is the default, or the values are listed.
  const example =
    shown !== undefined && !p.required && !values && shown !== schema.default ? `, e.g. ${String(shown)}` : '';
  const full = `${parameterWhat(p)}${example}`;
  const first = full.length > 30 ? seen.get(`${p.name} ${full}`) : undefined;
  if (!first) seen.set(`${p.name} ${full}`, route.path);
  return `\`${p.name}\` (${facts.join(', ')})${first ? ` as for ${first}` : `: ${full}`}`;
}

const priceOf = (route: RouteContract) => (route.priceUsd ? `${route.priceUsd} USD` : 'free');

/** Why a route's example cannot answer 200 with this coverage, if it cannot (a ranking the data does not have). */
function exampleCaveat(route: RouteContract, coverage: readonly CoverageItem[]): string | null {
  if (route.path !== '/v1/insurers') return null;
  const ranked = coverage.filter((s) => s.insurer_periods.length);
  if (!ranked.length)
    return 'No state has a ranked period yet, so it answers 404 until /v1/coverage lists `insurer_periods`.';
  const query = new URLSearchParams(exampleQuery(route));
  const state = coverage.find((s) => s.state === query.get('state'));
  if (state?.insurer_periods.includes(query.get('period')!)) return null;
  return 'The example has no ranking (404): States below lists the ranked periods.';
}

function routeItem(
  route: RouteContract,
  coverage: readonly CoverageItem[],
  link: (path: string) => string,
  seen: Map<string, string>,
): string {
  const params = route.params ? queryParameters(route.params) : [];
  const parts = [
    `${priceOf(route)}.`,
    `${route.summary}.`,
    params.length
      ? `Parameters: ${params.map((p) => parameterNote(p, route, seen)).join('; ')}.`
      : route.params
        ? 'No parameters.'
        : 'No parameters (a query string is ignored).',
    exampleCaveat(route, coverage),
  ];
  return `- [GET ${route.path}](${link(examplePath(route))}): ${parts.filter(Boolean).join(' ')}`;
}

function toolItem(route: RouteContract, link: (path: string) => string): string {
  const key = wrapKeyOf(route);
  return (
    `- [${route.operationId}](${link('/mcp')}): ` +
    `GET ${route.path}, ${priceOf(route)}${key ? `; the array wrapped as \`{"${key}": [...]}\`` : ''}.`
  );
}

/** `from..to`; ` to ` between year-to-date periods, which hold `..` themselves (`2024-01..06`). */
const span = (p: { from: string; to: string }) =>
  p.from === p.to ? p.from : `${p.from}${p.from.includes('..') ? ' to ' : '..'}${p.to}`;

/**
 * The periods /v1/insurers ranks (months and years, ascending): each when a few, else how many and the first and last.
 */
const rankedPeriods = (periods: readonly string[]) =>
  periods.length <= 4 ? periods.join(', ') : `for ${periods.length} periods, ${periods[0]} to ${periods.at(-1)}`;

/** The premium basis most period types of most states are on: the States section names only the others. */
function commonBasis(coverage: readonly CoverageItem[]): string | null {
  const counts = new Map<string, number>();
  for (const state of coverage)
    for (const p of Object.values(state.period_types)) counts.set(p.basis, (counts.get(p.basis) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
}

/** How many periods of a type have figures, the count unit beside it: `(3 periods, policies)`. */
const periodsNote = (p: { periods: number; count_unit: string | null }) =>
  ` (${p.periods} ${p.periods === 1 ? 'period' : 'periods'}${p.count_unit ? `, ${p.count_unit}` : ''})`;

/**
 * One state: its office, then its period types with range, number of periods and count unit, grouped by premium basis
 * (the common one first, unnamed).
 */
function stateItem(state: CoverageItem, common: string | null, link: (path: string) => string): string {
  const byBasis = new Map<string, string[]>(common ? [[common, []]] : []);
  for (const type of PERIOD_TYPE_NAMES) {
    const p = state.period_types[type];
    if (!p) continue;
    if (!byBasis.has(p.basis)) byBasis.set(p.basis, []);
    byBasis.get(p.basis)!.push(`${type} ${span(p)}${periodsNote(p)}`);
  }
  const periods = [...byBasis]
    .filter(([, ranges]) => ranges.length)
    .map(([basis, ranges]) => (basis === common ? ranges.join(', ') : `${basis}: ${ranges.join(', ')}`));
  const extras = [
    ...(state.capabilities.has_county_data ? ['county data'] : []),
    ...(state.insurer_periods.length ? [`insurer rankings ${rankedPeriods(state.insurer_periods)}`] : []),
    ...(state.capabilities.has_new_renewal_split ? ['new/renewal split'] : []),
  ];
  const published = periods.length ? periods.join('; ') : 'no figures yet';
  const publications = link(`/v1/publications?state=${state.state}`);
  const also = extras.length ? ` Also: ${extras.join(', ')}.` : '';
  return `- [${state.state} ${state.name}](${publications}): ${state.stamping_office}. ${published}.${also}`;
}

export function llmsText({ site, coverage, terms, snapshots = SNAPSHOT_PAGES }: LlmsInput): string {
  const link = (path: string) => (site ? new URL(path, site).href : path);
  const priced = ROUTE_CONTRACTS.filter((r) => r.priceUsd);
  const seen = new Map<string, string>();
  const common = commonBasis(coverage);
  const example = priced[0];
  const network = `${terms.network} (${networkName(terms.network)})`;
  const asset = `${terms.asset.address} (${terms.asset.name}, ${terms.asset.decimals} decimals)`;
  const amounts = [...new Set(priced.map((r) => r.priceUsd!))]
    .map((usd) => `${usd} USD = ${atomicAmount(usd, terms)}`)
    .join(', ');

  const out = [
    '# Surplus Lines Market Data API',
    '',
    `> U.S. excess and surplus lines insurance statistics (premium, policy counts and growth by state, coverage ` +
      `line and period) from the publications of ${coverage.length} state stamping offices and WSIA, as a JSON API ` +
      `and an MCP server. Every answer dates its figures (\`report_date\`, \`data_as_of\`) and lists the ` +
      `publications to cite. Free routes need nothing; priced routes are paid per query with x402 ` +
      `(${terms.asset.name} on ${networkName(terms.network)}).`,
    '',
    `Errors are \`{"error":{"code","message"}}\`: 400 \`invalid_request\` names the parameter and what was ` +
      `expected (unknown and repeated parameters are refused), 404 \`not_found\` an unknown state, line, county or ` +
      `period. GET and HEAD only.`,
    '',
    '## API',
    '',
    ...ROUTE_CONTRACTS.map((r) => routeItem(r, coverage, link, seen)),
    `- [OpenAPI 3.1 document](${link('/openapi.json')}): every route, parameter and response schema with the ` +
      `rules in full; priced operations carry \`x-price-usd\` and \`x-payment-info\`.`,
    '',
    '## MCP',
    '',
    `- [MCP endpoint](${link('/mcp')}): streamable HTTP, stateless: POST JSON-RPC only; GET answers 405. MCP ` +
      `2026-07-28 (server/discover, then tools/list and tools/call, each with its envelope in \`_meta\` and the ` +
      `MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; lists cached ` +
      `for ${LIST_CACHE_HINT.ttlMs / 3_600_000} hours, ${LIST_CACHE_HINT.cacheScope}) and the 2025 revisions ` +
      `(initialize, tools/list, tools/call) on the one endpoint; the tools in one fixed order. Each tool below ` +
      `(all routes but /v1/bulk) takes its route's parameters (but \`format\`) and returns its full JSON as ` +
      `\`structuredContent\`; \`content[0].text\` is a compact rendering for a model to read: what was asked, a ` +
      `table of every figure (exact in full, printed as printed), and the numbered publications to cite; an answer ` +
      `past ${TEXT_LIMIT_TOKENS / 1000}k tokens leaves out the earliest rows and names the narrower call that gets ` +
      `them.`,
    ...ROUTE_CONTRACTS.filter((r) => !r.download).map((r) => toolItem(r, link)),
    `- [Paying a tool call](${link('/mcp')}): when the payment gate is on, a priced tool takes the x402 payment ` +
      `(a PaymentPayload) in the tools/call request's \`params._meta["${MCP_PAYMENT_META}"]\` and returns the ` +
      `receipt in \`result._meta["${MCP_PAYMENT_RESPONSE_META}"]\`; a call without a valid one gets a tool error ` +
      `result with the x402 PaymentRequired object in \`structuredContent\` and in \`content[0].text\`.`,
    '',
    '## Payment (x402)',
    '',
    `- [Terms](${link('/openapi.json')}): x402 version ${X402_VERSION}, schemes ${X402_SCHEMES.join(' and ')}, ` +
      `network ${network}, asset ${asset}; ${amounts} atomic units${terms.payTo ? `; payTo ${terms.payTo}` : ''}. ` +
      `The 402 challenge states the authoritative terms${terms.payTo ? '' : ', payee included'}. Spec: ` +
      `https://x402.org.`,
    `- [HTTP flow](${link(examplePath(example))}): with the gate on, a priced request without payment answers ` +
      `402, body \`{}\`, the challenge in the \`PAYMENT-REQUIRED\` header (base64 JSON: \`accepts\` with amount, ` +
      `network, asset, payTo). Retry with the signed payment in \`PAYMENT-SIGNATURE\` (base64 JSON); the 200 ` +
      `carries the receipt in \`PAYMENT-RESPONSE\`. A payment is good for one answer.`,
    `- [Prepaid channels](${link('/openapi.json')}): ${SCHEMES_SENTENCE} A voucher out of step gets 402 with the ` +
      `channel state to resynchronise to; the official client does so by itself. MCP takes vouchers in the same ` +
      `\`_meta\` field.`,
    `- [Never charged](${link('/openapi.json')}): 400 and 404 come before payment, so a bad request is never ` +
      `charged; an answer with no figure (empty \`publications\`) is 200 and not settled; a failed answer (500) is ` +
      `not settled. Free routes never need payment. ${CONDITIONAL_SHORT}`,
    `- [Discovery document](${link('/.well-known/x402')}): the x402 discovery document crawlers read (x402scan's ` +
      `format, \`version\` 1): \`resources\` lists every priced route's URL, with example values for its required ` +
      `parameters so an unpaid GET reaches the 402; \`instructions\` gives each one's method and price (USD and ` +
      `atomic units).`,
    '',
    '## Data caveats',
    '',
    ...LLMS_CAVEATS.map((c) => `- [${c.name}](${link(c.example)}): ${c.text}`),
    '',
    '## States',
    '',
    `- [Coverage](${link('/v1/coverage')}): below, per state, its stamping office and each period type's range, ` +
      `how many of its periods have figures (statewide, all lines: the rows /v1/premium answers; year_to_date: the ` +
      `spans with an exact level) and count ` +
      `unit${common ? `; unless another is named, the premium basis is ${common}` : ''}. Each links the state's ` +
      `publications.`,
    ...coverage.map((s) => stateItem(s, common, link)),
    '',
    '## Snapshots',
    '',
    ...snapshots.map((s) => `- [${s.name}](${link(s.path)}): ${s.note}`),
  ];
  return out.join('\n') + '\n';
}
