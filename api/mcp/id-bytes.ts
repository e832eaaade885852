// Where a JSON-RPC request's id lies in its bytes, found without parsing: the MCP fast path (./fast.ts) remembers a
// request by its shape, its body with the id cut out, and puts another request's id into a kept answer.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
/** A byte a JSON number is written with. */
const isNumberByte = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45;

/** Where the string starting at `at` (a quote) ends: its closing quote's index, or -1 when it does not end. */
function stringEnd(body: Uint8Array, at: number): number {
  for (let i = at + 1; i < body.length; i++) {
    if (body[i] === BACKSLASH) i++;
    else if (body[i] === QUOTE) return i;
  }
  return -1;
}

/**
 * Where the value of a JSON object's top-level member spelled exactly "id" lies in its bytes, [start, end), when
 * it is a string or a number literal; null when the body has no such member, more than one, another value, or a
 * top-level name with an escape (which could spell "id" too). Not a JSON parser: only what JSON.parse makes of
 * the body counts (see McpFastPath's #eligible, ./fast.ts).
 */
export function idSpan(body: Uint8Array): [number, number] | null {
  let i = 0;
  while (i < body.length && isSpace(body[i])) i++;
  if (body[i] !== 0x7b) return null;
  let depth = 0;
  let span: [number, number] | null = null;
  for (; i < body.length; i++) {
    const byte = body[i];
    if (byte === 0x7b || byte === 0x5b) depth++;
    else if (byte === 0x7d || byte === 0x5d) depth--;
    else if (byte === QUOTE) {
      const start = i;
      i = stringEnd(body, i);
      if (i < 0) return null;
      if (depth !== 1) continue;
      let at = i + 1;
      while (at < body.length && isSpace(body[at])) at++;
      if (body[at] !== 0x3a) continue; // a string value, not a member's name
      // A name with an escape might spell "id" another way: then which "id" JSON.parse takes is not plain.
      if (body.subarray(start, i).includes(BACKSLASH)) return null;
      if (i - start !== 3 || body[start + 1] !== 0x69 || body[start + 2] !== 0x64) continue;
      if (span) return null;
      at++;
      while (at < body.length && isSpace(body[at])) at++;
      let end = at;
      if (body[at] === QUOTE) {
        end = stringEnd(body, at) + 1;
        if (end === 0) return null;
      } else while (end < body.length && isNumberByte(body[end])) end++;
      if (end === at) return null;
      span = [at, end];
      i = end - 1;
    }
  }
  return span;
}
