// An MCP tool made from an API operation (api/operations.ts): the route's parameters as its input
// schema, the route's answer as its structured output, the route's price (DECISIONS §8). A call is
// answered exactly as the route answers a request: the same validation and messages (400, 404 become
// tool errors), the same JSON, the same payment gate (x402's MCP transport), the same "no charge for
// nothing".
import type { CallToolResult, Tool as ToolDefinition } from '@modelcontextprotocol/server';
import type { SettleResponse } from '@x402/core/types';
import type { z } from 'zod';
import { LIST_PARAMETERS, type RouteContract } from '../../domain/contract.ts';
import { echo } from '../../domain/echo.ts';
import { firstSentence } from '../../domain/first-sentence.ts';
import { HttpError, errorBodyOf, parseValues, unknownParameter } from '../http.ts';
import { type Json, parametersSchema, responseOutline } from '../json-schemas.ts';
import { toJson } from '../json.ts';
import type { FreeOperation, Operation, PricedOperation } from '../operations.ts';
import { configuredGate } from '../payment/configured.ts';
import type { CallResource } from '../payment/gate.ts';
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from '../payment/mcp-keys.ts';
import { TEXT_LIMIT_CHARS, renderOf } from './text/index.ts';
import { citesPublications, readableQuery } from '../priced.ts';
import { ShardError } from '../store.ts';

export interface Tool {
  definition: ToolDefinition;
  call(args: unknown, meta: Record<string, unknown> | undefined): Promise<CallToolResult>;
}


/**
 * The x402 PaymentRequired object, which a priced tool returns (with isError) instead of its answer
 * when it is called without a valid payment: its output schema admits both, so clients that check
 * structured output against the schema (the SDK's Client does, even on errors) can read the terms.
 */
const PAYMENT_REQUIRED_SCHEMA: Json = { properties: { accepts: { type: 'array' } }, required: ['x402Version', 'accepts'] };

/** The key an array answer is wrapped in (MCP wants an object): the route's last path segment, `lines`, `coverage`. */
export const wrapKeyOf = (contract: RouteContract) => (contract.response.def.type === 'array' ? contract.path.split('/').at(-1)! : null);

/**
 * A tool's parameters: its route's, but `format` (JSON or CSV, for HTTP callers), as a tool answers
 * both JSON and a text table (DECISIONS §11): a call naming `format` is refused as an unknown parameter.
 * The route's zod schema still parses the arguments (its `format` left to its default).
 */
const toolParameterNames = (params: z.ZodObject): string[] => Object.keys(params.shape).filter((name) => name !== 'format');

/**
 * The input schema: the route's parameters with their descriptions and defaults; a required one also
 * carries its declared example (`examples`), so a first call has one to follow.
 */
function inputSchema(params: z.ZodObject | null): ToolDefinition['inputSchema'] {
  if (!params) return { type: 'object', properties: {} };
  const schema = parametersSchema(params);
  const names = toolParameterNames(params);
  for (const [name, { example, ...property }] of Object.entries(schema.properties)) {
    if (!names.includes(name)) {
      delete schema.properties[name];
      continue;
    }
    const examples = schema.required?.includes(name) && example !== undefined ? { examples: [example] } : {};
    if (LIST_PARAMETERS.includes(name)) {
      const { description, ...text } = property;
      schema.properties[name] = { description, anyOf: [text, { type: 'array', items: { type: 'string' }, minItems: 1 }], ...examples };
    } else schema.properties[name] = { ...property, ...examples };
  }
  if (schema.required) schema.required = schema.required.filter((name) => names.includes(name));
  return schema as ToolDefinition['inputSchema'];
}

/**
 * The output schema: the answer's outline (its keys and the type of its lists and objects; the full
 * schema is in /openapi.json), wrapped in one key for a list; a priced tool's also admits the x402
 * terms, which it returns instead of the answer when unpaid.
 */
function outputSchema(contract: RouteContract): ToolDefinition['outputSchema'] {
  const outline = responseOutline(contract.response);
  const key = wrapKeyOf(contract);
  const { type: _object, ...answer } = key ? { type: 'object', properties: { [key]: outline }, required: [key] } : outline;
  return (contract.priceUsd ? { type: 'object', anyOf: [answer, PAYMENT_REQUIRED_SCHEMA] } : { type: 'object', ...answer }) as ToolDefinition['outputSchema'];
}

/**
 * What it returns, its price, and what a result holds (DECISIONS §11): a text table to read, and its
 * REST twin's JSON, whose full schema /openapi.json gives (the output schema outlines it).
 */
function description(contract: RouteContract): string {
  const price = contract.priceUsd ? `${contract.priceUsd} USD per call, paid with x402 (USDC on Base)` : 'Free';
  const key = wrapKeyOf(contract);
  return (
    `${contract.summary}. ${firstSentence(contract.description)} ${price}. ` +
    `Returns content: a compact text table to read; structuredContent: the full JSON of GET ${contract.path}${key ? ` under "${key}"` : ''} (schema: /openapi.json).`
  );
}

function definition(contract: RouteContract, params: z.ZodObject | null): ToolDefinition {
  return {
    name: contract.operationId,
    description: description(contract),
    inputSchema: inputSchema(params),
    outputSchema: outputSchema(contract),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}

/**
 * A call's arguments as the text a query string would carry: a number or boolean as written, a list
 * joined with commas (one string where a list is expected is a list of one). Unknown names are refused
 * as unknown parameters; null is an omitted argument.
 */
function argumentValues(args: unknown, params: z.ZodObject): Record<string, string> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new HttpError(400, 'invalid arguments: expected an object of named arguments');
  const allowed = toolParameterNames(params);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (!allowed.includes(name)) throw unknownParameter(name, allowed);
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') values[name] = value;
    else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') values[name] = String(value);
    else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) values[name] = value.join(',');
    else throw new HttpError(400, `invalid '${name}' ${echo(JSON.stringify(value) ?? String(value))}: expected a string${LIST_PARAMETERS.includes(name) ? ' or a list of strings' : ''}`);
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
    if (e instanceof HttpError) return toolError(e.status, e.message);
    console.error(e instanceof ShardError ? `shards: ${e.message}` : e);
    return toolError(500, 'internal error: the answer could not be computed; please retry later');
  }
}

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
          result = { content: content(renderOf(contract.operationId)({ tool: contract.operationId, params: parsed }, structured, TEXT_LIMIT_CHARS)), structuredContent: structured };
          freeAnswers.set(bytes, result);
        }
        return result;
      }),
  };
}

/** A priced answer: the route's JSON as structuredContent, and the text a model reads (DECISIONS §11). */
function answered(operationId: string, params: Record<string, unknown>, body: unknown, receipt?: SettleResponse): CallToolResult {
  return {
    content: content(renderOf(operationId)({ tool: operationId, params }, body, TEXT_LIMIT_CHARS)),
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
        if (!gate) return answered(contract.operationId, parsed, answer().body);
        // What a payment id is bound to: the tool and its arguments as parsed (defaults applied).
        const outcome = await gate.chargeCall(contract, await resourceOf(), `${url}?${readableQuery(parsed)}`, meta?.[MCP_PAYMENT_META], answer);
        if (outcome.kind === 'answered') return answered(contract.operationId, parsed, outcome.body, outcome.receipt);
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
