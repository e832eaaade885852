// Error messages quote what the client sent, bounded: a 10 kB parameter must not make a 10 kB error
// body (or a header that a client cannot read).
const MAX_ECHO = 80;

/** `text` in quotes, cut to its first 80 characters with a note of its length when longer. */
export function echo(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_ECHO
    ? `'${text}'`
    : `'${chars.slice(0, MAX_ECHO).join('')}…' (${chars.length} characters)`;
}
