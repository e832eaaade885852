// Which modules a process loaded, and when (issue 22, cold start): the service loads the payment stack only for
// a priced request with the gate on, and the MCP SDK only for /mcp. A process under test runs with
// record-modules.ts preloaded, which appends each module's URL to a file as it is loaded; between requests a
// test reads the file, or the process writes a marker line into it (`# <what was done>`).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const RECORDER = join(import.meta.dirname, 'record-modules.ts');

/** The payment stack: viem and what it is built on, x402's packages, Coinbase's facilitator client. */
export const PAYMENT_STACK = /\/node_modules\/(viem|ox|abitype|@noble\/curves|@x402\/[^/]+|@coinbase\/[^/]+)\//;
/** The MCP SDK. */
export const MCP_SDK = /\/node_modules\/@modelcontextprotocol\/(?:server|core|sdk)\//;

/** The package (`viem`, `@x402/core`) of each module URL that matches `pattern`, once each, sorted. */
export const packagesMatching = (urls: readonly string[], pattern: RegExp): string[] =>
  [
    ...new Set(urls.filter((u) => pattern.test(u)).map((u) => u.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)![1])),
  ].sort();

/** A file to record into, and what reads it: every module URL recorded so far; `dispose` removes it. */
export function moduleRecord(): { file: string; loaded: () => string[]; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'slmd-modules-'));
  const file = join(dir, 'loaded.txt');
  const loaded = () => {
    try {
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line && !line.startsWith('# '));
    } catch {
      return [];
    }
  };
  return { file, loaded, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RecordedRequest {
  key: string;
  method?: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Every module loaded from the start up to this answer, the import of the entry included. */
  loaded: string[];
}

/**
 * In a fresh process (cwd `cwd`, the recorder preloaded), imports `entry` (a module whose default export has
 * `fetch(Request)`, as Vercel's function entry and src/fetch.ts do) and answers `requests` one after another.
 * Returns the modules loaded by the import alone, and each answer with the modules loaded by then.
 */
export async function fetchRecorded(
  entry: string,
  requests: readonly RecordedRequest[],
  { cwd, env = {} }: { cwd: string; env?: Record<string, string | undefined> }, // undefined: unset in the child
): Promise<{ imported: string[]; answers: Record<string, RecordedAnswer> }> {
  const record = moduleRecord();
  const script = `
    import { appendFileSync } from 'node:fs';
    const mark = (what) => appendFileSync(process.env.RECORD_MODULES_TO, '# ' + what + '\\n');
    const { default: fn } = await import(${JSON.stringify(entry)});
    mark('imported');
    const out = {};
    for (const { key, method = 'GET', path, body, headers } of ${JSON.stringify(requests)}) {
      const res = await fn.fetch(new Request('https://sl.example' + path, { method, body, headers }));
      out[key] = { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      mark(key);
    }
    console.log(JSON.stringify(out));`;
  try {
    const childEnv: Record<string, string | undefined> = { ...process.env, ...env, RECORD_MODULES_TO: record.file };
    for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name]; // unset
    // Asynchronous: a loopback facilitator in this process must be free to answer the child.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', RECORDER, '--input-type=module', '-e', script],
      { cwd, env: childEnv, maxBuffer: 1 << 26 },
    );
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, Omit<RecordedAnswer, 'loaded'>>;
    const lines = readFileSync(record.file, 'utf8').split('\n');
    const upTo = (marker: string) =>
      lines.slice(0, lines.indexOf(`# ${marker}`)).filter((line) => line && !line.startsWith('# '));
    return {
      imported: upTo('imported'),
      answers: Object.fromEntries(Object.entries(out).map(([key, answer]) => [key, { ...answer, loaded: upTo(key) }])),
    };
  } finally {
    record.dispose();
  }
}
