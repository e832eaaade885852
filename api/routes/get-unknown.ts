// Any other path under /v1: the spec's JSON 404, not the site's HTML page, so an agent with a typo
// learns where the routes are listed.
import { errorResponse, route } from '../http.ts';

export const getUnknown = route((_request, url) => errorResponse(404, `unknown route '${url.pathname}': the routes are listed at /openapi.json`));
