// An MCP tool made from an API operation (api/operation.ts): the route's parameters as its input
// schema, the route's answer as its structured output, the route's price (docs/design.md §8). A call is
// answered exactly as the route answers a request: the same validation and messages (400, 404 become
// tool errors), the same JSON, the same payment gate (x402's MCP transport), the same "no charge for
// nothing".
import type { CallToolResult, Tool as ToolDefinition } from '@modelcontextprotocol/server';
import type { SettleResponse } from '@x402/core/types';
import type { FreeOperation, Operation, PricedOperation } from '../operation.ts';
import { configuredGate } from '../payment/configured.ts';
import type { CallResource } from '../payment/gate.ts';
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from '../payment/mcp-keys.ts';
import { citesPublications, readableQuery } from '../priced.ts';
import { parsedArguments } from './tool-arguments.ts';
import { definition, wrapKeyOf } from './tool-definition.ts';
import { content, guarded, textOf, toolError } from './tool-results.ts';

export interface Tool {
  definition: ToolDefinition;
  call(args: unknown, meta: Record<string, unknown> | undefined): Promise<CallToolResult>;
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
        const parsed = params ? parsedArguments(args, params) : {};
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

/** A priced answer: the route's JSON as structuredContent, and the text a model reads (docs/design.md §11). */
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
        const parsed = parsedArguments(args, params);
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
