// Prettier: the house style as the code already had it (single quotes, semicolons, trailing commas
// wherever a list breaks, parentheses around every arrow's parameters), on lines of at most 120
// characters. Prettier does not wrap comments or strings: scripts/check-line-length.mjs holds those to
// 120 columns too. `npm run format` rewrites, `npm run lint` checks.
/** @type {import('prettier').Config} */
export default {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  arrowParens: 'always',
};
