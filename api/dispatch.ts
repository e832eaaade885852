// The one way into the API, on every platform: the Node server (server/router.ts) hands it every /v1 request (see
// isApiPath in api/paths.ts), and on Vercel src/fetch.ts does, before Astro's router, whose answers (an HTML 404, a
// plain-text 400 for odd percent-encoding, trailing-slash rules) are not the API's. A handler is chosen by the exact
// path of the request's URL; any other spelling under /v1 gets the JSON 404 of docs/design.md §4.
import { echo } from '../domain/echo.ts';
import { type Handler, freeRoute, route } from './http.ts';
import { errorAnswer } from './errors.ts';
import { OPERATIONS } from './operation-list.ts';
import { decodePath } from './paths.ts';
import { pricedRoute } from './priced.ts';
import type { WireAnswer } from './wire-answer.ts';

/** Every route's handler by path, made from its operation. */
export const HANDLERS: Readonly<Record<string, Handler>> = Object.fromEntries(
  OPERATIONS.map((operation) => [
    operation.contract.path,
    operation.kind === 'free' ? freeRoute(operation) : pricedRoute(operation),
  ]),
);

/** The route a near miss (trailing slash, case, doubled slashes, percent-encoding) was meant for. */
function meant(pathname: string): string | undefined {
  const normal = decodePath(pathname)
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\/+$/, '');
  return Object.hasOwn(HANDLERS, normal) ? normal : undefined;
}

/**
 * Any other path under /v1: the JSON 404, not the site's HTML page, so an agent with a typo learns where the routes are
 * listed, and which route it probably meant.
 */
const unknownRoute = route((_request, url) => {
  const near = meant(url.pathname);
  const hint = near ? `did you mean '${near}'? Routes match their exact path; ` : '';
  return errorAnswer(404, `unknown route ${echo(url.pathname)}: ${hint}the routes are listed at /openapi.json`);
});

export const dispatch = async (request: Request): Promise<WireAnswer> => {
  const { pathname } = new URL(request.url);
  return (Object.hasOwn(HANDLERS, pathname) ? HANDLERS[pathname] : unknownRoute)(request);
};
