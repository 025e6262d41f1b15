/**
 * The HTTP server's request listener: the one pipeline of src/http/app.ts,
 * run without express's router for the JSON API.
 *
 * Every request runs the same steps, in the same order: `steps` (drain,
 * timing, security headers, CORS: one list, src/http/app.ts), then its
 * answer. Express runs that list for every request it routes, the API
 * included (`app` alone is a complete server). For an API path the front
 * door runs the list itself and then the API's answer, with express's
 * request and response objects as express makes them (what express's
 * `app.handle` and its router set up for a layer mounted at `/`), and a
 * failure goes to the same error reply express's error handler sends: no
 * router walk (the layers before the steps never match an API path, the
 * ones after never see an API request). Every other request is express's.
 *
 * A step for the API is added to `steps`, never with `app.use`: the front
 * door would not run it. tests/http/front-door.test.ts sends the same
 * requests through both and compares the bytes.
 */
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';

export interface FrontDoorOptions {
  /** The express application: everything that is not the API, and the prototypes of the API's request and response. */
  app: Express;
  /** Whether a path is the API's (the front door answers it). */
  isApiPath(path: string): boolean;
  /** The pipeline's steps, in order: the same list express runs. */
  steps: readonly RequestHandler[];
  /** The API's answer, once the steps ran; a failure goes to `next(err)`. */
  answer: RequestHandler;
  /** Express's error handler: a failure's reply. */
  fail(err: unknown, req: Request, res: Response): void;
}

/**
 * Runs `steps` in order, then `done`; the first failure (thrown, passed to next, or a rejection of the promise a
 * step returns, as express 5 takes it) goes to `fail`, and nothing after it runs.
 */
export function runSteps(steps: readonly RequestHandler[], req: Request, res: Response, done: () => void, fail: (err: unknown) => void): void {
  let at = 0;
  const next: NextFunction = (err?: unknown) => {
    if (err !== undefined && err !== null) return fail(err);
    const step = steps[at++];
    if (step === undefined) return done();
    try {
      const returned = step(req, res, next) as unknown;
      if (returned instanceof Promise) returned.catch((err: unknown) => fail(err ?? new Error('a step rejected without an error')));
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}

export interface FrontDoor {
  /** The request listener. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * The server's request and response classes (http.createServer(options, listener)): node:http makes each request
   * and response with express's prototypes from the start, so the front door does not change an object's prototype
   * per request, as express's app.handle does (V8 then handles every later property access on it more slowly).
   * Without them the listener sets the prototypes itself.
   */
  serverOptions: { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse };
}

/** A server on the front door: the API through it, everything else through express. */
export const createFrontDoorServer = (door: FrontDoor): Server => createServer(door.serverOptions, door.listener);

export function createFrontDoor({ app, isApiPath, steps, answer, fail }: FrontDoorOptions): FrontDoor {
  const request = app.request;
  const response = app.response;
  // express's request and response objects as classes node:http instantiates: their prototypes are express's.
  class ExpressRequest extends IncomingMessage {}
  class ExpressResponse<R extends IncomingMessage> extends ServerResponse<R> {}
  Object.setPrototypeOf(ExpressRequest.prototype, request);
  Object.setPrototypeOf(ExpressResponse.prototype, response);
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const req = incoming as Request;
    const res = outgoing as unknown as Response;
    // What express's app.handle does first (x-powered-by is disabled, src/http/app.ts).
    req.res = res;
    res.req = req;
    if (!(req instanceof ExpressRequest)) Object.setPrototypeOf(req, request);
    if (!(res instanceof ExpressResponse)) Object.setPrototypeOf(res, response);
    if (!isApiPath(req.path)) return app(req, res);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    // What express's router sets up for a layer mounted at '/'.
    req.baseUrl = '';
    req.originalUrl ||= req.url;
    req.params = {};
    const failed = (err: unknown) => fail(err, req, res);
    // A rejection without a reason still fails the request (express would take it for "go on", and answer 404).
    const respond = () => void answer(req, res, (err?: unknown) => failed(err ?? new Error('the request failed without an error')));
    runSteps(steps, req, res, respond, failed);
  };
  return { listener, serverOptions: { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse } };
}
