// ESLint: the JavaScript and typescript-eslint recommended rules, type-aware (through the project's
// tsconfig; a full run takes about half a minute), over the TypeScript and the plain JavaScript (the bridge,
// a few scripts). Layout is prettier's; line length is scripts/check-line-length.mjs's. .astro files are
// left out: their frontmatter is type-checked by `astro check`/tsc, and linting them needs another parser.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The rules that refuse a value typed `any` wherever it flows. */
const UNSAFE_ANY = {
  '@typescript-eslint/no-unsafe-argument': 'off',
  '@typescript-eslint/no-unsafe-assignment': 'off',
  '@typescript-eslint/no-unsafe-call': 'off',
  '@typescript-eslint/no-unsafe-member-access': 'off',
  '@typescript-eslint/no-unsafe-return': 'off',
};

export default defineConfig(
  globalIgnores(['data/', 'shards/', 'dist/', '.vercel/', '.astro/', 'research/', '.tmp/', '.ci/out/', '.vitest/']),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Helpers hand back objects of closures written as methods (`{ cleanup() { ... } }`, test and bench
      // rigs, the ingest's folder reader) that never read `this`, and callers destructure them: the rule
      // would have every such method annotated `this: void` for a danger that is not there.
      '@typescript-eslint/unbound-method': 'off',
      // An async function without await is how the code implements an interface that returns promises
      // (stores, hooks, handlers): a throw inside it still becomes a rejection, as its callers expect.
      '@typescript-eslint/require-await': 'off',
      // A `.catch((e) => reject(e))` passes on what was thrown, as it was: the caller decides what it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `_name` marks a parameter or a destructured field left unused on purpose (a rest sibling, a
      // callback's unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Tests read answers as JSON (`await res.json()`, JSON.parse) and poke at them: typing each answer
    // would restate the contract the tests check.
    // The test servers' request handlers are async functions given to createServer: a throw there fails the
    // run loudly, which is what a test wants. Assertion messages print whatever value they are handed.
    files: ['tests/**'],
    rules: {
      ...UNSAFE_ANY,
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // The bridge and the .mjs scripts are plain JavaScript: what they read from JSON is `any` with no type
    // to say otherwise.
    files: ['**/*.mjs', '**/*.js'],
    rules: UNSAFE_ANY,
  },
);
