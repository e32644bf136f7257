// ESLint (flat config): typescript-eslint with a few type-aware rules, React hooks, accessibility of the
// server-rendered markup, and eslint-config-prettier last so that no rule argues with Prettier's layout.
//   npx eslint .        (part of `npm test`, see package.json "pretest")
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'public/build/', 'dist/', 'test-results/'] },

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },

  // Type-aware rules, only the cheap and valuable ones: a promise nobody awaits or catches is a silent
  // failure (or an unhandled rejection that ends the process) in a request handler or a job.
  {
    files: ['{server,client,shared,views,workers,sandbox,tests,bench}/**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },

  // Style choices the codebase already follows.
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      // `_name` marks a parameter a signature requires but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },

  // Sizes a newcomer can read: no file over 400 lines, no function over 120, outside the
  // sandbox (a stand-in for whole upstream APIs) and the locale catalogues. Test files keep the file limit;
  // their describe blocks are lists of cases, not functions to read at once.
  {
    files: ['{server,client,shared,views,workers,tests,bench}/**/*.{ts,tsx}', '*.{js,mjs,cjs}', 'bench/*.mjs'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    files: ['{server,client,shared,views,workers,bench}/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },

  // React: hooks rules everywhere components live; accessibility rules for all markup.
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.flat.recommended.rules,
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  // Islands (and the components they share with the server render) run in the browser.
  {
    files: ['client/**/*.{ts,tsx}', 'views/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },

  prettier,
);
