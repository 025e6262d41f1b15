/**
 * The effective configuration as a person or a deployment check reads it:
 * every setting, secrets redacted (passwords in URLs, keys, secrets, private
 * keys), defaults included.
 */
import type { Config } from './config.js';
import { redactUrl } from './db/client.js';

const SECRET_NAME = /secret|password|private|token|credential/i;
const REDACTED = '[redacted]';

function redact(value: unknown, name: string): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') {
    if (SECRET_NAME.test(name) || /accessKeyId$/i.test(name)) return value ? REDACTED : value;
    return /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value) ? redactUrl(value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, name));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

/** The configuration with secrets redacted: safe to print or log. */
export function redactedConfig(config: Config): Record<string, unknown> {
  return redact(config, '') as Record<string, unknown>;
}
