/**
 * JSON Schema formats the contract uses, shared by the code generator (which
 * compiles the validators) and the generated standalone validators (which
 * call the function-based ones at run time).
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Format } from 'ajv';

/**
 * Ajv options of request validation: openapi-backend's own (`strict: false`)
 * plus every error at once (not only the first) and the contract's defaults
 * filled in. The generator compiles the request validators with these.
 */
export const REQUEST_AJV_OPTIONS = { strict: false, allErrors: true, useDefaults: true } as const;

const bitRange = (bits: number) => {
  const max = 2 ** (bits - 1);
  return (value: number) => value >= -max && value < max;
};

const zoneCache = new Map<string, boolean>();

/**
 * True for an IANA time zone name the runtime knows, surrounding spaces
 * ignored (the service trims them), and for a blank string (empty or only
 * spaces), which means UTC.
 */
export function isIanaTimezone(raw: string): boolean {
  const value = raw.trim();
  if (value === '') return true;
  let known = zoneCache.get(value);
  if (known === undefined) {
    try {
      // Intl throws RangeError for names it does not know; it also accepts
      // offsets like "+01:00", which are not zone names.
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value);
    } catch {
      known = false;
    }
    if (zoneCache.size < 2000) zoneCache.set(value, known);
  }
  return known;
}

type FormatDefinition = { validate: (s: string) => boolean; compare?: (a: string, b: string) => number | undefined };
const rfc3339DateTime = fullFormats['date-time'] as unknown as FormatDefinition;
const rfc3339Date = fullFormats.date as unknown as FormatDefinition;

/** The instants PostgreSQL reads back as written: years 0001 to 9999 in UTC (it has no year 0, and the driver writes later years in a form it refuses). */
const EARLIEST = new Date('0001-01-01T00:00:00Z').getTime();
const LATEST = new Date('9999-12-31T23:59:59.999Z').getTime();

/** An RFC 3339 date-time that a JavaScript Date can hold, in the years 0001 to 9999 once in UTC. */
export function isStorableDateTime(s: string): boolean {
  if (!rfc3339DateTime.validate(s)) return false;
  const t = Date.parse(s);
  return !Number.isNaN(t) && t >= EARLIEST && t <= LATEST;
}

/** An RFC 3339 full-date in the years 0001 to 9999. */
export const isStorableDate = (s: string): boolean => rfc3339Date.validate(s) && !s.startsWith('0000');

/** Formats by name: ajv-formats' full set, the OpenAPI numeric ones, and ours. */
export const formats: Record<string, Format> = {
  ...(fullFormats as Record<string, Format>),
  // RFC 3339 admits leap seconds (23:59:60), which no JavaScript Date can
  // hold, and years PostgreSQL cannot store (0000, or 10000 after an offset).
  'date-time': {
    type: 'string',
    validate: isStorableDateTime,
    ...(rfc3339DateTime.compare ? { compare: rfc3339DateTime.compare } : {}),
  } as Format,
  date: {
    type: 'string',
    validate: isStorableDate,
    ...(rfc3339Date.compare ? { compare: rfc3339Date.compare } : {}),
  } as Format,
  // ajv-formats also admits the `urn:uuid:` prefix, which PostgreSQL's uuid type refuses.
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  int32: { type: 'number', validate: bitRange(32) },
  int64: { type: 'number', validate: bitRange(64) },
  float: { type: 'number', validate: () => true },
  double: { type: 'number', validate: () => true },
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  binary: { type: 'string', validate: () => true },
  password: { type: 'string', validate: () => true },
  'iana-timezone': { type: 'string', validate: isIanaTimezone },
};

/** Registers every contract format on an Ajv instance. */
export function addContractFormats(ajv: { addFormat(name: string, format: Format): unknown }): void {
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
}
