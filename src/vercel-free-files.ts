// Free API answers from Vercel's CDN, so that a free query costs no function call. On a DEPLOY_TARGET=vercel build,
// after @astrojs/vercel has written .vercel/output, this writes the canonical free queries' answers (api/prepared.ts:
// freeTargets(), answered by the dispatcher from the shards the function carries) as static files under static/_free/,
// and adds to config.json, right after the `filesystem` phase and before the routes to the function:
//
// 1. for each parameter name the API knows, a route sending a free path that does not take it to the
//    function (which answers the 400 of docs/design.md §4, or ignores it on /v1/coverage and the dataset samples):
//    `missing` holds at most 16 conditions in Vercel's route schema (@vercel/routing-utils), and the API knows more
//    names (20);
// 2. a route sending a doubled leading slash (`//v1/coverage`) to the function: Vercel's CLI router also tries
//    a route's `src` on the path without its first character, which would make `^/v1/coverage$` match it;
// 3. for each canonical query, a route from its exact path (case-sensitive), GET or HEAD, with its exact query
//    values (`has`) and none of its route's other parameters nor a conditional header (`missing`), to its file, with
//    the headers of the handler's answer (Content-Length left to the CDN, which sends the bytes), `check: true` as
//    Vercel's own rewrites to files have.
//
// Everything else still reaches the function. A query with a parameter name the API does not know (`?foo=1`)
// cannot be told apart, as a route matches only the path and named query parameters: README, deploy section.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { FEED_PATH, FEED_TYPE } from '../api/paths.ts';

/** The folder under .vercel/output/static/ that holds the free answers. */
const FREE_FILES_DIR = '_free';

/**
 * What Build Output API v3 routes this module reads or writes (https://vercel.com/docs/build-output-api/configuration).
 */
type Condition = { type: 'query' | 'header'; key: string; value?: string };
type Route =
  | { handle: string }
  | {
      src: string;
      dest?: string;
      caseSensitive?: boolean;
      methods?: string[];
      has?: Condition[];
      missing?: Condition[];
      headers?: Record<string, string>;
      check?: boolean;
      continue?: boolean;
      status?: number;
    };

/**
 * A conditional request (If-None-Match, If-Modified-Since) goes to the function, which answers 304 by the
 * API's own ETag (api/conditional.ts): the CDN's validators for a static file are its own, not the API's.
 */
const CONDITIONAL_HEADERS: Condition[] = [
  { type: 'header', key: 'if-none-match' },
  { type: 'header', key: 'if-modified-since' },
];

/** The CDN computes the length of what it sends (and may compress it); every other header is the handler's. */
const HEADERS_LEFT_TO_THE_CDN = new Set(['content-length']);

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The integration. @astrojs/vercel comes first (Astro puts the adapter at the head of the integrations) and,
 * in its astro:config:setup, appends the integration that copies the client build into static/. The writer
 * is appended here, in this integration's astro:config:setup, so it is the last to run astro:build:done: after
 * the adapter has emptied static/ and written config.json, and after that copy.
 */
export function vercelFreeFiles(): AstroIntegration {
  return {
    name: 'slmd:vercel-free-files',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        const root = config.root;
        const writer: AstroIntegration = {
          name: 'slmd:vercel-free-files:write',
          hooks: { 'astro:build:done': ({ logger }) => writeFreeFiles(root, logger) },
        };
        updateConfig({ integrations: [writer] });
      },
    },
  };
}

async function writeFreeFiles(root: URL, logger: AstroIntegrationLogger): Promise<void> {
  const output = fileURLToPath(new URL('.vercel/output/', root));
  const configPath = join(output, 'config.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as { routes?: Route[] };
  const routes = config.routes ?? [];
  const filesystem = routes.findIndex((r) => 'handle' in r && r.handle === 'filesystem');
  if (filesystem < 0) throw new Error('vercel free files: config.json has no `filesystem` phase');

  const { ROUTE_CONTRACTS } = await import('../domain/route-contracts.ts');
  const answers = await freeAnswers(join(fileURLToPath(root), 'shards'));

  // The function: where the adapter's routes after the filesystem phase send a free path.
  const paths = [...new Set([...answers.keys()].map((target) => new URL(target, 'http://x').pathname))];
  const toFunction = routes
    .slice(filesystem + 1)
    .find((r): r is Extract<Route, { src: string }> => 'src' in r && new RegExp(r.src).test(paths[0]));
  if (!toFunction?.dest || toFunction.dest.startsWith('/') || toFunction.status)
    throw new Error(`vercel free files: no route sends ${paths[0]} to the function`);
  const fn = toFunction.dest;

  const contractOf = (path: string) => {
    const contract = ROUTE_CONTRACTS.find((r) => r.path === path);
    // Only a free route's answer may be a static file: a priced one is a buyer's, and reads private shards.
    if (!contract || contract.priceUsd)
      throw new Error(`vercel free files: ${path} is not a free route of the contract`);
    return contract;
  };
  const takes = (path: string) => Object.keys(contractOf(path).params?.shape ?? {});
  const anyOf = (list: string[]) => `(?:${list.map(escapeRegex).join('|')})`;

  const known = [...new Set(ROUTE_CONTRACTS.flatMap((r) => Object.keys(r.params?.shape ?? {})))].sort();
  const guards: Route[] = known.flatMap((key) => {
    const refusing = paths.filter((p) => !takes(p).includes(key));
    return refusing.length
      ? [{ src: `^${anyOf(refusing)}$`, caseSensitive: true, has: [{ type: 'query', key }], dest: fn }]
      : [];
  });
  guards.push({ src: `^/+${anyOf(paths)}$`, caseSensitive: true, dest: fn });

  const files: Route[] = [];
  for (const [target, { methods, headers, body }] of answers) {
    const url = new URL(target, 'http://x');
    const query = [...url.searchParams];
    for (const [, value] of query)
      if (!/^[A-Za-z0-9_-]+$/.test(value))
        throw new Error(`vercel free files: ${target}: a query value that is not a plain file name`);
    // The format is the file's extension: /v1/premium/sample?state=FL&format=csv is _free/v1/premium/sample/FL.csv.
    const names = query.filter(([key]) => key !== 'format').map(([, value]) => value);
    const ext = url.searchParams.get('format') ?? 'json';
    // A path that names its file already (/v1/bulk/datapackage.json) keeps its name.
    const named = !names.length && url.pathname.endsWith(`.${ext}`);
    const file =
      `/${FREE_FILES_DIR}${url.pathname}${names.length ? `/${names.join('/')}` : ''}` + (named ? '' : `.${ext}`);
    const onDisk = join(output, 'static', file);
    if (existsSync(onDisk)) throw new Error(`vercel free files: ${file} is already in the build output`);
    mkdirSync(dirname(onDisk), { recursive: true });
    writeFileSync(onDisk, body);
    const absent = takes(url.pathname).filter((key) => !url.searchParams.has(key));
    files.push({
      src: `^${escapeRegex(url.pathname)}$`,
      caseSensitive: true,
      methods,
      ...(query.length
        ? { has: query.map(([key, value]) => ({ type: 'query' as const, key, value: `^${escapeRegex(value)}$` })) }
        : {}),
      missing: [...absent.map((key) => ({ type: 'query' as const, key })), ...CONDITIONAL_HEADERS],
      dest: file,
      headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !HEADERS_LEFT_TO_THE_CDN.has(name))),
      check: true,
    });
  }

  routes.splice(filesystem + 1, 0, ...guards, ...files);
  // Before the filesystem phase, so the header goes on the static file the CDN serves.
  routes.splice(
    routes.findIndex((r) => 'handle' in r && r.handle === 'filesystem'),
    0,
    {
      src: `^${FEED_PATH.replaceAll('.', '\\.')}$`,
      headers: { 'Content-Type': FEED_TYPE },
      continue: true,
    },
  );
  writeFileSync(configPath, `${JSON.stringify({ ...config, routes }, null, '\t')}\n`);
  logger.info(
    `${files.length} free answers as static files under static/${FREE_FILES_DIR}/, routed before the function`,
  );
}

/**
 * `target` → the dispatcher's 200 answer to GET (its body and headers) and the methods answered 200, computed
 * from the shards at `dir` (the ones the function carries), in this process's store, which is put back after.
 */
async function freeAnswers(
  dir: string,
): Promise<Map<string, { methods: string[]; headers: Record<string, string>; body: Buffer }>> {
  const { readShardsFrom } = await import('../api/store.ts');
  const { prepareFreeAnswers, freeTargets } = await import('../api/prepared.ts');
  const restore = readShardsFrom(dir);
  try {
    const prepared = await prepareFreeAnswers();
    const out = new Map<string, { methods: string[]; headers: Record<string, string>; body: Buffer }>();
    for (const target of freeTargets()) {
      const get = prepared.get(`GET ${target}`);
      // Every canonical free query answers 200 from a sound build: anything else is a damaged one.
      if (!get) throw new Error(`${target} is not answered 200`);
      const methods = ['GET', 'HEAD'].filter((m) => prepared.has(`${m} ${target}`));
      out.set(target, { methods, headers: get.headers, body: Buffer.concat(get.parts) });
    }
    return out;
  } catch (e) {
    throw new Error(
      `vercel free files: the free answers cannot be computed from ${dir} (${(e as Error).message}); npm run ` +
        `build:vercel runs the ingest first`,
      { cause: e },
    );
  } finally {
    restore();
  }
}
