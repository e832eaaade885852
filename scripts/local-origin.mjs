// The origin that reaches a server listening on HOST:PORT, with `npm start`'s defaults (127.0.0.1, 4321): one
// rule for scripts/start.sh (the site's links, SITE_URL when unset) and scripts/pay-local.mjs (the server it pays).
// A wildcard address (0.0.0.0, ::) takes connections but is no address to call: its family's loopback is. An
// IPv6 address goes in brackets. `node scripts/local-origin.mjs` prints it for the environment it is given.

/** @param {Record<string, string | undefined>} env */
export function localOrigin(env = process.env) {
  const host = (env.HOST || '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  const port = env.PORT || '4321';
  const callable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${callable.includes(':') ? `[${callable}]` : callable}:${port}`;
}

if (import.meta.main) console.log(localOrigin());
