/**
 * openapi-backend's request parse (`OpenAPIRouter#parseRequest`, run three
 * times per request: for the security handlers, inside validation, and on
 * the coerced request) with the same result for the requests api.ts hands
 * it, without the work that result does not need:
 *
 * - the path template of the operation is compiled into a regular expression
 *   once per template (bath-es5 compiles it on every call);
 * - the query, an object whose values are strings, numbers, booleans, null or
 *   arrays of those (express's simple parser; the validator's coerced copy),
 *   is copied as lodash's `cloneDeep` copies it, and the URL-encoded string
 *   the library builds from it and throws away is not built;
 * - a query parameter's declaration is looked up in a table made once per
 *   operation, not searched for in its parameter list.
 *
 * Every other step is the library's, in its order (body, headers, cookies,
 * query, normalisation, path parameters, query parameter styles). A request
 * of any other shape (a query given as a string, or holding objects) goes to
 * the library's own parse. tests/http/request-parse.test.ts compares both on
 * every operation of the contract.
 */
import { createRequire } from 'node:module';
import type { OpenAPIRouter, ParsedRequest, Request as ApiRequest } from 'openapi-backend';

/** bath-es5 and cookie as openapi-backend resolves them (the same copies its parse uses). */
const requireFromBackend = createRequire(createRequire(import.meta.url).resolve('openapi-backend'));
const bath = (requireFromBackend('bath-es5') as { default: (template: string) => { params(path: string): Record<string, string> | null } }).default;
const cookie = requireFromBackend('cookie') as { parse(text: string): Record<string, string | undefined> };

interface QueryParameter {
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  content?: Record<string, unknown>;
}

/** The operation fields the parse reads. */
interface ParsedOperation {
  path: string;
  parameters?: unknown[];
}

type Primitive = string | number | boolean | null;
const isPrimitive = (v: unknown): v is Primitive => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** `_.cloneDeep` of a query whose values are primitives or arrays of primitives (a plain object; arrays copied); null for anything else. */
function copyQuery(query: Record<string, unknown>): Record<string, unknown> | null {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(query)) {
    let value = query[key];
    if (Array.isArray(value) && Object.keys(value).length === value.length && value.every(isPrimitive)) value = value.slice();
    else if (!isPrimitive(value)) return null;
    // lodash assigns `__proto__` as an own property too (a null-prototype query can carry one).
    if (key === '__proto__') Object.defineProperty(copy, key, { configurable: true, enumerable: true, writable: true, value });
    else copy[key] = value;
  }
  return copy;
}

/** Replaces `router.parseRequest` with the same parse, cheaper for the requests the service builds (see above). */
export function installRequestParse(router: OpenAPIRouter, skip: (req: ApiRequest, operation: unknown) => boolean): void {
  const original = router.parseRequest.bind(router);
  const templates = new Map<string, ReturnType<typeof bath>>();
  const queryParameters = new WeakMap<object, Map<string, QueryParameter>>();

  const template = (path: string) => {
    let t = templates.get(path);
    if (!t) templates.set(path, (t = bath(path)));
    return t;
  };

  /** The first query parameter of each name, as `operation.parameters.find(...)` returns it. */
  const queryParametersOf = (operation: ParsedOperation) => {
    let table = queryParameters.get(operation);
    if (!table) {
      table = new Map();
      for (const p of (operation.parameters ?? []) as (QueryParameter & { $ref?: string })[]) {
        if (p && !('$ref' in p) && p.in === 'query' && !table.has(p.name)) table.set(p.name, p);
      }
      queryParameters.set(operation, table);
    }
    return table;
  };

  router.parseRequest = ((req: ApiRequest, operation?: ParsedOperation): ParsedRequest => {
    if (skip(req, operation)) return req as ParsedRequest;
    const rawQuery = req.query;
    const query = rawQuery !== null && typeof rawQuery === 'object' ? copyQuery(rawQuery as Record<string, unknown>) : null;
    if (query === null) return original(req, operation as never);

    let requestBody: unknown = req.body;
    if (req.body && typeof req.body !== 'object') {
      try {
        requestBody = JSON.parse((req.body as { toString(): string }).toString());
      } catch {
        // As the library: a body that is not JSON stays as it is, and validation says so.
      }
    }
    // `_.mapKeys(req.headers, (v, k) => k.toLowerCase())`
    const headers: Record<string, string | string[]> = {};
    for (const name of Object.keys(req.headers)) headers[name.toLowerCase()] = req.headers[name]!;
    // `cookie.parse(_.flatten([cookieHeader]).join('; '))`
    const cookies = cookie.parse([headers.cookie].flat().join('; '));
    const normalized = router.normalizeRequest(req);
    let params: Record<string, string> = {};
    if (operation) {
      params = template(operation.path).params(router.normalizePath(normalized.path)) ?? {};
      const declared = queryParametersOf(operation);
      if (declared.size) {
        for (const name in query) {
          if (!query[name]) continue;
          const parameter = declared.get(name);
          if (!parameter) continue;
          if (parameter.content && parameter.content['application/json']) {
            const value = query[name];
            if (typeof value === 'string') {
              try {
                query[name] = JSON.parse(value);
              } catch {
                // Left as it is; validation reports it.
              }
            }
          } else if (parameter.explode === false) {
            const value = query[name];
            if (Array.isArray(value) && value.length > 1) continue;
            const first: unknown = Array.isArray(value) ? value[0] : value;
            if (typeof first !== 'string') continue;
            let decoded = first.replace(/%2C/g, ',');
            if (parameter.style === 'spaceDelimited') decoded = decoded.replace(/ /g, ',').replace(/%20/g, ',');
            if (parameter.style === 'pipeDelimited') decoded = decoded.replace(/\|/g, ',').replace(/%7C/g, ',');
            query[name] = decoded.split(',');
          }
        }
      }
    }
    return { ...normalized, params, headers, query, cookies, requestBody } as ParsedRequest;
  }) as typeof router.parseRequest;
}
