// Any other path under /v1: the spec's JSON 404, not the site's HTML page, so an agent with a typo
// learns where the routes are listed, and which route it probably meant.
import { echo } from '../../domain/echo.ts';
import { errorResponse, route } from '../http.ts';
import { decodePath } from '../paths.ts';

/** The route a near miss (trailing slash, case, doubled slashes, percent-encoding) was meant for. */
function meant(pathname: string, routes: readonly string[]): string | undefined {
  const normal = decodePath(pathname).toLowerCase().replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return routes.find((r) => r === normal);
}

export function getUnknown(routes: readonly string[]) {
  return route((_request, url) => {
    const near = meant(url.pathname, routes);
    const hint = near ? `did you mean '${near}'? Routes match their exact path; ` : '';
    return errorResponse(404, `unknown route ${echo(url.pathname)}: ${hint}the routes are listed at /openapi.json`);
  });
}
