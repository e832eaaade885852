// The one way into the API, on every platform: server.ts hands it every /v1 request, and on Vercel
// src/fetch.ts does, before Astro's router, whose answers (an HTML 404, a plain-text 400 for odd
// percent-encoding, trailing-slash rules) are not the API's. A handler is chosen by the exact path of
// the request's URL; any other spelling under /v1 gets the spec's JSON 404.
import type { Handler } from './http.ts';
import { HANDLERS, UNKNOWN_ROUTE } from './routes/index.ts';

/**
 * True for a path under /v1 however it is spelled: any case, a run of leading slashes, percent-encoded
 * (up to three levels), followed by nothing, `/`, `;`, `\`, `%` or `?`. All of these get API answers.
 */
export function isApiPath(pathname: string): boolean {
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return true; // the usual spelling, without decoding
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
  return /^\/+v1(?=$|[/;\\%?])/i.test(path) || /^\/+v1(?=$|[/;\\%?])/i.test(pathname);
}

/** The handler for a URL path: its route's, or the JSON 404 of an unknown route. */
export const handlerFor = (pathname: string): Handler => (Object.hasOwn(HANDLERS, pathname) ? HANDLERS[pathname] : UNKNOWN_ROUTE);

/** Answers a request under /v1 (see isApiPath). */
export const dispatch = (request: Request): Promise<Response> => Promise.resolve(handlerFor(new URL(request.url).pathname)(request));
