// ESLint (typescript-eslint's recommended rules), the dependency rule and the errors rule, over
// the sources, scripts and tests. `npm run lint`; part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import writers from './scripts/eslint/one-writer-per-table.js';
import frontDoors from './scripts/eslint/front-doors.js';
import errorListeners from './scripts/eslint/error-listeners.js';

const layering = { rules: { ...writers.rules, ...frontDoors.rules } };

const LAYERS_ABOVE_DOMAIN = [
  'modules',
  'engine',
  'live',
  'http',
  'db',
  'admin',
  'demo',
  'storage',
  'mail',
  'net',
  'csv',
  'runtime',
  'services',
  'config',
  'main',
];

// The dependency rule: imports point down (README, "Layout").
const DOMAIN_LAYER = {
  regex: `^(\\.\\./)+(${LAYERS_ABOVE_DOMAIN.join('|')})(/|\\.js$)`,
  message: 'src/domain is the core: it imports only itself, packages and the foundation files (errors, lazy, paths, slices).',
};
// The domain is pure: no threads or processes of its own. The language hands what it cannot run here to the sandbox
// through its port (src/domain/language/isolation.ts); the worker threads are src/runtime/sandbox/.
const DOMAIN_THREADS = {
  regex: '^(node:)?(worker_threads|child_process|cluster)$',
  message: 'src/domain starts no threads or processes: declare a port in the domain (as language/isolation.ts does) and implement it in src/runtime/.',
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
const DOMAIN_ERRORS = {
  ...INLINE_ERRORS,
  allowTypeImports: false,
  message:
    'src/domain knows no HTTP statuses: answer undefined or throw a plain error, and say it as the contract does in src/modules/shared/domain.errors.ts.',
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
  // The domain knows no HTTP statuses: it answers undefined or throws its own errors; src/modules/shared/domain.errors.ts says them as the contract's.
  { files: ['src/domain/**'], rules: restrictedImports(DOMAIN_LAYER, DOMAIN_THREADS, DOMAIN_ERRORS) },
  { files: ['src/modules/**'], ignores: [...ERROR_DECLARATIONS, HANDLERS], rules: restrictedImports(MODULES_LAYER, SERVICES_LAYER, INLINE_ERRORS) },
  { files: [HANDLERS], rules: restrictedImports(MODULES_LAYER, HANDLERS_LAYER, INLINE_ERRORS) },
  { files: ['src/modules/**/*.errors.ts'], rules: restrictedImports(MODULES_LAYER, SERVICES_LAYER) },
  // One writer per table: a table is written only by its own module's repository (scripts/eslint/one-writer-per-table.js);
  // and a module's repositories are its own: everything else comes in through its front door, <module>.public.ts
  // (scripts/eslint/front-doors.js).
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { layering },
    rules: { 'layering/one-writer-per-table': 'error', 'layering/front-doors': 'error' },
  },
  // Calendar fields become instants through utcMs() (src/modules/shared/calendar.ts): Date.UTC and `new Date(y, m, ...)`
  // read the years 0 to 99 as 1900 to 1999, and the contract's dates are the years 0001 to 9999 as written.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'UTC', message: 'Date.UTC reads the years 0-99 as 1900-1999: use utcMs() from src/modules/shared/calendar.ts.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length>1]",
          message: 'new Date(year, month, ...) is local time and reads the years 0-99 as 1900-1999: use utcMs() from src/modules/shared/calendar.ts.',
        },
      ],
    },
  },
  // Every socket, stream, server, worker and child process the service creates has a lasting 'error' listener
  // (scripts/eslint/error-listeners.js): an 'error' nobody listens to ends the process. So do the scripts that
  // serve clients for long (the mocks, the feed server, the worker); a one-shot tool or a benchmark that meets
  // an error should stop, loudly, as it does.
  {
    files: ['src/**/*.ts', 'scripts/mock.ts', 'scripts/mock-stream.ts', 'scripts/feed-serve.ts', 'scripts/worker.ts', 'scripts/schedule-sync.ts'],
    ignores: ['src/admin/ui/**'],
    plugins: { errors: errorListeners },
    rules: { 'errors/error-listeners': 'error' },
  },
);
