// MCP answers from kept bytes, to keep a tool call near the cost of a REST answer, as the REST routes answer
// from prepared ones (api/prepared.ts):
// the SDK path (api/mcp/handle-mcp.ts) builds an MCP server and a transport for every POST and validates
// what never changes, about 0.7-1 ms of CPU a call. Here a request that can only be answered one way
// is answered from the bytes the SDK itself gave for it before, with the request's own JSON-RPC id put in.
//
// Which requests: one JSON-RPC request object (no batch) with only `jsonrpc` "2.0", an `id` (a string, or an
// integer the SDK accepts: a safe integer), a `method` of `tools/list` (no params, or `{}`) or `tools/call`
// (params holding only `name`, a known tool, and `arguments`, none of whose numbers JSON cannot write back),
// a plain JSON Content-Type, and, by era:
// - 2025: no `_meta` (so no payment, progress token or task), Accept naming both application/json and
//   text/event-stream (the SDK's own substring test), an MCP-Protocol-Version of the 2025 revisions or none;
// - 2026-07-28: `_meta` holding only the request's envelope (its protocol version, the client's capabilities and
//   identity), MCP-Protocol-Version naming that version, Mcp-Method the method and, on a call, Mcp-Name the tool,
//   each exactly as the body says (an encoded Mcp-Name, or any other spelling, goes to the SDK).
// A priced tool only while the payment gate is off, asked on every call; tools/list and the free tools answer the
// same with the gate on or off. The caller has already applied the loopback rule and the body limit.
// A priced tools/call carrying a payment (its `_meta` holding the payment, beside the 2026-07-28 envelope) with the
// gate on goes to ./paid-fast.ts, which writes the tool's paid answer itself once its writing is proven.
// Anything else (initialize, notifications, batches, malformed JSON, unknown methods or tools, a priced call without
// payment while the gate is on) gets `null`: the caller hands it to the SDK, exactly as before.
//
// What is kept: the first time such a request comes (keyed by method and its params as JSON, the envelope
// included: a 2026 answer is kept per client identity and version as sent, and never serves a 2025 request), the SDK
// answers it; when that answer is a success (200, a result, no `isError`), the SDK also answers the same
// request with a sentinel id, and that answer, split around the sentinel, is kept if putting the first
// request's id back in gives the SDK's first answer byte for byte (status, headers and body). Errors are
// never kept: each is the SDK's. An answer depends on the method, the tool and its arguments alone (the
// shards do not change while the server runs; the gate is checked on every priced call), so every later
// request with the same key is answered from the kept bytes. tests/mcp/fast-path.test.ts proves the
// answers byte for byte the SDK's.
//
// What is remembered: a client sends the same request again and again but for its id, so the verdict on a
// request is remembered by its shape: the headers the checks read, and its body with the id cut out (idSpan:
// the one top-level member spelled "id", its value a string or a number). A remembered verdict is used only
// for an id the checks would take (a string, a safe integer), and is remembered only when the full check found
// that very member to be the request's id: the bytes around the id being the same, the checks see the same request.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { AnswerCache } from '../answer-cache.ts';
import { MCP_PAYMENT_META } from '../payment/mcp-keys.ts';
import { PaidCallPath, type PaidPathOptions, unpaid } from './paid-fast.ts';
import { type WireAnswer, bodyBytes } from '../wire-answer.ts';
import { idSpan } from './id-bytes.ts';

/**
 * The revision whose requests carry their own envelope in `_meta` (MCP 2026-07-28; the SDK keeps its list to itself).
 */
const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** The envelope a 2026-07-28 request carries in `params._meta`: all a fast-path request's `_meta` may hold. */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY]);

/** A request header by its lower-case name (a Web Headers' get, or a Node request's headers). */
export type HeaderOf = (name: string) => string | null | undefined;

export interface FastPathOptions {
  /** The SDK's answer to a request (api/mcp/handle-mcp.ts, after the loopback rule and the method). */
  sdk(request: Request): Promise<WireAnswer>;
  /** Each tool's name, and whether it is priced. */
  tools: ReadonlyMap<string, { priced: boolean }>;
  /** True when the payment gate is off (priced tools free), asked on every priced call (at once when already known). */
  gateOff(): boolean | Promise<boolean>;
  /** The most the kept answers may weigh in all (keys and bodies), oldest evicted first. */
  maxBytes: number;
  /** A tool's call as the SDK's handler makes it: given, a paid call with the gate on is answered by ./paid-fast.ts. */
  call?: PaidPathOptions['call'];
}

/** An answer kept around the place of its id. */
interface Kept {
  status: number;
  headers: Record<string, string>;
  head: Buffer;
  tail: Buffer;
}

/** A request the fast path may answer, but for its id. */
interface Shape {
  /** What a kept answer is kept under; for a paid call, what its writing is proven for (./paid-fast.ts). */
  key: string;
  method: 'tools/list' | 'tools/call';
  params: Record<string, unknown> | undefined;
  priced: boolean;
  /** A 2026-07-28 request: its headers are derived from its body. */
  modern: boolean;
  /** A priced call carrying a payment (in `_meta`, with its envelope in 2026-07-28), and its 2025 version header. */
  paid?: { meta: Record<string, unknown>; version: string | undefined };
}

/** A request the fast path may answer. */
interface Eligible extends Shape {
  id: string | number;
}

/** Content-Types the fast path takes as JSON (lower-cased): all are JSON to the SDK too; anything else goes to it. */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const CALL_KEYS = new Set(['name', 'arguments', '_meta']);
/** The SDK's decoding of a body (readRequestBody): UTF-8, a leading BOM dropped, bad bytes replaced. */
const DECODER = new TextDecoder();
/** The request headers the checks read: part of a request's shape. */
const HEADERS_READ = ['content-type', 'mcp-protocol-version', 'accept', 'mcp-method', 'mcp-name'];
/**
 * Longest body whose shape is remembered, and how much the remembered shapes may weigh (keys, beyond 512 bytes each).
 */
const MAX_SHAPED_BODY = 4096;
const MAX_SHAPES_BYTES = 4 * 2 ** 20;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The key a paid call's writing is proven for: its era, its envelope (or 2025 version header), its tool. */
const paidKey = (meta: Record<string, unknown>, modern: boolean, version: string | undefined, tool: string) =>
  `${modern ? JSON.stringify(unpaid(meta)) : `2025 ${version ?? '-'}`} ${tool}`;

/**
 * True when JSON.stringify writes `value` so that no other parsed value is written the same: no number
 * that JSON cannot carry (an overflowing literal such as 1e400 parses as Infinity, written `null`), no -0.
 */
function keyable(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(keyable);
  if (isObject(value)) {
    for (const k in value) if (!keyable(value[k])) return false;
  }
  return true;
}

export class McpFastPath {
  readonly #options: FastPathOptions;
  readonly #kept: AnswerCache<Kept>;
  /** Keys whose sentinel answer is being computed: one at a time per key. */
  readonly #computing = new Set<string>();
  readonly #sentinel = `kept-answer-${randomUUID()}`;
  /** Verdicts by request shape (see the top of this file): null for a shape the fast path does not take. */
  readonly #shapes = new AnswerCache<{ shape: Shape | null }>(MAX_SHAPES_BYTES, () => 0);
  /** Requests answered from kept bytes, and eligible ones the SDK answered (tests read them). */
  readonly stats = { hits: 0, misses: 0 };

  /** Paid calls, with the gate on (./paid-fast.ts). */
  readonly paid: PaidCallPath | null;

  constructor(options: FastPathOptions) {
    this.#options = options;
    this.#kept = new AnswerCache<Kept>(options.maxBytes, (kept) => kept.head.length + kept.tail.length);
    this.paid = options.call ? new PaidCallPath({ sdk: options.sdk, call: options.call }) : null;
  }

  /** The weight of the kept answers, as counted against maxBytes. */
  get size(): number {
    return this.#kept.size;
  }

  /** How many answers are kept. */
  get count(): number {
    return this.#kept.count;
  }

  /**
   * The answer to a POST whose body is `body`: from kept bytes, else the SDK's (given `request()`, the
   * request itself); null when the request is not one the fast path takes (the caller asks the SDK).
   */
  answer(body: Uint8Array, header: HeaderOf, request: () => Request): WireAnswer | Promise<WireAnswer> | null {
    const eligible = this.#eligible(body, header);
    if (!eligible) return null;
    if (eligible.paid) {
      // Paid with the gate on; a payment the gate-off server ignores is the SDK's to answer.
      const off = this.paid ? this.#options.gateOff() : true;
      if (off === true) return null;
      if (off === false) return this.#paid(eligible, request);
      return off.then((open) => (open ? this.#sdk(request()) : this.#paid(eligible, request)));
    }
    if (eligible.priced) {
      const off = this.#options.gateOff();
      if (off === false) return this.#sdk(request());
      if (off !== true) return off.then((open) => (open ? this.#free(eligible, request) : this.#sdk(request())));
    }
    return this.#free(eligible, request);
  }

  /**
   * The kept answer to this request when one is kept and may be given at once (a priced tool only while the
   * gate is known to be off); else null, with nothing started: the caller then asks answer().
   */
  keptAnswer(body: Uint8Array, header: HeaderOf): WireAnswer | null {
    const eligible = this.#eligible(body, header);
    if (!eligible || eligible.paid || (eligible.priced && this.#options.gateOff() !== true)) return null;
    const kept = this.#kept.get(eligible.key);
    return kept ? this.#hit(kept, eligible.id) : null;
  }

  /** A paid call with the gate on, to ./paid-fast.ts, with its unpaid twin for proving the writing. */
  #paid(eligible: Eligible, request: () => Request): Promise<WireAnswer> {
    const { meta } = eligible.paid!;
    const call = {
      name: eligible.params!.name as string,
      args: eligible.params!.arguments,
      meta,
      id: eligible.id,
      modern: eligible.modern,
      key: eligible.key,
    };
    return this.paid!.answer(
      call,
      request,
      () => this.#request(eligible, this.#sentinel, { ...eligible.params, _meta: unpaid(meta) }),
      this.#sentinel,
    );
  }

  /** The answer to a call that is free (free tool, tools/list, or a priced tool with the gate off). */
  #free(eligible: Eligible, request: () => Request): WireAnswer | Promise<WireAnswer> {
    const kept = this.#kept.get(eligible.key);
    return kept ? this.#hit(kept, eligible.id) : this.#miss(eligible, request);
  }

  /** The request, when the fast path may answer it: its remembered verdict when its shape was seen, else checked. */
  #eligible(body: Uint8Array, header: HeaderOf): Eligible | null {
    const span = body.length <= MAX_SHAPED_BODY ? idSpan(body) : null;
    if (!span) return this.#checked(body, header);
    const [start, end] = span;
    let id: unknown;
    try {
      id = JSON.parse(DECODER.decode(body.subarray(start, end)));
    } catch {
      return null; // the body is not JSON
    }
    if (!(typeof id === 'string' || Number.isSafeInteger(id))) return null;
    let key = '';
    for (const name of HEADERS_READ) {
      const value = header(name);
      key += value === null || value === undefined ? '-' : `${value.length}=${value}`;
    }
    const text = Buffer.from(body.buffer, body.byteOffset, body.length).toString('latin1');
    key += `${start}:${text.slice(0, start)}${text.slice(end)}`;
    let known = this.#shapes.get(key);
    if (!known) {
      const checked = this.#checked(body, header);
      // A paid call's body is one payment's: its verdict is not remembered (it would only crowd out the others).
      if (checked?.paid) return checked.id === id ? checked : null;
      const { id: checkedId, ...shape } = checked ?? {};
      known = { shape: checked && checkedId === id ? (shape as Shape) : null };
      this.#shapes.set(key, known);
    }
    return known.shape && { ...known.shape, id: id as string | number };
  }

  /** The request, when the fast path may answer it: every check made. */
  #checked(body: Uint8Array, header: HeaderOf): Eligible | null {
    const type = header('content-type');
    if (!type || !JSON_TYPES.has(type.toLowerCase())) return null;
    const version = header('mcp-protocol-version');
    const modern = version === MODERN_PROTOCOL_VERSION;
    if (!modern) {
      const accept = header('accept');
      if (!accept || !accept.includes('application/json') || !accept.includes('text/event-stream')) return null;
      if (version !== null && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return null;
    }
    let message: unknown;
    try {
      message = JSON.parse(DECODER.decode(body));
    } catch {
      return null;
    }
    if (!isObject(message)) return null;
    for (const k in message) if (!REQUEST_KEYS.has(k)) return null;
    const { jsonrpc, id, method, params } = message;
    if (jsonrpc !== '2.0' || !(typeof id === 'string' || Number.isSafeInteger(id))) return null;
    if (params !== undefined && !isObject(params)) return null;
    const meta = params?._meta;
    const paying = method === 'tools/call' && isObject(meta) && isObject(meta[MCP_PAYMENT_META]);
    if (
      modern
        ? !this.#modernHeaders(params, method, header)
        : meta !== undefined && !(paying && Object.keys(meta).length === 1)
    )
      return null;
    let priced = false;
    if (method === 'tools/list') {
      if (params !== undefined && Object.keys(params).some((k) => k !== '_meta')) return null;
    } else if (method === 'tools/call') {
      if (!params) return null;
      for (const k in params) if (!CALL_KEYS.has(k)) return null;
      const tool = typeof params.name === 'string' ? this.#options.tools.get(params.name) : undefined;
      if (!tool || !keyable(params.arguments)) return null;
      priced = tool.priced;
      // The SDK refuses arguments that are not an object as a protocol error, before the tool is called: its answer.
      if (paying && (!priced || !(params.arguments === undefined || isObject(params.arguments)))) return null;
    } else return null;
    if (paying) {
      const version = header('mcp-protocol-version') ?? undefined;
      const paid = { meta: meta, version };
      // Not the kept answers' key: the payment would make it one request's, and no paid answer is kept.
      return {
        key: paidKey(paid.meta, modern, version, params!.name as string),
        id: id as string | number,
        method,
        params,
        priced,
        modern,
        paid,
      };
    }
    return {
      key: `${method} ${params === undefined ? '' : JSON.stringify(params)}`,
      id: id as string | number,
      method,
      params,
      priced,
      modern,
    };
  }

  /** A 2026-07-28 request's `_meta` is its envelope alone, for this version, and its headers say what its body says. */
  #modernHeaders(params: Record<string, unknown> | undefined, method: unknown, header: HeaderOf): boolean {
    const meta = params?._meta;
    if (!isObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION || !keyable(meta)) return false;
    for (const k in meta)
      if (!ENVELOPE_KEYS.has(k) && !(k === MCP_PAYMENT_META && method === 'tools/call')) return false;
    if (header('mcp-method') !== method) return false;
    return method !== 'tools/call' || (typeof params!.name === 'string' && header('mcp-name') === params!.name);
  }

  #hit(kept: Kept, id: string | number): WireAnswer {
    this.stats.hits++;
    return spliced(kept, id);
  }

  /** The SDK answers; a success is then kept, once its sentinel answer is proven to give back this very one. */
  async #miss(eligible: Eligible, request: () => Request): Promise<WireAnswer> {
    this.stats.misses++;
    const answer = await this.#sdk(request());
    if (this.#computing.has(eligible.key) || !succeeded(answer)) return answer;
    this.#computing.add(eligible.key);
    try {
      const kept = await this.#template(eligible);
      if (kept && same(spliced(kept, eligible.id), answer)) this.#kept.set(eligible.key, kept);
    } finally {
      this.#computing.delete(eligible.key);
    }
    return answer;
  }

  /** The request as the fast path sends it to the SDK itself: `params` (the request's own by default) and `id`. */
  #request(eligible: Eligible, id: string, params = eligible.params): Request {
    const { method, modern } = eligible;
    const sent: Record<string, string> = {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
    };
    if (modern) {
      sent['MCP-Protocol-Version'] = MODERN_PROTOCOL_VERSION;
      sent['Mcp-Method'] = method;
      if (method === 'tools/call') sent['Mcp-Name'] = params!.name as string;
    } else if (eligible.paid?.version) sent['MCP-Protocol-Version'] = eligible.paid.version;
    return new Request('http://localhost/mcp', {
      method: 'POST',
      headers: sent,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
    });
  }

  /**
   * The SDK's answer to the same request with the sentinel for id, split around it (null if it is not there exactly
   * once).
   */
  async #template(eligible: Eligible): Promise<Kept | null> {
    const { status, headers, parts } = await this.#sdk(this.#request(eligible, this.#sentinel));
    const body = parts[0] ?? Buffer.alloc(0);
    const marker = Buffer.from(JSON.stringify(this.#sentinel));
    const at = body.indexOf(marker);
    if (at < 0 || body.indexOf(marker, at + 1) >= 0) return null;
    // Copies: the kept bytes hold nothing of the larger buffer they came in.
    return {
      status,
      headers,
      head: Buffer.from(body.subarray(0, at)),
      tail: Buffer.from(body.subarray(at + marker.length)),
    };
  }

  #sdk(request: Request): Promise<WireAnswer> {
    return this.#options.sdk(request);
  }
}

/** The kept answer with `id` in its place, as JSON.stringify writes it (as the SDK does): its bytes in three parts. */
function spliced(kept: Kept, id: string | number): WireAnswer {
  return { status: kept.status, headers: kept.headers, parts: [kept.head, Buffer.from(JSON.stringify(id)), kept.tail] };
}

/** A 200 whose JSON-RPC answer is a result, not a tool error. */
function succeeded(answer: WireAnswer): boolean {
  if (answer.status !== 200) return false;
  try {
    const message = JSON.parse(bodyBytes(answer).toString('utf8')) as { result?: { isError?: unknown } };
    return isObject(message.result) && !message.result.isError;
  } catch {
    return false;
  }
}

/** The same status, headers (in order) and body. */
function same(a: WireAnswer, b: WireAnswer): boolean {
  return (
    a.status === b.status &&
    JSON.stringify(Object.entries(a.headers)) === JSON.stringify(Object.entries(b.headers)) &&
    bodyBytes(a).equals(bodyBytes(b))
  );
}
