// Every figure on every snapshot page, read in Chromium from the built site, equals what the API answers
// for the same state, line, period and report date (in process, gate off): exact figures in full,
// printed ones as printed; and each links to a source the page lists that the API cites for it.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PremiumResponse } from '../../domain/contract.ts';
import { firstMonthKey, parsePeriod } from '../../domain/periods.ts';
import { installGate } from '../../api/payment/configured.ts';
import { callHandler } from '../support/handlers.ts';
import { ROOT, astroBuild, startServer } from '../support/server.ts';
import { REAL_DATA, buildInto, serveShards } from '../support/shards.ts';
import { launchChromium } from './browser.ts';

const OUT = join(ROOT, '.tmp', 'test-dist-figures');

interface ShownFigure {
  fig: string;
  value: string;
  text: string;
  printed: boolean;
  href: string | null;
}
interface ListedSource {
  id: string;
  url: string | null;
  text: string;
}
interface PageFigures {
  path: string;
  asOf: string | null;
  figures: ShownFigure[];
  sources: ListedSource[];
}

let server: { base: string; stop: () => void };
let browser: Browser;
let restoreShards = () => {};
const pages: PageFigures[] = [];

async function readPage(page: Page, base: string, path: string): Promise<PageFigures> {
  await page.goto(base + path);
  return page.evaluate((path) => {
    const figures = [...document.querySelectorAll<HTMLAnchorElement>('a.fig[data-fig]')].map((a) => ({
      fig: a.dataset.fig!,
      value: a.dataset.value!,
      // The visible text: without the screen-reader note that follows a printed figure.
      text: [...a.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent)
        .join(''),
      printed: a.classList.contains('printed'),
      href: a.getAttribute('href'),
    }));
    const sources = [...document.querySelectorAll<HTMLLIElement>('ol.sources li[id]')].map((li) => ({
      id: li.id,
      url: li.dataset.url ?? null,
      text: li.textContent ?? '',
    }));
    return { path, asOf: document.querySelector<HTMLElement>('[data-as-of]')?.dataset.asOf ?? null, figures, sources };
  }, path);
}

beforeAll(async () => {
  const shards = buildInto(REAL_DATA);
  astroBuild({ ASTRO_OUT_DIR: OUT, DEPLOY_TARGET: 'node', SHARDS_DIR: shards });
  server = await startServer(join(OUT, 'server', 'entry.mjs'), { SHARDS_DIR: shards });
  restoreShards = serveShards(shards);
  installGate(null);
  browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(`${server.base}/snapshots/`);
  const months = await page.$$eval('a[href^="/snapshots/"]', (as) => [
    ...new Set(as.map((a) => a.getAttribute('href')!).filter((h) => /^\/snapshots\/\d{4}-\d{2}\/$/.test(h))),
  ]);
  for (const path of months) pages.push(await readPage(page, server.base, path));
});

afterAll(async () => {
  await browser?.close();
  server?.stop();
  installGate(undefined);
  restoreShards();
});

/** The API's answer for a figure's state, line, granularity, period and report date, memoised. */
const answers = new Map<string, Promise<PremiumResponse>>();
function apiAnswer(
  state: string,
  line: string,
  granularity: string,
  period: string,
  asOf: string,
): Promise<PremiumResponse> {
  const month = firstMonthKey(parsePeriod(period)!);
  const query = new URLSearchParams({ state, line, granularity, from: month, to: month, report_date: asOf });
  const key = query.toString();
  if (!answers.has(key)) {
    answers.set(
      key,
      callHandler(`http://localhost/v1/premium?${key}`).then(async (res) => {
        if (res.status !== 200) throw new Error(`/v1/premium?${key} answered ${res.status}: ${await res.text()}`);
        return (await res.json()) as PremiumResponse;
      }),
    );
  }
  return answers.get(key)!;
}

/** The number a figure's visible text shows: "$1,291,598,063.69" → 1291598063.69, "−5.6%" → -5.6. */
const shownNumber = (text: string) => Number(text.replace(/[−–]/g, '-').replace(/[^0-9.-]/g, ''));

describe('snapshot figures against the API', () => {
  it('found every month page and its figures', () => {
    expect(pages.length).toBeGreaterThan(50);
    for (const p of pages) {
      expect(p.asOf, p.path).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(p.figures.length, p.path).toBeGreaterThan(0);
    }
  });

  it('every figure equals the API answer for its state, line, period and report date, exact in full and printed as printed', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const p of pages) {
      for (const f of p.figures) {
        const [state, line, granularity, period, field, asOf] = f.fig.split('|');
        const where = `${p.path} ${f.fig}`;
        const answer = await apiAnswer(state, line, granularity, period, asOf);
        const row = answer.data.find((r) => r.period === period);
        if (!row) {
          problems.push(`${where}: the API has no row`);
          continue;
        }
        const printed = field.startsWith('printed.') ? row.printed?.[field.slice('printed.'.length)] : undefined;
        const expected = field.startsWith('printed.')
          ? printed?.value
          : (row as unknown as Record<string, number | null>)[field];
        if (expected === undefined || expected === null) problems.push(`${where}: the API has no such figure`);
        else if (Number(f.value) !== expected) problems.push(`${where}: page ${f.value}, API ${expected}`);
        else if (printed?.qualifier) {
          if (!f.printed || f.text !== printed.as_printed)
            problems.push(
              `${where}: a ${printed.qualifier} figure must show as printed ("${printed.as_printed}") and be marked; shows "${f.text}"${f.printed ? '' : ' unmarked'}`,
            );
        } else if (f.printed || shownNumber(f.text) !== expected)
          problems.push(
            `${where}: an exact figure must show in full: shows "${f.text}" for ${expected}${f.printed ? ', marked as printed' : ''}`,
          );
        // The page's own figures are read as of the page's date; only a revision's "before" is earlier.
        if (asOf > p.asOf!) problems.push(`${where}: read as of ${asOf}, after the page's date ${p.asOf}`);
        checked++;
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });

  it('every figure links to a source listed on its page, with title, date and URL, that the API cites for that figure', async () => {
    const problems: string[] = [];
    for (const p of pages) {
      const byId = new Map(p.sources.map((s) => [s.id, s]));
      for (const f of p.figures) {
        const [state, line, granularity, period, , asOf] = f.fig.split('|');
        const source = f.href?.startsWith('#') ? byId.get(f.href.slice(1)) : undefined;
        if (!source?.url) {
          problems.push(`${p.path} ${f.fig}: links ${f.href ?? 'nothing'}, not a listed source`);
          continue;
        }
        const answer = await apiAnswer(state, line, granularity, period, asOf);
        const cited = answer.publications.find((pub) => pub.url === source.url);
        if (!cited)
          problems.push(`${p.path} ${f.fig}: source ${source.url} is not among the API's publications for it`);
        else if (
          !source.text.includes(cited.title) ||
          !source.text.includes(cited.report_date) ||
          !source.text.includes(cited.url)
        )
          problems.push(`${p.path} ${f.fig}: source entry does not give the title, date and URL of ${cited.url}`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });
});
