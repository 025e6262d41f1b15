/**
 * Request bodies, read only once the caller is authorized: JSON (and the
 * operator UI's forms) by readBody below, multipart forms through busboy into
 * memory, each bounded per operation, and every way a body can be broken
 * (cut short, lying about its length or encoding, not what its Content-Type
 * says) answered as a 4xx.
 *
 * A body over its limit is answered 413 at once, with `Connection: close`,
 * and not read further: when its declared Content-Length is over the limit,
 * before any of it is read; when it arrives chunked, as soon as it passes
 * the limit. (body-parser, which read JSON before, read a refused body to
 * its end before answering: a login declaring 1 GiB and sending nothing was
 * held for the whole request timeout, then answered 408.)
 */
import { parse as parseQueryString } from 'node:querystring';
import type { Readable, Writable } from 'node:stream';
import zlib from 'node:zlib';
import type busboyModule from 'busboy';
import { lazyRequire } from '../lazy.js';

const busboy = lazyRequire<typeof busboyModule>('busboy');
import type { NextFunction, Request, Response } from 'express';
import { CSV_IMPORT_LIMITS } from '../csv/csv-import.js';
import type { AppError } from '../errors.js';
import { quote } from '../errors.js';
import { httpErrors } from './http.errors.js';
import { invalidUtf8Offset, locateInvalidUtf8InJson, urlEncodedProblems, utf8Issue } from './utf8.js';
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

/** The 413 of a body over `limitBytes` (its declared length, or what arrived). */
const tooLargeBody = (limitBytes: number) => httpErrors.tooLarge(`request body exceeds the limit of ${limitBytes} bytes`);

/** Refuses, before any of it is read, a body whose declared length is over the limit (compressed or not: it only grows). */
export function refuseDeclaredLength(req: Request, limitBytes: number): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limitBytes) throw tooLargeBody(limitBytes);
}

/** Content codings a JSON or form body may come in (the limit counts what they decompress to). */
const DECODERS: Record<string, (() => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress) | null> = {
  identity: null,
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The body's bytes (decompressed), at most `limitBytes` of them: past it, 413
 * at once, the rest left unread. A body cut short, or that does not
 * decompress, is a 422.
 */
export function readBody(req: Request, limitBytes: number): Promise<Buffer> {
  refuseDeclaredLength(req, limitBytes);
  const coding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const decoder = DECODERS[coding];
  if (decoder === undefined)
    return Promise.reject(encodingError(`unsupported Content-Encoding ${quote(coding)}; send the body uncompressed, or as gzip, deflate or br`));
  return new Promise((resolve, reject) => {
    const decompress = decoder?.();
    const source: Readable = decompress ? req.pipe(decompress) : req;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: AppError | null) => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      if (decompress) {
        req.unpipe(decompress as Writable);
        decompress.destroy();
      }
      // Not read any further: the answer closes the connection (Connection: close on every 413), so an
      // endless or slow body costs nothing more.
      req.pause();
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) settle(tooLargeBody(limitBytes));
      else chunks.push(chunk);
    };
    source.on('data', onData);
    source.on('end', () => settle(null));
    const incomplete = () => settle(bodyIssue('body_incomplete', 'the body ended before the length it announced'));
    // Lasting: a decompressor destroyed above may still report the error it met.
    decompress?.on('error', () => settle(encodingError(`the body is not valid ${quote(coding)} data`)));
    req.on('error', incomplete);
    req.on('close', () => {
      if (!req.complete) incomplete();
    });
  });
}

/** The charset a Content-Type names (lowercased), if any. */
const charsetOf = (req: Request) => /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(String(req.headers['content-type'] ?? ''))?.[1]?.toLowerCase();

/** A body's text: UTF-8 (a leading byte order mark dropped); the caller checked the bytes are UTF-8. */
function bodyText(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Reads a JSON body (undefined when none was sent). */
export async function readJson(req: Request, _res: Response, limitBytes: number): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  // Before anything else about it: a body that will not be read is refused at once.
  refuseDeclaredLength(req, limitBytes);
  const actual = mediaType(req);
  if (!actual) throw contentTypeError('the body has no Content-Type; send Content-Type: application/json');
  if (actual !== 'application/json' && !actual.endsWith('+json')) throw contentTypeError(`expected Content-Type application/json, got ${quote(actual)}`);
  const charset = charsetOf(req);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw contentTypeError(`unsupported charset in Content-Type ${quote(String(req.headers['content-type'] ?? ''))}; send UTF-8`);
  const bytes = await readBody(req, limitBytes);
  const bad = invalidUtf8Offset(bytes);
  if (bad >= 0) throw httpErrors.invalid([utf8Issue(['body', ...locateInvalidUtf8InJson(bytes, bad)])]);
  const text = bodyText(bytes);
  // A chunked body of no bytes at all is an empty object, as a JSON body parser has always read it.
  if (text.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw bodyIssue('json_invalid', `malformed JSON: ${quote((err as Error).message, 160)}`);
  }
  if (value === null || typeof value !== 'object')
    throw bodyIssue('json_invalid', `the body must be a JSON object or array, not ${value === null ? 'null' : `a JSON ${typeof value}`}`);
  return value;
}

/**
 * The operator UI's url-encoded forms, read like JSON bodies (bounded, 413
 * at once past `limitBytes`) into `req.body`; a field sent twice is an array.
 */
export function urlencodedForm(limitBytes: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!hasBody(req) || mediaType(req) !== 'application/x-www-form-urlencoded') {
      req.body = {};
      next();
      return;
    }
    readBody(req, limitBytes).then(
      (bytes) => {
        const problems = urlEncodedProblems(bytes, 'body', utf8Issue);
        if (problems.length) return next(httpErrors.invalid(problems));
        req.body = parseQueryString(bodyText(bytes));
        next();
      },
      (err: unknown) => next(err),
    );
  };
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
  const media = operation.requestBody?.content['multipart/form-data'] as
    { schema?: { properties?: SchemaProps; required?: string[] }; encoding?: Record<string, { contentType?: string }> } | undefined;
  // Files the contract says are text (`encoding.<field>.contentType: text/...`, the CSV imports) must be UTF-8.
  const textFiles = new Set(Object.entries(media?.encoding ?? {}).flatMap(([field, e]) => (e.contentType?.startsWith('text/') ? [field] : [])));
  return parseMultipart(req, operation.operationId, media?.schema, textFiles);
}

async function parseMultipart(
  req: Request,
  operationId: string,
  schema: { properties?: SchemaProps; required?: string[] } | undefined,
  textFiles: ReadonlySet<string>,
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
      // busboy decodes a field as its part declares (UTF-8 by default), replacing bytes that are not with U+FFFD:
      // a field holding it was not UTF-8 (no form of ours takes the replacement character itself).
      else if (value.includes('\uFFFD') || name.includes('\uFFFD')) fail(httpErrors.invalid([utf8Issue(['body', name])]));
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
      const notText = files.find((f) => textFiles.has(f.field) && !f.truncated && invalidUtf8Offset(f.data) >= 0);
      if (notText) {
        fail(httpErrors.invalid([utf8Issue(['body', notText.field])]));
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
