// An MCP tool made from an API operation (api/operation.ts): the route's parameters as its input
// schema, the route's answer as its structured output, the route's price (docs/design.md §8). A call is
// answered exactly as the route answers a request: the same validation and messages (400, 404 become
// tool errors), the same JSON, the same payment gate (x402's MCP transport), the same "no charge for
// nothing".
import type { CallToolResult, Tool as ToolDefinition } from '@modelcontextprotocol/server';
import type { SettleResponse } from '@x402/core/types';
import type { FreeOperation, Operation, PricedOperation } from '../operation.ts';
import type { CallResource } from '../payment/gate.ts';
import { MCP_PAYMENT_META, MCP_PAYMENT_RESPONSE_META } from '../payment/mcp-keys.ts';
import { PaidAnswers, behindGate, readableQuery } from '../paid-execution.ts';
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
          const json = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
          const structured: Record<string, unknown> = key ? { [key]: json } : json;
          result = { content: content(textOf(operation, parsed, structured)), structuredContent: structured };
          freeAnswers.set(bytes, result);
        }
        return result;
      }),
  };
}

/**
 * A priced answer as a tool keeps it: the route's JSON, whether it holds a figure, and the text a model reads of it.
 */
interface ToolAnswer {
  body: unknown;
  hasFigures: boolean;
  text: string;
  /** What it weighs kept: its JSON's bytes and its text's. */
  bytes: number;
}

/**
 * Each priced tool's answer once computed, by tool and arguments as parsed, up to 32 MiB: the text of an answer
 * is rendered once, not per call. Never a payment's outcome: each call still pays, or gets the terms.
 */
const toolAnswers = new PaidAnswers<ToolAnswer>(32 * 2 ** 20, (answer) => answer.bytes);

/** A priced answer: the route's JSON as structuredContent, and the text a model reads (docs/design.md §11). */
function answered({ body, text }: ToolAnswer, receipt?: SettleResponse): CallToolResult {
  return {
    content: content(text),
    structuredContent: body,
    ...(receipt ? { _meta: { [MCP_PAYMENT_RESPONSE_META]: receipt } } : {}),
  };
}

function pricedTool(operation: PricedOperation): Tool {
  const { contract, params } = operation;
  const tool = definition(contract, params);
  // What the tool is sold as in its x402 challenge; Bazaar discovery describes it as an MCP tool. Made when the
  // gate is first on for it: discovery.ts loads x402's Bazaar extension, which a gate-off server never needs.
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
        // What the answer is kept under, and what a payment id is bound to: the tool and its arguments as parsed.
        const key = `${url}?${readableQuery(parsed)}`;
        const render = (body: unknown, hasFigures: boolean): ToolAnswer => {
          const text = textOf(operation, parsed, body);
          return { body, hasFigures, text, bytes: Buffer.byteLength(JSON.stringify(body)) + Buffer.byteLength(text) };
        };
        const answer = toolAnswers.prepare(operation, parsed, key, render);
        return behindGate(
          async (gate) => {
            let given: ToolAnswer | undefined;
            const outcome = await gate.chargeCall(
              contract,
              await resourceOf(),
              key,
              meta?.[MCP_PAYMENT_META],
              () => (given = answer()),
            );
            // The answer paid for; else what the gate gives instead (a settled payment id's answer again, a refund's
            // acknowledgement), rendered here.
            const paidFor = given;
            if (outcome.kind === 'answered')
              return answered(
                paidFor && paidFor.body === outcome.body ? paidFor : render(outcome.body, true),
                outcome.receipt,
              );
            if (outcome.kind === 'unavailable') return toolError(503, outcome.message);
            return {
              isError: true,
              structuredContent: outcome.paymentRequired as unknown as Record<string, unknown>,
              content: content(JSON.stringify(outcome.paymentRequired)),
              ...(outcome.receipt ? { _meta: { [MCP_PAYMENT_RESPONSE_META]: outcome.receipt } } : {}),
            };
          },
          () => answered(answer()),
        );
      }),
  };
}

export const toolOf = (operation: Operation): Tool =>
  operation.kind === 'free' ? freeTool(operation) : pricedTool(operation);
