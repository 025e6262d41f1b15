/**
 * openapi-backend's `handleRequest` and `validateRequest` for an operation
 * matched beforehand (src/http/contract.ts), step for step in the library's
 * order and with its results, without what only a generic router needs:
 *
 * - no routing, no pre-routing parse, no hooks the service does not
 *   register (pre/post routing, pre-operation, post-response: createApi
 *   checks that none is registered);
 * - no security step when the operation has no requirement;
 * - validation reads the parse the security handlers got when the request
 *   had no body to add after them (the library parses it again, to the same
 *   result; validation then coerces that one, which only the validation
 *   failure handler could see, and it reads the errors alone); with a body,
 *   it parses it again as the library does;
 * - lodash's generic helpers replaced by the plain operations they perform
 *   on these values, the query parameters of an operation looked up in a
 *   table made once.
 *
 * The handlers, the validators and the parse are the library's (the parse
 * through src/http/request-parse.ts). tests/http/matched-dispatch.test.ts
 * sends the same requests, on every operation, through this and through
 * `handleRequest`, and compares what each handler received.
 */
import type { Context, OpenAPIBackend, ParsedRequest, Request as ApiRequest } from 'openapi-backend';
import type { ErrorObject, ValidateFunction } from 'ajv';

/** The fields of an operation the dispatch reads (openapi-backend's Operation, after its router flattened it). */
export interface DispatchedOperation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
}

interface Parameter {
  name?: unknown;
  in?: unknown;
  schema?: { type?: unknown };
  content?: Record<string, unknown>;
}

type HandlerFn = (context: Context, ...args: unknown[]) => unknown;

interface Prepared {
  /** The first query parameter of each name (`_.find(parameters, { name, in: 'query' })`). */
  queryParameter: Map<string, Parameter>;
  /** Query parameters with JSON content, in declaration order. */
  jsonQueryParameters: Parameter[];
  /** The request body's media types, when the only one is `application/json`. */
  onlyJsonBody: boolean;
}

export function createMatchedDispatch(backend: OpenAPIBackend) {
  const handlers = backend.handlers as Record<string, HandlerFn | undefined>;
  for (const hook of ['preRoutingHandler', 'postRoutingHandler', 'preOperationHandler', 'postResponseHandler']) {
    if (handlers[hook]) throw new Error(`the matched dispatch does not run openapi-backend's ${hook}: register none, or dispatch with handleRequest`);
  }
  const router = backend.router;
  const validator = backend.validator;
  const prepared = new WeakMap<object, Prepared>();

  const prepare = (operation: DispatchedOperation): Prepared => {
    let p = prepared.get(operation);
    if (p) return p;
    const parameters = (operation.parameters ?? []) as Parameter[];
    const queryParameter = new Map<string, Parameter>();
    for (const param of parameters) {
      if (param.in === 'query' && typeof param.name === 'string' && !queryParameter.has(param.name)) queryParameter.set(param.name, param);
    }
    const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    const mediaTypes = Object.keys(content);
    p = {
      queryParameter,
      jsonQueryParameters: parameters.filter((param) => !('$ref' in param) && param.in === 'query' && param.content?.['application/json']),
      onlyJsonBody: mediaTypes.length === 1 && mediaTypes[0] === 'application/json',
    };
    prepared.set(operation, p);
    return p;
  };

  /** `validator.validateRequest(req, operation)`, given the request's parse (which it changes, as the library changes its own). */
  function validate(
    req: ApiRequest,
    operation: DispatchedOperation,
    parsed: ParsedRequest,
  ): { valid: boolean; errors: ErrorObject[] | null; coerced: ApiRequest } {
    const result = { valid: true, coerced: { ...req }, errors: [] as ErrorObject[] | null };
    const errors = result.errors!;
    const { operationId } = operation;
    if (!operationId) throw new Error('Unknown operation');
    const p = prepare(operation);
    const validators = (validator.getRequestValidatorsForOperation(operationId) ?? []) as ValidateFunction[];
    const { params, query, headers, cookies, requestBody } = parsed;
    if (query) {
      for (const name of Object.keys(query)) {
        const value = query[name];
        if (typeof value === 'string') {
          const schema = p.queryParameter.get(name)?.schema;
          if (schema && schema.type === 'array') query[name] = [value];
        }
      }
    }
    // `_.omitBy({ path, query, header, cookie }, _.isNil)`
    const parameters: Record<string, unknown> = {};
    if (params != null) parameters.path = params;
    if (query != null) parameters.query = query;
    if (headers != null) parameters.header = headers;
    if (cookies != null) parameters.cookie = cookies;
    if (typeof req.body !== 'object' && req.body !== undefined && p.onlyJsonBody) {
      try {
        JSON.parse(`${req.body as string}`);
      } catch (err) {
        if (err instanceof Error)
          errors.push({ keyword: 'parse', instancePath: '', schemaPath: '#/requestBody', params: [], message: err.message } as ErrorObject);
      }
    }
    if (p.jsonQueryParameters.length) {
      const rawQuery = router.parseRequestQuery(req);
      for (const param of p.jsonQueryParameters) {
        const rawValue = rawQuery[param.name as string];
        if (typeof rawValue === 'string') {
          try {
            JSON.parse(rawValue);
          } catch (err) {
            if (err instanceof Error) {
              errors.push({
                keyword: 'parse',
                instancePath: `/query/${param.name as string}`,
                schemaPath: `#/parameters/${param.name as string}`,
                params: [],
                message: err.message,
              } as ErrorObject);
            }
          }
        }
      }
    }
    const rawContentType = headers['content-type'];
    const contentType = String((Array.isArray(rawContentType) ? rawContentType[0] : rawContentType) || '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    if (typeof requestBody === 'object' || contentType === 'application/json') parameters.requestBody = requestBody;
    for (const fn of validators) {
      fn(parameters);
      if (fn.errors) errors.push(...fn.errors);
      else if (validator.coerceTypes) {
        result.coerced.query = parameters.query as ApiRequest['query'];
        result.coerced.params = parameters.path as ApiRequest['params'];
      }
    }
    if (!errors.length) result.errors = null;
    else result.valid = false;
    return result;
  }

  /** `backend.handleRequest(req, ...args)` for a request whose operation is `operation`. */
  return async function dispatch(req: ApiRequest, operation: DispatchedOperation, ...args: unknown[]): Promise<unknown> {
    const context = { api: backend } as unknown as Context;
    context.request = router.parseRequest(req, operation as never);
    context.operation = operation as Context['operation'];
    const operationId = operation.operationId!;
    const bodyBefore = req.body;
    const securityRequirements = operation.security ?? [];
    const results: Record<string, unknown> = {};
    if (securityRequirements.length) {
      const schemes = securityRequirements.flatMap((requirement) => Object.keys(requirement));
      await Promise.all(
        schemes.map(async (name) => {
          results[name] = undefined;
          const securityHandler = backend.securityHandlers[name];
          if (!securityHandler) return;
          return await Promise.resolve()
            .then(() => securityHandler(context, ...args))
            .then((result: unknown) => {
              results[name] = result;
            })
            .catch((error: unknown) => {
              results[name] = { error: error || new Error('security handler rejected') };
            });
        }),
      );
    }
    const authorized = securityRequirements.some((requirement) => {
      for (const name of Object.keys(requirement)) {
        const result = results[name];
        if (!result) return false;
        if (typeof result === 'object' && (result as { error?: unknown }).error) return false;
      }
      return true;
    });
    context.security = { ...results, authorized } as Context['security'];
    const postSecurityHandler = handlers.postSecurityHandler;
    if (postSecurityHandler) await postSecurityHandler(context, ...args);
    if (!authorized && securityRequirements.length > 0) {
      const unauthorizedHandler = handlers.unauthorizedHandler;
      if (unauthorizedHandler) return unauthorizedHandler(context, ...args);
      throw new Error(`401-unauthorized: ${operationId} request did not satisfy security requirements and no unauthorizedHandler is registered`);
    }
    if (typeof backend.validate === 'function' ? backend.validate(context, ...args) : Boolean(backend.validate)) {
      // The library parses the request again here; with no body added since, that parse is the one above.
      const parsed = req.body === bodyBefore && req.body === undefined ? context.request : router.parseRequest(req, operation as never);
      context.validation = validate(req, operation, parsed) as Context['validation'];
      if (context.validation.errors) {
        const validationFail = handlers['400'] || handlers.validationFail;
        if (validationFail) return validationFail(context, ...args);
        throw new Error(`400-validationFail: ${operationId} request failed validation and no validationFail handler is registered`);
      }
      if (validator.coerceTypes) context.request = router.parseRequest(context.validation.coerced, operation as never);
    }
    const operationHandler = handlers[operationId];
    if (!operationHandler) {
      const notImplemented = handlers['501'] || handlers.notImplemented;
      if (!notImplemented) throw new Error(`501-notImplemented: ${operationId} no handler registered`);
      return notImplemented(context, ...args);
    }
    return operationHandler(context, ...args);
  };
}
