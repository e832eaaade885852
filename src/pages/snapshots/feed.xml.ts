// /snapshots/feed.xml: an Atom feed (RFC 4287) of the snapshots, newest first.
import type { APIRoute } from 'astro';
import { allSnapshots } from '../../snapshots/model.ts';
import { pageTitle } from '../../snapshots/citation.ts';

export const prerender = true;

const xml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export const GET: APIRoute = async ({ site }) => {
  const snapshots = await allSnapshots();
  const url = (path: string) => new URL(path, site).href;
  const updated = snapshots.reduce((max, s) => (s.asOf > max ? s.asOf : max), '1970-01-01');
  const entries = snapshots.map(
    (s) => `  <entry>
    <id>${xml(url(`/snapshots/${s.month}/`))}</id>
    <title>${xml(pageTitle(s))}</title>
    <link rel="alternate" type="text/html" href="${xml(url(`/snapshots/${s.month}/`))}"/>
    <updated>${s.asOf}T00:00:00Z</updated>
    <summary>${xml(s.headline)}</summary>
  </entry>`,
  );
  const body = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xml(url('/snapshots/'))}</id>
  <title>Surplus lines market snapshots</title>
  <link rel="self" type="application/atom+xml" href="${xml(url('/snapshots/feed.xml'))}"/>
  <link rel="alternate" type="text/html" href="${xml(url('/snapshots/'))}"/>
  <updated>${updated}T00:00:00Z</updated>
  <author><name>Surplus Lines Market Data</name></author>
${entries.join('\n')}
</feed>
`;
  return new Response(body, { headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' } });
};
