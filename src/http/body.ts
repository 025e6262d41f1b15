/** Request bodies: multipart forms read with busboy into memory, bounded per operation. */
import busboy from 'busboy';
import type { Request } from 'express';
import { CSV_IMPORT_LIMITS } from '../csv/csv-import.js';
import { AppError, validationError } from '../errors.js';
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

type SchemaProps = Record<string, { type?: string; format?: string }>;

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

export async function parseMultipart(
  req: Request,
  operationId: string,
  schema: { properties?: SchemaProps; required?: string[] } | undefined,
): Promise<{ body: Record<string, unknown>; files: UploadedFile[] }> {
  const fileLimit = FILE_LIMITS[operationId] ?? DEFAULT_FILE_LIMIT;
  const bodyLimit = fileLimit + FORM_OVERHEAD;
  const tooLarge = () => new AppError(413, 'request.too_large', `request body exceeds the limit of ${bodyLimit} bytes for this operation`);
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > bodyLimit) throw tooLarge();
  const props = schema?.properties ?? {};
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      // busboy flags a file as cut once it reaches fileSize, so one byte more lets a file of exactly
      // fileLimit through whole. File names are read as UTF-8 (what browsers and fetch send), not latin1.
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: fileLimit + 1, files: 4, fields: 50, fieldSize: 64 * 1024, parts: 60 },
      });
    } catch (err) {
      reject(validationError([{ loc: ['body'], msg: `invalid multipart request: ${(err as Error).message}`, type: 'content_type' }]));
      return;
    }
    const body: Record<string, unknown> = {};
    const files: UploadedFile[] = [];
    bb.on('field', (name, value) => {
      body[name] = coerceField(value, props[name]);
    });
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      const file: UploadedFile = { field: name, filename: info.filename ?? name, declaredType: info.mimeType, data: Buffer.alloc(0), truncated: false };
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        file.truncated = true;
      });
      stream.on('close', () => {
        file.data = Buffer.concat(chunks);
        files.push(file);
      });
      // The validator sees the file as present; its bytes go to the handler.
      body[name] = '(binary)';
    });
    bb.on('error', (err) => reject(validationError([{ loc: ['body'], msg: `malformed multipart body: ${(err as Error).message}`, type: 'multipart_invalid' }])));
    bb.on('close', () => {
      // openapi-backend does not require binary fields; the contract does.
      const missing = (schema?.required ?? []).filter((name) => props[name]?.format === 'binary' && !files.some((f) => f.field === name));
      if (missing.length) {
        reject(validationError(missing.map((name) => ({ loc: ['body', name], msg: 'file required', type: 'missing' }))));
        return;
      }
      resolve({ body, files });
    });
    // A chunked body declares no length: count what arrives, and stop keeping it past the limit.
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= bodyLimit) return;
      req.off('data', count);
      req.unpipe(bb);
      bb.removeAllListeners();
      req.resume(); // the rest is read and dropped
      reject(tooLarge());
    };
    req.on('data', count);
    req.pipe(bb);
  });
}
