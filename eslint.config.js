// ESLint (typescript-eslint's recommended rules), the dependency rule and the errors rule, over
// the sources, scripts and tests. `npm run lint`; part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layering from './scripts/eslint/one-writer-per-table.js';

const LAYERS_ABOVE_DOMAIN = ['modules', 'engine', 'live', 'http', 'db', 'admin', 'demo', 'storage', 'net', 'csv', 'services', 'config', 'main'];

// The dependency rule: imports point down (README, "Layout").
const DOMAIN_LAYER = {
  regex: `^(\\.\\./)+(${LAYERS_ABOVE_DOMAIN.join('|')})(/|\\.js$)`,
  message: 'src/domain is the core: it imports only itself, packages and the foundation files (errors, lazy, paths).',
};
const MODULES_LAYER = {
  regex: '^(\\.\\./)+(engine|live)/',
  message: 'modules sit below the live engine and the live stream: take what you need as a parameter (a port), or move it to src/domain.',
};
// Within a module, its services, repositories and errors do not know HTTP (only its handlers, the HTTP edge, do),
// and its handlers call services, never a repository.
const SERVICES_LAYER = {
  regex: '^(\\.\\./)+http/',
  message: "only a module's *.handlers.ts knows HTTP: take plain values (a file's bytes, not the request's UploadedFile), or move the helper below http.",
};
const HANDLERS_LAYER = {
  regex: '\\.repository\\.js$',
  message: 'handlers call services, never a repository (types included): take row types from the *.table.ts, behaviour from the service.',
};
// Errors are declared once per module: a named factory (errorFactory) with its status and stable code in
// `<module>.errors.ts`, thrown from there (`throw brandErrors.nameTaken(name)`), never built inline at a throw site.
const INLINE_ERRORS = {
  regex: '^(\\./|(\\.\\./)+)errors\\.js$',
  importNames: ['AppError', 'errorFactory'],
  // `import type { AppError }` (a return type) is fine; isAppError() tells errors apart.
  allowTypeImports: true,
  message: "declare the error once in the module's <module>.errors.ts (errorFactory: status, stable code, message) and throw it from there.",
};
const restrictedImports = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
// A module's HTTP edge.
const HANDLERS = 'src/modules/**/*.handlers.ts';
// Where errors may be built: the errors files, the error model itself and the one place that maps any failure to an answer.
const ERROR_DECLARATIONS = ['src/**/*.errors.ts', 'src/errors.ts', 'src/http/error-mapping.ts'];

export default tseslint.config(
  { ignores: ['dist/', 'generated/', 'node_modules/', '.data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore marks what is left unused on purpose (a rest sibling, a positional argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
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
  // The dependency rule and the errors rule share one ESLint rule, so each group of files gets every pattern that applies to it
  // (a later block replaces an earlier one's options, it does not add to them).
  { files: ['src/**/*.ts', 'src/**/*.tsx'], ignores: ERROR_DECLARATIONS, rules: restrictedImports(INLINE_ERRORS) },
  { files: ['src/domain/**'], ignores: ERROR_DECLARATIONS, rules: restrictedImports(DOMAIN_LAYER, INLINE_ERRORS) },
  { files: ['src/domain/**/*.errors.ts'], rules: restrictedImports(DOMAIN_LAYER) },
  { files: ['src/modules/**'], ignores: [...ERROR_DECLARATIONS, HANDLERS], rules: restrictedImports(MODULES_LAYER, SERVICES_LAYER, INLINE_ERRORS) },
  { files: [HANDLERS], rules: restrictedImports(MODULES_LAYER, HANDLERS_LAYER, INLINE_ERRORS) },
  { files: ['src/modules/**/*.errors.ts'], rules: restrictedImports(MODULES_LAYER, SERVICES_LAYER) },
  // One writer per table: a table is written only by its own module's repository (scripts/eslint/one-writer-per-table.js).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { layering },
    rules: { 'layering/one-writer-per-table': 'error' },
  },
);
