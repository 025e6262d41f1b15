/**
 * Structured logs (pino). Keys and passwords are redacted wherever they appear.
 * JSON lines for machines; readable lines (pino-pretty, in this thread, no
 * worker) when a person watches a terminal.
 */
import { pino, type Logger } from 'pino';
import type prettyModule from 'pino-pretty';
import { lazyRequire } from './lazy.js';

const pretty = lazyRequire<typeof prettyModule>('pino-pretty');

export type { Logger };

export type LogFormat = 'auto' | 'json' | 'pretty';

/** Whether `format` means readable lines on this process's stdout. */
export function prettyLogs(format: LogFormat, stdoutIsTty = Boolean(process.stdout.isTTY)): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTty);
}

/** `destination` defaults to stdout (tests pass a stream). */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, format: LogFormat = 'json', destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { pid: process.pid, ...bindings },
    redact: {
      paths: ['api_key', '*.api_key', 'password', '*.password', 'headers.authorization', 'req.headers.authorization', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  };
  if (!prettyLogs(format)) return destination ? pino(options, destination) : pino(options);
  const colorize = !destination && Boolean(process.stdout.isTTY);
  return pino(options, pretty()({ sync: true, colorize, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', ...(destination ? { destination } : {}) }));
}
