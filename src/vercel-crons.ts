// Vercel's cron for the prepaid channels' claims (docs/design.md §13): on a DEPLOY_TARGET=vercel build, after
// @astrojs/vercel has written .vercel/output/config.json, this adds the Build Output API's `crons` entry calling
// /cron/claims every X402_CLAIM_INTERVAL_S (rounded to a cron schedule; default hourly). Vercel calls it with
// `Authorization: Bearer <CRON_SECRET>`, which the route requires.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/**
 * A cron schedule running about every `seconds`: every N minutes (N dividing an hour), else every N hours, else daily.
 */
export function cronSchedule(seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return `*/${[1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30].filter((m) => m <= minutes).at(-1)} * * * *`;
  const hours = Math.round(minutes / 60);
  if (hours < 24)
    return hours === 1 ? '0 * * * *' : `0 */${[1, 2, 3, 4, 6, 8, 12].filter((h) => h <= hours).at(-1)} * * *`;
  return '0 0 * * *';
}

export function vercelCrons(path: string, intervalS: number): AstroIntegration {
  return {
    name: 'slmd:vercel-crons',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        const root = config.root;
        // Appended here so it runs after the adapter has written config.json.
        const writer: AstroIntegration = {
          name: 'slmd:vercel-crons:write',
          hooks: {
            'astro:build:done': ({ logger }) => {
              const configPath = join(fileURLToPath(new URL('.vercel/output/', root)), 'config.json');
              const config = JSON.parse(readFileSync(configPath, 'utf8')) as {
                crons?: { path: string; schedule: string }[];
              };
              const crons = [
                ...(config.crons ?? []).filter((c) => c.path !== path),
                { path, schedule: cronSchedule(intervalS) },
              ];
              writeFileSync(configPath, `${JSON.stringify({ ...config, crons }, null, '\t')}\n`);
              logger.info(`cron: ${path} on '${cronSchedule(intervalS)}'`);
            },
          },
        };
        updateConfig({ integrations: [writer] });
      },
    },
  };
}
