// The service in process: a Request dispatched to its route's handler, with no socket.
import { HANDLERS } from '../../api/routes/index.ts';

export async function callHandler(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const handler = HANDLERS[new URL(request.url).pathname];
  if (!handler) throw new Error(`no handler for ${request.url}`);
  return handler(request);
}
