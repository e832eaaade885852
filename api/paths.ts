// Request paths as clients spell them: decoded for comparison, and whether one is under /v1.

/** A path percent-decoded up to three levels, as far as it decodes (malformed escapes stay as sent). */
export function decodePath(pathname: string): string {
  let path = pathname;
  for (let level = 0; level < 3; level++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  return path;
}

const UNDER_V1 = /^\/+v1(?=$|[/;\\%?])/i;

/**
 * True for a path under /v1 however it is spelled: any case, a run of leading slashes, percent-encoded
 * (up to three levels), followed by nothing, `/`, `;`, `\`, `%` or `?`. All of these get API answers.
 */
export function isApiPath(pathname: string): boolean {
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return true; // the usual spelling, without decoding
  return UNDER_V1.test(decodePath(pathname)) || UNDER_V1.test(pathname);
}

/**
 * The prepaid channels' claim run (api/payment/claim-cron.ts), which a scheduler calls: Vercel's cron, declared at
 * build.
 */
export const CLAIMS_CRON_PATH = '/cron/claims';

/** The MCP server's one endpoint (api/mcp/handle-mcp.ts), loaded through api/mcp/lazy-handler.ts. */
export const MCP_PATH = '/mcp';

// The snapshot feed is Atom (RFC 4287): served as application/atom+xml by the Node server (server/router.ts)
// and by Vercel's CDN (a route header, src/vercel-free-files.ts), where a static .xml file would go as application/xml.
export const FEED_PATH = '/snapshots/feed.xml';
export const FEED_TYPE = 'application/atom+xml; charset=utf-8';
