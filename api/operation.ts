// A route's contract bound to what answers it, whoever asks: an HTTP request (api/dispatch.ts) or an MCP
// tool call (api/mcp/tool.ts), both made from the one list of operations (api/operation-list.ts). Both parse with the
// contract's schema and resolve the request (400,
// 404) before anything is paid for, then answer the same JSON.
import type { z } from 'zod';
import type { RouteContract } from '../domain/route-contracts.ts';
import type { TextRenderer } from './text/shared.ts';
import type { CsvAnswer } from './responses.ts';
import type { PricedAnswer } from './payment/gate.ts';

/** A free route: its answer is bytes the ingest precomputed. */
export interface FreeOperation<S extends z.ZodObject = z.ZodObject> {
  kind: 'free';
  contract: RouteContract;
  /** Null: the route takes no parameters and ignores any given. */
  params: S | null;
  /** The precomputed answer (a QueryError, not found, when there is none: an unknown state). */
  body(params: z.infer<S>): Buffer<ArrayBuffer>;
  /** The precomputed CSV answer, for a route that takes `format=csv`. */
  csv?(params: z.infer<S>): CsvAnswer;
  /** Its MCP tool's text (api/text/); the table rendering when not given. */
  text?: TextRenderer;
}

/** A priced route: parse and resolve now, compute once paid. */
export interface PricedOperation<S extends z.ZodObject = z.ZodObject> {
  kind: 'priced';
  contract: RouteContract;
  params: S;
  /** Resolves the parsed parameters (a QueryError for an unknown state, line, ...) and returns the computation. */
  prepare(params: z.infer<S>): () => unknown;
  /** The computed answer as CSV, for a route that takes `format=csv`. */
  csv?(body: unknown, params: z.infer<S>): CsvAnswer;
  /**
   * For a route whose answer is a file (a bulk download), not JSON: its bytes and headers, and whether it holds a
   * figure.
   */
  file?(body: unknown): PricedAnswer;
  /** Its MCP tool's text (api/text/); the table rendering when not given. */
  text?: TextRenderer;
}

export type Operation = FreeOperation | PricedOperation;

/** A route's parsed parameters: its schema's output, or none for a route that takes none. */
type ParamsOf<P extends z.ZodObject | null> = P extends z.ZodObject ? z.infer<P> : Record<string, never>;

/** The route's contract must be priced or free as its operation says. */
function checked<P extends z.ZodObject | null>(contract: RouteContract<P>, priced: boolean): RouteContract<P> {
  if (Boolean(contract.priceUsd) !== priced)
    throw new Error(`${contract.path} is not a ${priced ? 'priced' : 'free'} route of the contract`);
  return contract;
}

export const freeOperation = <P extends z.ZodObject | null>(
  contract: RouteContract<P>,
  body: (params: ParamsOf<P>) => Buffer<ArrayBuffer>,
  { csv, text }: { csv?: (params: ParamsOf<P>) => CsvAnswer; text?: TextRenderer } = {},
): FreeOperation =>
  ({
    kind: 'free',
    contract: checked(contract, false),
    params: contract.params,
    body,
    csv,
    text,
  }) as unknown as FreeOperation;

export const pricedOperation = <P extends z.ZodObject, B>(
  contract: RouteContract<P>,
  prepare: (params: z.infer<P>) => () => B,
  { csv, text }: { csv?: (body: B, params: z.infer<P>) => CsvAnswer; text?: TextRenderer } = {},
): PricedOperation =>
  ({
    kind: 'priced',
    contract: checked(contract, true),
    params: contract.params,
    prepare,
    csv,
    text,
  }) as unknown as PricedOperation;

/**
 * A priced route whose answer is a file the build wrote (the bulk downloads), served as the contract's `download` says.
 */
export const pricedFileOperation = <P extends z.ZodObject>(
  contract: RouteContract<P>,
  file: () => PricedAnswer,
): PricedOperation =>
  ({
    kind: 'priced',
    contract: checked(contract, true),
    params: contract.params,
    prepare: () => () => null,
    file,
  }) as unknown as PricedOperation;
