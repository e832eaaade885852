// What a query cannot answer as asked, said in the contract's terms (the error body's codes): the API turns
// it into a 400 or 404 and an MCP tool error (api/errors.ts); the pages can catch it without the HTTP layer.
export class QueryError extends Error {
  readonly code: 'invalid_request' | 'not_found';
  constructor(code: 'invalid_request' | 'not_found', message: string) {
    super(message);
    this.code = code;
  }
}

/** A request the contract refuses: a parameter missing, unknown or of the wrong form. */
export const invalidRequest = (message: string) => new QueryError('invalid_request', message);

/** A request for what the data does not have: an unknown state, line, county or ranking. */
export const notFound = (message: string) => new QueryError('not_found', message);

export const unknownState = (state: string) =>
  notFound(`unknown state '${state}': see /v1/coverage for the states served`);
