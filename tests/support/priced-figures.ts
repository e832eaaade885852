// The figures only a paid answer may carry: every number of the private shards that no free shard
// (sample, lines, coverage) also has. Used to prove that no static file or unpaid URL serves one.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

/** Numbers of four or more digits, as printed in JSON or in a page (thousands separators dropped); years left out. */
export function figuresIn(text: string): string[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? [])
    .map((token) => Number(token.replace(/,/g, '')))
    .filter((n) => n >= 1000 && !(Number.isInteger(n) && n >= 1900 && n <= 2100))
    .map(String);
}

export function pricedFigures(shardsDir: string): Set<string> {
  const collect = (dir: string) => new Set(filesUnder(dir).flatMap((f) => figuresIn(readFileSync(f, 'utf8'))));
  const free = collect(join(shardsDir, 'free'));
  return new Set([...collect(join(shardsDir, 'private'))].filter((n) => !free.has(n)));
}

/** The priced figures a text contains. */
export const pricedFiguresIn = (text: string, priced: Set<string>): string[] => figuresIn(text).filter((n) => priced.has(n));
