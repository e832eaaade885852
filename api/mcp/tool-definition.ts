// An MCP tool's definition, made from its route's contract: its name (the operationId), its description with
// its price, the route's parameters as its input schema and the route's answer outlined as its output
// schema (docs/design.md §8, §11).
import type { Tool as ToolDefinition } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { LIST_PARAMETERS } from '../../domain/contract-params.ts';
import { firstSentence } from '../../domain/first-sentence.ts';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { type Json, parametersSchema, responseOutline } from '../json-schemas.ts';

/**
 * The x402 PaymentRequired object, which a priced tool returns (with isError) instead of its answer
 * when it is called without a valid payment: its output schema admits both, so clients that check
 * structured output against the schema (the SDK's Client does, even on errors) can read the terms.
 */
const PAYMENT_REQUIRED_SCHEMA: Json = {
  properties: { accepts: { type: 'array' } },
  required: ['x402Version', 'accepts'],
};

/** The key an array answer is wrapped in (MCP wants an object): the route's last path segment, `lines`, `coverage`. */
export const wrapKeyOf = (contract: RouteContract) =>
  contract.response.def.type === 'array' ? contract.path.split('/').at(-1)! : null;

/**
 * A tool's parameters: its route's, but `format` (JSON or CSV, for HTTP callers), as a tool answers
 * both JSON and a text table (docs/design.md §11): a call naming `format` is refused as an unknown parameter.
 * The route's zod schema still parses the arguments (its `format` left to its default).
 */
export const toolParameterNames = (params: z.ZodObject): string[] =>
  Object.keys(params.shape).filter((name) => name !== 'format');

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
      schema.properties[name] = {
        description,
        anyOf: [text, { type: 'array', items: { type: 'string' }, minItems: 1 }],
        ...examples,
      };
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
  const { type: _object, ...answer } = key
    ? { type: 'object', properties: { [key]: outline }, required: [key] }
    : outline;
  return contract.priceUsd
    ? { type: 'object', anyOf: [answer, PAYMENT_REQUIRED_SCHEMA] }
    : { type: 'object', ...answer };
}

/**
 * What it returns, its price, and what a result holds (docs/design.md §11): a text table to read, and its
 * REST twin's JSON, whose full schema /openapi.json gives (the output schema outlines it).
 */
function description(contract: RouteContract): string {
  const price = contract.priceUsd ? `${contract.priceUsd} USD per call, paid with x402 (USDC on Base)` : 'Free';
  const key = wrapKeyOf(contract);
  return (
    `${contract.summary}. ${firstSentence(contract.description)} ${price}. ` +
    (`Returns content: a compact text table to read; structuredContent: the full JSON of GET ` +
      `${contract.path}${key ? ` under "${key}"` : ''} (schema: /openapi.json).`)
  );
}

export function definition(contract: RouteContract, params: z.ZodObject | null): ToolDefinition {
  return {
    name: contract.operationId,
    description: description(contract),
    inputSchema: inputSchema(params),
    outputSchema: outputSchema(contract),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  };
}
