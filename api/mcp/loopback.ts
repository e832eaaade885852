// DNS rebinding: a server listening on a loopback address answers only requests that name it so. Pure and light:
// the Node server reads isLoopbackName at start, and the MCP server (./handle-mcp.ts) applies namesLoopback.

/** localhost, 127.x.x.x and [::1]: the names a page rebinding its own domain to this machine cannot claim. */
export const isLoopbackName = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

function loopbackUrl(text: string): boolean {
  try {
    return isLoopbackName(new URL(text).hostname);
  } catch {
    return false;
  }
}

/** True when Host (and Origin, if any) name a loopback address: what a server listening on one answers. */
export function namesLoopback(host: string | null | undefined, origin: string | null | undefined): boolean {
  return (
    host !== null &&
    host !== undefined &&
    loopbackUrl(`http://${host}/`) &&
    (origin === null || origin === undefined || loopbackUrl(origin))
  );
}
