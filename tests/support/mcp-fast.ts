// A Web Request answered as the Node server answers a POST to /mcp whose Host passed (server/mcp-front.ts): its
// body read whole, then the fast path's answer or the SDK's (postAnswer, the one driver of the fast path); a
// body over the limit is the SDK's 413, as the server leaves it. As a Response, to compare with handleMcp's.
import { MAX_BODY_BYTES, handleMcp, postAnswer } from '../../api/mcp/handle-mcp.ts';
import type { McpFastPath } from '../../api/mcp/fast.ts';
import { responseOf } from '../../api/wire-answer.ts';

export async function viaFastPath(fast: McpFastPath, request: Request): Promise<Response> {
  const body = new Uint8Array(await request.clone().arrayBuffer());
  if (body.length > MAX_BODY_BYTES) return handleMcp(request);
  const again = () => new Request(request.url, { method: 'POST', headers: request.headers, body });
  return responseOf(await postAnswer(fast, body, (name) => request.headers.get(name), again));
}
