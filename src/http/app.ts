/** The express application: docs, the JSON API through openapi-backend, and one error mapping. */
import { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import { findJsonProblem, JSON_PROBLEM_MESSAGES, textProblem } from '../db/sql-helpers.js';
import type { ValidationIssue } from '../errors.js';
import { httpErrors } from './http.errors.js';
import type { Services } from '../services.js';
import { createApi, type Api } from './api.js';
import { bodyReadError, readJson, readMultipart } from './body.js';
import type { ContractOperation } from './contract.js';
import { adminAuthRoutes } from '../admin/auth-routes.js';
import { adminUiRoutes } from '../admin/ui-routes.js';
import { docsRouter } from './docs.js';
import { createDrain, type Drain } from './drain.js';
import { createHealth, databaseChecks, type Health } from './health.js';
import type { Span } from '@opentelemetry/api';
import { metrics } from '../observability/metrics.js';
import { metricsMiddleware } from '../observability/metrics-endpoint.js';
import { SpanKind, traced, tracingEnabled } from '../observability/tracing.js';
import { apiCors, securityHeaders } from './security.js';
import { toErrorResponse } from './error-mapping.js';
import type { Handlers, StreamBody, UploadedFile } from './handler-types.js';
import { writeJson } from './json-reply.js';
import { reusedText } from './reused-body.js';
import { createHandlers } from './registry.js';

export interface AppOptions {
  services: Services;
  /** Replace handlers (tests, benchmarks). */
  handlers?: Handlers;
  /** Readiness checks (default: the database and its migrations; the caller adds the bus and the engine where it runs them). */
  health?: Health;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The metrics label of a request no operation took: its family, never its path (bounded). */
function routeFamily(path: string): string {
  if (path === '/healthz' || path === '/readyz') return 'health';
  if (path === '/metrics') return 'metrics';
  if (path.startsWith('/api/play/stream')) return 'stream';
  if (path.startsWith('/api')) return 'api_unmatched';
  if (path.startsWith('/admin')) return 'admin';
  if (path.startsWith('/docs') || path.startsWith('/openapi')) return 'docs';
  return 'other';
}

interface AnyReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
  stream?: StreamBody['stream'];
  filename?: string;
}

const isApiPath = (p: string) => p.startsWith('/api/') || p === '/admin/api-session';

function requestContentType(op: ContractOperation): string | undefined {
  return op.requestBody ? Object.keys(op.requestBody.content)[0] : undefined;
}

/**
 * The path parameters, each decoded once here: the path openapi-backend gets
 * carries them re-encoded canonically (its router decodes them again, and
 * throws on a malformed escape), and the ones that do not decode, or decode
 * to text PostgreSQL cannot store, are problems to answer (422) once the
 * caller is authorized.
 */
function pathParameters(operation: ContractOperation, raw: Record<string, string>): { path: string; problems: ValidationIssue[] } {
  const problems: ValidationIssue[] = [];
  let path = operation.path;
  for (const [name, value] of Object.entries(raw)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(value);
      const problem = textProblem(decoded);
      if (problem) problems.push({ loc: ['path', name], msg: JSON_PROBLEM_MESSAGES[problem], type: problem });
    } catch {
      decoded = value;
      problems.push({ loc: ['path', name], msg: 'not valid percent-encoded UTF-8', type: 'percent_encoding' });
    }
    path = path.replace(`{${name}}`, () => encodeURIComponent(decoded));
  }
  return { path, problems };
}

function refuseJsonProblem(found: ReturnType<typeof findJsonProblem>): void {
  if (found) throw httpErrors.invalid([{ loc: found.loc, msg: JSON_PROBLEM_MESSAGES[found.problem], type: found.problem }]);
}

async function send(res: Response, reply: AnyReply): Promise<void> {
  if (reply.headers) res.set(reply.headers);
  if (reply.filename) res.attachment(reply.filename);
  if (reply.stream !== undefined) {
    res.status(reply.status).type(`${reply.contentType ?? 'application/octet-stream'}; charset=utf-8`);
    const source = typeof reply.stream === 'string' ? Readable.from([reply.stream]) : Readable.from(reply.stream as AsyncIterable<string>);
    await new Promise<void>((resolve, reject) => {
      source.on('error', reject);
      res.on('finish', resolve);
      res.on('close', resolve);
      source.pipe(res);
    });
    return;
  }
  if (reply.body === undefined) {
    res.status(reply.status).end();
    return;
  }
  const text = reusedText(reply.body) ?? JSON.stringify(reply.body);
  if (reply.headers || reply.filename || !writesPlainly(res, reply.status)) {
    res.status(reply.status).type('application/json').send(text);
    return;
  }
  // What express's res.send writes for this reply (the same status line and headers in the same order), written
  // directly: none of send's checks can apply (no ETag, no conditional request, a status with a body).
  writeJson(res, reply.status, text);
}

/**
 * Whether express's res.send would write a JSON reply as is: a 200 or 201 to a request with no conditional
 * header (If-None-Match: * makes res.send answer 304 even without an ETag) and no content type set before.
 */
function writesPlainly(res: Response, status: number): boolean {
  const { headers } = res.req;
  return (
    (status === 200 || status === 201) &&
    headers['if-none-match'] === undefined &&
    headers['if-modified-since'] === undefined &&
    !res.hasHeader('Content-Type') &&
    !res.hasHeader('Transfer-Encoding')
  );
}

export async function createApp({
  services,
  handlers,
  health = createHealth(databaseChecks(services.database)),
}: AppOptions): Promise<{ app: express.Express; api: Api; drain: Drain; health: Health }> {
  const { config, logger } = services;
  const api = await createApi({ services, handlers: handlers ?? createHandlers(services) });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.trustProxy !== false) app.set('trust proxy', config.trustProxy);
  const drain = createDrain({ onStart: health.drain });

  /** Times every request into the metrics, and logs the ones that failed. */
  const timing = (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      metrics.httpDuration.observe(
        {
          operation: (res.locals.operation as string | undefined) ?? routeFamily(req.path),
          method: METHODS.has(req.method) ? req.method : 'other',
          status: String(res.statusCode),
        },
        ms / 1000,
      );
      // The path only: query strings may carry keys (the WebSocket's api_key).
      // 503s (database out of reach, shutting down) are logged where they arise, as warnings.
      if (res.statusCode >= 500 && res.statusCode !== 501 && res.statusCode !== 503)
        logger.error({ method: req.method, path: req.path, status: res.statusCode, ms }, 'request failed');
      else if (logger.isLevelEnabled('debug')) logger.debug({ method: req.method, path: req.path, status: res.statusCode, ms }, 'request');
    });
    next();
  };
  const security = securityHeaders();
  const corsMiddleware = apiCors(config.corsOrigins);

  /** An API request, once the steps before it ran: matched, admitted, dispatched, answered; any failure to the error handler. */
  const answer = async (req: Request, res: Response, next: NextFunction) => {
    try {
      // HEAD is GET without the body (RFC 9110 §9.3.2): matched, authorized and answered as the GET
      // (headers and status included); Node's HTTP server leaves the body out.
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const match = api.matcher.match(method, req.path);
      if (match.kind === 'not-found') throw httpErrors.routeNotFound({ method: req.method, path: req.path });
      if (match.kind === 'method-not-allowed') {
        const allowed = match.allowed.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ');
        throw httpErrors.methodNotAllowed({ method: req.method, path: req.path, allowed });
      }
      const { operation } = match;
      res.locals.operation = operation.operationId;
      const { path, problems } = pathParameters(operation, match.params);
      // express parses the query string on every read of req.query: once here.
      const query = req.query as Record<string, string | string[]>;
      const admit = async () => {
        if (problems.length) throw httpErrors.invalid(problems);
        refuseJsonProblem(findJsonProblem(query, ['query']));
        const expected = requestContentType(operation);
        let body: unknown;
        let files: UploadedFile[] = [];
        if (expected === 'multipart/form-data') ({ body, files } = await readMultipart(req, operation));
        else if (expected) body = await readJson(req, res, config.jsonBodyLimitBytes);
        refuseJsonProblem(findJsonProblem(body, ['body']));
        return { body, files };
      };
      const handle = async (span?: Span) => {
        const reply = (await api.dispatch({ method, path, query, headers: req.headers as Record<string, string | string[]>, body: undefined }, operation, {
          req,
          admit,
        })) as AnyReply;
        span?.setAttribute('http.response.status_code', reply.status);
        await send(res, reply);
      };
      if (tracingEnabled()) {
        await traced(
          `${method} ${operation.path}`,
          { 'http.request.method': method, 'http.route': operation.path, 'qp.operation': operation.operationId },
          handle,
          SpanKind.SERVER,
        );
      } else await handle();
    } catch (err) {
      next(err);
    }
  };

  /**
   * An API request: the steps the layers below run for every request, in their order (the probes and
   * /metrics never match an API path; CORS as mounted below on /api, and an API path is /api/... or
   * /admin/api-session), then the API. It ends answered, or calls `fail` with what went wrong.
   */
  const apiRequest = (req: Request, res: Response, fail: (err: unknown) => void) => {
    // A rejection without a reason still fails the request (express would take it for "go on", and answer 404).
    const dispatch = () => void answer(req, res, (err: unknown) => fail(err ?? new Error('the request failed without an error')));
    const cors = corsMiddleware && req.path.startsWith('/api/') ? () => corsMiddleware(req, res, dispatch) : dispatch;
    drain.middleware(req, res, () => timing(req, res, () => security(req, res, cors)));
  };

  // The first layer: an API request that failed comes back through the router (see app.handle below) to reach
  // the error handler as any other request would.
  app.use((req: Request, _res: Response, next: NextFunction) => {
    const failed = (req as Failed)[API_FAILURE];
    if (failed === undefined) return next();
    delete (req as Failed)[API_FAILURE];
    next(failed.err);
  });

  // Every other request. Probes first: /healthz answers while the process drains, /readyz says 503 from the moment it starts to.
  app.use(health.middleware);
  app.use(metricsMiddleware(config.ops.metricsToken));
  // Then, during shutdown, new requests are refused before anything else runs.
  app.use(drain.middleware);
  app.use(timing);
  app.use(security);
  if (corsMiddleware) app.use(['/api', '/openapi.json'], corsMiddleware);

  // The pages (docs, operator UI).
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.use(docsRouter());
  app.use('/admin', adminAuthRoutes(services));
  app.use('/admin', adminUiRoutes(services));

  app.use((req: Request, _res: Response, next: NextFunction) => next(httpErrors.routeNotFound({ method: req.method, path: req.path })));

  // Body-parser failures (the operator UI's forms), AppErrors and anything unexpected, mapped in one place.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const out = toErrorResponse(bodyReadError(err, req, config.jsonBodyLimitBytes) ?? err, logger, { method: req.method, path: req.path });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(out.status).set(out.headers).type('application/json').send(JSON.stringify(out.body));
  });

  // API requests skip express's router: express's app.handle is done here (references between request and
  // response, their prototypes, res.locals) and so is what the router sets up for a layer mounted at '/', then
  // apiRequest runs; a failure goes through the router with its error. Every other request is express's own.
  const route = (app as unknown as Handle).handle.bind(app);
  (app as unknown as Handle).handle = (req, res, callback) => {
    if (callback !== undefined) return route(req, res, callback);
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    if (!isApiPath(req.path)) return route(req, res);
    req.baseUrl = '';
    req.originalUrl ||= req.url;
    req.params = {};
    const fail = (err: unknown) => {
      (req as Failed)[API_FAILURE] = { err };
      route(req, res);
    };
    try {
      apiRequest(req, res, fail);
    } catch (err) {
      fail(err);
    }
  };

  return { app, api, drain, health };
}

const API_FAILURE = Symbol('apiFailure');
type Failed = Request & { [API_FAILURE]?: { err: unknown } };
interface Handle {
  handle(req: Request, res: Response, callback?: NextFunction): void;
}
