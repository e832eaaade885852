// The service in process: a Request handed to the API's dispatcher, as the Node server and Vercel do, with no socket.
import { dispatch } from '../../api/dispatch.ts';

export const callHandler = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  dispatch(new Request(input, init));
