// The snapshot feed is Atom (RFC 4287): served as application/atom+xml by the Node server (server.ts) and by
// Vercel's CDN (a route header, src/vercel-free-files.ts), where a static .xml file would go as application/xml.
export const FEED_PATH = '/snapshots/feed.xml';
export const FEED_TYPE = 'application/atom+xml; charset=utf-8';
