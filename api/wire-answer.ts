// An answer as the bytes a socket gets, the one shape from whoever makes it to whoever writes it: the Node
// server's kept answers, the MCP server's answers (kept or not) and the raw front all hand it on as it is.
export interface WireAnswer {
  status: number;
  /**
   * Lower-case names, in the order written; `content-length` where it is not the parts' sum (a HEAD answer: its GET's).
   */
  headers: Record<string, string>;
  /** The body in parts, written in order and never copied (a kept MCP answer: before the id, the id, after it). */
  parts: Buffer[];
}

/** The body's length: its parts' summed. */
export function partsLength(answer: WireAnswer): number {
  let length = 0;
  for (const part of answer.parts) length += part.length;
  return length;
}

/** A Response read whole into a wire answer (its headers as Headers lists them: lower-case, by name). */
export async function wireAnswerOf(response: Response): Promise<WireAnswer> {
  const headers = Object.fromEntries(response.headers);
  return { status: response.status, headers, parts: response.body ? [Buffer.from(await response.arrayBuffer())] : [] };
}

/** A wire answer as a Web Response (for Vercel, whose functions answer Responses). */
export const responseOf = ({ status, headers, parts }: WireAnswer): Response =>
  new Response(
    parts.length ? ((parts.length === 1 ? parts[0] : Buffer.concat(parts)) as Uint8Array<ArrayBuffer>) : null,
    { status, headers },
  );
