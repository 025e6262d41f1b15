/**
 * `npm run build`: compiles the service for production into dist/ with esbuild
 * (TypeScript stripped and bundled per entry point, shared code in chunks),
 * and prebuilds the operator UI bundle, so a production start
 * (`npm run start:prod`) runs plain JavaScript with nothing to compile.
 * `npm start` keeps running the sources through tsx.
 *
 * The packages every start loads are bundled too: loading them one file at a
 * time from node_modules (resolving, opening, reading each of several hundred
 * files) was about half of a compiled start's CPU. Left outside the bundle
 * (EXTERNAL_PACKAGES), loaded from node_modules as before:
 *
 * - what must stay a package of its own: native modules (@node-rs/argon2,
 *   esbuild), PGlite (finds its WebAssembly and data files next to itself),
 *   tsx (the sandbox's development mode), OpenTelemetry's SDK and exporter
 *   (loaded only when tracing is on);
 * - what only some requests load (LAZY_PACKAGES, src/lazy.ts): bundled,
 *   they would be compiled with the start's chunks;
 * - DEFERRED_PACKAGES: packages the bundled ones require at start but use
 *   only on some requests (iconv-lite: body charsets other than UTF-8;
 *   mime-types and its 200 kB mime-db: content types from file extensions).
 *   Their `require` returns a stand-in that loads the package at its first
 *   use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { UI_BUILD_OPTIONS } from '../src/admin/ui-routes.js';
import { paths, projectRoot } from '../src/paths.js';

/** What production runs: the service, an engine-only worker, and the operator tools. */
export const ENTRY_POINTS = {
  main: 'src/main.ts',
  worker: 'scripts/worker.ts',
  'create-admin': 'scripts/create-admin.ts',
  'schedule-sync': 'scripts/schedule-sync.ts',
  'config-check': 'scripts/config-check.ts',
  // The sandbox's worker thread loads it by path (src/paths.ts), so it must be a file of its own.
  'sandbox-worker': 'src/runtime/sandbox/sandbox-worker.ts',
};

/** Loaded on first use (src/lazy.ts), never by a start: tests/demo/build.test.ts checks both. */
export const LAZY_PACKAGES = ['@aws-sdk/client-s3', 'undici', 'web-push', 'file-type', 'fast-csv', 'busboy', 'pino-pretty', 'liquidjs', 'jsonata'];

/** Never bundled: see the header. */
export const EXTERNAL_PACKAGES = [
  '@node-rs/argon2',
  '@electric-sql/pglite',
  'esbuild',
  'tsx',
  // Loaded only when tracing is on; they find the bundled API's tracer provider in its process-wide registry.
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/resources',
  '@opentelemetry/exporter-trace-otlp-http',
  ...LAZY_PACKAGES,
];

/** A module bundled code requires at start but uses only on some requests (or never, as the service calls it). */
interface Deferred {
  /** What the bundled code requires. */
  specifier: string;
  /** Only when required from a file matching this (a relative specifier). */
  importer?: RegExp;
  /** What the stand-in requires from node_modules at the first use. */
  target: string;
  /** The module sets `__esModule`: the stand-in answers it without loading (TypeScript's `__importDefault` reads it at once). */
  esModule?: boolean;
  /** The packages that leave the bundle with it. */
  packages: string[];
}

/** Required by bundled packages at start, used only by some requests: loaded at their first use. */
export const DEFERRED: Deferred[] = [
  { specifier: 'iconv-lite', target: 'iconv-lite', packages: ['iconv-lite'] },
  { specifier: 'mime-types', target: 'mime-types', packages: ['mime-types', 'mime-db'] },
  // openapi-backend's paths the service never takes (quick: true, a definition object, no mock responses): $ref
  // resolution of files and URLs (with YAML), the check of the document against the OpenAPI schema, mock responses.
  // Together about 350 kB of source that every start parsed.
  {
    specifier: './refparser',
    importer: /[\\/]openapi-backend[\\/]backend\.js$/,
    target: 'openapi-backend/refparser',
    packages: ['@apidevtools/json-schema-ref-parser', 'js-yaml'],
  },
  { specifier: 'openapi-schema-validator', target: 'openapi-schema-validator', esModule: true, packages: ['openapi-schema-validator'] },
  { specifier: 'mock-json-schema', target: 'mock-json-schema', packages: ['mock-json-schema'] },
];

/** The packages the deferred modules keep outside the bundle. */
export const DEFERRED_PACKAGES = DEFERRED.flatMap((d) => d.packages);

/**
 * `require('<deferred>')` from bundled code returns a stand-in; the module itself is required (from
 * node_modules, outside the bundle) when a property of it is first read.
 */
const deferPackages: Plugin = {
  name: 'defer-packages',
  setup(b) {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    // The specifiers bundled code requires, and the targets the stand-ins require (left to node_modules).
    const filter = new RegExp(`^(${DEFERRED.flatMap((d) => [d.specifier, d.target].map(escape)).join('|')})$`);
    b.onResolve({ filter }, (args) => {
      if (args.namespace === 'deferred') return { path: args.path, external: true };
      const deferred = DEFERRED.find((d) => d.specifier === args.path && (!d.importer || d.importer.test(args.importer)));
      return deferred && { path: deferred.target, namespace: 'deferred', sideEffects: false };
    });
    b.onLoad({ filter: /.*/, namespace: 'deferred' }, (args) => ({
      loader: 'js',
      // Side effects of loading move to the first use: none of these modules' load has one the service relies on.
      contents: `let real;
const load = () => (real ??= require(${JSON.stringify(args.path)}));
module.exports = new Proxy({}, {
  get: (_, key) => ${DEFERRED.some((d) => d.target === args.path && d.esModule) ? "key === '__esModule' ? true : " : ''}load()[key],
  has: (_, key) => key in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(load(), key);
    return d && { ...d, configurable: true };
  },
});`,
    }));
  },
};

/** The entry points whose processes are long-lived servers: their start is timed (bench:startup) and cached. */
const COMPILE_CACHED_ENTRIES = new Set(['main', 'worker']);

/**
 * Each of COMPILE_CACHED_ENTRIES is built as a small entry that turns on Node's compile cache (Node 22.1 and later:
 * V8's code for the bundle's modules kept on disk, in NODE_COMPILE_CACHE or else the OS's temporary directory, so a
 * start compiles nothing an earlier start of the same build compiled; the cache checks each file's content) and then
 * imports the real entry, whose static imports would otherwise all be compiled before the cache could be turned on.
 * Node 20 has no such cache: there it only imports. The process flushes the cache once it is ready (src/main.ts).
 */
const compileCachedEntries: Plugin = {
  name: 'compile-cached-entries',
  setup(b) {
    b.onResolve({ filter: /^compile-cached-entry:/ }, (args) => ({ path: args.path.slice('compile-cached-entry:'.length), namespace: 'compile-cached-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'compile-cached-entry' }, (args) => ({
      loader: 'js',
      resolveDir: projectRoot,
      contents: `import module from 'node:module';
module.enableCompileCache?.();
await import(${JSON.stringify(args.path)});
`,
    }));
  },
};

/** Bundled CommonJS code requires node's modules and the external packages: ESM output has no `require` of its own. */
const REQUIRE_BANNER = "import { createRequire as __qpCreateRequire } from 'node:module'; const require = __qpCreateRequire(import.meta.url);";

/** Builds dist/; returns what went into the service's bundle (esbuild's metafile, paths relative to the project root). */
export async function buildDist(outdir = path.join(projectRoot, 'dist')): Promise<Metafile> {
  fs.rmSync(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRY_POINTS).map(([name, file]) => [
        name,
        COMPILE_CACHED_ENTRIES.has(name) ? `compile-cached-entry:${path.join(projectRoot, file)}` : path.join(projectRoot, file),
      ]),
    ),
    outdir,
    absWorkingDir: projectRoot,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    plugins: [deferPackages, compileCachedEntries],
    banner: { js: REQUIRE_BANNER },
    metafile: true,
    sourcemap: 'linked',
    // Stack traces map to the sources by path and line; the maps do not carry the sources themselves (two thirds
    // of their size, which every start under --enable-source-maps would read and parse).
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({
    ...UI_BUILD_OPTIONS,
    outfile: path.join(outdir, path.relative(path.join(projectRoot, 'dist'), paths.adminUiBundle)),
    write: true,
    logLevel: 'warning',
  });
  return metafile;
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  const started = performance.now();
  buildDist().then(
    () =>
      console.log(
        `built dist/ in ${Math.round(performance.now() - started)} ms: ${Object.keys(ENTRY_POINTS)
          .map((n) => `dist/${n}.js`)
          .join(', ')}, dist/admin/app.js`,
      ),
    (err: unknown) => {
      console.error(`build failed: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
