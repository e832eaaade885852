// Astro's request entry (astro/fetch): requests under /v1 go straight to the API's dispatcher, before
// Astro normalises the path (collapsing slashes, decoding, answering a plain-text 400 to some
// percent-encodings), so every /v1 answer is the API's own on Vercel as on the Node server. Everything
// else takes Astro's full pipeline.
import { FetchState, astro } from 'astro/fetch';
import { dispatch } from '../api/dispatch.ts';
import { isApiPath } from '../api/paths.ts';

export default {
  fetch(request: Request): Promise<Response> {
    return isApiPath(new URL(request.url).pathname) ? dispatch(request) : astro(new FetchState(request));
  },
};
