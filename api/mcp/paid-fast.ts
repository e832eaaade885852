// A paid tools/call answered without the SDK's per-request server and transport (0.9-1.7 ms a call, the largest part
// of what a voucher-paid call cost over a free one): the tool is called as the SDK's handler calls it (the gate runs
// on the payment in `_meta`), and its result written as the SDK writes a result: its members in the order the SDK's
// result schema gives them back (`_meta`, `content`, `structuredContent`, `isError`), in
// `{"result":…,"jsonrpc":"2.0","id":…}`, and in 2026-07-28 stamped as the SDK stamps it (`resultType` "complete"
// added; the server's identity added to `_meta`, after any of the result's own keys). The writing is trusted per client
// era and envelope and per tool only once proven: the SDK answers the same request without its payment (the terms, as a
// tool error: nothing is charged), and the tool's own unpaid result written here must be that answer byte for byte
// (status, headers, body); until then, and wherever it is not, the SDK answers. tests/mcp/paid-fast-path.test.ts proves
// paid answers, refusals and tool errors written here byte for byte the SDK's.
import { SERVER_INFO_META_KEY, type CallToolResult } from '@modelcontextprotocol/server';
import { MCP_PAYMENT_META } from '../payment/mcp-keys.ts';
import { type WireAnswer, bodyBytes } from '../wire-answer.ts';

/** A paid call the fast path took (api/mcp/fast.ts checked everything but the payment, which the gate checks). */
export interface PaidCall {
  name: string;
  args: unknown;
  /** The call's `_meta`: its envelope (2026-07-28) and its payment. */
  meta: Record<string, unknown>;
  id: string | number;
  modern: boolean;
  /** What the writing is proven for: the era, the envelope (or the 2025 version header) and the tool. */
  key: string;
}

export interface PaidPathOptions {
  /** The SDK's answer to a request. */
  sdk(request: Request): Promise<WireAnswer>;
  /** A tool's call as the SDK's handler makes it (api/mcp/handle-mcp.ts), the gate included. */
  call(name: string, args: unknown, meta: Record<string, unknown> | undefined): Promise<CallToolResult>;
}

/** How results are written for one key: the SDK's status and headers, and its server identity for 2026-07-28. */
interface Writing {
  status: number;
  headers: Record<string, string>;
  modern: boolean;
  serverInfo: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A call's `_meta` without its payment: undefined when nothing else is left (a 2025 call's). */
export function unpaid(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const { [MCP_PAYMENT_META]: _, ...rest } = meta;
  return Object.keys(rest).length ? rest : undefined;
}

/** The members of a tool result in the order the SDK's result schema gives them back (its own, then any other). */
const RESULT_ORDER = ['_meta', 'content', 'structuredContent', 'isError'];

/**
 * A result as the SDK parses it, and for 2026-07-28 stamps it (its encode contract for tools/call), then the JSON-RPC
 * answer.
 */
function written(writing: Writing, result: CallToolResult, id: string | number): WireAnswer {
  let stamped: Record<string, unknown> = {};
  for (const key of RESULT_ORDER) if (result[key] !== undefined) stamped[key] = result[key];
  for (const key in result) if (!RESULT_ORDER.includes(key) && result[key] !== undefined) stamped[key] = result[key];
  if (writing.modern) {
    if (stamped.resultType === undefined) stamped = { ...stamped, resultType: 'complete' };
    if (writing.serverInfo !== undefined) {
      const meta = stamped._meta;
      if (meta === undefined) stamped = { ...stamped, _meta: { [SERVER_INFO_META_KEY]: writing.serverInfo } };
      else if (isObject(meta) && meta[SERVER_INFO_META_KEY] === undefined)
        stamped = { ...stamped, _meta: { ...meta, [SERVER_INFO_META_KEY]: writing.serverInfo } };
    }
  }
  return {
    status: writing.status,
    headers: writing.headers,
    parts: [Buffer.from(JSON.stringify({ result: stamped, jsonrpc: '2.0', id }))],
  };
}

export class PaidCallPath {
  readonly #options: PaidPathOptions;
  /** The proven writing by key; null where it was not proven (the SDK answers those). */
  readonly #writings = new Map<string, Promise<Writing | null>>();
  /** Paid calls written here, and those the SDK answered (tests read them). */
  readonly stats = { written: 0, sdk: 0 };

  constructor(options: PaidPathOptions) {
    this.#options = options;
  }

  /**
   * The answer to a paid call: written here once the writing is proven for its key, else the SDK's. `sample` is the
   * same request without its payment, with `sampleId` for its id.
   */
  async answer(call: PaidCall, request: () => Request, sample: () => Request, sampleId: string): Promise<WireAnswer> {
    let writing = this.#writings.get(call.key);
    if (!writing) {
      // Bounded by the tools and the client envelopes seen; an envelope names a client, so keep at most a few thousand.
      if (this.#writings.size > 4096) this.#writings.clear();
      this.#writings.set(call.key, (writing = this.#prove(call, sample, sampleId)));
    }
    const proven = await writing;
    if (!proven) {
      this.stats.sdk++;
      return this.#options.sdk(request());
    }
    this.stats.written++;
    return written(proven, await this.#options.call(call.name, call.args, call.meta), call.id);
  }

  /**
   * The SDK's answer to the unpaid sample against the tool's own unpaid result written here: the writing, when they
   * agree.
   */
  async #prove(call: PaidCall, sample: () => Request, sampleId: string): Promise<Writing | null> {
    const sdk = await this.#options.sdk(sample());
    const body = bodyBytes(sdk);
    let serverInfo: unknown;
    try {
      const message = JSON.parse(body.toString('utf8')) as { result?: { _meta?: Record<string, unknown> } };
      serverInfo = message.result?._meta?.[SERVER_INFO_META_KEY];
    } catch {
      return null;
    }
    const writing: Writing = { status: sdk.status, headers: sdk.headers, modern: call.modern, serverInfo };
    const ours = written(writing, await this.#options.call(call.name, call.args, unpaid(call.meta)), sampleId);
    const same = ours.status === sdk.status && bodyBytes(ours).equals(body);
    return same ? writing : null;
  }
}
