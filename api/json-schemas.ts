// JSON Schemas generated from the contract's zod schemas, shaped for where they travel: the x402
// challenge (a header), MCP tool definitions (read by a model on every session, so an answer is only
// outlined there). Descriptions stay in /openapi.json and in the tools' input schemas, where they guide
// a caller; /openapi.json has every response schema in full.
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
      .filter(
        ([key, value]) =>
          isPropertyMap ||
          !(
            ['description', '$schema', 'example'].includes(key) ||
            (key === 'propertyNames' && (value as Json)?.type === 'string')
          ),
      )
      .map(([key, value]) => [
        key,
        withoutDescriptions(value, !isPropertyMap && ['properties', '$defs'].includes(key)),
      ]),
  );
}

/** A route's query parameters as a JSON Schema object, with their descriptions and declared defaults. */
export function parametersSchema(
  params: z.ZodObject,
): Json & { properties: Record<string, Json>; required?: string[] } {
  const { $schema: _schema, ...schema } = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as Json & {
    properties: Record<string, Json>;
    required?: string[];
  };
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

/** A JSON type a schema admits: a JSON Schema `type`, or `null`. */
type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/**
 * The JSON types `schema` admits (its `$ref`, `anyOf`/`oneOf` branches, `type`, `enum` or `const` followed); null when
 * any.
 */
function typesOf(schema: Json, defs: Record<string, Json>): Set<JsonType> | null {
  if (typeof schema.$ref === 'string') return typesOf(defs[schema.$ref.replace('#/$defs/', '')] ?? {}, defs);
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) {
    const all = new Set<JsonType>();
    for (const branch of branches) {
      const types = typesOf(branch, defs);
      if (!types) return null;
      types.forEach((t) => all.add(t));
    }
    return all;
  }
  if (schema.type !== undefined)
    return new Set((Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[]);
  const values = schema.enum ?? ('const' in schema ? [schema.const] : undefined);
  if (Array.isArray(values))
    return new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as JsonType))));
  return null;
}

/**
 * A response's outline, the output schema of its MCP tool (read by a model at the start of every
 * session, so kept short): the answer's top-level keys, those always present required, with the type
 * of each list and object among them (null too where the answer may hold null). It admits every
 * answer the full schema admits; the full schema, with every type, is in /openapi.json
 * (components.schemas.<id>).
 */
export function responseOutline(response: z.ZodType): Json {
  const { $ref, $defs = {} } = z.toJSONSchema(response, { io: 'output' }) as {
    $ref?: string;
    $defs?: Record<string, Json>;
  };
  const id = $ref?.replace('#/$defs/', '');
  if (!id || !$defs[id]) throw new Error('a response schema must carry an id (zod meta) to be outlined');
  /** A list's or an object's type, or null for any other value (a scalar, or a value of several types). */
  const containerType = (schema: Json): Json | null => {
    const types = typesOf(schema, $defs);
    const [type, ...more] = [...(types ?? [])].filter((t) => t !== 'null');
    if (more.length || (type !== 'array' && type !== 'object')) return null;
    return types!.has('null') ? { anyOf: [{ type }, { type: 'null' }] } : { type };
  };
  const root = $defs[id];
  const rootType = containerType(root);
  if (rootType?.type === 'object' && root.properties) {
    const properties = Object.fromEntries(
      Object.entries(root.properties as Record<string, Json>).flatMap(([key, value]) => {
        const type = containerType(value);
        return type ? [[key, type]] : [];
      }),
    );
    const required = (root.required as string[] | undefined) ?? [];
    return {
      type: 'object',
      ...(Object.keys(properties).length ? { properties } : {}),
      ...(required.length ? { required } : {}),
    };
  }
  if (!rootType) throw new Error(`${id}: an answer is a list or an object`);
  return rootType;
}
