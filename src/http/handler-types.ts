/**
 * Handler types derived from the generated contract types: a handler that
 * reads a parameter the contract lacks, or returns a body or status the
 * contract does not declare, does not compile.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import type { operations } from '../../generated/api-types.js';
import type { AuthContext } from '../modules/auth/auth.service.js';

export type OperationId = keyof operations;
type Op<O extends OperationId> = operations[O];

export type PathParams<O extends OperationId> = Op<O>['parameters'] extends { path: infer P } ? NonNullable<P> : Record<string, never>;
export type QueryParams<O extends OperationId> = Op<O>['parameters'] extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>;

type ContentOf<O extends OperationId> = Op<O> extends { requestBody?: { content: infer C } } ? C : never;
export type RequestBody<O extends OperationId> = [ContentOf<O>] extends [never]
  ? undefined
  : ContentOf<O> extends { 'application/json': infer B }
    ? Op<O> extends { requestBody: unknown }
      ? B
      : B | undefined
    : ContentOf<O> extends { 'multipart/form-data': infer F }
      ? F
      : never;

/** A file from a multipart request, read into memory up to the operation's limit. */
export interface UploadedFile {
  field: string;
  filename: string;
  declaredType: string;
  data: Buffer;
  /** The file went past the limit; `data` holds only its first bytes. */
  truncated: boolean;
}

export interface HandlerRequest<O extends OperationId> {
  operationId: O;
  params: PathParams<O>;
  query: QueryParams<O>;
  body: RequestBody<O>;
  files: UploadedFile[];
  /** The authenticated caller (null on open operations called without a valid key). */
  auth: AuthContext | null;
  headers: IncomingHttpHeaders;
  raw: Request;
}

type Responses<O extends OperationId> = Op<O>['responses'];

export interface StreamBody {
  /** Text, or a stream of text chunks. */
  stream: Readable | AsyncIterable<string> | string;
  filename?: string;
}

type ReplyFor<S, R> = R extends { content: { 'application/json': infer B } }
  ? { status: S; body: B; headers?: Record<string, string>; filename?: string }
  : R extends { content: { 'text/csv': unknown } }
    ? { status: S; contentType: 'text/csv'; headers?: Record<string, string> } & StreamBody
    : R extends { content: { 'text/plain': unknown } }
      ? { status: S; contentType: 'text/plain'; headers?: Record<string, string> } & StreamBody
      : { status: S; headers?: Record<string, string> };

/** Every reply the contract allows this operation (success statuses in practice; errors are thrown as AppError). */
export type Reply<O extends OperationId> = { [S in keyof Responses<O>]: ReplyFor<S, Responses<O>[S]> }[keyof Responses<O>];

export type Handler<O extends OperationId> = (req: HandlerRequest<O>) => Promise<Reply<O>>;

/** The full handler map: one handler per operationId of the contract. */
export type Handlers = { [O in OperationId]: Handler<O> };

/** JSON body type of a response of an operation. */
export type ResponseBody<O extends OperationId, S extends keyof Responses<O>> = Responses<O>[S] extends {
  content: { 'application/json': infer B };
}
  ? B
  : never;
