/**
 * openapi-backend is given the request side of the contract only (src/http/contract.ts, requestContract): every
 * operation with what routing, parsing, authorization and validation read, none of the responses and examples.
 */
import { describe, expect, it } from 'vitest';
import { contractDocument, contractJson, requestContract } from '../../src/http/contract.js';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function refsIn(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const v of node) refsIn(v, out);
  else if (node && typeof node === 'object') {
    if (typeof (node as Json).$ref === 'string') out.push((node as Json).$ref as string);
    for (const v of Object.values(node)) refsIn(v, out);
  }
  return out;
}

describe('the request contract', () => {
  const full = contractDocument() as Json & { paths: Record<string, Record<string, Json>>; components: Record<string, Json> };
  const before = contractJson();
  const slim = requestContract(full) as Json & { paths: Record<string, Record<string, Json>>; components: Record<string, Json> };

  it('has every operation, with the parameters, request body, security and summary the contract gives it', () => {
    let operations = 0;
    for (const [route, item] of Object.entries(full.paths)) {
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (!op) continue;
        operations++;
        const kept = slim.paths[route]![method] as Json;
        expect(kept.operationId).toBe(op.operationId);
        expect(kept.summary).toBe(op.summary);
        expect(kept.security).toEqual(op.security);
        expect(kept.responses).toBeUndefined();
        const plain = (ps: unknown) => ((ps as Json[] | undefined) ?? []).map(({ description: _d, example: _e, examples: _x, ...p }) => p);
        expect(plain(kept.parameters)).toEqual(plain(op.parameters));
        const body = op.requestBody as { required?: boolean; content: Record<string, Json> } | undefined;
        if (!body) expect(kept.requestBody).toBeUndefined();
        else {
          const keptBody = kept.requestBody as { required?: boolean; content: Record<string, Json> };
          expect(keptBody.required).toBe(body.required);
          for (const [type, media] of Object.entries(body.content)) expect(keptBody.content[type]!.schema).toEqual(media.schema);
        }
      }
    }
    expect(operations).toBeGreaterThan(80);
  });

  it('defines every component it refers to, and no examples or responses', () => {
    const refs = refsIn(slim);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) {
      const [, , kind, name] = ref.split('/');
      expect(slim.components[kind!]?.[name!], ref).toBeDefined();
    }
    expect(slim.components.examples).toBeUndefined();
    expect(slim.components.responses).toBeUndefined();
    expect(slim.components.securitySchemes).toEqual(full.components.securitySchemes);
    // Smaller by most of the contract: the responses' schemas and the examples are gone.
    expect(JSON.stringify(slim).length).toBeLessThan(JSON.stringify(full).length / 2);
  });

  it('leaves the contract document as it was', () => {
    expect(JSON.stringify(contractDocument())).toBe(before);
  });
});
