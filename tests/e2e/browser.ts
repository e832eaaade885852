// Debian's Chromium (package `chromium`), driven by playwright-core: no browser of Playwright's own is
// downloaded. `npm test` installs the package first (scripts/ensure-package.sh).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Without the background-networking flags Chromium keeps calling Google's hosts, which a closed network refuses. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM}: run scripts/ensure-package.sh /usr/bin/chromium chromium 'The browser tests' (as root it installs Debian's chromium package; npm test runs it first)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * Records what goes wrong while `page` loads: console errors, uncaught errors, failed requests and answers
 * with status >= 400. Each `next()` starts a fresh list, which the events after it go into.
 */
export function watchForProblems(page: Page): { next(): string[] } {
  let current: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error')
      current.push(
        `console error: ${m.text()}${m.location().url ? ` (${m.location().url}:${m.location().lineNumber})` : ''}`,
      );
  });
  page.on('pageerror', (e) => current.push(`uncaught error: ${e.message}`));
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText;
    // Chromium asks for the page's icon (type "other") after the load event; the test going on to the next
    // page aborts that request, which is no failure of the page. The crawl checks the icon's own answer.
    if (error === 'net::ERR_ABORTED' && r.resourceType() === 'other') return;
    current.push(`request failed: ${r.method()} ${r.url()} (${error})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) current.push(`answer ${r.status()} to ${r.request().method()} ${r.url()}`);
  });
  return {
    next() {
      current = [];
      return current;
    },
  };
}
