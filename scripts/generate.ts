/**
 * `npm run generate`: turns the contract (openapi/openapi.yaml) into the
 * committed files under generated/:
 *
 * - openapi.json            the contract as JSON, served at /openapi.json
 * - api-types.ts            openapi-typescript types (paths, operations, components)
 * - request-validators.ts   standalone ajv request validators, built exactly as
 *                           openapi-backend builds them, so the server starts
 *                           without compiling (~5 s for the whole contract)
 * - response-validators.ts  standalone ajv validators of every JSON response
 *                           per operation and status (the contract tests use them)
 * - vocabulary.ts           every named string enum of the contract (statuses,
 *                           kinds, outcomes) as a const list and its type: the
 *                           one source the tables, the domain and SQL use
 * - stream-types.ts         openapi-typescript types of every message of the
 *                           live stream (openapi/asyncapi.yaml), with the
 *                           contract's schemas they use
 *
 * `generate({ outDir })` is also used by the staleness test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as yaml from 'js-yaml';
import openapiTS, { astToString } from 'openapi-typescript';
import { OpenAPIBackend } from 'openapi-backend';
import AjvModule, { _ } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { REQUEST_AJV_OPTIONS, addContractFormats } from '../src/http/validation-formats.js';

const Ajv = AjvModule.default ?? AjvModule;
type StandaloneCode = (ajv: InstanceType<typeof Ajv>, refsOrFunc: Record<string, string>) => string;
const standaloneCode = ((standaloneModule as unknown as { default?: StandaloneCode }).default ?? standaloneModule) as unknown as StandaloneCode;
type AjvInstance = InstanceType<typeof Ajv>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const contractPath = path.join(root, 'openapi', 'openapi.yaml');
const BANNER = 'DO NOT EDIT: generated from openapi/openapi.yaml by `npm run generate`.';

interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
  [key: string]: unknown;
}

export const streamContractPath = path.join(root, 'openapi', 'asyncapi.yaml');
const STREAM_BANNER = 'DO NOT EDIT: generated from openapi/asyncapi.yaml (and the schemas of openapi/openapi.yaml it uses) by `npm run generate`.';
const CONTRACT_REF = 'openapi.yaml#/components/schemas/';
const LOCAL_REF = '#/components/schemas/';

/**
 * The live stream's message types: each message payload of
 * openapi/asyncapi.yaml becomes the schema `<Message>Message` of a document
 * openapi-typescript reads, beside the contract's schemas the payloads refer
 * to (and theirs in turn), so no stream message type is written by hand.
 */
async function streamTypesSource(doc: OpenApiDoc): Promise<string> {
  const stream = yaml.load(fs.readFileSync(streamContractPath, 'utf8')) as { components: { messages: Record<string, { payload: { schema: unknown } }> } };
  const used: string[] = [];
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && (value.startsWith(CONTRACT_REF) || value.startsWith(LOCAL_REF))) {
        const name = value.slice(value.lastIndexOf('/') + 1);
        used.push(name);
        out[key] = `${LOCAL_REF}${name}`;
      } else out[key] = rewrite(value);
    }
    return out;
  };
  const schemas: Record<string, unknown> = {};
  const messageNames = Object.keys(stream.components.messages).map((name) => `${name}Message`);
  for (const [name, message] of Object.entries(stream.components.messages)) schemas[`${name}Message`] = rewrite(message.payload.schema);
  for (let name = used.pop(); name !== undefined; name = used.pop()) {
    if (name in schemas) {
      if (messageNames.includes(name) && name in doc.components.schemas)
        throw new Error(`asyncapi.yaml: message type ${name} has the name of a contract schema`);
      continue;
    }
    const schema = doc.components.schemas[name];
    if (schema === undefined) throw new Error(`asyncapi.yaml refers to ${CONTRACT_REF}${name}, which openapi.yaml does not have`);
    schemas[name] = rewrite(schema);
  }
  const ast = await openapiTS({ openapi: '3.0.3', info: { title: 'live stream', version: '1' }, paths: {}, components: { schemas } } as never, {
    alphabetize: false,
  });
  const aliases = messageNames.map((name) => `export type ${name} = components['schemas']['${name}'];`).join('\n');
  return `// ${STREAM_BANNER}\n/* eslint-disable */\n${astToString(ast)}\n${aliases}\n`;
}

export function loadContract(): OpenApiDoc {
  return yaml.load(fs.readFileSync(contractPath, 'utf8')) as OpenApiDoc;
}

function newAjv(opts: Record<string, unknown>): AjvInstance {
  const ajv = new Ajv({ ...opts, code: { source: true, esm: true, formats: _`formats` } });
  addContractFormats(ajv);
  return ajv;
}

function moduleSource(ajv: AjvInstance, exportsMap: Record<string, string>, header: string): string {
  let code = standaloneCode(ajv, exportsMap);
  code = code.replace(/^"use strict";/, '');
  return [
    `// ${BANNER}`,
    '/* eslint-disable */',
    header,
    "import { createRequire } from 'node:module';",
    "import { formats } from '../src/http/validation-formats.js';",
    'const require = createRequire(import.meta.url);',
    code,
    '',
  ].join('\n');
}

/** Request validators as openapi-backend builds them: [requestBody?, params] per operation. */
async function requestValidatorsSource(doc: OpenApiDoc): Promise<string> {
  const captured: { schema: unknown; coerce: boolean }[] = [];
  const api = new OpenAPIBackend({
    definition: structuredClone(doc) as never,
    quick: true,
    strict: true,
    ajvOpts: REQUEST_AJV_OPTIONS,
    customizeAjv: (original, ajvOpts) => {
      const coerce = Boolean((ajvOpts as { coerceTypes?: boolean }).coerceTypes);
      // Record each schema openapi-backend would compile instead of compiling it.
      (original as unknown as { compile: (s: unknown) => unknown }).compile = (schema: unknown) => {
        captured.push({ schema, coerce });
        const fn = () => true;
        (fn as unknown as { index: number }).index = captured.length - 1;
        return fn;
      };
      return original;
    },
  });
  await api.init();
  // Same options openapi-backend compiles with (params coerce types, bodies do not).
  const paramsAjv = newAjv({ ...REQUEST_AJV_OPTIONS, coerceTypes: true });
  const bodyAjv = newAjv({ ...REQUEST_AJV_OPTIONS });
  const perOp: Record<string, { key: string; coerce: boolean }[]> = {};
  for (const op of api.router.getOperations() as unknown as { operationId: string }[]) {
    const fns = api.validator.buildRequestValidatorsForOperation(op as never) ?? [];
    perOp[op.operationId] = fns.map((fn, i) => {
      const { schema, coerce } = captured[(fn as unknown as { index: number }).index]!;
      const key = `${op.operationId}_${i}`;
      (coerce ? paramsAjv : bodyAjv).addSchema(schema as object, key);
      return { key, coerce };
    });
  }
  const paramsExports: Record<string, string> = {};
  const bodyExports: Record<string, string> = {};
  for (const list of Object.values(perOp)) {
    for (const { key, coerce } of list) (coerce ? paramsExports : bodyExports)[key] = key;
  }
  const paramsCode = moduleSource(paramsAjv, paramsExports, '');
  const bodyCode = standaloneCode(bodyAjv, bodyExports).replace(/^"use strict";/, '');
  // Two ajv instances (params coerce types, bodies do not) share one module;
  // the body part is wrapped so its generated names cannot clash.
  const table = Object.entries(perOp)
    .map(([opId, list]) => `  ${opId}: [${list.map(({ key, coerce }) => (coerce ? key : `body.${key}`)).join(', ')}],`)
    .join('\n');
  return [
    paramsCode,
    'const body = (() => {',
    bodyCode.replace(/export const (\w+) = (\w+);/g, 'const $1 = $2;'),
    `  return { ${Object.keys(bodyExports).join(', ')} };`,
    '})();',
    '',
    '/** Validators per operationId, in the order openapi-backend builds them. */',
    'export const requestValidators = {',
    table,
    '};',
    '',
  ].join('\n');
}

/** One validator per operation and JSON response status, sharing the component schemas. */
function responseValidatorsSource(doc: OpenApiDoc): string {
  // Shared component validators instead of inlined copies keep the module small.
  // No defaults filled in or types coerced: a response must be valid as sent.
  const ajv = newAjv({ strict: false, allErrors: true, inlineRefs: false });
  const componentsId = 'contract';
  ajv.addSchema({ $id: componentsId, components: { schemas: doc.components.schemas } } as object);
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${componentsId}${v}` : rewrite(v);
      }
      return out;
    }
    return node;
  };
  // Component schemas reference each other with local refs; point them at the shared document.
  ajv.removeSchema(componentsId);
  ajv.addSchema({ $id: componentsId, components: { schemas: rewrite(doc.components.schemas) } } as object);
  const responsesRoot = (doc.components as { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses ?? {};
  const exportsMap: Record<string, string> = {};
  const table: string[] = [];
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'patch', 'delete'].includes(method) || !op.operationId) continue;
      const entries: string[] = [];
      for (const [status, resp0] of Object.entries(op.responses ?? {})) {
        const ref = (resp0 as { $ref?: string }).$ref;
        const resp = ref ? responsesRoot[ref.split('/').pop()!] : resp0;
        const schema = resp?.content?.['application/json']?.schema;
        if (!schema) continue;
        const key = `${op.operationId}_${status}`;
        ajv.addSchema(rewrite(schema) as object, key);
        exportsMap[key] = key;
        entries.push(`'${status}': ${key}`);
      }
      table.push(`  ${op.operationId}: { ${entries.join(', ')} },`);
      void p;
    }
  }
  return [
    moduleSource(ajv, exportsMap, ''),
    '/** JSON response validators per operationId and status code. */',
    'export const responseValidators = {',
    ...table,
    '};',
    '',
  ].join('\n');
}

/** Every named string enum of the contract's schemas as `export const X = [...] as const` and `type X`. */
export function vocabularySource(doc: OpenApiDoc): string {
  const lines = [`// ${BANNER}`, '/* eslint-disable */', "// The contract's named string enums: one const list and one type per schema.", ''];
  for (const [name, schema] of Object.entries(doc.components.schemas).sort(([a], [b]) => a.localeCompare(b))) {
    const s = schema as { type?: string; enum?: unknown[]; description?: string };
    if (s.type !== 'string' || !Array.isArray(s.enum)) continue;
    if (s.description) lines.push(`/** ${s.description.trim().replace(/\s+/g, ' ').replace(/\*\//g, '*\\/')} */`);
    lines.push(`export const ${name} = [${s.enum.map((v) => `'${String(v)}'`).join(', ')}] as const;`);
    lines.push(`export type ${name} = (typeof ${name})[number];`, '');
  }
  return lines.join('\n');
}

export async function generate({ outDir }: { outDir: string }): Promise<string[]> {
  const doc = loadContract();
  fs.mkdirSync(outDir, { recursive: true });
  const files: Record<string, string> = {};
  files['openapi.json'] = `${JSON.stringify({ 'x-generated': BANNER, ...doc }, null, 2)}\n`;
  const ast = await openapiTS(structuredClone(doc) as never, { alphabetize: false });
  files['api-types.ts'] = `// ${BANNER}\n/* eslint-disable */\n${astToString(ast)}`;
  // Plain JavaScript, so loading them costs no TypeScript transform at start-up.
  files['request-validators.js'] = await requestValidatorsSource(doc);
  files['request-validators.d.ts'] =
    `// ${BANNER}\nimport type { ValidateFunction } from 'ajv';\nimport type { operations } from './api-types.js';\n\n/** Validators per operationId, in the order openapi-backend builds them ([requestBody?, params]). */\nexport declare const requestValidators: Record<keyof operations, ValidateFunction[]>;\n`;
  files['response-validators.js'] = responseValidatorsSource(doc);
  files['response-validators.d.ts'] =
    `// ${BANNER}\nimport type { ValidateFunction } from 'ajv';\nimport type { operations } from './api-types.js';\n\n/** JSON response validators per operationId and status code. */\nexport declare const responseValidators: Record<keyof operations, Record<string, ValidateFunction>>;\n`;
  files['vocabulary.ts'] = vocabularySource(doc);
  files['stream-types.ts'] = await streamTypesSource(doc);
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(outDir, name), content);
  return Object.keys(files);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.join(root, 'generated');
  const written = await generate({ outDir });
  for (const name of written) {
    const size = fs.statSync(path.join(outDir, name)).size;
    console.log(`generated/${name} (${(size / 1024).toFixed(0)} KiB)`);
  }
}
