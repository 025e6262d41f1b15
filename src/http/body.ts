/**
 * Request bodies, read only once the caller is authorized: JSON through
 * body-parser, multipart forms through busboy into memory, each bounded per
 * operation, and every way a body can be broken (cut short, lying about its
 * length or encoding, not what its Content-Type says) answered as a 4xx.
 */
import type busboyModule from 'busboy';
import { lazyRequire } from '../lazy.js';

const busboy = lazyRequire<typeof busboyModule>('busboy');
import express, { type Request, type Response } from 'express';
import { CSV_IMPORT_LIMITS } from '../csv/csv-import.js';
import type { AppError } from '../errors.js';
import { isAppError, quote } from '../errors.js';
import { httpErrors } from './http.errors.js';
import type { ContractOperation } from './contract.js';
import type { UploadedFile } from './handler-types.js';

/** Largest file per multipart operation (a larger file is cut there and flagged as truncated). */
export const FILE_LIMITS: Record<string, number> = {
  createBrand: 2 * 1024 * 1024,
  updateBrand: 2 * 1024 * 1024,
  importQuestionDefinitions: CSV_IMPORT_LIMITS.maxBytes,
  importMatchQuestionDefinitions: CSV_IMPORT_LIMITS.maxBytes,
};
const DEFAULT_FILE_LIMIT = 1024 * 1024;
const FORM_OVERHEAD = 256 * 1024;
/** Longest text field of a form (a colour, a name, a flag): far above any the contract declares. */
export const FORM_FIELD_LIMIT = 64 * 1024;

type SchemaProps = Record<string, { type?: string; format?: string }>;

/** A body is there when the request says it sends one (Content-Length above 0, or chunked). */
export function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isNaN(length) || length > 0;
}

/** The media type of the request, lowercased, without parameters ('' when none). */
export const mediaType = (req: Request) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** A 422 with one issue about the body as a whole (its media type, encoding or bytes). */
const bodyIssue = (type: string, msg: string) => httpErrors.invalid([{ loc: ['body'], msg, type }]);
const contentTypeError = (msg: string) => bodyIssue('content_type', msg);
const encodingError = (msg: string) => bodyIssue('content_encoding', msg);

/**
 * A failure of body-parser (or of the stream under it) as the contract's
 * answer; undefined when `err` is not one (a fault of ours, a 500).
 */
export function bodyReadError(err: unknown, req: Request, limitBytes: number): AppError | undefined {
  if (isAppError(err)) return err;
  const e = err as Error & { type?: string; status?: number; code?: string; body?: unknown; limit?: number };
  const encoding = String(req.headers['content-encoding'] ?? 'identity');
  switch (e.type) {
    case 'entity.too.large':
      // The parser's own limit (the operator UI's forms have a smaller one than JSON bodies).
      return httpErrors.tooLarge(`request body exceeds the limit of ${e.limit ?? limitBytes} bytes`);
    case 'entity.parse.failed':
      return bodyIssue('json_invalid', jsonParseMessage(e));
    case 'encoding.unsupported':
      return encodingError(`unsupported Content-Encoding ${quote(encoding)}; send the body uncompressed, or as gzip, deflate or br`);
    case 'charset.unsupported':
      return contentTypeError(`unsupported charset in Content-Type ${quote(String(req.headers['content-type'] ?? ''))}; send UTF-8`);
    case 'request.size.invalid':
    case 'request.aborted':
      return bodyIssue('body_incomplete', 'the body ended before the length it announced');
    default:
  }
  // Decompression failures carry zlib's code and body-parser's 400, but no type.
  if (typeof e.code === 'string' && (/^Z_/.test(e.code) || /^ERR__?ERROR_/.test(e.code) || /^ERR_ZSTD/.test(e.code))) {
    return encodingError(`the body is not valid ${quote(encoding)} data`);
  }
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return bodyIssue('body_invalid', `unreadable body: ${quote(e.message ?? '', 120)}`);
  }
  return undefined;
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
  return `malformed JSON: ${quote(err.message, 160)}`;
}

/** Reads a JSON body (undefined when none was sent). */
export async function readJson(req: Request, res: Response, limitBytes: number): Promise<unknown> {
  const actual = mediaType(req);
  if (!hasBody(req)) return undefined;
  if (!actual) throw contentTypeError('the body has no Content-Type; send Content-Type: application/json');
  if (actual !== 'application/json' && !actual.endsWith('+json')) throw contentTypeError(`expected Content-Type application/json, got ${quote(actual)}`);
  const parse = jsonParser(limitBytes);
  try {
    await new Promise<void>((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    throw bodyReadError(err, req, limitBytes) ?? err;
  }
  return req.body;
}

const jsonParsers = new Map<number, ReturnType<typeof express.json>>();
function jsonParser(limit: number) {
  let parser = jsonParsers.get(limit);
  if (!parser) {
    parser = express.json({ limit, type: () => true });
    jsonParsers.set(limit, parser);
  }
  return parser;
}

/** Form fields arrive as text; turn them into the types the operation's schema declares. */
function coerceField(value: string, schema: { type?: string } | undefined): unknown {
  switch (schema?.type) {
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'integer':
    case 'number':
      return value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
    default:
      return value;
  }
}

/** Reads a multipart form of `operation` (undefined body when none was sent and none is required). */
export async function readMultipart(req: Request, operation: ContractOperation): Promise<{ body: Record<string, unknown> | undefined; files: UploadedFile[] }> {
  const actual = mediaType(req);
  if (actual !== 'multipart/form-data') {
    if (!hasBody(req) && !operation.requestBody?.required) return { body: undefined, files: [] };
    throw contentTypeError(actual ? `expected a multipart/form-data body, got ${quote(actual)}` : 'expected a multipart/form-data body');
  }
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'identity')
    throw encodingError(`a multipart/form-data body cannot be compressed (Content-Encoding ${quote(encoding)}); send it uncompressed`);
  const schema = operation.requestBody?.content['multipart/form-data']?.schema as { properties?: SchemaProps; required?: string[] } | undefined;
  return parseMultipart(req, operation.operationId, schema);
}

async function parseMultipart(
  req: Request,
  operationId: string,
  schema: { properties?: SchemaProps; required?: string[] } | undefined,
): Promise<{ body: Record<string, unknown>; files: UploadedFile[] }> {
  const fileLimit = FILE_LIMITS[operationId] ?? DEFAULT_FILE_LIMIT;
  const bodyLimit = fileLimit + FORM_OVERHEAD;
  const tooLarge = (what = `request body exceeds the limit of ${bodyLimit} bytes for this operation`) => httpErrors.tooLarge(what);
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > bodyLimit) throw tooLarge();
  const props = schema?.properties ?? {};
  return new Promise((resolve, reject) => {
    let settled = false;
    let bb: busboyModule.Busboy;
    // Whatever goes wrong first decides; the rest of the body is read and dropped, so the
    // connection can answer (and be reused), and nothing is kept.
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      req.off('data', count);
      req.unpipe(bb);
      req.resume();
      reject(err);
    };
    try {
      // busboy flags a file as cut once it reaches fileSize, so one byte more lets a file of exactly
      // fileLimit through whole. File names are read as UTF-8 (what browsers and fetch send), not latin1.
      bb = busboy()({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: fileLimit + 1, files: 4, fields: 50, fieldSize: FORM_FIELD_LIMIT, parts: 60 },
      });
    } catch (err) {
      reject(contentTypeError(`invalid multipart request: ${quote((err as Error).message, 120)}`));
      return;
    }
    const malformed = (err: unknown) => bodyIssue('multipart_invalid', `malformed multipart body: ${quote((err as Error)?.message ?? String(err), 120)}`);
    // Fields by name in a Map: a field named __proto__ is data, not the object's prototype.
    const fields = new Map<string, unknown>();
    const files: UploadedFile[] = [];
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(tooLarge(`form field ${quote(name)} exceeds the limit of ${FORM_FIELD_LIMIT} bytes`));
      else fields.set(name, coerceField(value, props[name]));
    });
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      const file: UploadedFile = { field: name, filename: info.filename ?? name, declaredType: info.mimeType, data: Buffer.alloc(0), truncated: false };
      // A body cut off inside a file fails the file's stream as well as the form: both are answered.
      stream.on('error', (err) => fail(malformed(err)));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        file.truncated = true;
      });
      stream.on('close', () => {
        file.data = Buffer.concat(chunks);
        files.push(file);
      });
      // The validator sees the file as present; its bytes go to the handler.
      fields.set(name, '(binary)');
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      bb.on(limit, () => fail(tooLarge(`the form has more parts than this operation takes (at most 4 files and 50 fields)`)));
    }
    bb.on('error', (err) => fail(malformed(err)));
    bb.on('close', () => {
      if (settled) return;
      // openapi-backend does not require binary fields; the contract does.
      const missing = (schema?.required ?? []).filter((name) => props[name]?.format === 'binary' && !files.some((f) => f.field === name));
      if (missing.length) {
        fail(httpErrors.invalid(missing.map((name) => ({ loc: ['body', name], msg: 'file required', type: 'missing' }))));
        return;
      }
      settled = true;
      resolve({ body: Object.fromEntries(fields), files });
    });
    // The client went away before the end: nobody reads the answer, but nothing may wait for it.
    req.on('error', (err) => fail(malformed(err)));
    req.on('aborted', () => fail(malformed(new Error('the request was aborted'))));
    // A chunked body declares no length: count what arrives, and stop keeping it past the limit.
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received > bodyLimit) fail(tooLarge());
    };
    req.on('data', count);
    req.pipe(bb);
  });
}
