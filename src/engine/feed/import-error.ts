/**
 * A recorded file the importers cannot read as it is: the message says where
 * and what; `code` lets a caller add its own way out (a command-line flag, a
 * form field) to the message.
 */
export class ImportDataError extends Error {
  constructor(
    message: string,
    readonly code: 'missing_utc_offset' | 'invalid' = 'invalid',
  ) {
    super(message);
    this.name = 'ImportDataError';
  }
}
