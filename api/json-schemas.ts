// JSON Schemas generated from the contract's zod schemas, shaped for where they travel: the x402
// challenge (a header), MCP tool definitions (read by a model on every session). Descriptions stay in
// /openapi.json and in the tools' input schemas, where they guide a caller.
import { z } from 'zod';

export type Json = Record<string, unknown>;

/**
 * `schema` with no description, `$schema` or `example` keyword, nor zod's `propertyNames: {type: string}`
 * (every JSON key is a string); a property that is named so is kept.
 */
export function withoutDescriptions(schema: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutDescriptions(item));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => isPropertyMap || !(['description', '$schema', 'example'].includes(key) || (key === 'propertyNames' && (value as Json)?.type === 'string')))
      .map(([key, value]) => [key, withoutDescriptions(value, !isPropertyMap && ['properties', '$defs'].includes(key))]),
  );
}

/** A route's query parameters as a JSON Schema object, with their descriptions and declared defaults. */
export function parametersSchema(params: z.ZodObject): Json & { properties: Record<string, Json>; required?: string[] } {
  const { $schema: _schema, ...schema } = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as Json & { properties: Record<string, Json>; required?: string[] };
  for (const [name, property] of Object.entries(schema.properties)) {
    // zod leaves out the default of a transformed value (a state code is uppercased): take it from the metadata.
    const declared = (params.shape[name] as z.ZodType).meta()?.default;
    if (property.default === undefined && declared !== undefined) property.default = declared;
  }
  return schema;
}

/** An example query: each required parameter's declared example. */
export function exampleInput(params: z.ZodObject): Record<string, unknown> {
  const required = parametersSchema(params).required ?? [];
  return Object.fromEntries(required.map((name) => [name, (params.shape[name] as z.ZodType).meta()?.example]));
}

/** A response schema with its root inlined (zod writes a root that has an id as a `$ref` into `$defs`), without descriptions. */
export function responseSchema(response: z.ZodType): { root: Json; defs: Json } {
  const { $ref, $defs = {} } = withoutDescriptions(z.toJSONSchema(response, { io: 'output' })) as { $ref?: string; $defs?: Record<string, Json> };
  const id = $ref?.replace('#/$defs/', '');
  if (!id || !$defs[id]) throw new Error('a response schema must carry an id (zod meta) to be inlined');
  const { [id]: root, ...defs } = $defs;
  if (JSON.stringify(defs).includes(`"#/$defs/${id}"`)) throw new Error(`response schema ${id} refers to itself`);
  return { root, defs };
}
