// The pages for people (/, /snapshots/, /snapshots/YYYY-MM/ and what they link to), in Debian's Chromium
// driven by playwright-core, against the Node server built from the real data: every internal link
// answers, every page loads with no error, keeps the page habits, passes axe-core without a serious or
// critical violation, and fits a 375 px wide screen, every figure whole and every chart's labels clear of
// each other at 375 and 1280 px. An unknown page answers the site's own 404 page, and the feed its Atom
// type. Screenshots go to .ci/out/screenshots/.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { REAL_DATA, buildInto } from '../support/shards.ts';
import { launchChromium } from './browser.ts';
import { type Crawl, type Visit, crawl } from './crawl.ts';
import { type LayoutReport, readLayout } from './layout.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-e2e');
const SHOTS = join(ROOT, '.ci', 'out', 'screenshots');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/**
 * The site's address for the build (SITE_URL): what canonical, og:url, sitemap and feed URLs are written
 * with. The crawl counts it as internal, and the browser's requests to it are answered by the test server.
 */
const SITE = 'http://surplus-lines.test';
const INDEX = '/snapshots/';
const MONTH_PAGE = /^\/snapshots\/\d{4}-(0[1-9]|1[0-2])\/$/;
/** A page the site does not have: it answers the site's own 404 page. */
const NOT_FOUND = '/no-such-page';
/** A phone's width and a laptop's: the stylesheet switches chart type size and table layout between them. */
const WIDTHS = [375, 1280];

let server: { base: string; stop: () => void } | undefined;
let browser: Browser | undefined;
let page: Page;
let site: Crawl;

beforeAll(async () => {
  browser = await launchChromium(); // first: without Chromium every test fails at once, saying how to install it
  const shards = buildInto(REAL_DATA);
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards, SITE_URL: SITE });
  server = await startServer(join(OUT, 'server', 'entry.mjs'), { SHARDS_DIR: shards });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const base = server.base;
  await context.route(`${SITE}/**`, (route) =>
    route.continue({ url: base + route.request().url().slice(SITE.length) }),
  );
  page = await context.newPage();
  // /snapshots/ is crawled even when nothing links to it, so its pages are checked either way; the
  // first test says whether / reaches it.
  site = await crawl(page, base, SITE, ['/', INDEX]);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
});

/** A path as a reader would follow it. */
const at = (path: string) => server!.base + path;

/** The month pages /snapshots/ links to, in its order; throws, saying why, when there is no such list. */
function indexedMonths(): string[] {
  const index = site.visits.get(INDEX)!;
  if (index.status !== 200 || !index.facts) {
    throw new Error(
      `${INDEX} answered ${index.status} ${index.contentType}: it should be the HTML index of the month snapshot pages`,
    );
  }
  const months = [...new Set(site.links.filter((l) => l.from === INDEX && MONTH_PAGE.test(l.path)).map((l) => l.path))];
  if (!months.length) throw new Error(`${INDEX} links to no month page (/snapshots/YYYY-MM/)`);
  return months;
}

/** The pages looked at closely: /, the 404 page, /snapshots/, and its newest, oldest and a middle month page. */
function samplePages(): { pages: { name: string; path: string }[]; missing: string[] } {
  const pages = [
    { name: 'home', path: '/' },
    { name: '404', path: NOT_FOUND },
  ];
  try {
    const months = indexedMonths().sort();
    const picked = [...new Set([months.at(-1)!, months[0], months[Math.floor(months.length / 2)]])];
    pages.push(
      { name: 'snapshots', path: INDEX },
      ...picked.map((path) => ({ name: `snapshots-${path.split('/')[2]}`, path })),
    );
    return { pages, missing: [] };
  } catch (e) {
    return { pages, missing: [(e as Error).message] };
  }
}

/** The HTML pages the crawl loaded in the browser (/ among them, or no check on them could mean anything). */
function htmlPages(): Visit[] {
  const home = site.visits.get('/')!;
  if (!home.facts)
    throw new Error(
      `/ did not load as an HTML page (answered ${home.status} ${home.contentType}): ${home.problems.join('; ')}`,
    );
  return [...site.visits.values()].filter((v) => v.facts);
}

/** The paths reachable from / by following links. */
function reachableFromHome(): Set<string> {
  const reached = new Set(['/']);
  const queue = ['/'];
  while (queue.length) {
    const from = queue.shift()!;
    for (const l of site.links) {
      if (l.from === from && !reached.has(l.path)) {
        reached.add(l.path);
        queue.push(l.path);
      }
    }
  }
  return reached;
}

/** What an internal link may answer: 200; a /v1 route also 402 (priced); GET /mcp 405 (the endpoint takes POST). */
function answers(path: string, status: number): boolean {
  if (status === 200) return true;
  if (/^\/v1(\/|\?|$)/.test(path)) return status === 402;
  if (/^\/mcp(\?|$)/.test(path)) return status === 405;
  return false;
}

describe('the site crawled from / (links, <link rel>, sitemap and feed URLs)', () => {
  it('reaches /snapshots/, at least one month page, and every month page /snapshots/ lists, by links from /', () => {
    const reached = reachableFromHome();
    expect(reached.has(INDEX), `no chain of links leads from / to ${INDEX}`).toBe(true);
    const months = indexedMonths();
    const unreachable = months.filter((m) => !reached.has(m) || site.visits.get(m)?.status !== 200);
    expect(
      unreachable,
      'month pages listed on /snapshots/ that did not load (status 200) by following links from /',
    ).toEqual([]);
    expect([...reached].filter((p) => MONTH_PAGE.test(p) && site.visits.get(p)?.status === 200).length).toBeGreaterThan(
      0,
    );
  });

  it('has no broken internal link: each answers 200 (a /v1 route 200 or 402, GET /mcp its 405)', () => {
    const broken = site.links
      .map((l) => ({ ...l, visit: site.visits.get(l.path)! }))
      .filter(({ path, visit }) => !answers(path, visit.status))
      .map(
        ({ from, href, path, visit }) =>
          `${from} links to ${href}: ${path} answered ${visit.status}${visit.location ? ` (Location: ${visit.location})` : ''}`,
      );
    expect([...new Set(broken)]).toEqual([]);
  });

  it('has no #fragment link to an id its target page lacks', () => {
    const broken = site.links
      .filter((l) => l.fragment && l.fragment !== 'top')
      .filter((l) => {
        const target = site.visits.get(l.path);
        return !target?.facts?.ids.includes(l.fragment);
      })
      .map(
        (l) =>
          `${l.from} links to ${l.href}: ${site.visits.get(l.path)?.facts ? `${l.path} has no element with id="${l.fragment}"` : `${l.path} is not an HTML page that loaded`}`,
      );
    expect([...new Set(broken)]).toEqual([]);
  });
});

describe('every page crawled, in Chromium', () => {
  it('/, /snapshots/ and every month page it lists load with no console error, uncaught error, failed request or answer >= 400', () => {
    const failures: string[] = [];
    let required = ['/'];
    try {
      required = ['/', INDEX, ...indexedMonths()];
    } catch (e) {
      failures.push((e as Error).message);
    }
    for (const path of required)
      if (!site.visits.get(path)?.facts)
        failures.push(`${path} was not loaded in the browser (answered ${site.visits.get(path)?.status})`);
    for (const v of htmlPages()) for (const p of v.problems) failures.push(`${v.path}: ${p}`);
    expect(failures).toEqual([]);
  });

  it('each has <html lang="en">, exactly one <h1>, a meta description and a non-empty <title> no other page has', () => {
    const failures: string[] = [];
    const byTitle = new Map<string, string[]>();
    for (const { path, facts: f } of htmlPages()) {
      if (f!.lang !== 'en') failures.push(`${path}: <html lang> is ${JSON.stringify(f!.lang)}, not "en"`);
      if (f!.h1Count !== 1) failures.push(`${path}: ${f!.h1Count} <h1> elements`);
      if (!f!.description?.trim()) failures.push(`${path}: no <meta name="description"> with content`);
      if (!f!.title.trim()) failures.push(`${path}: empty or missing <title>`);
      else byTitle.set(f!.title, [...(byTitle.get(f!.title) ?? []), path]);
    }
    for (const [title, paths] of byTitle)
      if (paths.length > 1) failures.push(`<title>${title}</title> is shared by ${paths.join(', ')}`);
    expect(failures).toEqual([]);
  });

  it('runs no inline code into the next word ("402with the terms"): each <code> is followed by a space or a mark', () => {
    const glued = htmlPages().flatMap(({ path, facts: f }) => f!.gluedToCode.map((text) => `${path}: ${text}`));
    expect(glued).toEqual([]);
  });

  it('each has an absolute <link rel="canonical"> to itself on the site, og:title, and og:url equal to the canonical URL', () => {
    const failures: string[] = [];
    for (const { path, facts: f } of htmlPages()) {
      const expected = new URL(path, SITE).href;
      if (!f!.canonical) failures.push(`${path}: no <link rel="canonical">`);
      else if (!URL.canParse(f!.canonical))
        failures.push(`${path}: canonical href ${JSON.stringify(f!.canonical)} is not an absolute URL`);
      else if (new URL(f!.canonical).href !== expected)
        failures.push(
          `${path}: canonical href ${f!.canonical}, expected ${expected} (the build's SITE_URL and the page's path)`,
        );
      if (!f!.ogTitle?.trim()) failures.push(`${path}: no <meta property="og:title"> with content`);
      if (!f!.ogUrl) failures.push(`${path}: no <meta property="og:url">`);
      else if (f!.canonical && f!.ogUrl !== f!.canonical)
        failures.push(`${path}: og:url ${f!.ogUrl} differs from the canonical href ${f!.canonical}`);
    }
    expect(failures).toEqual([]);
  });

  it('each <table> has a <caption> and <th> cells, and each <svg role="img"> an accessible name (aria-label, or aria-labelledby naming elements with text)', () => {
    const failures: string[] = [];
    for (const { path, facts: f } of htmlPages()) {
      for (const t of f!.tablesWithoutCaption) failures.push(`${path}: ${t} has no <caption> with text`);
      for (const t of f!.tablesWithoutTh) failures.push(`${path}: ${t} has no <th>`);
      for (const s of f!.svgsWithoutName) failures.push(`${path}: ${s} has no accessible name`);
    }
    expect(failures).toEqual([]);
  });
});

describe('/, the 404 page, /snapshots/, and its newest, oldest and a middle month page', () => {
  it('axe-core finds no serious or critical violation', async () => {
    const { pages, missing } = samplePages();
    const failures = [...missing];
    for (const { path } of pages) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(at(path), { waitUntil: 'load' });
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate(async () => {
        const { violations } = await (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
          resultTypes: ['violations'],
        });
        return violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.length,
          target: v.nodes[0]?.target.join(' '),
        }));
      });
      for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        failures.push(`${path}: ${v.id} (${v.impact}) ${v.help}; ${v.nodes} element(s), the first ${v.target}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('full-page screenshots at 1280 and 375 px wide are saved as PNG files in .ci/out/screenshots/', async () => {
    const { pages, missing } = samplePages();
    const failures = [...missing];
    mkdirSync(SHOTS, { recursive: true });
    for (const { name, path } of pages) {
      for (const width of [1280, 375]) {
        const file = join(SHOTS, `${name}-${width}.png`);
        rmSync(file, { force: true });
        await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await page.goto(at(path), { waitUntil: 'load' });
        await page.screenshot({ path: file, fullPage: true });
        const png = readFileSync(file);
        if (
          png.length <= 8 ||
          !png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
        )
          failures.push(`${file} is not a non-empty PNG`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('at 375 px wide the document does not scroll sideways (wide tables and figures scroll in their own box)', async () => {
    const { pages, missing } = samplePages();
    const failures = [...missing];
    await page.setViewportSize({ width: 375, height: 812 });
    for (const { path } of pages) {
      await page.goto(at(path), { waitUntil: 'load' });
      const { scrollWidth, wide, count } = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        // Inside a box that scrolls or clips sideways, counting only the boxes on its containing-block chain:
        // an absolutely positioned element escapes a scroll box that is not positioned (a visually hidden
        // label in a scrolled table can widen the document).
        const clipped = (el: Element) => {
          for (let a: Element | null = el; a && a !== document.documentElement;) {
            const position = getComputedStyle(a).position;
            if (position === 'fixed') return false;
            let block: Element | null = a.parentElement;
            if (position === 'absolute')
              while (block && block !== document.documentElement && getComputedStyle(block).position === 'static')
                block = block.parentElement;
            if (!block || block === document.documentElement) return false;
            if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(block).overflowX)) return true;
            a = block;
          }
          return false;
        };
        const over = [...document.body.querySelectorAll('*')].filter(
          (el) => el.getBoundingClientRect().right > width + 0.5 && !clipped(el),
        );
        // the outermost elements that stick out, which are what to fix
        const outermost = over.filter((el) => !over.includes(el.parentElement!));
        const tag = (el: Element) => {
          const cls =
            typeof el.className === 'string' && el.className.trim()
              ? `.${el.className.trim().split(/\s+/).join('.')}`
              : '';
          return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls}>`;
        };
        return {
          scrollWidth: document.documentElement.scrollWidth,
          wide: outermost.slice(0, 5).map((el) => {
            const text = el.textContent?.trim().replace(/\s+/g, ' ').slice(0, 40);
            return `${tag(el)}${text ? ` "${text}"` : ''} in ${tag(el.parentElement!)}, reaching ${Math.round(el.getBoundingClientRect().right)} px`;
          }),
          count: outermost.length,
        };
      });
      if (scrollWidth > 375)
        failures.push(
          `${path}: the document is ${scrollWidth} px wide at 375 px${count ? `; ${count} element(s) stick out: ${wide.join('; ')}${count > wide.length ? '; ...' : ''}` : ''}`,
        );
    }
    expect(failures).toEqual([]);
  });
});

/** Every page kind: /, /snapshots/, every month page it lists, and the 404 page. */
function everyPageKind(): { paths: string[]; missing: string[] } {
  try {
    return { paths: ['/', INDEX, ...indexedMonths(), NOT_FOUND], missing: [] };
  } catch (e) {
    return { paths: ['/', NOT_FOUND], missing: [(e as Error).message] };
  }
}

/** Each page of every kind laid out at each width, read once for the tests below. */
let layouts: Promise<{ missing: string[]; read: { width: number; path: string; layout: LayoutReport }[] }> | undefined;
function layoutsAtEveryWidth() {
  layouts ??= (async () => {
    const { paths, missing } = everyPageKind();
    const read = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of paths) {
        await page.goto(at(path), { waitUntil: 'load' });
        read.push({ width, path, layout: await readLayout(page) });
      }
    }
    return { missing, read };
  })();
  return layouts;
}

/** The first few problems a page has at a width, and how many more. */
const firstFew = (width: number, path: string, problems: string[]) => [
  ...problems.slice(0, 3).map((p) => `${width} px ${path}: ${p}`),
  ...(problems.length > 3 ? [`${width} px ${path}: ... and ${problems.length - 3} more`] : []),
];

describe(`/, /snapshots/, every month page and the 404 page, at ${WIDTHS.join(' and ')} px wide`, () => {
  it('shows every figure whole: none is cut by a box that clips or scrolls, none runs past the screen or the document', async () => {
    const { missing, read } = await layoutsAtEveryWidth();
    const failures = [
      ...missing,
      ...read.flatMap(({ width, path, layout }) => firstFew(width, path, layout.figureProblems)),
    ];
    expect(failures).toEqual([]);
    // Something was looked at: the month pages show hundreds of figures each.
    expect(read.reduce((n, r) => n + r.layout.figures, 0)).toBeGreaterThan(1000);
  });

  it('keeps every chart label clear of the others and inside its chart', async () => {
    const { missing, read } = await layoutsAtEveryWidth();
    const failures = [
      ...missing,
      ...read.flatMap(({ width, path, layout }) => firstFew(width, path, layout.labelProblems)),
    ];
    expect(failures).toEqual([]);
    expect(read.reduce((n, r) => n + r.layout.labels, 0)).toBeGreaterThan(100);
  });
});

describe('answers over HTTP from the Node server', () => {
  it(`answers an unknown page (${NOT_FOUND}, /snapshots/no-such-month/) 404 with the site's own HTML page and its navigation`, async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(at('/'), { waitUntil: 'load' });
    const navOf = () => page.$$eval('header.site a[href]', (as) => as.map((a) => a.getAttribute('href')));
    const homeNav = await navOf();
    expect(homeNav.length).toBeGreaterThan(1);
    for (const path of [NOT_FOUND, '/snapshots/no-such-month/']) {
      const res = await fetch(at(path));
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      const response = await page.goto(at(path), { waitUntil: 'load' });
      expect(response?.status(), path).toBe(404);
      expect(await navOf(), path).toEqual(homeNav);
      // The page says what happened and leads back to what exists.
      expect(await page.locator('h1').textContent(), path).toMatch(/not found|no such page/i);
      expect(await page.locator('main a[href="/snapshots/"]').count(), path).toBeGreaterThan(0);
    }
  });

  it('answers an unknown /v1 path with the JSON 404 error body, not the page', async () => {
    const res = await fetch(at('/v1/nope'));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('serves /snapshots/feed.xml as application/atom+xml', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(at('/snapshots/feed.xml'), { method });
      expect(res.status, method).toBe(200);
      expect(res.headers.get('content-type'), method).toMatch(/^application\/atom\+xml(;|$)/);
    }
  });
});
