// Issue 23, "Documentation that answers": every example a user is shown answers with figures on the real
// data (data/): each route's example query (exampleQuery: llms.txt, the home page), the required examples
// /openapi.json declares (what a crawler sends), every /v1 link of llms.txt and of the README's route table,
// and the example call each MCP tool's input schema shows, /v1/insurers included (a ranking the data holds).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { exampleQuery, llmsText } from '../../api/llms.ts';
import { handleMcp } from '../../api/mcp/handle-mcp.ts';
import { openApiDocument } from '../../api/openapi.ts';
import { installGate } from '../../api/payment/configured.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { type CoverageItem } from '../../domain/contract.ts';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { callHandler } from '../support/handlers.ts';
import { REAL_DATA, useShardsOf } from '../support/shards.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const ORIGIN = 'http://examples.test';

type Json = Record<string, unknown>;

// ---- what "holds a figure" means, by the answer's shape (docs/design.md §5, §10, §16) ----------------

/** The six series fields of a premium row and of a summary (docs/design.md §16). */
const SERIES = [
  'premium',
  'policy_count',
  'new_business_premium',
  'renewal_premium',
  'new_business_policy_pct',
  'renewal_policy_pct',
];
const present = (v: unknown) => v !== null && v !== undefined;
/** A series row holds a figure when a series field is set or the publication printed something for it. */
const rowHolds = (row: Json) =>
  SERIES.some((f) => present(row[f])) || Object.keys((row.printed as Json | null) ?? {}).length > 0;

/** The figures (or records) an answer shows, by its shape; throws on a shape this test does not know, so a new route is not passed unread. */
function figuresIn(body: unknown): unknown[] {
  if (Array.isArray(body)) return body; // /v1/coverage, /v1/lines: every item is what was asked
  const b = body as Json;
  const list = (key: string) => (b[key] as unknown[] | undefined) ?? [];
  if ('series' in b)
    return Object.values(b.series as Record<string, Json[]>)
      .flat()
      .filter(rowHolds); // compare
  if ('months_available' in b) {
    // summary: the year's totals, the growth, the prior year's totals
    const prior = b.prior_year as Json;
    return [
      ...SERIES.map((f) => b[f]),
      b.yoy_premium_pct,
      b.yoy_policy_count_pct,
      prior.premium,
      prior.policy_count,
    ].filter(present);
  }
  if ('report_dates' in b) return list('publications'); // /v1/publications: the publications are the answer
  if ('receiverships' in b) return [...list('receiverships'), ...list('enforcement_actions')]; // solvency
  if ('insurers' in b) return list('insurers');
  if ('receivership_count' in b) return [...list('recent_liquidations'), ...list('recent_fines')];
  if ('recent_large_increases' in b) return (b.states as Json[]).filter((s) => (s.filing_count as number) > 0);
  if ('syndicate_count' in b) return list('examples');
  if (b.profile === 'tabular-data-package') return list('sources'); // the bulk files' descriptor: the publications behind them
  // premium, the sample, the dataset lists, rate activity: series rows must hold a figure, records are figures
  if (Array.isArray(b.data)) return (b.data as Json[]).filter((r) => !('printed' in r) || rowHolds(r));
  throw new Error(`an answer of a shape this test does not know: ${Object.keys(b).join(', ')}`);
}

/** Why an answer holds no figure, or null when it holds one: 200, figures, and (docs/design.md §10) the publications they come from. */
async function noFigure(res: Response): Promise<string | null> {
  if (res.status !== 200) return `status ${res.status}: ${(await res.text()).slice(0, 200)}`;
  if (res.headers.get('content-type') === 'application/vnd.apache.parquet') {
    // The bulk Parquet file: a Parquet file (its magic at both ends) with row data (tests/contract/bulk.test.ts reads it back).
    const bytes = Buffer.from(await res.arrayBuffer());
    const parquet = bytes.subarray(0, 4).toString() === 'PAR1' && bytes.subarray(-4).toString() === 'PAR1';
    return parquet && bytes.length > 1024 ? null : `not a Parquet file with rows: ${bytes.length} bytes`;
  }
  const text = await res.text();
  if (res.headers.get('content-type')?.startsWith('text/csv')) {
    // CSV: a header line, then one line per figure; an answer with no figure is the header alone.
    return text.split(/\r?\n/).filter(Boolean).length > 1 ? null : 'a CSV of the header line alone';
  }
  return bodyWithoutFigure(JSON.parse(text));
}

function bodyWithoutFigure(body: unknown): string | null {
  if (!figuresIn(body).length) return `no figure: ${JSON.stringify(body).slice(0, 200)}`;
  const publications = (body as Json).publications;
  if (publications !== undefined && !(publications as unknown[]).length) return 'figures, but no publication cited';
  return null;
}

const answer = (target: string) => callHandler(new URL(target, ORIGIN));

let coverage: CoverageItem[];

async function expectFigures(target: string) {
  expect(await noFigure(await answer(target)), target).toBeNull();
}

useShardsOf(REAL_DATA);

beforeAll(async () => {
  installGate(null); // in process the gate is off: a priced example answers 200 with its figures
  coverage = (await (await answer('/v1/coverage')).json()) as CoverageItem[];
});
afterAll(() => installGate(undefined));

describe('what holds a figure (the check below can fail)', () => {
  it('an answer with nothing in it, figures and no publication, or an error is refused', async () => {
    // Queries no data can match (a year before any publication, a code that is no state), on each shape that can be empty.
    for (const empty of [
      '/v1/premium?state=TX&from=1990-01&to=1990-12',
      '/v1/premium/summary?state=TX&year=1990',
      '/v1/compare?states=FL,TX&from=1990-01&to=1990-12',
      '/v1/solvency?insurer=No Such Carrier Anywhere',
      '/v1/enforcement?state=ZZ',
      '/v1/rates?state=ZZ',
      '/v1/rates/activity?states=ZZ',
      '/v1/syndicates?syndicate=9999',
      '/v1/eligibility?syndicate=9999',
    ])
      expect(await noFigure(await answer(empty)), empty).toMatch(/^no figure/);
    expect(await noFigure(await answer('/v1/premium?state=TX&from=1990-01&to=1990-12&format=csv'))).toBe(
      'a CSV of the header line alone',
    );
    expect(await noFigure(await answer('/v1/premium/sample?state=TX&foo=1'))).toMatch(/^status 400/);
    expect(bodyWithoutFigure({ data: [{ state: 'FL' }], publications: [] })).toBe('figures, but no publication cited');
    expect(
      bodyWithoutFigure({
        data: [{ period: '2024-01', premium: null, policy_count: null, printed: null }],
        publications: [],
      }),
    ).toMatch(/^no figure/);
    expect(() => figuresIn({ unknown: [] })).toThrow(/shape/);
  });
});

describe('every example answers with figures on the real data', () => {
  it.each(ROUTE_CONTRACTS.map((r) => [r.path, r] as const))(
    "%s: the route's example query (llms.txt, the home page)",
    async (_, route) => {
      const query = exampleQuery(route);
      await expectFigures(query ? `${route.path}?${query}` : route.path);
    },
  );

  it('a route names in exampleParams only its own parameters, and only when it requires none (otherwise the required examples make the query)', () => {
    for (const route of ROUTE_CONTRACTS.filter((r) => r.exampleParams)) {
      const shape = (route.params?.shape ?? {}) as Record<string, z.ZodType>;
      expect(
        route.exampleParams!.filter((name) => !(name in shape)),
        route.path,
      ).toEqual([]);
      expect(
        Object.keys(shape).filter((name) => !shape[name].safeParse(undefined).success),
        route.path,
      ).toEqual([]);
    }
  });

  it("every operation of /openapi.json with its required parameters' examples (what a crawler sends)", async () => {
    const doc = openApiDocument() as {
      paths: Record<
        string,
        { get: { parameters?: { name: string; in: string; required: boolean; example?: unknown }[] } }
      >;
    };
    const targets = Object.entries(doc.paths).map(([path, item]) => {
      const required = (item.get.parameters ?? []).filter((p) => p.in === 'query' && p.required);
      for (const p of required) expect(p.example, `${path} ${p.name}`).toBeDefined();
      const query = new URLSearchParams(required.map((p) => [p.name, String(p.example)])).toString();
      return query ? `${path}?${query}` : path;
    });
    expect(targets.map((t) => new URL(t, ORIGIN).pathname).sort()).toEqual(ROUTE_CONTRACTS.map((r) => r.path).sort());
    for (const target of targets) await expectFigures(target);
  });

  it('every /v1 link of llms.txt (routes, data caveats, states)', async () => {
    const text = llmsText({ coverage, terms: paymentTerms(null) });
    const links = [...text.matchAll(/\]\((\/v1\/[^)\s]*)\)/g)].map((m) => m[1]);
    // Every route is linked, and every state's publications.
    expect(new Set(links.map((l) => new URL(l, ORIGIN).pathname))).toEqual(new Set(ROUTE_CONTRACTS.map((r) => r.path)));
    for (const c of coverage) expect(links, c.state).toContain(`/v1/publications?state=${c.state}`);
    for (const link of new Set(links)) await expectFigures(link);
  });

  it("every example of the README's route table", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const examples = [...readme.matchAll(/^\| `GET (\/v1\/[^`]*)` \|/gm)].map((m) => m[1]);
    expect(new Set(examples.map((e) => new URL(e, ORIGIN).pathname))).toEqual(
      new Set(ROUTE_CONTRACTS.map((r) => r.path)),
    );
    for (const example of examples) await expectFigures(example);
  });
});

describe('the example call of every MCP tool answers with figures on the real data', () => {
  let client: Client;
  let tools: Tool[];
  beforeAll(async () => {
    client = new Client({ name: 'examples-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input, init) => handleMcp(new Request(input, init)),
      }),
    );
    tools = (await client.listTools()).tools;
  });
  afterAll(() => client.close());

  it('every tool the server lists, called with the examples its input schema shows (those of its required parameters)', async () => {
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_ROUTES.map((r) => r.operationId).sort());
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { examples?: unknown[] }>;
      const args = Object.fromEntries(
        (tool.inputSchema.required ?? []).map((name) => [name, properties[name].examples?.[0]]),
      );
      for (const [name, value] of Object.entries(args)) expect(value, `${tool.name} ${name}`).toBeDefined();
      const result = (await client.callTool({ name: tool.name, arguments: args })) as CallToolResult;
      expect(result.isError, `${tool.name}: ${JSON.stringify(result.content).slice(0, 200)}`).toBeFalsy();
      // An array answer comes wrapped in one key (MCP wants an object).
      const structured = result.structuredContent as Json;
      const keys = Object.keys(structured);
      const body = keys.length === 1 && Array.isArray(structured[keys[0]]) ? structured[keys[0]] : structured;
      expect(bodyWithoutFigure(body), `${tool.name} ${JSON.stringify(args)}`).toBeNull();
    }
  });
});
