// /llms.txt (llmstxt.org), generated from the contract, the coverage and the payment terms: read here by
// a parser of its own (title, summary, `##` sections of `- [name](url): note` links), checked against the
// contract and the real coverage, and every link of this service followed in process (pages: their source file exists; the browser suite crawls them).
// Links are absolute on the deployment's site (SITE_URL) when the build has one, else paths on the server that serves the file.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CoverageItem } from '../../domain/contract.ts';
import { ROUTE_CONTRACTS, TOOL_ROUTES } from '../../domain/route-contracts.ts';
import { installGate } from '../../api/payment/configured.ts';
import { paymentSettings } from '../../api/payment/settings.ts';
import { paymentTerms } from '../../api/payment/terms.ts';
import { llmsText } from '../../api/llms.ts';
import { buildCoverage } from '../../src/llms-coverage.ts';
import { GET } from '../../src/pages/llms.txt.ts';
import { callHandler } from '../support/handlers.ts';
import { FIXTURE_DATA, REAL_DATA, serveShards, useShardsOf } from '../support/shards.ts';

const SITE = 'https://surplus-lines.example';
const ROOT = join(import.meta.dirname, '..', '..');
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PAYEE = getAddress('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');

// ---- an llms.txt parser, written from llmstxt.org and independent of api/llms.ts ----------------

interface Item {
  name: string;
  url: string;
  note: string | null;
}
interface Section {
  title: string;
  items: Item[];
  /** Lines that are neither a list item nor blank. */
  text: string[];
}
interface Parsed {
  title: string;
  summary: string;
  preamble: string[];
  sections: Section[];
}

const ITEM = /^- \[([^\]]+)\]\(([^()\s]+)\)(?:: (.+))?$/;

/** The structure of an llms.txt, or the first way it breaks the format. */
function parse(text: string): Parsed {
  const lines = text.split('\n');
  if (!text.endsWith('\n')) throw new Error('no final newline');
  const h1 = /^# (\S.*)$/.exec(lines[0]);
  if (!h1) throw new Error('line 1 is not an H1 title');
  let i = 1;
  while (lines[i] === '') i++;
  const quote: string[] = [];
  while (lines[i]?.startsWith('> ')) quote.push(lines[i++].slice(2));
  if (!quote.length) throw new Error('no blockquote summary after the title');
  const preamble: string[] = [];
  for (; i < lines.length && !lines[i].startsWith('## '); i++) {
    if (/^#/.test(lines[i])) throw new Error(`heading before the first section: ${lines[i]}`);
    if (lines[i]) preamble.push(lines[i]);
  }
  const sections: Section[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) sections.push({ title: line.slice(3), items: [], text: [] });
    else if (/^#/.test(line)) throw new Error(`heading other than ## in a section: ${line}`);
    else if (line.startsWith('- ')) {
      const m = ITEM.exec(line);
      if (!m) throw new Error(`list item is not - [name](url) or - [name](url): note: ${line.slice(0, 120)}`);
      sections.at(-1)!.items.push({ name: m[1], url: m[2], note: m[3] ?? null });
    } else if (line) sections.at(-1)!.text.push(line);
  }
  return { title: h1[1], summary: quote.join(' '), preamble, sections };
}

/** A link as the server that serves the file resolves it: an absolute URL as it is, a path (one leading slash) on that server. */
const SERVED_BY = 'http://served.test';
const resolved = (url: string) =>
  URL.canParse(url) ? new URL(url) : /^\/(?!\/)/.test(url) ? new URL(url, SERVED_BY) : null;

/** The path of an absolute URL or of a path; null for anything else. */
const pathOf = (url: string) => resolved(url)?.pathname ?? null;

const priceText = (usd: string | null) => (usd ? `${usd} USD` : 'free');

/** What the text misses or gets wrong against the contract and the coverage; empty when it is right. `site` null: links must be paths. */
function problemsOf(text: string, coverage: readonly CoverageItem[], site: string | null = SITE): string[] {
  let doc: Parsed;
  try {
    doc = parse(text);
  } catch (e) {
    return [`format: ${(e as Error).message}`];
  }
  const problems: string[] = [];
  const section = (title: string) => doc.sections.find((s) => s.title.startsWith(title));
  for (const title of ['API', 'MCP', 'Payment', 'Data caveats', 'States', 'Snapshots'])
    if (!section(title)) problems.push(`section ${title} missing`);
  for (const s of doc.sections) {
    if (s.text.length && !s.title.startsWith('Snapshots'))
      problems.push(`section ${s.title} has text outside its list`);
    for (const item of s.items) {
      if (site === null) {
        if (URL.canParse(item.url) || pathOf(item.url) === null) problems.push(`link ${item.url} is not a path`);
      } else if (!URL.canParse(item.url) || new URL(item.url).origin !== new URL(site).origin)
        problems.push(`link ${item.url} is not absolute on ${site}`);
    }
  }
  const api = section('API')?.items ?? [];
  for (const route of ROUTE_CONTRACTS) {
    const item = api.find((i) => i.name === `GET ${route.path}`);
    if (!item) problems.push(`route ${route.path} missing`);
    else {
      if (pathOf(item.url) !== route.path) problems.push(`route ${route.path} links ${item.url}`);
      if (!item.note?.startsWith(`${priceText(route.priceUsd)}.`))
        problems.push(`route ${route.path} price is not ${priceText(route.priceUsd)}`);
      for (const name of Object.keys(route.params?.shape ?? {}))
        if (!item.note?.includes(`\`${name}\` (`)) problems.push(`route ${route.path} parameter ${name} missing`);
    }
  }
  if (!api.some((i) => pathOf(i.url) === '/openapi.json')) problems.push('/openapi.json missing');
  const mcp = section('MCP')?.items ?? [];
  if (!mcp.some((i) => pathOf(i.url) === '/mcp' && /\b405\b/.test(i.note ?? '') && /POST/.test(i.note ?? '')))
    problems.push('MCP endpoint missing');
  for (const route of TOOL_ROUTES) {
    const tool = mcp.find((i) => i.name === route.operationId);
    if (!tool) problems.push(`tool ${route.operationId} missing`);
    else if (
      pathOf(tool.url) !== '/mcp' ||
      !tool.note?.includes(route.path) ||
      !tool.note.includes(priceText(route.priceUsd))
    )
      problems.push(`tool ${route.operationId} does not give its route and price`);
  }
  const states = section('States')?.items ?? [];
  for (const c of coverage) {
    const item = states.find((i) => i.name === `${c.state} ${c.name}`);
    if (!item) problems.push(`state ${c.state} missing`);
    else {
      if (!item.note?.startsWith(c.stamping_office)) problems.push(`state ${c.state} does not name its office`);
      for (const [type, p] of Object.entries(c.period_types))
        if (!item.note?.includes(`${type} ${p.from}`) || !item.note.includes(p.to))
          problems.push(`state ${c.state} ${type} range missing`);
    }
  }
  const snapshots = section('Snapshots')?.items.map((i) => pathOf(i.url)) ?? [];
  for (const path of ['/snapshots/', '/snapshots/feed.xml'])
    if (!snapshots.includes(path)) problems.push(`Snapshots does not link ${path}`);
  return problems;
}

// ---- the tests ------------------------------------------------------------------------------------

useShardsOf(REAL_DATA);

let coverage: CoverageItem[];
/** On a configured site (SITE_URL set at build). */
let text: string;
/** With no site configured: links are paths. */
let relative: string;

beforeAll(async () => {
  installGate(null); // in process the gate is off: priced links answer 200
  coverage = (await (await callHandler(`${SITE}/v1/coverage`)).json()) as CoverageItem[];
  text = llmsText({ site: SITE, coverage: await buildCoverage(), terms: paymentTerms(null) });
  relative = llmsText({ coverage: await buildCoverage(), terms: paymentTerms(null) });
});
afterAll(() => installGate(undefined));

describe('GET /llms.txt (generated from the contract and the coverage)', () => {
  it('is an llms.txt: H1 title, blockquote summary, ## sections of - [name](url): note links', () => {
    const doc = parse(text);
    expect(doc.title).toBe('Surplus Lines Market Data API');
    expect(doc.summary.length).toBeGreaterThan(100);
    expect(doc.sections.map((s) => s.title)).toEqual([
      'API',
      'MCP',
      'Payment (x402)',
      'Data caveats',
      'States',
      'Snapshots',
    ]);
    for (const s of doc.sections.filter((s) => s.title !== 'Snapshots'))
      expect(s.items.length, s.title).toBeGreaterThan(0);
  });

  it('has every route with its price and parameters, every MCP tool, every state of the coverage, and absolute links on the site', () => {
    expect(coverage.length).toBe(15);
    expect(problemsOf(text, coverage)).toEqual([]);
  });

  it('with no site configured, links are paths on the server that serves it, whatever its host or port: the same text but for the origin', () => {
    expect(problemsOf(relative, coverage, null)).toEqual([]);
    expect(relative).not.toMatch(/https?:\/\/(127\.0\.0\.1|localhost)/);
    const links = parse(relative).sections.flatMap((s) => s.items.map((i) => i.url));
    expect(links).toContain('/v1/coverage');
    // Only the links differ from the text on a site (the x402 spec link in a note is not a link of the file).
    expect(relative).toBe(text.replaceAll(`](${SITE}/`, '](/'));
    expect(problemsOf(relative.replace('](/v1/coverage)', `](${SITE}/v1/coverage)`), coverage, null)).toEqual([
      `link ${SITE}/v1/coverage is not a path`,
    ]);
  });

  it('the check fails when a route, a tool, a state or a price is missing or wrong', () => {
    const without = (pattern: RegExp) =>
      text
        .split('\n')
        .filter((l) => !pattern.test(l))
        .join('\n');
    expect(problemsOf(without(/^- \[GET \/v1\/premium\]/), coverage)).toEqual(['route /v1/premium missing']);
    expect(problemsOf(without(/^- \[get_coverage\]/), coverage)).toEqual(['tool get_coverage missing']);
    expect(problemsOf(without(/^- \[TX Texas\]/), coverage)).toEqual(['state TX missing']);
    expect(problemsOf(text.replace(/(\[GET \/v1\/compare\]\([^)]+\)): 0\.50 USD/, '$1: 0.10 USD'), coverage)).toEqual([
      'route /v1/compare price is not 0.50 USD',
    ]);
    expect(problemsOf(text.replace(`${SITE}/openapi.json`, '/openapi.json'), coverage)).toContain(
      'link /openapi.json is not absolute on https://surplus-lines.example',
    );
    expect(problemsOf(text.replace('# Surplus', 'Surplus'), coverage)).toEqual(['format: line 1 is not an H1 title']);
  });

  it('every link of this service resolves: /v1 links answer 200 in process (an example the coverage cannot answer, 404), /openapi.json and /mcp are pages', async () => {
    const urls = new Set(parse(relative).sections.flatMap((s) => s.items.map((i) => i.url)));
    const checked: string[] = [];
    for (const url of urls) {
      const { pathname, href } = resolved(url)!;
      if (pathname.startsWith('/v1/')) {
        expect((await callHandler(href)).status, url).toBe(200);
      } else {
        const page = join(
          ROOT,
          'src',
          'pages',
          pathname.endsWith('/') ? `${pathname}index.astro` : `${pathname.slice(1)}.ts`,
        );
        expect(existsSync(page), url).toBe(true);
      }
      checked.push(pathname);
    }
    expect(new Set(checked)).toEqual(
      new Set([
        ...ROUTE_CONTRACTS.map((r) => r.path),
        '/openapi.json',
        '/mcp',
        '/.well-known/x402',
        '/snapshots/',
        '/snapshots/feed.xml',
      ]),
    );
  });

  it('/v1/insurers: its example is a ranked period (no caveat), and it says US holds the national rankings', () => {
    const insurers = parse(text).sections[0].items.find((i) => i.name === 'GET /v1/insurers')!;
    expect(insurers.note).not.toContain('404');
    expect(insurers.note).toContain(
      "or US: AM Best's national rankings of surplus lines groups and companies, as reprinted",
    );
  });

  it('states the x402 terms: version 2, Base and its USDC, each price in atomic units; the payee when the gate is on', () => {
    const payment = parse(text).sections.find((s) => s.title.startsWith('Payment'))!;
    const notes = payment.items.map((i) => i.note).join(' ');
    for (const fact of [
      'x402 version 2',
      'eip155:8453',
      BASE_USDC,
      '0.10 USD = 100000',
      '0.50 USD = 500000',
      'PAYMENT-REQUIRED',
      'PAYMENT-SIGNATURE',
      'PAYMENT-RESPONSE',
    ])
      expect(notes, fact).toContain(fact);
    expect(payment.items.map((i) => pathOf(i.url))).toContain('/.well-known/x402'); // the x402 discovery document
    expect(notes).not.toContain('payTo 0x');
    const gated = llmsText({
      site: SITE,
      coverage,
      terms: paymentTerms(paymentSettings({ X402_PAY_TO: PAYEE, X402_FACILITATOR_URL: 'http://127.0.0.1:9' })),
    });
    expect(problemsOf(gated, coverage)).toEqual([]);
    expect(gated).toContain(`payTo ${PAYEE}`);
  });

  it('gives the MCP conventions: POST only, wrapped arrays, payment in _meta', () => {
    const mcp = parse(text).sections.find((s) => s.title === 'MCP')!;
    const notes = mcp.items.map((i) => `${i.name}: ${i.note}`).join('\n');
    for (const fact of [
      'list_lines: GET /v1/lines, free; the array wrapped as `{"lines": [...]}`',
      'get_coverage: GET /v1/coverage, free; the array wrapped as `{"coverage": [...]}`',
      'params._meta["x402/payment"]',
      'result._meta["x402/payment-response"]',
      'structuredContent',
    ])
      expect(notes, fact).toContain(fact);
  });

  it('is compact: under 20 KB', () => {
    expect(Buffer.byteLength(text)).toBeLessThan(20 * 1024);
  });

  it("the page serves it as text/plain, with links on SITE_URL when set and paths otherwise, never on Astro's default site", async () => {
    // astro.config.mjs gives Astro this site when SITE_URL is unset: the page must not put it in a link.
    const astroDefault = { site: new URL('http://127.0.0.1:4321') } as Parameters<typeof GET>[0];
    const siteUrl = process.env.SITE_URL;
    try {
      process.env.SITE_URL = SITE;
      const res = await GET(astroDefault);
      expect(res.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
      const onSite = await res.text();
      expect(onSite).toBe(llmsText({ site: SITE, coverage, terms: paymentTerms() }));
      expect(onSite).toContain(`](${SITE}/v1/coverage)`);
      for (const unset of [undefined, '']) {
        if (unset === undefined) delete process.env.SITE_URL;
        else process.env.SITE_URL = unset;
        const served = await (await GET(astroDefault)).text();
        expect(served).toBe(llmsText({ coverage, terms: paymentTerms() }));
        expect(served).toContain('](/v1/coverage)');
        expect(served).not.toContain('127.0.0.1');
      }
    } finally {
      if (siteUrl === undefined) delete process.env.SITE_URL;
      else process.env.SITE_URL = siteUrl;
    }
  });

  it('a build with no shards at all (a test build on a fresh clone) takes the coverage from an ingest of DATA_DIR, else data/', async () => {
    const restore = serveShards(mkdtempSync(join(tmpdir(), 'slmd-no-shards-')));
    const dataDir = process.env.DATA_DIR;
    const said = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(await buildCoverage()).toEqual(coverage);
      process.env.DATA_DIR = FIXTURE_DATA;
      expect((await buildCoverage()).map((c) => c.state)).toEqual(['FL', 'IL', 'NY', 'TX']);
      // Each time, the build says where the coverage came from.
      expect(said.mock.calls.map((args) => String(args[0]))).toEqual([
        expect.stringMatching(/^pages: no shards in .*; building them from an ingest of .*data$/),
        expect.stringMatching(/^pages: no shards in .*fixtures[/\\]data$/),
      ]);
    } finally {
      said.mockRestore();
      if (dataDir === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = dataDir;
      restore();
    }
  });
});
