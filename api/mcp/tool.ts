// An MCP tool made from an API operation (api/operations.ts): the route's parameters as its input
// schema, the route's answer as its structured output, the route's price (DECISIONS §8). A call is
// answered exactly as the route answers a request: the same validation and messages (400, 404 become
// tool errors), the same JSON, the same payment gate (x402's MCP transport), the same "no charge for
// nothing".
import type { CallToolResult, Tool as ToolDefinition } from '@modelcontextprotocol/server';
import type { SettleResponse } from '@x402/core/types';
import type { z } from 'zod';
import { LIST_PARAMETERS } from '../../domain/contract.ts';
import { echo } from '../../domain/echo.ts';
import { invalidRequest } from '../../domain/errors.ts';
import { errorBodyOf, failureOf } from '../errors.ts';
import { toJson } from '../json.ts';
import type { FreeOperation, Operation, PricedOperation } from '../operations.ts';
import { parseValues, unknownParameter } from '../params.ts';
import { configuredGate } from '../payment/configured.ts';
import type { CallResource } from '../payment/gate.ts';
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from '../payment/mcp-keys.ts';
import { citesPublications, readableQuery } from '../priced.ts';
import { TEXT_LIMIT_CHARS, tableText } from './text/index.ts';
import { definition, toolParameterNames, wrapKeyOf } from './tool-definition.ts';

export interface Tool {
  definition: ToolDefinition;
  call(args: unknown, meta: Record<string, unknown> | undefined): Promise<CallToolResult>;
}


/**
 * A call's arguments as the text a query string would carry: a number or boolean as written, a list
 * joined with commas (one string where a list is expected is a list of one). Unknown names are refused
 * as unknown parameters; null is an omitted argument.
 */
function argumentValues(args: unknown, params: z.ZodObject): Record<string, string> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw invalidRequest('invalid arguments: expected an object of named arguments');
  const allowed = toolParameterNames(params);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (!allowed.includes(name)) throw unknownParameter(name, allowed);
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') values[name] = value;
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') values[name] = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) values[name] = value.join(',');
    else throw invalidRequest(`invalid '${name}' ${echo(JSON.stringify(value) ?? String(value))}: expected a string${LIST_PARAMETERS.includes(name) ? ' or a list of strings' : ''}`);
  }
  return values;
}

/** A result's content: one text block (JSON text for errors and payment terms, which clients parse). */
const content = (text: string) => [{ type: 'text' as const, text }];

/** The error a route would answer, as a tool error: the same code and message, as JSON text. */
function toolError(status: 400 | 404 | 500 | 503, message: string): CallToolResult {
  return { isError: true, content: content(toJson(errorBodyOf(status, message))) };
}

/** Runs a call: what it throws becomes the route's error, said the same way; anything else a 500 that leaks nothing. */
async function guarded(call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (e) {
    const { status, message } = failureOf(e);
    return toolError(status, message);
  }
}

const TABLE_TEXT = tableText();

/** The text a model reads of an answer: rendered as its operation says, the table rendering by default. */
const textOf = (operation: Operation, params: Record<string, unknown>, body: unknown) =>
  (operation.text ?? TABLE_TEXT)({ tool: operation.contract.operationId, params }, body, TEXT_LIMIT_CHARS);

/** The structured answer and its text for a free route's bytes (parsed once per body: the store keeps the bytes). */
const freeAnswers = new WeakMap<Uint8Array, CallToolResult>();

function freeTool(operation: FreeOperation): Tool {
  const { contract, params } = operation;
  const key = wrapKeyOf(contract);
  return {
    definition: definition(contract, params),
    call: (args) =>
      guarded(async () => {
        // A route without parameters ignores any query string; its tool ignores any argument.
        const parsed = params ? parseValues(argumentValues(args, params), params) : {};
        const bytes = operation.body(parsed);
        let result = freeAnswers.get(bytes);
        if (!result) {
          const json = JSON.parse(Buffer.from(bytes).toString('utf8'));
          const structured = key ? { [key]: json } : json;
          result = { content: content(textOf(operation, parsed, structured)), structuredContent: structured };
          freeAnswers.set(bytes, result);
        }
        return result;
      }),
  };
}

/** A priced answer: the route's JSON as structuredContent, and the text a model reads (DECISIONS §11). */
function answered(operation: PricedOperation, params: Record<string, unknown>, body: unknown, receipt?: SettleResponse): CallToolResult {
  return {
    content: content(textOf(operation, params, body)),
    structuredContent: body as Record<string, unknown>,
    ...(receipt ? { _meta: { [MCP_PAYMENT_RESPONSE_META]: receipt } } : {}),
  };
}

function pricedTool(operation: PricedOperation): Tool {
  const { contract, params, prepare } = operation;
  const tool = definition(contract, params);
  // What the tool is sold as in its x402 challenge; Bazaar discovery describes it as an MCP tool. Made when the
  // gate is first on for it: discovery.ts loads x402's Bazaar extension, which a gate-off server never needs (issue 22).
  const url = `mcp://tool/${contract.operationId}`;
  let resource: Promise<CallResource> | undefined;
  const resourceOf = () =>
    (resource ??= import('../payment/discovery.ts').then(({ toolDiscoveryExtension }) => ({
      url,
      description: tool.description!,
      mimeType: 'application/json',
      extensions: toolDiscoveryExtension(contract, tool.inputSchema),
    })));
  return {
    definition: tool,
    call: (args, meta) =>
      guarded(async () => {
        // Validation and existence first, as on HTTP: a bad call is never asked to pay.
        const parsed = parseValues(argumentValues(args, params), params);
        const compute = prepare(parsed);
        const answer = () => {
          const body = compute();
          return { body, hasFigures: citesPublications(body) };
        };
        const gate = await configuredGate();
        if (!gate) return answered(operation, parsed, answer().body);
        // What a payment id is bound to: the tool and its arguments as parsed (defaults applied).
        const outcome = await gate.chargeCall(contract, await resourceOf(), `${url}?${readableQuery(parsed)}`, meta?.[MCP_PAYMENT_META], answer);
        if (outcome.kind === 'answered') return answered(operation, parsed, outcome.body, outcome.receipt);
        if (outcome.kind === 'unavailable') return toolError(503, outcome.message);
        return {
          isError: true,
          structuredContent: outcome.paymentRequired as unknown as Record<string, unknown>,
          content: content(JSON.stringify(outcome.paymentRequired)),
          ...(outcome.receipt ? { _meta: { [MCP_PAYMENT_RESPONSE_META]: outcome.receipt } } : {}),
        };
      }),
  };
}

export const toolOf = (operation: Operation): Tool => (operation.kind === 'free' ? freeTool(operation) : pricedTool(operation));
