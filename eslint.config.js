// ESLint (typescript-eslint's recommended rules) and the dependency rule, over
// the sources, scripts and tests. `npm run lint`; part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layering from './scripts/eslint/one-writer-per-table.js';

const LAYERS_ABOVE_DOMAIN = ['modules', 'engine', 'live', 'http', 'db', 'admin', 'demo', 'storage', 'net', 'csv', 'services', 'config', 'main'];

export default tseslint.config(
  { ignores: ['dist/', 'generated/', 'node_modules/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks what is left unused on purpose (a rest sibling, a positional argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setInterval: 'readonly', setTimeout: 'readonly' } },
  },
  {
    // Tests read response bodies loosely; the contract validator checks their shape.
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The dependency rule: imports point down (README, "Layout").
  {
    files: ['src/domain/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${LAYERS_ABOVE_DOMAIN.join('|')})(/|\\.js$)`,
              message: 'src/domain is the core: it imports only itself, packages and the foundation files (errors, lazy, paths).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/modules/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(engine|live)/',
              message: 'modules sit below the live engine and the live stream: take what you need as a parameter (a port), or move it to src/domain.',
            },
          ],
        },
      ],
    },
  },
  // One writer per table: a table is written only by its own module's repository (scripts/eslint/one-writer-per-table.js).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { layering },
    rules: { 'layering/one-writer-per-table': 'error' },
  },
);
