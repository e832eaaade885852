// The figures only a paid answer may carry: every number of the private shards that no free shard
// (sample, lines, coverage) also has. Used to prove that no static file or unpaid URL serves one.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { csvFields } from './csv.ts';
import { ROUTE_CONTRACTS } from '../../domain/route-contracts.ts';
import { atomicAmount, paymentTerms } from '../../api/payment/terms.ts';

export const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

/** Numbers of four or more digits, as printed in JSON or in a page (thousands separators dropped); years left out. */
function figuresIn(text: string): string[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? [])
    .map((token) => Number(token.replace(/,/g, '')))
    .filter((n) => n >= 1000 && !(Number.isInteger(n) && n >= 1900 && n <= 2100))
    .map(String);
}

/**
 * The prices in the asset's atomic units ("100000" for 0.10 USD): every 402 challenge and llms.txt state
 * them, so a figure that happens to be equal (a $100,000 fine) cannot be told from a price there.
 */
const PRICE_AMOUNTS = new Set(
  ROUTE_CONTRACTS.flatMap((r) => (r.priceUsd ? [atomicAmount(r.priceUsd, paymentTerms(null))] : [])),
);

export function pricedFigures(shardsDir: string): Set<string> {
  const collect = (dir: string) => new Set(filesUnder(dir).flatMap((f) => figuresIn(readFileSync(f, 'utf8'))));
  const free = collect(join(shardsDir, 'free'));
  return new Set([...collect(join(shardsDir, 'private'))].filter((n) => !free.has(n) && !PRICE_AMOUNTS.has(n)));
}

/** The priced figures a text contains. */
export const pricedFiguresIn = (text: string, priced: Set<string>): string[] =>
  figuresIn(text).filter((n) => priced.has(n));

/** Pages for people: the home page and /snapshots/** (paths on the site, e.g. `/snapshots/2025-08/index.html`). */
const PEOPLE_PAGES = /^\/(index\.html)?$|^\/snapshots\//;

/**
 * The figures the snapshot pages show, each cited on its page: statewide headlines as the publications
 * printed them, and the lines a publication printed (issue 12). Computed by the pages' own model from
 * the shards the API serves; the store in this process reads them (see tests/support/shards.ts).
 */
export async function snapshotFigures(): Promise<Set<string>> {
  const { buildSnapshots } = await import('../../src/snapshots/model.ts');
  const { buildCoverage } = await import('../../src/llms-coverage.ts');
  return new Set(buildSnapshots(await buildCoverage()).flatMap((s) => s.figures.map((f) => String(f.value))));
}

/**
 * The priced figures a file or answer at `path` gives away: on a page for people, any the snapshots do not
 * show; anywhere else, any. A CSV is read cell by cell, as its commas separate cells, not thousands.
 */
export function leakedFigures(path: string, text: string, priced: Set<string>, shown: Set<string>): string[] {
  const cells = path.endsWith('.csv') ? text.split(/\r?\n/).filter(Boolean).flatMap(csvFields).join('\n') : text;
  const found = pricedFiguresIn(cells, priced);
  return PEOPLE_PAGES.test(path) ? found.filter((n) => !shown.has(n)) : found;
}
