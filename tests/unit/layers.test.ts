// data → ingest → shards → api: the ingest and the API share only domain/, so neither can change the
// other's behaviour by accident, and domain/ stands on its own.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The top-level folders a file's relative imports reach. */
function reached(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)].map(
    (m) => normalize(join(dirname(file), m[1] ?? m[2])).split(/[\\/]/)[0],
  );
}

const FORBIDDEN: Record<string, string[]> = { domain: ['api', 'ingest'], ingest: ['api'], api: ['ingest'] };

describe('layers', () => {
  for (const [layer, forbidden] of Object.entries(FORBIDDEN)) {
    it(`${layer}/ imports nothing from ${forbidden.join(' or ')}/`, () => {
      const files = sources(layer);
      expect(files.length).toBeGreaterThan(0);
      const offending = files.flatMap((f) => reached(f).filter((top) => forbidden.includes(top)).map((top) => `${f} → ${top}/`));
      expect(offending).toEqual([]);
    });
  }
});
