// The service in process: a Request handed to the API's dispatcher, as the Node server and Vercel do, with no socket;
// its answer as a Web Response, made by the one function Vercel's entry makes it with.
import { dispatch } from '../../api/dispatch.ts';
import { responseOf } from '../../api/wire-answer.ts';

export const callHandler = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  responseOf(await dispatch(new Request(input, init)));
