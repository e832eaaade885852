// Bazaar discovery (x402 extension) for a priced route or MCP tool: its query parameters and its answer, as JSON
// Schemas generated from the contract, so agents can find and call it from the 402 challenge alone.
import { declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { z } from 'zod';
import type { RouteContract } from '../../domain/route-contracts.ts';
import { type Json, exampleInput, parametersSchema, withoutDescriptions } from '../json-schemas.ts';

export function discoveryExtension(route: RouteContract): Json {
  if (!route.params || !route.example)
    throw new Error(`${route.path}: a priced route needs params and an example answer`);
  return declareDiscoveryExtension({
    input: exampleInput(route.params),
    inputSchema: withoutDescriptions(parametersSchema(route.params)) as Json,
    output: {
      example: route.example,
      schema: withoutDescriptions(z.toJSONSchema(route.response, { io: 'output' })) as Json,
    },
  });
}

/** The same for a priced MCP tool (x402's MCP transport): its name, input schema and an example call. */
export function toolDiscoveryExtension(route: RouteContract, inputSchema: Json): Json {
  if (!route.params || !route.example)
    throw new Error(`${route.operationId}: a priced tool needs params and an example answer`);
  return declareDiscoveryExtension({
    toolName: route.operationId,
    description: route.summary,
    transport: 'streamable-http',
    inputSchema: withoutDescriptions(inputSchema) as Json,
    example: exampleInput(route.params),
    output: { example: route.example },
  });
}
