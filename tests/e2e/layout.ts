// What a reader on a given screen actually sees of a page, read in the browser: whether every figure
// shows whole, and whether every chart's labels stand clear of each other and inside their chart.
import type { Page } from 'playwright-core';

export interface LayoutReport {
  /** Figures looked at (`[data-fig]`, what src/components/Fig.astro writes), and what is wrong with them. */
  figures: number;
  figureProblems: string[];
  /** Chart labels looked at (SVG `<text>` shown), and what is wrong with them: overlapping, nearer than 2 px, or outside the chart. */
  labels: number;
  labelProblems: string[];
}

/**
 * Reads the page as laid out now. Every `<details>` is opened first: a reader can open it, and the
 * figures inside must show whole then too.
 */
export function readLayout(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    for (const d of document.querySelectorAll('details')) d.open = true;
    // Half a pixel either way: edges that meet at a fraction of a pixel are not a cut.
    const SLACK = 0.5;
    const round = (n: number) => Math.round(n * 10) / 10;
    const tag = (el: Element) => {
      const cls =
        typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls}>`;
    };
    const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';

    const figureProblems: string[] = [];
    const root = document.documentElement;
    const viewportWidth = root.clientWidth;
    const scrollWidth = root.scrollWidth;
    const figures = [...document.querySelectorAll<HTMLElement>('[data-fig]')].filter(shown);
    for (const fig of figures) {
      const r = fig.getBoundingClientRect();
      const text = [...fig.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent)
        .join('')
        .trim();
      const what = `figure "${text}" (${fig.dataset.fig})`;
      // Every ancestor whose overflow is not visible clips its content to its padding box (scrolled or not):
      // what lies outside that box is unseen, or seen only after scrolling the box, cut mid-number.
      // <html> and <body> pass their overflow to the viewport, which is checked below.
      for (let a = fig.parentElement; a && a !== document.body && a !== root; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const box = a.getBoundingClientRect();
        const left = box.left + a.clientLeft;
        const top = box.top + a.clientTop;
        const right = left + a.clientWidth;
        const bottom = top + a.clientHeight;
        // Each axis on its own: `overflow-x: clip` alone leaves the vertical free (any other value clips both).
        const cutX = s.overflowX !== 'visible' && (r.left < left - SLACK || r.right > right + SLACK);
        const cutY = s.overflowY !== 'visible' && (r.top < top - SLACK || r.bottom > bottom + SLACK);
        if (cutX || cutY) {
          figureProblems.push(
            `${what} at x ${round(r.left)}-${round(r.right)}, y ${round(r.top)}-${round(r.bottom)} is cut by ${tag(a)} (overflow ${s.overflowX} ${s.overflowY}), whose box is x ${round(left)}-${round(right)}, y ${round(top)}-${round(bottom)}`,
          );
          break;
        }
      }
      // Horizontally in the document: within the screen's width and within what the document can scroll to.
      const docLeft = r.left + window.scrollX;
      const docRight = r.right + window.scrollX;
      if (docLeft < -SLACK || docRight > Math.min(viewportWidth, scrollWidth) + SLACK) {
        figureProblems.push(
          `${what} spans x ${round(docLeft)}-${round(docRight)} of a ${viewportWidth} px wide screen (document ${scrollWidth} px wide)`,
        );
      }
    }

    const labelProblems: string[] = [];
    let labels = 0;
    for (const [n, svg] of [...document.querySelectorAll('svg')].entries()) {
      if (!shown(svg)) continue;
      const chart = `chart #${n + 1} "${svg.querySelector('title')?.textContent?.trim().slice(0, 60) ?? ''}"`;
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll('text')]
        .filter((t) => shown(t) && getComputedStyle(t).display !== 'none')
        .map((t) => ({ label: (t.textContent ?? '').replace(/\s+/g, ' ').trim(), r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0);
      labels += texts.length;
      for (const { label, r } of texts) {
        if (
          r.left < box.left - SLACK ||
          r.right > box.right + SLACK ||
          r.top < box.top - SLACK ||
          r.bottom > box.bottom + SLACK
        ) {
          labelProblems.push(
            `${chart}: label "${label}" at x ${round(r.left - box.left)}-${round(r.right - box.left)}, y ${round(r.top - box.top)}-${round(r.bottom - box.top)} falls outside the chart's ${round(box.width)} x ${round(box.height)} px`,
          );
        }
      }
      // Labels nearer than APART px run together ("20242024") even where their boxes do not quite overlap.
      const APART = 2;
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const a = texts[i].r;
          const b = texts[j].r;
          const wide = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const high = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (wide > -APART && high > -APART) {
            const how =
              wide > 0 && high > 0
                ? `overlap by ${round(wide)} x ${round(high)} px`
                : `run together, ${round(-Math.min(wide, high))} px apart`;
            labelProblems.push(`${chart}: labels "${texts[i].label}" and "${texts[j].label}" ${how}`);
          }
        }
      }
    }
    return { figures: figures.length, figureProblems, labels, labelProblems };
  });
}
