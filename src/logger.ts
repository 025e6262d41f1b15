/** Structured JSON logs (pino). Keys and passwords are redacted wherever they appear. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { pid: process.pid, ...bindings },
    redact: {
      paths: ['api_key', '*.api_key', 'password', '*.password', 'headers.authorization', 'req.headers.authorization', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  });
}
