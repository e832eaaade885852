// Writes a build atomically, file by file: everything goes to a work folder beside the output (the
// staging tree, and the figures parked there while the build runs, ingest/spill.ts), and only `commit`
// swaps the staging tree into place, with the manifest of what was written. `remove` (always, in a
// `finally`) deletes the work folder, so a failed build never leaves a half-written tree behind and
// never touches the previous one.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MANIFEST, type Manifest, sha256 } from '../domain/manifest.ts';

export class Staging {
  /** The work folder: `staging/` becomes the output; anything else in it is deleted with it. */
  readonly work: string;
  private readonly staging: string;
  /** Path → SHA-256 and size of every file written: the manifest. */
  private readonly written = new Map<string, { hash: string; size: number }>();
  private readonly dirs = new Set<string>();
  bytes = 0;

  private readonly outDir: string;

  constructor(outDir: string) {
    this.outDir = outDir;
    this.work = `${outDir}.tmp-${process.pid}`;
    this.staging = join(this.work, 'staging');
    rmSync(this.work, { recursive: true, force: true });
    mkdirSync(this.staging, { recursive: true });
  }

  get files(): number {
    return this.written.size;
  }

  /**
   * Writes `content` at `path` below the staging tree; a path written again holds the last content, as a map of files
   * would.
   */
  write(path: string, content: string | Uint8Array): void {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    writeFileSync(this.pathOf(path), bytes);
    this.bytes += bytes.length - (this.written.get(path)?.size ?? 0);
    this.written.set(path, { hash: sha256(bytes), size: bytes.length });
  }

  /**
   * The place of `path` in the staging tree, its folder made: for a file written there piece by piece, then `adopt`ed.
   */
  pathOf(path: string): string {
    const target = join(this.staging, path);
    const dir = dirname(target);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    return target;
  }

  /**
   * Records a file written at `pathOf(path)` in the manifest, hashed from disk a chunk at a time; returns its size and
   * SHA-256.
   */
  adopt(path: string): { size: number; hash: string } {
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(1 << 20);
    const fd = openSync(join(this.staging, path), 'r');
    let size = 0;
    try {
      for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; size += n) hash.update(chunk.subarray(0, n));
    } finally {
      closeSync(fd);
    }
    const entry = { hash: hash.digest('hex'), size };
    this.bytes += size - (this.written.get(path)?.size ?? 0);
    this.written.set(path, entry);
    return entry;
  }

  /**
   * Writes the manifest (every other file with its SHA-256, by path, which api/store.ts checks) and swaps the staging
   * tree into place.
   */
  commit(): void {
    const files = Object.fromEntries(
      [...this.written].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, { hash }]) => [path, hash]),
    );
    this.write(MANIFEST, JSON.stringify({ files } satisfies Manifest, null, 1) + '\n');
    const old = join(this.work, 'old');
    if (existsSync(this.outDir)) renameSync(this.outDir, old);
    renameSync(this.staging, this.outDir);
  }

  remove(): void {
    rmSync(this.work, { recursive: true, force: true });
  }
}
