// A Node request as the API reads it: its Host checked (and, for the MCP server, held to the loopback rule), its target
// made a URL (or the reason it cannot be), whether it is under /v1, and a Web Request of it for the handlers.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { isLoopbackName, namesLoopback } from '../api/mcp/loopback.ts';
import { isApiPath } from '../api/paths.ts';
import { remembered } from './remembered.ts';

/** Longest Host accepted: a DNS name is at most 253 characters, plus a port. */
const MAX_HOST = 262;

/** A Host header naming a host and optional port the URL parser accepts, and nothing else (no path, user or query). */
export const validHost = remembered(
  (value) => value.length <= MAX_HOST && /^[A-Za-z0-9.\-:[\]]+$/.test(value) && URL.canParse(`http://${value}/`),
);

/** What is wrong with the request's Host header, if anything. */
export function hostProblemOf(req: IncomingMessage): string | false {
  const named = req.headers.host;
  if (named === undefined)
    return req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && 'missing Host header: HTTP/1.1 requires one';
  return !validHost(named) && 'malformed Host header: expected a host name or address, optionally with a port';
}

/**
 * The request's URL, or the reason it has none; and whether its path is under /v1 either way. `port`: the server's, for
 * a Host that cannot be used.
 */
export function targetOf(req: IncomingMessage, port: number): { url: URL | string; api: boolean } {
  const target = req.url ?? '/';
  const named = req.headers.host;
  const hostProblem = hostProblemOf(req);
  let url: URL | null = null;
  try {
    // Origin form (/path?query) on the Host it names (a placeholder when that is bad, to learn the path);
    // absolute form (http://host/path) names its own host, which overrides Host's (RFC 9112 3.2.2).
    url = new URL(
      target.startsWith('/')
        ? `http://${hostProblem || named === undefined ? `localhost:${port}` : named}${target}`
        : target,
    );
  } catch {
    // below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return {
      url: 'malformed request target: expected a path such as /v1/coverage',
      api: isApiPath(target.split('?')[0]),
    };
  // Host is checked in both forms: the site's own handler builds its URL from it.
  return { url: hostProblem || url, api: isApiPath(url.pathname) };
}

/**
 * A Web Request of the Node request: with its body (read as the handler reads it) when `withBody`, or
 * with the body already read when given its bytes; else none.
 */
export function toRequest(
  req: IncomingMessage,
  url: URL,
  withBody: boolean | Uint8Array<ArrayBuffer> = false,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  if (withBody instanceof Uint8Array) return new Request(url, { method: req.method, headers, body: withBody });
  const body =
    withBody && req.method !== 'GET' && req.method !== 'HEAD' ? (Readable.toWeb(req) as ReadableStream) : undefined;
  return new Request(url, { method: req.method, headers, ...(body ? { body, duplex: 'half' } : {}) });
}

/** Whether the server listens on a loopback address (an IPv6 one bracketed as a Host names it). */
export const listensOnLoopback = (host: string) =>
  isLoopbackName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** The loopback rule's verdict on a Host, or a Host and Origin joined by a line feed (which no header value holds). */
const loopbackVerdict = remembered((key) => {
  const at = key.indexOf('\n');
  return at < 0 ? namesLoopback(key, null) : namesLoopback(key.slice(0, at), key.slice(at + 1));
});

/**
 * Whether the MCP server takes a request naming this Host and Origin: always, unless it listens on loopback only (DNS
 * rebinding protection, see api/mcp/handle-mcp.ts).
 */
export const mcpHostAllowed = (loopbackOnly: boolean, named: string | undefined, origin: string | undefined): boolean =>
  !loopbackOnly || (named !== undefined && loopbackVerdict(origin === undefined ? named : `${named}\n${origin}`));
