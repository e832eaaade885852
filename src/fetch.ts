// Astro's request entry (astro/fetch): /mcp goes straight to the MCP server and requests under /v1 to the API's
// dispatcher, before Astro normalises the path (collapsing slashes, decoding, answering a plain-text 400 to some
// percent-encodings), so every /v1 answer is the API's own on Vercel as on the Node server. Everything else takes
// Astro's full pipeline. The MCP server (its SDK and tools) is loaded on the first /mcp request and the payment stack
// on the first priced request with the gate on (api/mcp/lazy-handler.ts, api/payment/configured.ts): importing this
// entry loads neither, which keeps a cold start short (npm run bench:cold times it).
import { FetchState, astro } from 'astro/fetch';
import { dispatch } from '../api/dispatch.ts';
import { handleMcp } from '../api/mcp/lazy-handler.ts';
import { MCP_PATH, isApiPath } from '../api/paths.ts';
import { responseOf } from '../api/wire-answer.ts';

export default {
  fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === MCP_PATH) return handleMcp(request);
    return isApiPath(pathname) ? dispatch(request).then(responseOf) : astro(new FetchState(request));
  },
};
