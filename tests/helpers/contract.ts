/**
 * Contract checks for every response a test receives: the status must be
 * declared for the operation, a JSON body must validate against the schema of
 * that status, other bodies must have the declared media type, and the
 * headers the contract declares required (X-Error-Code on every error) must be
 * there and match their schema's pattern.
 */
import type { ValidateFunction } from 'ajv';
import { responseValidators } from '../../generated/response-validators.js';
import { contractDocument, OperationMatcher } from '../../src/http/contract.js';

interface ContractOp {
  operationId: string;
  method: string;
  path: string;
  responses: Record<string, { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, DeclaredHeader> }>;
}

interface DeclaredHeader {
  $ref?: string;
  required?: boolean;
  schema?: { pattern?: string; enum?: string[] };
}

const doc = contractDocument() as {
  paths: Record<string, Record<string, Omit<ContractOp, 'method' | 'path'>>>;
  components: {
    responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, DeclaredHeader> }>;
    headers: Record<string, DeclaredHeader>;
  };
};
export const contractOperations: ContractOp[] = Object.entries(doc.paths).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([m]) => ['get', 'put', 'post', 'patch', 'delete'].includes(m))
    .map(([method, op]) => ({ ...op, method, path: p })),
);
const matcher = new OperationMatcher(contractOperations);

export class ContractViolation extends Error {}

export interface ReceivedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: unknown;
  text: string;
  /** The response's headers, when the caller has them: required declared headers are checked. */
  header?: (name: string) => string | null | undefined;
}

/** Throws ContractViolation when the response breaks the contract; returns the operationId. */
export function assertMatchesContract(res: ReceivedResponse): string | undefined {
  const where = `${res.method} ${res.path} -> ${res.status}`;
  const match = matcher.match(res.method, res.path);
  if (match.kind !== 'ok') {
    // Unknown routes and methods: not operations, but still the error body.
    if (!res.body || typeof (res.body as { detail?: unknown }).detail !== 'string')
      throw new ContractViolation(`${where}: error body must be {"detail": "..."}, got ${res.text.slice(0, 200)}`);
    return undefined;
  }
  const op = match.operation;
  const declared = op.responses[String(res.status)];
  if (!declared) {
    throw new ContractViolation(
      `${where}: status ${res.status} is not declared for ${op.operationId} (declared: ${Object.keys(op.responses).join(', ')}); body: ${res.text.slice(0, 300)}`,
    );
  }
  const response = declared.$ref ? doc.components.responses[declared.$ref.split('/').pop()!]! : declared;
  if (res.header) {
    for (const [name, h] of Object.entries(response.headers ?? {})) {
      const header = h.$ref ? doc.components.headers[h.$ref.split('/').pop()!]! : h;
      if (!header.required) continue;
      const value = res.header(name);
      if (value === null || value === undefined) throw new ContractViolation(`${where}: the required header ${name} is missing`);
      if (header.schema?.pattern && !new RegExp(header.schema.pattern).test(value)) {
        throw new ContractViolation(`${where}: header ${name}: ${JSON.stringify(value)} does not match ${header.schema.pattern}`);
      }
      // An operation's error codes are declared with it: a code it does not declare is one clients cannot know of.
      if (header.schema?.enum && !header.schema.enum.includes(value)) {
        throw new ContractViolation(
          `${where}: ${op.operationId} answered ${name}: ${value}, which it does not declare for ${res.status} (${header.schema.enum.join(', ')}); add it to the contract`,
        );
      }
    }
  }
  const mediaTypes = Object.keys(response.content ?? {});
  if (mediaTypes.length === 0) {
    if (res.text.length) throw new ContractViolation(`${where}: ${op.operationId} declares no body for ${res.status}, got ${res.text.slice(0, 200)}`);
    return op.operationId;
  }
  const type = res.contentType.split(';')[0]!.trim();
  if (!mediaTypes.includes(type)) throw new ContractViolation(`${where}: content type ${type} is not declared (${mediaTypes.join(', ')})`);
  if (type === 'application/json') {
    const validate = (responseValidators as Record<string, Record<string, ValidateFunction>>)[op.operationId]?.[String(res.status)];
    if (!validate) throw new ContractViolation(`${where}: no generated validator for ${op.operationId} ${res.status}; run npm run generate`);
    if (!validate(res.body)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
      throw new ContractViolation(
        `${where}: body does not match the contract for ${op.operationId}:\n  ${errors.slice(0, 10).join('\n  ')}\nbody: ${res.text.slice(0, 500)}`,
      );
    }
  }
  return op.operationId;
}

/**
 * The columns of a CSV export as the contract documents them: the header row
 * of the example of `GET <path>`'s 200 response. Tests expect the export to
 * have exactly these, an expectation independent of the service's own list.
 */
export function contractCsvColumns(path: string): string[] {
  const op = contractOperations.find((o) => o.method === 'get' && o.path === path);
  const example = (op?.responses['200']?.content?.['text/csv'] as { schema?: { example?: unknown } } | undefined)?.schema?.example;
  if (typeof example !== 'string') throw new Error(`the contract shows no CSV example for GET ${path}`);
  return example.split('\n')[0]!.split(',');
}
