// Writes shard files atomically: everything goes to a temporary folder beside the target, which is
// then renamed into place, so a failed build never leaves a half-written tree behind.
import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function writeAtomically(outDir: string, files: Map<string, string>): void {
  const tmp = `${outDir}.tmp-${process.pid}`;
  const old = `${outDir}.old-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    for (const [path, text] of files) {
      const target = join(tmp, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    if (existsSync(outDir)) renameSync(outDir, old);
    renameSync(tmp, outDir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}
