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
  it('are found in an errors file per area (the http layer, the domain core and the modules)', async () => {
    const files = new Set((await declaredErrors()).map((d) => d.file));
    for (const file of [
      'src/http/http.errors.ts',
      'src/domain/domain.errors.ts',
      'src/modules/brands/brands.errors.ts',
      'src/modules/matches/matches.errors.ts',
      'src/modules/definitions/definitions.errors.ts',
    ])
      expect(files).toContain(file);
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
