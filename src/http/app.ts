/** The express application: docs, the JSON API through openapi-backend, and one error mapping. */
import { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import { findJsonProblem, MAX_JSON_DEPTH } from '../db/sql-helpers.js';
import { AppError, validationError } from '../errors.js';
import type { Services } from '../services.js';
import { createApi, type Api } from './api.js';
import { parseMultipart } from './body.js';
import type { ContractOperation } from './contract.js';
import { adminAuthRoutes } from '../admin/auth-routes.js';
import { adminUiRoutes } from '../admin/ui-routes.js';
import { docsRouter } from './docs.js';
import { createDrain, type Drain } from './drain.js';
import { apiCors, securityHeaders } from './security.js';
import { toErrorResponse } from './error-mapping.js';
import type { Handlers, StreamBody, UploadedFile } from './handler-types.js';
import { createHandlers } from './registry.js';

export interface AppOptions {
  services: Services;
  /** Replace handlers (tests, benchmarks). */
  handlers?: Handlers;
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
  res.status(reply.status).type('application/json').send(JSON.stringify(reply.body));
}

/** What is wrong with a JSON body the parser refused: not JSON at all, or JSON that is not an object or array. */
function jsonParseMessage(err: Error & { body?: unknown }): string {
  if (typeof err.body === 'string') {
    try {
      const value: unknown = JSON.parse(err.body);
      return `the body must be a JSON object or array, not ${value === null ? 'null' : `a JSON ${typeof value}`}`;
    } catch {
      // Not JSON: the parser's own words say where.
    }
  }
  return `malformed JSON: ${err.message}`;
}

export async function createApp({ services, handlers }: AppOptions): Promise<{ app: express.Express; api: Api; drain: Drain }> {
  const { config, logger } = services;
  const api = await createApi({ services, handlers: handlers ?? createHandlers(services) });
  const app = express();
  // First: during shutdown, new requests are refused before anything else runs.
  const drain = createDrain();
  app.use(drain.middleware);
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.trustProxy !== false) app.set('trust proxy', config.trustProxy);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: query strings may carry keys (the WebSocket's api_key).
      // 503s (database out of reach, shutting down) are logged where they arise, as warnings.
      if (res.statusCode >= 500 && res.statusCode !== 501 && res.statusCode !== 503) logger.error({ method: req.method, path: req.path, status: res.statusCode, ms }, 'request failed');
      else if (logger.isLevelEnabled('debug')) logger.debug({ method: req.method, path: req.path, status: res.statusCode, ms }, 'request');
    });
    next();
  });

  app.use(securityHeaders());
  const corsMiddleware = apiCors(config.corsOrigins);
  if (corsMiddleware) app.use(['/api', '/openapi.json'], corsMiddleware);

  app.get('/', (_req, res) => res.redirect(302, '/docs'));
  app.use(docsRouter());
  app.use('/admin', adminAuthRoutes(services));
  app.use('/admin', adminUiRoutes(services));
  app.use(express.json({ limit: config.jsonBodyLimitBytes, type: ['application/json', 'application/*+json'] }));

  app.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!isApiPath(req.path)) return next();
    try {
      const match = api.matcher.match(req.method, req.path);
      if (match.kind === 'not-found') throw new AppError(404, 'route.not_found', `no route for ${req.method} ${req.path}`);
      if (match.kind === 'method-not-allowed') {
        throw new AppError(405, 'route.method_not_allowed', `${req.method} is not allowed on ${req.path}; allowed: ${match.allowed.join(', ')}`, {
          headers: { Allow: match.allowed.join(', ') },
        });
      }
      const operation = match.operation;
      let body: unknown = req.body;
      let files: UploadedFile[] = [];
      const expected = requestContentType(operation);
      const actual = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (expected === 'multipart/form-data') {
        // Every multipart operation needs a key: without one, the upload is not read (the 401 comes first).
        // (An operation without its own `security` has the contract's global one, the Bearer key.)
        const security = operation.security as unknown[] | undefined;
        const anonymous = !req.headers.authorization && (security === undefined || security.length > 0);
        if (anonymous) req.resume();
        else if (actual === 'multipart/form-data') {
          ({ body, files } = await parseMultipart(req, operation.operationId, operation.requestBody?.content[expected]?.schema as never));
        } else if (operation.requestBody?.required) {
          throw validationError([{ loc: ['body'], msg: 'expected a multipart/form-data body', type: 'content_type' }]);
        }
      } else if (expected === 'application/json' && actual && actual !== 'application/json' && !actual.endsWith('+json') && Number(req.headers['content-length'] ?? 0) > 0) {
        throw validationError([{ loc: ['body'], msg: `expected Content-Type application/json, got ${actual}`, type: 'content_type' }]);
      }
      // PostgreSQL cannot store U+0000 in text: refuse it up front, wherever it is; and nesting past MAX_JSON_DEPTH.
      const problem = findJsonProblem(body, ['body']) ?? findJsonProblem(req.query, ['query']);
      if (problem?.problem === 'nul_character') throw validationError([{ loc: problem.loc, msg: 'text must not contain the NUL character (U+0000)', type: 'nul_character' }]);
      if (problem) throw validationError([{ loc: problem.loc, msg: `nested more than ${MAX_JSON_DEPTH} levels deep`, type: 'too_deep' }]);
      const reply = (await api.dispatch(
        { method: req.method, path: req.path, query: req.query as Record<string, string | string[]>, headers: req.headers as Record<string, string | string[]>, body },
        operation,
        { req, files },
      )) as AnyReply;
      await send(res, reply);
    } catch (err) {
      next(err);
    }
  });

  app.use((req: Request, _res: Response, next: NextFunction) => next(new AppError(404, 'route.not_found', `no route for ${req.method} ${req.path}`)));

  // Body-parser failures, AppErrors and anything unexpected, mapped in one place.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let error = err;
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') {
      error = new AppError(413, 'request.too_large', `request body exceeds the limit of ${config.jsonBodyLimitBytes} bytes`);
    } else if (type === 'entity.parse.failed') {
      error = validationError([{ loc: ['body'], msg: jsonParseMessage(err as Error & { body?: unknown }), type: 'json_invalid' }]);
    } else if (type === 'encoding.unsupported' || type === 'charset.unsupported' || type === 'request.aborted') {
      error = validationError([{ loc: ['body'], msg: (err as Error).message, type: 'content_type' }]);
    }
    const out = toErrorResponse(error, logger, { method: req.method, path: req.path });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(out.status).set(out.headers).type('application/json').send(JSON.stringify(out.body));
  });

  return { app, api, drain };
}
