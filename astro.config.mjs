// @ts-check
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, passthroughImageService } from 'astro/config';
import node from '@astrojs/node';
import vercel from '@astrojs/vercel';
import { vercelFreeFiles } from './src/vercel-free-files.ts';
import { vercelCrons } from './src/vercel-crons.ts';
import { CLAIMS_CRON_PATH } from './api/paths.ts';

// Vercel's build sets VERCEL=1; DEPLOY_TARGET=vercel forces it locally and in CI.
const target = process.env.DEPLOY_TARGET ?? (process.env.VERCEL ? 'vercel' : 'node');

/** Every shard file: on Vercel they travel inside the function, never as static (CDN) files. */
function shardFiles(dir = 'shards') {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

export default defineConfig({
  site: process.env.SITE_URL ?? 'http://127.0.0.1:4321',
  // Everything is prerendered unless a route says `export const prerender = false`.
  output: 'static',
  outDir: process.env.ASTRO_OUT_DIR ?? 'dist',
  // No image optimisation is used; this keeps sharp out of the Vercel function.
  image: { service: passthroughImageService() },
  adapter: target === 'vercel' ? vercel({ includeFiles: shardFiles(), maxDuration: 30 }) : node({ mode: 'standalone' }),
  // On Vercel the canonical free queries are static files the CDN answers, routed before the function, and the
  // prepaid channels' claims run on Vercel's cron.
  integrations:
    target === 'vercel'
      ? [vercelFreeFiles(), vercelCrons(CLAIMS_CRON_PATH, Number(process.env.X402_CLAIM_INTERVAL_S || 3600))]
      : [],
  // The API is cookieless and read-only: there is no form to forge. Astro's origin check would answer
  // 403 to a DELETE before the route can answer the 405 of docs/design.md §4.
  security: { checkOrigin: false },
  // Cold start (npm run bench:cold times it): the function's entry loads zod (Astro's runtime and the contract
  // use it), which Node reads as about a hundred files from node_modules; bundled into the build's chunks it
  // imports in about a third of the time (the function's entry: ~140 -> ~80 ms on a loaded 2-core machine). The
  // MCP SDK and x402, loaded only on first use, keep their own copy from node_modules.
  vite: target === 'vercel' ? { ssr: { noExternal: ['zod'] } } : {},
  server: { host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 4321) },
});
