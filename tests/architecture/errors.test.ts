/**
 * Errors are declared once: every `*.errors.ts` under src/ exports its
 * module's errors as named factories (errorFactory), and a code is declared in
 * one place only, with one status, in the shape the contract's X-Error-Code
 * header promises. Another module that raises the error imports it.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contractDocument } from '../../src/http/contract.js';
import { projectRoot } from '../../src/paths.js';

interface Declared {
  file: string;
  name: string;
  code: string;
  status: number;
}

const isFactory = (v: unknown): v is { code: string; status: number } =>
  typeof v === 'function' && typeof (v as { code?: unknown }).code === 'string' && typeof (v as { status?: unknown }).status === 'number';

function errorsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return errorsFiles(full);
    return e.name.endsWith('.errors.ts') ? [full] : [];
  });
}

async function declaredErrors(): Promise<Declared[]> {
  const out: Declared[] = [];
  for (const file of errorsFiles(path.join(projectRoot, 'src'))) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [group, value] of Object.entries(mod)) {
      if (!value || typeof value !== 'object') continue;
      for (const [name, factory] of Object.entries(value)) {
        if (isFactory(factory)) out.push({ file: path.relative(projectRoot, file), name: `${group}.${name}`, code: factory.code, status: factory.status });
      }
    }
  }
  return out;
}

describe('declared errors', () => {
  it('are found in an errors file per area (the http layer and the modules; the domain core has none)', async () => {
    const files = new Set((await declaredErrors()).map((d) => d.file));
    for (const file of [
      'src/http/http.errors.ts',
      'src/modules/shared/domain.errors.ts',
      'src/modules/brands/brands.errors.ts',
      'src/modules/matches/matches.errors.ts',
      'src/modules/definitions/definitions.errors.ts',
    ])
      expect(files).toContain(file);
    expect([...files].filter((f) => f.startsWith('src/domain/'))).toEqual([]);
  });

  it('declare each code once, with one status', async () => {
    const byCode = new Map<string, Declared[]>();
    for (const d of await declaredErrors()) byCode.set(d.code, [...(byCode.get(d.code) ?? []), d]);
    const twice = [...byCode.values()].filter((ds) => ds.length > 1).map((ds) => ds.map((d) => `${d.code} (${d.status}) in ${d.file} as ${d.name}`).join(', '));
    expect(twice).toEqual([]);
  });

  it("have a code in the contract's X-Error-Code shape and an error status", async () => {
    const header = (contractDocument() as { components: { headers: { ErrorCode: { schema: { pattern: string } } } } }).components.headers.ErrorCode;
    const pattern = new RegExp(header.schema.pattern);
    const declared = await declaredErrors();
    expect(declared.length).toBeGreaterThan(50);
    expect(declared.filter((d) => !pattern.test(d.code)).map((d) => d.code)).toEqual([]);
    expect(declared.filter((d) => d.status < 400 || d.status > 599).map((d) => `${d.code} ${d.status}`)).toEqual([]);
  });
});

type Json = Record<string, any>;

/** The contract's error responses per operation, `$ref`s resolved, and what each operation takes as input. */
function contractErrorResponses() {
  const doc = contractDocument() as Json;
  const resolve = (node: Json) =>
    node?.$ref
      ? node.$ref
          .split('/')
          .slice(1)
          .reduce((n: Json, k: string) => n[k], doc)
      : node;
  const out: { operationId: string; status: string; shared: string | null; response: Json; fields: Map<string, Set<string>> }[] = [];
  for (const item of Object.values(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'patch', 'delete'].includes(method)) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(resolve);
      const fields = new Map<string, Set<string>>([['body', new Set()]]);
      for (const p of params) fields.set(p.in, new Set([...(fields.get(p.in) ?? []), p.name]));
      for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, Json>)) {
        const schema = resolve(media.schema ?? {});
        for (const part of [schema, ...((schema.allOf ?? schema.oneOf ?? schema.anyOf ?? []) as Json[]).map(resolve)])
          for (const name of Object.keys(part.properties ?? {})) fields.get('body')!.add(name);
      }
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (!['400', '403', '404', '409', '410', '422'].includes(status)) continue;
        out.push({ operationId: op.operationId, status, shared: response.$ref ? response.$ref.split('/').pop() : null, response: resolve(response), fields });
      }
    }
  }
  return { out, resolve };
}

describe("the contract's error examples", () => {
  it('belong to their operation: each is named for a code the operation declares for that status, and the service declares it with that status', async () => {
    const statusOf = new Map((await declaredErrors()).map((d) => [d.code, d.status]));
    const { out, resolve } = contractErrorResponses();
    const problems: string[] = [];
    for (const { operationId, status, shared, response, fields } of out) {
      const where = `${operationId} ${status}`;
      // A shared response's example is some other operation's; only the admin check's 403 is everyone's.
      if (shared && !(shared === 'Forbidden' && status === '403')) {
        problems.push(`${where}: the shared ${shared} response; declare the operation's own codes and examples`);
        continue;
      }
      const codes: string[] = resolve(response.headers?.['X-Error-Code'] ?? {}).schema?.enum ?? [];
      if (!codes.length) problems.push(`${where}: X-Error-Code declares no codes`);
      for (const code of codes)
        if (statusOf.get(code) !== Number(status)) problems.push(`${where}: ${code} is declared by the service with ${statusOf.get(code) ?? 'no'} status`);
      const examples = Object.entries((response.content?.['application/json']?.examples ?? {}) as Record<string, Json>).map(
        ([name, ex]) => [name, resolve(ex).value] as const,
      );
      if (!examples.length) problems.push(`${where}: no example`);
      for (const [name, value] of examples) {
        if (!codes.includes(name)) problems.push(`${where}: example ${name} is not one of its codes (${codes.join(', ')})`);
        if (status !== '422') continue;
        // A validation error names a field of this operation (or its body as a whole).
        for (const issue of value.detail as { loc: (string | number)[] }[]) {
          const [root, field] = issue.loc;
          if (field !== undefined && typeof field === 'string' && !fields.get(String(root))?.has(field))
            problems.push(`${where}: example ${name} is about ${issue.loc.join('.')}, not a field of ${operationId}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('catch an example of another operation', () => {
    // The leftovers players met: a 409 about a brand on the answer operation, a 422 about body.email where there is none.
    const { out } = contractErrorResponses();
    const answer409 = out.find((r) => r.operationId === 'upsertQuestionAnswer' && r.status === '409')!;
    expect(Object.keys(answer409.response.content['application/json'].examples)).toEqual(['answer.already_resolved']);
    expect(answer409.fields.get('body')).toEqual(new Set(['question_issuance_id', 'selected_answer_identifier']));
    expect(answer409.fields.get('body')!.has('email')).toBe(false);
  });
});
