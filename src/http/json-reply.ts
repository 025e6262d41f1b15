/**
 * A JSON reply written with Node's own calls: the bytes express's res.send writes for a plain JSON body, without its
 * content-type lookup (mime-types, a 200 kB database a process would load for its first reply) or its freshness checks
 * (callers write only replies those cannot apply to). The body goes out as one string, so Node sends the head and the
 * body in one write; a HEAD request gets the head alone.
 */
import type { Response } from 'express';

export function writeJson(res: Response, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
}
