// A breadth-first crawl of the site's own links: every internal URL is fetched (redirects not followed,
// so a link to a redirect is seen as one); an HTML page that answers 200 is then loaded in the browser and
// its facts read from the DOM, and a sitemap's or feed's URLs are followed too. /v1 and /mcp are only
// asked, never crawled into.
import type { Page } from 'playwright-core';
import { watchForProblems } from './browser.ts';

/** What a page's DOM says about itself, read in the browser. */
interface PageFacts {
  lang: string | null;
  title: string;
  h1Count: number;
  description: string | null;
  canonical: string | null;
  ogTitle: string | null;
  ogUrl: string | null;
  ids: string[];
  /** `<a href>` and `<link rel=alternate|canonical|sitemap|icon>`: as written, and resolved. */
  links: { href: string; url: string }[];
  tablesWithoutCaption: string[];
  tablesWithoutTh: string[];
  svgsWithoutName: string[];
  /** Inline code run into the word after it (`402with`): a line break beside an element that the build dropped. */
  gluedToCode: string[];
}

export interface Visit {
  /** Pathname and query. */
  path: string;
  status: number;
  contentType: string;
  location: string | null;
  /** For an HTML page that answered 200. */
  facts?: PageFacts;
  /** Console errors, uncaught errors, failed requests and answers >= 400 while the browser loaded it. */
  problems: string[];
}

interface Link {
  /** Path of the page or resource the link is on. */
  from: string;
  /** As written. */
  href: string;
  /** Pathname and query of its target. */
  path: string;
  /** Without the `#`, decoded; '' when there is none. */
  fragment: string;
}

export interface Crawl {
  visits: Map<string, Visit>;
  links: Link[];
}

/** Paths only asked for their status: the API and the MCP endpoint. */
const isApiPath = (path: string) => /^\/(v1|mcp)(\/|\?|$)/.test(path);

/**
 * Crawls from `starts` on the server at `base`. Links to `site` (the address the build writes into
 * absolute URLs) count as internal and are asked of `base`.
 */
export async function crawl(page: Page, base: string, site: string, starts: string[]): Promise<Crawl> {
  const origins = new Set([new URL(base).origin, new URL(site).origin]);
  const visits = new Map<string, Visit>();
  const links: Link[] = [];
  const queue = [...starts];
  const seen = new Set(starts);
  const problems = watchForProblems(page);

  const follow = (from: string, href: string, url: string) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    if (!origins.has(u.origin)) return;
    const path = u.pathname + u.search;
    let fragment = u.hash.slice(1);
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      // kept as written: no id can match a malformed escape, so the check reports it
    }
    links.push({ from, href, path, fragment });
    if (!seen.has(path)) {
      seen.add(path);
      queue.push(path);
    }
  };

  while (queue.length) {
    const path = queue.shift()!;
    const res = await fetch(base + path, { redirect: 'manual' });
    const body = await res.text();
    const visit: Visit = {
      path,
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      location: res.headers.get('location'),
      problems: [],
    };
    visits.set(path, visit);
    if (res.status !== 200 || isApiPath(path)) continue;

    if (/^text\/html/.test(visit.contentType)) {
      visit.problems = problems.next();
      try {
        await page.goto(base + path, { waitUntil: 'load' });
        visit.facts = await readFacts(page);
      } catch (e) {
        visit.problems.push(`the browser could not load it: ${(e as Error).message.split('\n')[0]}`);
        continue;
      }
      for (const { href, url } of visit.facts.links) follow(path, href, url);
    } else if (/xml/.test(visit.contentType)) {
      for (const href of xmlUrls(body)) follow(path, href, new URL(href, base + path).href);
    }
  }
  problems.next();
  return { visits, links };
}

/** The URLs a sitemap (`<loc>`) or a feed (`<link href>`, RSS `<link>`) names. */
function xmlUrls(xml: string): string[] {
  const unescape = (s: string) =>
    s
      .trim()
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  const found = [
    ...[...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]),
    ...[...xml.matchAll(/<link\b[^>]*\bhref="([^"]*)"/g)].map((m) => m[1]),
    ...[...xml.matchAll(/<link>([^<]*)<\/link>/g)].map((m) => m[1]),
  ];
  return found.map(unescape).filter(Boolean);
}

function readFacts(page: Page): Promise<PageFacts> {
  return page.evaluate(() => {
    const meta = (selector: string) => document.querySelector(selector)?.getAttribute('content') ?? null;
    const name = (el: Element, i: number) => {
      const caption = el.querySelector('caption')?.textContent?.trim();
      const label = el.getAttribute('aria-label');
      const heading = el.closest('section, figure, article')?.querySelector('h2, h3, figcaption')?.textContent?.trim();
      return `${el.tagName.toLowerCase()} #${i + 1}${el.id ? ` id="${el.id}"` : ''}${caption ? ` caption "${caption.slice(0, 60)}"` : ''}${label ? ` aria-label "${label.slice(0, 60)}"` : ''}${heading ? ` under "${heading.slice(0, 60)}"` : ''}`;
    };
    const textOf = (id: string) => document.getElementById(id)?.textContent?.trim() ?? '';
    const tables = [...document.querySelectorAll('table')];
    const svgs = [...document.querySelectorAll('svg')].filter((s) => s.getAttribute('role') === 'img');
    const linkEls = [...document.querySelectorAll('link[href]')].filter((l) =>
      ['alternate', 'canonical', 'sitemap', 'icon'].some((r) => (l as HTMLLinkElement).relList.contains(r)),
    );
    return {
      lang: document.documentElement.getAttribute('lang'),
      title: document.title,
      h1Count: document.querySelectorAll('h1').length,
      description: meta('meta[name="description"]'),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      ogTitle: meta('meta[property="og:title"]'),
      ogUrl: meta('meta[property="og:url"]'),
      ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
      links: [...document.querySelectorAll('a[href]'), ...linkEls].map((a) => ({
        href: a.getAttribute('href')!,
        url: (a as HTMLAnchorElement).href,
      })),
      tablesWithoutCaption: tables.flatMap((t, i) =>
        t.querySelector(':scope > caption')?.textContent?.trim() ? [] : [name(t, i)],
      ),
      tablesWithoutTh: tables.flatMap((t, i) => (t.querySelector('th') ? [] : [name(t, i)])),
      svgsWithoutName: svgs.flatMap((s, i) => {
        if (s.getAttribute('aria-label')?.trim()) return [];
        const ids = (s.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
        if (ids.length && ids.every((id) => document.getElementById(id)) && ids.map(textOf).join(' ').trim()) return [];
        return [name(s, i) + (ids.length ? ` aria-labelledby="${ids.join(' ')}"` : '')];
      }),
      gluedToCode: [...document.querySelectorAll('code')].flatMap((code) => {
        const after = code.nextSibling;
        const glued = /[A-Za-z0-9]$/.test(code.textContent ?? '') && after?.nodeType === Node.TEXT_NODE;
        return glued && /^[A-Za-z]/.test(after.textContent ?? '')
          ? [`${code.textContent}${after.textContent!.slice(0, 20)}`]
          : [];
      }),
    };
  });
}
