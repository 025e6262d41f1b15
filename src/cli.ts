/**
 * How the command-line tools end on a failure: one line on stderr saying what
 * went wrong and what to do, exit status 2 for wrong arguments and 1 for
 * anything else. An unexpected error (a bug) says so in one line too; its
 * stack trace is printed with DEBUG=1.
 */
import { ConfigError } from './config.js';
import { DatabaseError } from './db/client.js';
import { ImportDataError } from './engine/feed/import-error.js';
import { isAppError } from './errors.js';

/** Wrong, missing or clashing arguments: the message says what to pass. */
export class UsageError extends Error {
  constructor(message: string, usage?: string) {
    super(usage ? `${message} (${usage})` : message);
    this.name = 'UsageError';
  }
}

/** Ways out that a tool adds to an import error of a given code. */
export type ImportHints = Partial<Record<ImportDataError['code'], string>>;

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** The line a tool prints for `err`, and its exit status. */
export function cliFailure(tool: string, err: unknown, hints: ImportHints = {}): { line: string; status: number } {
  const e = err as Error & { code?: string };
  if (err instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS_')) return { line: `${tool}: ${oneLine(e.message)}`, status: 2 };
  if (err instanceof ImportDataError) {
    const hint = hints[err.code];
    return { line: `${tool}: ${oneLine(err.message)}${hint ? `; ${hint}` : ''}`, status: 1 };
  }
  if (err instanceof ConfigError || err instanceof DatabaseError || isAppError(err)) return { line: `${tool}: ${oneLine(e.message)}`, status: 1 };
  if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') {
    const file = (e as NodeJS.ErrnoException).path ?? 'the file';
    return { line: `${tool}: cannot read ${file} (${e.code}); check the path`, status: 1 };
  }
  if (e.code === 'EADDRINUSE') return { line: `${tool}: ${oneLine(e.message)}: another process uses this port; choose another`, status: 1 };
  return {
    line: `${tool}: unexpected error: ${oneLine(e?.message ?? String(err))} (a bug: run again with DEBUG=1 for the stack trace, and report it)`,
    status: 1,
  };
}

/** Runs a tool's main function and ends the process the way this module describes. */
export function runCli(tool: string, main: () => Promise<void>, hints: ImportHints = {}): void {
  main().catch((err: unknown) => {
    const { line, status } = cliFailure(tool, err, hints);
    console.error(line);
    if (process.env.DEBUG && err instanceof Error && err.stack) console.error(err.stack);
    process.exit(status);
  });
}
