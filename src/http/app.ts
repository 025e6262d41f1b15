/** The express application: docs, the JSON API through openapi-backend, and one error mapping. */
import { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { findJsonProblem, JSON_PROBLEM_MESSAGES, textProblem } from '../db/sql-helpers.js';
import type { ValidationIssue } from '../errors.js';
import { httpErrors } from './http.errors.js';
import type { Services } from '../services.js';
import { createApi, type Api } from './api.js';
import { readJson, readMultipart } from './body.js';
import { percentIssue, urlEncodedProblems } from './utf8.js';
import type { ContractOperation } from './contract.js';
import { adminAuthRoutes } from '../admin/auth-routes.js';
import { adminUiRoutes } from '../admin/ui-routes.js';
import { docsRouter } from './docs.js';
import { createDrain, type Drain } from './drain.js';
import { createFrontDoor, type FrontDoor } from './front-door.js';
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

/** Where CORS applies: express's match of the mount paths '/api' and '/openapi.json'. */
const CORS_PATH = /^\/(api|openapi\.json)(\/|$)/i;

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

export async function createApp({ services, handlers, health = createHealth(databaseChecks(services.database)) }: AppOptions): Promise<{
  app: express.Express;
  /** The server's request listener and its options (createFrontDoorServer): the API through the pipeline's front door, the rest through `app`. */
  frontDoor: FrontDoor;
  api: Api;
  drain: Drain;
  health: Health;
}> {
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
        // The query as sent: escapes that are not UTF-8 (express's parser reads them as U+FFFD) are refused.
        const at = req.url.indexOf('?');
        const encoding = at < 0 ? [] : urlEncodedProblems(Buffer.from(req.url.slice(at + 1), 'latin1'), 'query', percentIssue);
        if (encoding.length) throw httpErrors.invalid(encoding);
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

  // The pipeline: the steps every request runs, in this order, before its answer (express runs them for every
  // request it routes; the front door for the API, src/http/front-door.ts). A step for the API goes here.
  const steps: RequestHandler[] = [
    // During shutdown, new requests are refused before anything else runs.
    drain.middleware,
    timing,
    security,
    // CORS on the JSON API and the contract (as express matches a mount path: case-insensitive, the path or below it).
    ...(corsMiddleware ? [(req: Request, res: Response, next: NextFunction) => (CORS_PATH.test(req.path) ? corsMiddleware(req, res, next) : next())] : []),
  ];

  // The error reply of every request, AppErrors (the operator UI's forms' included) and anything unexpected, mapped in one place.
  const fail = (err: unknown, req: Request, res: Response) => {
    const out = toErrorResponse(err, logger, { method: req.method, path: req.path });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(out.status).set(out.headers).type('application/json').send(JSON.stringify(out.body));
  };

  // Probes first: /healthz answers while the process drains, /readyz says 503 from the moment it starts to.
  // Neither they nor /metrics ever match an API path.
  app.use(health.middleware);
  app.use(metricsMiddleware(config.ops.metricsToken));
  for (const step of steps) app.use(step);
  app.use((req: Request, res: Response, next: NextFunction) => (isApiPath(req.path) ? answer(req, res, next) : next()));

  // The pages (docs, operator UI).
  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.use(docsRouter());
  app.use('/admin', adminAuthRoutes(services));
  app.use('/admin', adminUiRoutes(services));

  app.use((req: Request, _res: Response, next: NextFunction) => next(httpErrors.routeNotFound({ method: req.method, path: req.path })));
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => fail(err, req, res));

  const frontDoor = createFrontDoor({ app, isApiPath, steps, answer, fail });
  return { app, frontDoor, api, drain, health };
}
