// `npm run ingest`: builds shards from DATA_DIR (default data/) into SHARDS_DIR (default shards/).
import { resolve } from 'node:path';
import { buildShards } from './build.ts';
import { IngestError, formatProblems } from './errors.ts';

const dataDir = resolve(process.env.DATA_DIR ?? 'data');
const outDir = resolve(process.env.SHARDS_DIR ?? 'shards');
try {
  const r = buildShards(dataDir, outDir);
  const records = Object.entries(r.records)
    .map(([name, n]) => `${n} ${name}`)
    .join(', ');
  console.log(
    `ingest: ${r.publications} publications, ${r.figures} figures; dataset records: ${records} → ${r.files} ` +
      `shard files (${(r.bytes / 1024).toFixed(0)} KiB) in ${outDir}`,
  );
} catch (e) {
  if (!(e instanceof IngestError)) throw e;
  console.error(formatProblems(e.problems).join('\n'));
  console.error(`ingest: ${e.problems.length} problem(s); nothing was written, the previous shards are untouched.`);
  process.exit(1);
}
