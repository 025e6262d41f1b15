/**
 * openapi-backend wiring: routes by operationId, validates requests with the
 * generated validators, authenticates, and dispatches to the typed handlers.
 */
import type { Request as ExpressRequest } from 'express';
import { OpenAPIBackend, type Context, type Request as ApiRequest } from 'openapi-backend';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { adminSessionErrors } from '../modules/admin-sessions/admin-sessions.errors.js';
import { authErrors } from '../modules/auth/auth.errors.js';
import { httpErrors } from './http.errors.js';
import type { AuthContext } from '../modules/auth/auth.service.js';
import type { Services } from '../services.js';
import { contractDocument, isAdminOperation, requestContract, OperationMatcher, type ContractOperation } from './contract.js';
import { loadRequestValidators, type RequestValidators } from '../request-validators.js';
import { ajvErrorsToIssues } from '../validation-issues.js';
import type { Handler, HandlerRequest, Handlers, OperationId, UploadedFile } from './handler-types.js';
import { installRequestParse } from './request-parse.js';
import { REQUEST_AJV_OPTIONS } from './validation-formats.js';
import { traced, tracingEnabled } from '../observability/tracing.js';

/** What the express layer hands to each dispatch beside the request. */
export interface DispatchContext {
  req: ExpressRequest;
  /**
   * Checks the path and query and reads the body: called once the caller is
   * authorized (never for a 401 or 403), so nothing about the request's
   * content is looked at, or read off the wire, before that.
   */
  admit(): Promise<{ body: unknown; files: UploadedFile[] }>;
}

/** The request openapi-backend validates, and the files read beside its body. */
interface Admitted {
  target: DispatchRequest;
  files: UploadedFile[];
}
const ADMITTED = Symbol('admitted');
type InternalContext = DispatchContext & { [ADMITTED]: Admitted };

/** The pre-matched operation rides on the request object, so openapi-backend does not match again. */
const MATCHED = Symbol('matchedOperation');
export type DispatchRequest = ApiRequest & { [MATCHED]?: ContractOperation };

export interface Api {
  backend: OpenAPIBackend;
  matcher: OperationMatcher<ContractOperation>;
  /** openapi-backend's `handleRequest` for a request the front door matched to `operation` (not matched again). */
  dispatch(request: ApiRequest, operation: ContractOperation, ctx: DispatchContext): Promise<unknown>;
  /** Loads the request validators now (a start calls it once ready); requests wait for them anyway. */
  loadValidators(): Promise<void>;
}

const bearerToken = (header: unknown): string | undefined => {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return m?.[1];
};

export async function createApi({ services, handlers }: { services: Services; handlers: Handlers }): Promise<Api> {
  // The request side of the contract only: openapi-backend copies and dereferences what it is given at every start.
  const document = requestContract(contractDocument());
  const backend = new OpenAPIBackend({
    definition: document as never,
    strict: true,
    // Validators come pre-compiled from generated/; nothing is compiled at start.
    quick: true,
    coerceTypes: true,
    validate: true,
    ajvOpts: REQUEST_AJV_OPTIONS,
  });

  backend.register({
    notFound: () => {
      throw httpErrors.routeNotFound();
    },
    methodNotAllowed: () => {
      throw httpErrors.methodNotAllowed();
    },
    validationFail: (c: Context) => {
      throw httpErrors.invalid(ajvErrorsToIssues((c.validation.errors ?? []) as ErrorObject[]));
    },
    unauthorizedHandler: (c: Context) => {
      if (c.operation.operationId === 'createAdminApiSession') throw adminSessionErrors.missing();
      throw authErrors.unauthorized();
    },
    postSecurityHandler: async (c: Context, ctx: InternalContext) => {
      // A key that could not be checked (the database is out of reach) is not a bad key:
      // the check's own error answers (503), never 401, which would make clients drop their key.
      const checked = c.security?.bearerAuth as { error?: unknown } | undefined;
      if (checked && typeof checked === 'object' && checked.error) throw checked.error;
      const auth = c.security?.bearerAuth as AuthContext | undefined;
      if (c.security?.authorized && auth && isAdminOperation(c.operation) && !auth.user.isAdmin) {
        throw authErrors.forbidden();
      }
      // Unauthorized: the unauthorizedHandler answers 401 next, the request unread.
      if (!c.security?.authorized && (c.operation.security?.length ?? 0) > 0) return;
      const { body, files } = await ctx.admit();
      const admitted = ctx[ADMITTED];
      admitted.target.body = body;
      admitted.files = files;
      c.request.requestBody = body;
    },
    notImplemented: (c: Context) => {
      throw httpErrors.notImplemented(c.operation.operationId);
    },
  });

  backend.registerSecurityHandler('bearerAuth', async (c: Context) => {
    const token = bearerToken(c.request.headers.authorization);
    if (!token) return false;
    return (await services.auth.authenticate(token)) ?? false;
  });
  // The admin UI session (a cookie) is checked by the operation's handler.
  backend.registerSecurityHandler('adminSession', (c: Context) => Boolean(c.request.cookies?.qp_admin_session));

  // In quick mode openapi-backend's init hands the definition object to json-schema-ref-parser's parse (unawaited),
  // whose only result is `document` set to that same object; on the way it walks the whole contract for $ids, and
  // loads the parser (with YAML and the URL resolvers) for it. The service resolves no reference by file or URL: the
  // document is set directly, and the parser stays unloaded (scripts/build.ts defers it).
  backend.loadDocument = async () => (backend.document = document as never);
  await backend.init();

  const operations = backend.router.getOperations() as unknown as ContractOperation[];
  const declared = Object.values((document as { paths: Record<string, Record<string, unknown>> }).paths).reduce(
    (n, item) => n + Object.keys(item).filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m)).length,
    0,
  );
  if (operations.length !== declared) throw new Error(`openapi-backend loaded ${operations.length} operations, the contract declares ${declared}`);

  // Pre-compiled validators, so the first request of each operation compiles nothing either. Loaded after the start
  // (src/request-validators.ts): until they are in, a request waits for them, never for validators openapi-backend
  // would compile itself.
  const validators = backend.validator.requestValidators as Record<string, ValidateFunction[] | null>;
  const install = (generated: RequestValidators) => {
    for (const op of operations) {
      const fns = generated[op.operationId];
      if (!fns) throw new Error(`generated/request-validators.js lacks ${op.operationId}: run npm run generate`);
      validators[op.operationId] = fns;
    }
    validatorsIn = true;
  };
  let validatorsIn = false;
  let installing: Promise<void> | undefined;
  const loadValidators = () => (installing ??= loadRequestValidators().then(install));

  // The one step the service does in place of openapi-backend's: routing. The front door matches an API request
  // once, with a table built at start (src/http/contract.ts: the library's router filters every operation and
  // compiles a regular expression per operation on each request), and it needs the operation before dispatching
  // (metrics label, HEAD as GET, path checks, the body's media type). handleRequest takes that operation from the
  // request instead of matching again; its other steps (parse, security, validation, coercion, handlers) are the
  // library's own.
  const matcher = new OperationMatcher(operations);
  const libraryMatch = backend.router.matchOperation.bind(backend.router);
  backend.router.matchOperation = ((req: DispatchRequest, strict?: boolean) =>
    req[MATCHED] ?? libraryMatch(req, strict as true)) as typeof backend.router.matchOperation;
  // handleRequest parses a request before routing (for a preRoutingHandler, which we do not register) and again
  // with the matched operation (then validation and coercion parse it too). A pre-matched request skips the first:
  // its result is replaced unread. The others are the library's parse, made cheaper (src/http/request-parse.ts).
  installRequestParse(backend.router, (req: DispatchRequest, operation) => operation === undefined && req[MATCHED] !== undefined);

  // Written straight into openapi-backend's handler table: its register() looks every operationId up by rebuilding the
  // whole operation list with lodash (~50 ms of a start for the contract's operations). The check it makes is made here once.
  const known = new Set(operations.map((op) => op.operationId));
  const table = backend.handlers as Record<string, (c: Context, ctx: InternalContext) => unknown>;
  for (const [operationId, handler] of Object.entries(handlers) as [OperationId, Handler<OperationId>][]) {
    if (!known.has(operationId)) throw new Error(`Unknown operationId ${operationId}. Refusing to register handler`);
    table[operationId] = (c: Context, ctx: InternalContext) => {
      const request: HandlerRequest<OperationId> = {
        operationId,
        // Decoded once, by openapi-backend (the express layer refused parameters that do not decode).
        params: c.request.params as never,
        query: c.request.query as never,
        body: c.request.requestBody as never,
        files: ctx[ADMITTED].files,
        auth: (c.security?.bearerAuth as AuthContext | false | undefined) || null,
        headers: ctx.req.headers,
        raw: ctx.req,
      };
      // Without tracing, the handler is called as is.
      return tracingEnabled() ? traced(`handler ${operationId}`, { 'qp.operation': operationId }, () => handler(request)) : handler(request);
    };
  }

  return {
    backend,
    matcher,
    loadValidators,
    dispatch: (request, operation, ctx) => {
      const target = { ...request, [MATCHED]: operation } as DispatchRequest;
      const internal = { ...ctx, [ADMITTED]: { target, files: [] } } satisfies InternalContext;
      const run = () => backend.handleRequest(target, internal);
      return validatorsIn ? run() : loadValidators().then(run);
    },
  };
}
