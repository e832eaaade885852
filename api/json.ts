// Serialising answers. Series rows are immutable once a shard is loaded, so each is serialised once
// and spliced in afterwards: a 240-row answer then costs a join, not 240 object walks.

const serialised = new WeakMap<object, string>();

/** Freezes `value` and remembers its JSON, which `toJson` then emits as is. */
export function precomputed<T extends object>(value: T): T {
  serialised.set(value, JSON.stringify(value));
  return Object.freeze(value);
}

/** JSON text of an answer (plain data: objects, arrays, strings, numbers, booleans, null). */
export function toJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const cached = serialised.get(value);
  if (cached !== undefined) return cached;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value))
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${toJson(member)}`);
  return `{${members.join(',')}}`;
}
