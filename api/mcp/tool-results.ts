// What a tool call returns besides its answer's JSON: the text a model reads (rendered as its operation says),
// and an error said as the route would say it (api/errors.ts), as JSON text.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorBodyOf, failureOf } from '../errors.ts';
import { toJson } from '../json.ts';
import type { Operation } from '../operation.ts';
import { TEXT_LIMIT_CHARS, tableText } from '../text/index.ts';

/** A result's content: one text block (JSON text for errors and payment terms, which clients parse). */
export const content = (text: string) => [{ type: 'text' as const, text }];

/** The error a route would answer, as a tool error: the same code and message, as JSON text. */
export function toolError(status: 400 | 404 | 500 | 503, message: string): CallToolResult {
  return { isError: true, content: content(toJson(errorBodyOf(status, message))) };
}

/** Runs a call: what it throws becomes the route's error, said the same way; anything else a 500 that leaks nothing. */
export async function guarded(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (e) {
    const { status, message } = failureOf(e);
    return toolError(status, message);
  }
}

const TABLE_TEXT = tableText();

/** The text a model reads of an answer: rendered as its operation says, the table rendering by default. */
export const textOf = (operation: Operation, params: Record<string, unknown>, body: unknown) =>
  (operation.text ?? TABLE_TEXT)({ tool: operation.contract.operationId, params }, body, TEXT_LIMIT_CHARS);
