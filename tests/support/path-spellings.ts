// Spellings of an API path that Astro once answered itself (a plain-text "Bad request.", a 500 for TRACE, the route
// through a trailing slash): each must get the API's JSON error body, whatever the method. The HTTP contract test
// checks them on the built server; the server comparison (scripts/compare-corpus-edges.ts) sends them to both sides.
export const API_PATH_SPELLINGS = [
  '/v1/premium/?state=FL',
  '/v1/%zz',
  '/v1/premium%',
  '/v1%zz',
  '/v1/%25252525252e',
  '/V1/premium?state=FL',
  '//v1/premium?state=FL',
  '/v1/premium;x?state=FL',
  '/v1/premium%3Fstate=FL',
  '/v1/./x/../nope',
  '/v1',
  '/v1/',
];
