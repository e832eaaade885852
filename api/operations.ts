// A route's parameters bound to what answers them, whoever asks: an HTTP request (api/routes/) or an
// MCP tool call (api/mcp/tools/). Both parse with the contract's schema and resolve the request (400,
// 404) before anything is paid for, then answer the same JSON.
import type { z } from 'zod';
import { ROUTE_CONTRACTS, type RouteContract } from '../domain/contract.ts';

/** An answer as CSV (DECISIONS §11), with the file name its Content-Disposition gives. */
export interface CsvAnswer {
  text: string | Uint8Array<ArrayBuffer>;
  fileName: string;
}

/** A priced answer as computed (api/priced.ts): a 200's bytes and headers (api/http.ts AnswerBytes), and whether it holds a figure. */
export interface ComputedAnswer {
  body: string | Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
  hasFigures: boolean;
}

/** A free route: its answer is bytes the ingest precomputed. */
export interface FreeOperation<S extends z.ZodObject = z.ZodObject> {
  kind: 'free';
  contract: RouteContract;
  /** Null: the route takes no parameters and ignores any given. */
  params: S | null;
  /** The precomputed answer (an HttpError 404 when there is none, e.g. an unknown state). */
  body(params: z.infer<S>): Uint8Array<ArrayBuffer>;
  /** The precomputed CSV answer, for a route that takes `format=csv`. */
  csv?(params: z.infer<S>): CsvAnswer;
}

/** A priced route: parse and resolve now, compute once paid. */
export interface PricedOperation<S extends z.ZodObject = z.ZodObject> {
  kind: 'priced';
  contract: RouteContract;
  params: S;
  /** Resolves the parsed parameters (an HttpError 404 for an unknown state, line, ...) and returns the computation. */
  prepare(params: z.infer<S>): () => unknown;
  /** The computed answer as CSV, for a route that takes `format=csv`. */
  csv?(body: unknown, params: z.infer<S>): CsvAnswer;
  /** For a route whose answer is a file (a bulk download), not JSON: its bytes and headers, and whether it holds a figure. */
  file?(body: unknown): ComputedAnswer;
}

export type Operation = FreeOperation | PricedOperation;

/** The route's contract, which must declare these very parameters and be priced or free as said. */
function contractOf(path: string, params: z.ZodObject | null, priced: boolean): RouteContract {
  const contract = ROUTE_CONTRACTS.find((r) => r.path === path);
  if (!contract || contract.params !== params || Boolean(contract.priceUsd) !== priced)
    throw new Error(`${path} is not a ${priced ? 'priced' : 'free'} route of the contract with these parameters`);
  return contract;
}

export const freeOperation = <S extends z.ZodObject>(
  path: string,
  params: S | null,
  body: (params: z.infer<S>) => Uint8Array<ArrayBuffer>,
  csv?: (params: z.infer<S>) => CsvAnswer,
): FreeOperation => ({ kind: 'free', contract: contractOf(path, params, false), params, body, csv }) as FreeOperation;

export const pricedOperation = <S extends z.ZodObject, B>(
  path: string,
  params: S,
  prepare: (params: z.infer<S>) => () => B,
  csv?: (body: B, params: z.infer<S>) => CsvAnswer,
): PricedOperation => ({ kind: 'priced', contract: contractOf(path, params, true), params, prepare, csv }) as unknown as PricedOperation;

/** A priced route whose answer is a file the build wrote (the bulk downloads), served as the contract's `download` says. */
export const pricedFileOperation = <S extends z.ZodObject>(path: string, params: S, file: () => ComputedAnswer): PricedOperation =>
  ({ kind: 'priced', contract: contractOf(path, params, true), params, prepare: () => () => null, file }) as unknown as PricedOperation;
