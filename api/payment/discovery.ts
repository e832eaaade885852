// Bazaar discovery (x402 extension) for a priced route: its query parameters and its answer, as JSON
// Schemas generated from the contract, so agents can find and call it from the 402 challenge alone.
import { declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { z } from 'zod';
import type { RouteContract } from '../../domain/contract.ts';

type Json = Record<string, unknown>;

/** Descriptions stay in /openapi.json: the challenge travels in a header, and its size matters. */
function withoutDescriptions(schema: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutDescriptions(item));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => isPropertyMap || !['description', '$schema', 'example'].includes(key))
      .map(([key, value]) => [key, withoutDescriptions(value, !isPropertyMap && ['properties', '$defs'].includes(key))]),
  );
}

export function discoveryExtension(route: RouteContract): Json {
  if (!route.params || !route.example) throw new Error(`${route.path}: a priced route needs params and an example answer`);
  const inputSchema = withoutDescriptions(z.toJSONSchema(route.params, { io: 'input', unrepresentable: 'any' })) as Json & { required?: string[] };
  // An example query: each required parameter's declared example.
  const input = Object.fromEntries((inputSchema.required ?? []).map((name) => [name, (route.params!.shape[name] as z.ZodType).meta()?.example]));
  return declareDiscoveryExtension({
    input,
    inputSchema,
    output: { example: route.example, schema: withoutDescriptions(z.toJSONSchema(route.response, { io: 'output' })) as Json },
  });
}
