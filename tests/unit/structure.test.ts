// The house's shape, measured from the code itself: which layer may import which (domain at the bottom; ingest
// and api side by side, never importing each other; server/, src/ and server.ts on top; bridge/, the MCP bridge a
// user runs beside their MCP client, standing alone: it knows the service only over MCP), no import circle, no
// module that wires more than ten of the project's modules, no file or function too long to read at once,
// and no comment citing a document a clone does not have. See docs/design.md §21.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const LAYERS = ['domain', 'ingest', 'api', 'server', 'src', 'bridge'] as const;
const SOURCE = /\.(ts|mjs|astro)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : SOURCE.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const MODULES = [...LAYERS.flatMap(filesUnder), 'server.ts', 'astro.config.mjs'];
/** Code that is run but not served: its files are held to the same lengths. */
const TOOLING = [...filesUnder('bench'), ...filesUnder('scripts').filter((f) => !f.endsWith('.sh'))];

const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The project files a module imports (relative specifiers, static or dynamic), as paths from the root. */
function importsOf(file: string): string[] {
  const found = [...text(file).matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) =>
    normalize(join(dirname(file), m[1])),
  );
  return [...new Set(found)].filter((f) => !f.startsWith('node_modules') && SOURCE.test(f));
}

const layerOf = (file: string) => (file.includes('/') ? file.split('/')[0] : file);

/** Who may import whom: each layer stands on those below it only. */
const MAY_IMPORT: Record<string, string[]> = {
  domain: ['domain'],
  ingest: ['domain', 'ingest'],
  api: ['domain', 'api'],
  server: ['domain', 'api', 'server'],
  // The pages read answers through the API; the build step runs the ingest (src/build-shards.ts).
  src: ['domain', 'api', 'ingest', 'src'],
  'server.ts': ['domain', 'api', 'server'],
  'astro.config.mjs': ['src', 'domain', 'api'],
  // The bridge ships to users' machines as plain JavaScript and talks to the service only over MCP.
  bridge: ['bridge'],
};

describe('the house', () => {
  it('reads every layer', () => {
    for (const layer of LAYERS)
      expect(
        MODULES.some((m) => m.startsWith(`${layer}/`)),
        layer,
      ).toBe(true);
  });

  it('each layer imports only the layers below it', () => {
    const offending = MODULES.flatMap((file) =>
      importsOf(file)
        .filter((target) => !MAY_IMPORT[layerOf(file)].includes(layerOf(target)))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('has no import circle', () => {
    const graph = new Map(MODULES.map((m) => [m, importsOf(m).filter((t) => MODULES.includes(t))]));
    // Tarjan's strongly connected components: any component of two or more files is a circle.
    let index = 0;
    const order = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const circles: string[][] = [];
    const visit = (v: string) => {
      order.set(v, index);
      low.set(v, index++);
      stack.push(v);
      for (const w of graph.get(v) ?? []) {
        if (!order.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
      }
      if (low.get(v) === order.get(v)) {
        const component: string[] = [];
        let w: string;
        do component.push((w = stack.pop()!));
        while (w !== v);
        if (component.length > 1) circles.push(component.sort());
      }
    };
    for (const m of MODULES) if (!order.has(m)) visit(m);
    expect(circles).toEqual([]);
  });

  it('no module imports more than 10 of the project modules', () => {
    const wide = MODULES.map((m) => [m, importsOf(m).length] as const).filter(([, n]) => n > 10);
    expect(wide).toEqual([]);
  });

  it('no file is over 450 lines', () => {
    const long = [...MODULES, ...TOOLING]
      .map((f) => [f, text(f).split('\n').length - 1] as const)
      .filter(([, n]) => n > 450);
    expect(long).toEqual([]);
  });

  it('no function is over 100 lines', () => {
    const long: string[] = [];
    for (const file of [...MODULES, ...TOOLING].filter((f) => /\.(ts|mjs)$/.test(f))) {
      const source = ts.createSourceFile(file, text(file), ts.ScriptTarget.Latest, true);
      const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
      const walk = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const lines = lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
          if (lines > 100) long.push(`${file}:${lineOf(node.getStart(source)) + 1} (${lines} lines)`);
        }
        ts.forEachChild(node, walk);
      };
      walk(source);
    }
    expect(long).toEqual([]);
  });

  it('the routes and tools folders hold no shell file', () => {
    const shells = ['api/routes', 'api/mcp/tools'].flatMap((dir) => {
      try {
        return readdirSync(join(ROOT, dir)).map((f) => `${dir}/${f}`);
      } catch {
        return [];
      }
    });
    expect(shells).toEqual([]);
  });

  it('no comment cites a document that is not in the repository', () => {
    const everything = [
      ...MODULES,
      ...TOOLING,
      ...filesUnder('tests').filter((f) => f !== relative(ROOT, import.meta.filename)),
    ];
    const docs = ['README.md', 'data/README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)];
    const citing = [...everything, ...docs].filter((f) =>
      /\bDECISIONS\b|\bSPEC(\.md)?\b|ARCHITECTURE\.md/.test(text(f)),
    );
    expect(citing).toEqual([]);
  });
});
