// The one way into the API, on every platform: server.ts hands it every /v1 request (see isApiPath in
// api/paths.ts), and on Vercel src/fetch.ts does, before Astro's router, whose answers (an HTML 404, a
// plain-text 400 for odd percent-encoding, trailing-slash rules) are not the API's. A handler is chosen
// by the exact path of the request's URL; any other spelling under /v1 gets the spec's JSON 404.
import { HANDLERS, UNKNOWN_ROUTE } from './routes/index.ts';

export const dispatch = async (request: Request): Promise<Response> => {
  const { pathname } = new URL(request.url);
  return (Object.hasOwn(HANDLERS, pathname) ? HANDLERS[pathname] : UNKNOWN_ROUTE)(request);
};
