// POST /mcp in front of the MCP server (api/mcp/handle-mcp.ts), loaded with it on the first such request: a
// request with a sound Host and a declared, bounded length is read whole and answered from the MCP fast path
// (api/mcp/fast.ts: tools/list and each tool call the SDK once answered with success, a priced one only with
// the gate off, answered again from its bytes with the request's id put in, up to 64 MiB of them; the shards
// do not change while the server runs), else by the SDK. Either way byte for byte the SDK's answer
// (tests/mcp/fast-path.test.ts, tests/mcp/http.test.ts), compressed for this one request when worth it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mcpAnswer } from '../api/mcp/lazy-handler.ts';
import type { McpFastPath } from '../api/mcp/fast.ts';
import { MCP_PATH } from '../api/paths.ts';
import { type WireAnswer, partsLength } from '../api/wire-answer.ts';
import { type Coding, compress, inCodingFor } from './compression.ts';
import { hostProblemOf, listensOnLoopback, mcpHostAllowed, toRequest } from './request-target.ts';
import { writeWire } from './send.ts';
import type { SimpleRequest } from './simple-request.ts';

type McpServer = typeof import('../api/mcp/handle-mcp.ts');

interface LoadedMcp {
  server: McpServer;
  fast: McpFastPath;
}

/** A request's body, read whole (its length is declared and bounded). */
function bodyBytes(req: IncomingMessage): Promise<Buffer<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer<ArrayBuffer>[] = [];
    req.on('data', (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** An MCP answer in `coding` when worth it, compressed for this one request (its id is in it: never kept). */
const mcpInCoding = (answer: WireAnswer, coding: Coding | null): WireAnswer =>
  inCodingFor(answer, coding, (body, chosen) => compress(body, chosen, 'fast'));

/**
 * An MCP answer with its length declared (a complete JSON body: no chunked framing); one without a body as Node ends
 * it.
 */
function withLength(answer: WireAnswer): WireAnswer {
  if (!answer.parts.length) return answer;
  return { ...answer, headers: { ...answer.headers, 'content-length': String(partsLength(answer)) } };
}

export class McpFront {
  /**
   * Listening on a loopback address: MCP requests must name it so (DNS rebinding protection, see
   * api/mcp/handle-mcp.ts).
   */
  readonly #options: { loopbackOnly: boolean };
  #loaded: LoadedMcp | undefined;
  #loading: Promise<LoadedMcp> | undefined;

  constructor(host: string) {
    this.#options = { loopbackOnly: listensOnLoopback(host) };
  }

  #load(): Promise<LoadedMcp> {
    return (this.#loading ??= import('../api/mcp/handle-mcp.ts').then(
      (server) => (this.#loaded = { server, fast: server.mcpFastPath(64 * 2 ** 20) }),
    ));
  }

  #hostAllowed(named: string | undefined, origin: string | undefined): boolean {
    return mcpHostAllowed(this.#options.loopbackOnly, named, origin);
  }

  /**
   * A POST to exactly /mcp with a sound Host and a declared length (no chunked body): it may be answered from the fast
   * path.
   */
  takes(req: IncomingMessage): boolean {
    return (
      req.method === 'POST' &&
      req.url === MCP_PATH &&
      req.headers.host !== undefined &&
      req.headers['content-length'] !== undefined &&
      req.headers['transfer-encoding'] === undefined &&
      !hostProblemOf(req)
    );
  }

  /** Any request to /mcp, answered by the MCP server (the SDK's 413, 403, 405 and preflight included). */
  async answer(res: ServerResponse, request: Request, coding: Coding | null): Promise<void> {
    writeWire(res, withLength(mcpInCoding(await mcpAnswer(request, this.#options), coding)));
  }

  /**
   * A POST that takes() accepted: the loopback rule applied here, once; then the fast path's answer or the SDK's
   * (api/mcp/handle-mcp.ts, postAnswer). A body declared too large goes as `otherwise` answers it: the SDK's 413.
   */
  async answerPost(
    req: IncomingMessage,
    res: ServerResponse,
    coding: Coding | null,
    otherwise: () => Promise<void>,
  ): Promise<void> {
    const { server, fast } = this.#loaded ?? (await this.#load());
    if (!(Number(req.headers['content-length']) <= server.MAX_BODY_BYTES)) return otherwise(); // unread
    if (!this.#hostAllowed(req.headers.host, req.headers.origin))
      return writeWire(res, withLength(mcpInCoding(server.forbiddenAnswer(), coding)));
    const body = await bodyBytes(req).catch(() => null);
    if (!body) return void res.destroy(); // the client went away before its request was whole: no one to answer
    const again = () => toRequest(req, new URL(`http://${req.headers.host}${MCP_PATH}`), body);
    const answer = server.postAnswer(fast, body, (name) => req.headers[name] as string | undefined, again);
    writeWire(res, withLength(mcpInCoding(answer instanceof Promise ? await answer : answer, coding)));
  }

  /** The kept answer the raw front may write itself (answerPost's checks first), or null. */
  rawAnswerOf(request: SimpleRequest, host: string, coding: Coding | null): WireAnswer | null {
    const mcp = this.#loaded;
    if (request.target !== MCP_PATH || !mcp || !(request.body!.length <= mcp.server.MAX_BODY_BYTES)) return null;
    if (!this.#hostAllowed(host, request.headers.get('origin'))) return null;
    const kept = mcp.fast.keptAnswer(request.body!, (name) => request.headers.get(name));
    return kept && mcpInCoding(kept, coding);
  }
}
