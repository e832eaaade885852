// /sitemap.xml: every page for people and the documents for agents.
import type { APIRoute } from 'astro';
import { allSnapshots } from '../snapshots/model.ts';

export const prerender = true;

export const GET: APIRoute = async ({ site }) => {
  const snapshots = await allSnapshots();
  const entries: [string, string | null][] = [
    ['/', snapshots[0]?.asOf ?? null],
    ['/snapshots/', snapshots[0]?.asOf ?? null],
    ...snapshots.map((s): [string, string] => [`/snapshots/${s.month}/`, s.asOf]),
    ['/llms.txt', null],
    ['/openapi.json', null],
  ];
  const urls = entries.map(
    ([path, lastmod]) =>
      `  <url><loc>${new URL(path, site).href}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`,
  );
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ` +
      `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
    {
      headers: { 'Content-Type': 'application/xml; charset=utf-8' },
    },
  );
};
