import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../scripts/generate.js';
import { contractDocument, isAdminOperation } from '../../src/http/contract.js';
import { createHandlers } from '../../src/http/registry.js';
import { contractOperations } from '../helpers/contract.js';
import { UNKNOWN_ID } from '../helpers/factories.js';
import { createAdmin, startTestApp, type TestApp } from '../helpers/test-app.js';

const root = path.resolve(import.meta.dirname, '../..');
const operationsFile = path.resolve(root, '../shared/operations.txt');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('the contract', () => {
  const doc = contractDocument() as {
    openapi: string;
    info: { version: string };
    paths: Record<string, unknown>;
    components: { securitySchemes: Record<string, unknown> };
  };

  it('is OpenAPI 3.0.3, version 0.1.0, with every operation of the interface', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('0.1.0');
    expect(contractOperations.length).toBeGreaterThanOrEqual(82);
    if (fs.existsSync(operationsFile)) {
      const wanted = fs.readFileSync(operationsFile, 'utf8').split('\n').filter(Boolean);
      expect(wanted).toHaveLength(82);
      const declared = new Set(contractOperations.map((o) => `${o.method.toUpperCase()} ${o.path}`));
      expect(wanted.filter((op) => !declared.has(op))).toEqual([]);
    }
  });

  it('names operations in camelCase, tags them, and declares 401 and 403 where they apply and 422 everywhere', () => {
    for (const op of contractOperations as ((typeof contractOperations)[number] & {
      tags?: string[];
      security?: unknown[];
      summary?: string;
      parameters?: unknown[];
      requestBody?: unknown;
    })[]) {
      expect(op.operationId).toMatch(/^[a-z][a-zA-Z]+$/);
      expect(op.tags?.length).toBe(1);
      const statuses = Object.keys(op.responses);
      const open = Array.isArray(op.security) && op.security.length === 0;
      if (!open) expect(statuses, op.operationId).toContain('401');
      if (isAdminOperation(op)) expect(statuses, op.operationId).toContain('403');
      // Every operation refuses unknown query parameters and bodies that are not JSON objects: 422 everywhere.
      expect(statuses, op.operationId).toContain('422');
    }
  });

  it('declares the Bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });
});

describe('the handler registry', () => {
  it("has exactly the contract's operationIds as keys", () => {
    const handlers = createHandlers(app.services);
    expect(Object.keys(handlers).sort()).toEqual(contractOperations.map((o) => o.operationId).sort());
  });

  it('answers every operation with its handler: none is left at 501', async () => {
    const admin = await createAdmin(app);
    for (const op of contractOperations) {
      // Raw fetch: 501 is deliberately not part of the contract. Input errors (422, 404...) are fine here.
      const res = await fetch(`${app.url}${op.path.replace(/\{[^}]+\}/g, UNKNOWN_ID)}`, {
        method: op.method.toUpperCase(),
        headers: { authorization: `Bearer ${admin.token}` },
      });
      await res.arrayBuffer();
      expect(res.status, `${op.operationId} answered ${res.status}`).not.toBe(501);
      expect(res.status, `${op.operationId} answered ${res.status}`).toBeLessThan(500);
    }
  });
});

describe('generated files', () => {
  it('are what npm run generate writes from the current contract', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-gen-'));
    try {
      const names = await generate({ outDir: dir });
      for (const name of names) {
        const fresh = fs.readFileSync(path.join(dir, name), 'utf8');
        const committed = fs.readFileSync(path.join(root, 'generated', name), 'utf8');
        expect(committed === fresh, `generated/${name} is stale: run npm run generate and commit`).toBe(true);
        expect(fresh).toContain('DO NOT EDIT');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('migrations', () => {
  it('match the Drizzle schema (drizzle-kit generate finds nothing to add)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qp-drift-'));
    try {
      fs.cpSync(path.join(root, 'drizzle'), path.join(dir, 'drizzle'), { recursive: true });
      const config = path.join(dir, 'drizzle.config.ts');
      fs.writeFileSync(
        config,
        // drizzle-kit wants paths relative to its working directory
        `export default { dialect: 'postgresql', schema: './src/db/schema.ts', out: ${JSON.stringify(path.relative(root, path.join(dir, 'drizzle')))} };\n`,
      );
      const before = fs.readdirSync(path.join(dir, 'drizzle')).sort();
      const out = execFileSync(path.join(root, 'node_modules/.bin/drizzle-kit'), ['generate', `--config=${config}`], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const after = fs.readdirSync(path.join(dir, 'drizzle')).sort();
      expect(after, `the schema changed without a migration: run npm run db:generate\n${out}`).toEqual(before);
      // drizzle-kit read the real schema (it lists the tables it found)
      expect(out).toMatch(/users \d+ columns/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
