/**
 * fast-check arbitraries built from the contract: values a schema admits
 * (from its examples and its types, formats and bounds), hostile values of
 * every kind an attacker sends, and whole requests, valid and broken, for
 * an operation (tests/http/contract-fuzz.test.ts).
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { sample } from 'openapi-sampler';
import { contractDocument, isAdminOperation } from '../../src/http/contract.js';
import { pathId, PNG_1X1, withWorldIds, type World } from './world.js';

export type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  pattern?: string;
  example?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  readOnly?: boolean;
  description?: string;
};
export interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema?: Schema;
}
interface Media {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
export interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  security?: Record<string, unknown>[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
}

const doc = contractDocument() as unknown as {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
  security?: Record<string, unknown>[];
};

export interface ContractOperation {
  method: string;
  template: string;
  op: Operation;
  params: Parameter[];
  /** The body's media type, if it takes one. */
  media: string | undefined;
  admin: boolean;
  /** Every alternative of its security needs the Bearer key (no anonymous alternative). */
  bearerRequired: boolean;
  /** Its security names the Bearer key at all (the admin-session operation does not). */
  bearer: boolean;
}

export const contractOperations: ContractOperation[] = Object.entries(doc.paths).flatMap(([template, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, raw]) => {
      const op = raw as Operation;
      const params = [...((item.parameters as Parameter[] | undefined) ?? []), ...(op.parameters ?? [])].map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p));
      const security = op.security ?? doc.security ?? [];
      return {
        method: method.toUpperCase(),
        template,
        op,
        params,
        media: op.requestBody ? Object.keys(op.requestBody.content)[0] : undefined,
        admin: isAdminOperation(op),
        bearerRequired: security.length > 0 && security.every((s) => 'bearerAuth' in s),
        bearer: security.some((s) => 'bearerAuth' in s),
      };
    }),
);

export function resolve(schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 20; i++) s = doc.components.schemas[s.$ref.split('/').pop()!];
  if (s?.allOf) {
    const parts = s.allOf.map(resolve);
    return { type: 'object', properties: Object.assign({}, ...parts.map((p) => p?.properties ?? {})), required: parts.flatMap((p) => p?.required ?? []) };
  }
  return s;
}

/** A text an echo of can be recognized in an answer: a long run of it is never anything the service says by itself. */
export const MARK = 'ZqX';
export const ECHO = new RegExp(`(?:${MARK}){34,}`);

const deep = (levels: number): unknown => (levels ? [deep(levels - 1)] : 'bottom');

/** Values an attacker sends where any value goes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    MARK.repeat(40_000),
    MARK.repeat(400),
    'a\u0000b',
    'a\ud800b',
    '\udc00',
    '',
    ' \t\n',
    '💥',
    -1,
    0,
    -0,
    0.5,
    2147483647,
    2147483648,
    -2147483649,
    9007199254740993,
    1e308,
    -1e308,
    true,
    null,
    [],
    {},
    '0000-01-01',
    '9999-12-31T23:59:59-05:00',
    '2026-13-45T99:99:99Z',
    'urn:uuid:0f0e0d0c-0b0a-4908-8706-050403020100',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    '../../etc/passwd',
    '{{ 7 | times: 6 }}',
    // Costly expressions and templates, where definitions take them.
    '$count($distinct([1..100000]))',
    '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)',
    '$sort([1..100000])',
    '($f := function($x){ $f($x) }; $f(1))',
    '{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}x',
    JSON.parse('{"__proto__": {"is_admin": true}, "constructor": {"prototype": {"x": 1}}}'),
  ),
  fc.constant(null).map(() => deep(70)),
  fc.constant(null).map(() => deep(40)),
  fc.constant(null).map(() => Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i]))),
  fc.constant(null).map(() => Array.from({ length: 5000 }, (_, i) => i)),
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
);

/** Expressions a definition may hold: ordinary ones, and ones that cost far more than their length says. */
const EXPRESSIONS = {
  ordinary: ['event.team = "home"', '$floor(event.clock_seconds / 60) + 1', '(state.goals ? state.goals : 0) + 1', '"yes"', 'event.team', 'match.home_team & " v " & match.away_team', 'event.team = '],
  costly: ['$count($distinct([1..100000]))', '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)', '$sort([1..100000])', '($f := function($x){ $f($x) }; $f(1))', '$string([1..100000])', '$count([1..3000].([1..3000]))'],
};
/** Templates likewise. */
const TEMPLATES = {
  ordinary: ['{{ match.home_team }}', 'Goal for {{ event.team }}? {{ extract.minute }}', '{% if event.team == "home" %}Home{% else %}Away{% endif %}', '{{ question.text }}', '{% if %}'],
  costly: ['{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}x', '{% assign s = (1..900) | join: "" %}{{ s | replace: "1", s }}', `{{ "${'<'.repeat(1500)}" | strip_html }}x`],
};

/** What the contract says a text is: a JSONata expression, a Liquid template, or neither. */
function semanticOf(s: Schema, name: string | undefined): 'expression' | 'template' | undefined {
  if (/JSONata/.test(s.description ?? '')) return 'expression';
  if (/Liquid/.test(s.description ?? '') || name?.endsWith('_template')) return 'template';
  return undefined;
}

/** Texts of a kind: ordinary ones, and costly ones as often (what a bounded evaluation must survive). */
const textsOf = (semantic: 'expression' | 'template') => {
  const { ordinary, costly } = semantic === 'expression' ? EXPRESSIONS : TEMPLATES;
  return fc.oneof(fc.constantFrom(...ordinary), fc.constantFrom(...costly));
};

/** Values a schema admits: often its example, else one drawn from its type, format and bounds. */
export function valueOf(schema: Schema | undefined, world: World, template: string, name?: string, depth = 0, semantic?: 'expression' | 'template'): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (!s || depth > 6) return fc.constant(null);
  const kind = semantic ?? semanticOf(s, name);
  const generated = kind && s.type === 'string' ? textsOf(kind) : fromType(s, world, template, name, depth, kind);
  const withNull = s.nullable ? fc.oneof({ weight: 5, arbitrary: generated }, { weight: 1, arbitrary: fc.constant(null) }) : generated;
  const example = s.example !== undefined ? withWorldIds(world, template, s.example, name) : undefined;
  return example === undefined ? withNull : fc.oneof({ weight: 2, arbitrary: fc.constant(example) }, { weight: 1, arbitrary: withNull });
}

function fromType(s: Schema, world: World, template: string, name: string | undefined, depth: number, semantic?: 'expression' | 'template'): fc.Arbitrary<unknown> {
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf)!.map((b) => valueOf(b, world, template, name, depth + 1)));
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string': {
      const worldId = name ? withWorldIds(world, template, '00000000-0000-4000-8000-000000000000', name) : undefined;
      switch (s.format) {
        case 'uuid':
          return typeof worldId === 'string' && worldId !== '00000000-0000-4000-8000-000000000000' ? fc.oneof(fc.constant(worldId), fc.uuid()) : fc.uuid();
        case 'date-time':
          return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
        case 'date':
          return fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
        case 'email':
          return fc.tuple(fc.stringMatching(/^[a-z]{1,12}$/), fc.constantFrom('example.com', 'example.org')).map(([local, domain]) => `${local}@${domain}`);
        case 'uri':
          return fc.constantFrom('https://example.com/a', 'https://push.example.com/send/abc');
        case 'iana-timezone':
          return fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', '');
        default:
      }
      const maxLength = Math.min(s.maxLength ?? 30, 30);
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
      return fc.string({ minLength: Math.min(s.minLength ?? 0, maxLength), maxLength });
    }
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = valueOf(s.items, world, template, undefined, depth + 1);
      const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) };
      return s.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    default: {
      if (s.properties) {
        const entries = Object.entries(s.properties).filter(([, p]) => !resolve(p)?.readOnly);
        return fc.record(Object.fromEntries(entries.map(([k, p]) => [k, valueOf(p, world, template, k, depth + 1)])), { requiredKeys: (s.required ?? []).filter((k) => entries.some(([e]) => e === k)) });
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        // A map of expressions: its values are what its description says.
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), valueOf(s.additionalProperties, world, template, undefined, depth + 1, semantic), { minKeys: 1, maxKeys: 3 });
      }
      return fc.jsonValue({ maxDepth: 2 });
    }
  }
}

/** The operation's example bodies (its media examples, else the one Redoc samples from the schema), ids naming the world's. */
export function exampleBodies(c: ContractOperation, world: World): unknown[] {
  const media = c.op.requestBody?.content[c.media!];
  if (!media) return [];
  const raw = media.examples ? Object.values(media.examples).map((e) => e.value) : media.example !== undefined ? [media.example] : [sample(media.schema as never, { skipReadOnly: true }, doc as never)];
  return raw.map((v) => withWorldIds(world, c.template, v));
}

/** A copy of `value` with the thing at a random place (a field, an item, or the whole) changed as `change` says. */
function mutateAt(value: unknown, pick: number, change: (old: unknown) => unknown | typeof DELETE): unknown {
  const places: { parent: Record<string, unknown> | unknown[] | null; key: string | number }[] = [{ parent: null, key: '' }];
  const copy = structuredClone(value);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((item, i) => (places.push({ parent: v, key: i }), walk(item)));
    else if (v && typeof v === 'object') for (const [k, item] of Object.entries(v)) places.push({ parent: v as Record<string, unknown>, key: k }), walk(item);
  };
  walk(copy);
  const place = places[pick % places.length]!;
  if (!place.parent) {
    const next = change(copy);
    return next === DELETE ? undefined : next;
  }
  const next = change((place.parent as Record<string, unknown>)[place.key]);
  if (next === DELETE) {
    if (Array.isArray(place.parent)) place.parent.splice(place.key as number, 1);
    else delete place.parent[place.key as string];
  } else (place.parent as Record<string, unknown>)[place.key] = next;
  return copy;
}
const DELETE = Symbol('delete');

/** A text an attacker puts where a text goes: the text with U+0000 or an unpaired surrogate inside, a huge one, a costly expression or template. */
const taintedText: fc.Arbitrary<(old: string) => string> = fc.constantFrom(
  (old: string) => `${old}\u0000`,
  (old: string) => `${old.slice(0, 1)}\ud800${old.slice(1)}`,
  (old: string) => `\udc00${old}`,
  () => MARK.repeat(40_000),
  () => MARK.repeat(400),
  ...EXPRESSIONS.costly.map((e) => () => e),
  ...TEMPLATES.costly.map((t) => () => t),
);

/** Every text of a value, replaced by `change` one at a time: a copy with the `pick`-th text changed. */
function taintText(value: unknown, pick: number, change: (old: string) => string): unknown {
  const copy = structuredClone(value);
  const texts: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((item, i) => (typeof item === 'string' ? texts.push({ parent: v, key: i }) : walk(item)));
    else if (v && typeof v === 'object') for (const [k, item] of Object.entries(v)) typeof item === 'string' ? texts.push({ parent: v as Record<string, unknown>, key: k }) : walk(item);
  };
  walk(copy);
  if (!texts.length) return copy;
  const { parent, key } = texts[pick % texts.length]!;
  (parent as Record<string, unknown>)[key] = change((parent as Record<string, unknown>)[key] as string);
  return copy;
}

/** One change an attacker (or a careless client) makes to a valid body. */
const mutation: fc.Arbitrary<(v: unknown) => unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.nat(), taintedText).map(([pick, change]) => (v: unknown) => taintText(v, pick, change)) },
  { weight: 2, arbitrary: fc.tuple(fc.nat(), hostileValue).map(([pick, value]) => (v: unknown) => mutateAt(v, pick, () => value)) },
  { weight: 1, arbitrary: fc.nat().map((pick) => (v: unknown) => mutateAt(v, pick, () => DELETE)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 }), hostileValue).map(([pick, key, value]) => (v: unknown) =>
      mutateAt(v, pick, (old) => (old && typeof old === 'object' && !Array.isArray(old) ? { ...old, [key]: value } : old)),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map((pick) => (v: unknown) => mutateAt(v, pick, (old) => (typeof old === 'string' ? 12345 : typeof old === 'number' ? String(old) : Array.isArray(old) ? { not: 'an array' } : old && typeof old === 'object' ? ['not', 'an object'] : old))),
  },
);

/** Valid JSON bodies for the operation: its examples, or drawn from its schema. */
function validJson(c: ContractOperation, world: World): fc.Arbitrary<unknown> {
  const schema = c.op.requestBody!.content[c.media!]!.schema;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...exampleBodies(c, world)) }, { weight: 2, arbitrary: valueOf(schema, world, c.template) });
}

/** Broken JSON bodies: a valid one changed in one to three places, or a hostile value whole. */
function brokenJson(c: ContractOperation, world: World): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(validJson(c, world), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([v, changes]) => changes.reduce((acc, f) => f(acc), v)) },
    { weight: 1, arbitrary: hostileValue },
  );
}

export interface FuzzRequest {
  what: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** JSON to send (`json`), bytes with their type (`raw`), a form (`form`), or nothing. */
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; data: Buffer | string; type: string | null } | { kind: 'form'; fields: [string, string][]; files: [string, Buffer, string, string][] } | { kind: 'none' };
}

/** Path parameter values, as they appear in the URL (already percent-encoded). */
const hostilePathValue = fc.constantFrom('not-a-uuid', '%ff', '%ED%A0%80', '%E0%A4%A', 'a%00b', '%', MARK.repeat(300), '..%2F..%2Fetc', '%2F', '0', '-1', '%F0%9F%92%A5', '00000000-0000-0000-0000-000000000000', 'urn:uuid:0f0e0d0c-0b0a-4908-8706-050403020100', 'null', '%20');

/**
 * Query values, as text: drawn from the parameter's schema, or hostile. At most 1,000
 * characters each, so that the request head stays under Node's 16 KiB, whose 431 comes
 * before any operation (tests/http/server-limits.test.ts).
 */
function queryValue(p: Parameter, world: World, template: string): fc.Arbitrary<string> {
  const valid = valueOf(p.schema, world, template, p.name).map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  const hostile = fc.oneof(
    hostileValue.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 1000)),
    fc.constantFrom('zzz', '-1', '2147483648', '99999999999999999999999', '', '0000-06-01T00:00:00Z', '9999-12-31T23:59:59-05:00', '2016-12-31T23:59:60Z'),
  );
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

const corrupt = fc.constantFrom(Buffer.from('this is not compressed'), Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]), Buffer.alloc(64, 0xab));

type Body = FuzzRequest['body'] & { extraHeaders?: Record<string, string>; framing: string };

/** Bytes of the JSON `value`, sent in one of the ways a client can get the framing wrong. */
function brokenJsonFraming(value: unknown): fc.Arbitrary<Body> {
  const text = JSON.stringify(value) ?? 'null';
  return fc.oneof(
    { weight: 1, arbitrary: fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => ({ kind: 'raw' as const, data: text.slice(0, n), type: 'application/json', framing: 'truncated json' })) },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x', 'application/vnd.api+json').map((type) => ({ kind: 'raw' as const, data: text, type, framing: `as ${type}` })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'raw' as const, data: text, type: null, framing: 'no content type' }) },
    { weight: 1, arbitrary: fc.constantFrom('{"a":', 'nul\u0000', '\u00ff\u00fe', '[]]', '{"a": 1}{"b": 2}').map((data) => ({ kind: 'raw' as const, data, type: 'application/json', framing: 'not json' })) },
    {
      weight: 1,
      arbitrary: fc.tuple(corrupt, fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'zstd', 'gzip, br', 'identity, gzip')).map(([data, encoding]) => ({
        kind: 'raw' as const,
        data,
        type: 'application/json',
        extraHeaders: { 'content-encoding': encoding },
        framing: `corrupt ${encoding}`,
      })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'raw' as const, data: JSON.stringify(MARK.repeat(400_000)), type: 'application/json', framing: 'over the limit' }) },
  );
}

const CSV_JUNK = ['', 'a,b\n1,2\n', 'name,league\n"unterminated\n', `name\n${'\u0000'}x\n`, Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('latin1'), `${MARK.repeat(100)}\n`];

/** Multipart forms: the example's fields with real or junk files (`valid`: real files, fields as the example has them), or a form broken in its framing. */
function formBody(c: ContractOperation, world: World, csv: string, valid: boolean): fc.Arbitrary<Body> {
  const schema = resolve(c.op.requestBody!.content[c.media!]!.schema)!;
  const binary = Object.entries(schema.properties ?? {}).filter(([, p]) => resolve(p)?.format === 'binary').map(([k]) => k);
  const fields = exampleBodies(c, world)[0] as Record<string, unknown>;
  const textFields = Object.entries(fields)
    .filter(([k]) => !binary.includes(k))
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
  const file = (name: string) =>
    fc.constantFrom<[string, Buffer, string, string]>(
      [name, name === 'logo' ? PNG_1X1 : Buffer.from(csv), name === 'logo' ? 'logo.png' : 'definitions.csv', name === 'logo' ? 'image/png' : 'text/csv'],
      [name, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 'image/svg+xml'],
      [name, Buffer.alloc(10, 0xff), '../../etc/passwd', 'application/octet-stream'],
      ...CSV_JUNK.map((junk): [string, Buffer, string, string] => [name, Buffer.from(junk, 'latin1'), 'junk.csv', 'text/csv']),
    );
  if (valid) {
    const realFile = (name: string): [string, Buffer, string, string] => [name, name === 'logo' ? PNG_1X1 : Buffer.from(csv), name === 'logo' ? 'logo.png' : 'definitions.csv', name === 'logo' ? 'image/png' : 'text/csv'];
    return fc.subarray(textFields).map((text) => ({ kind: 'form' as const, fields: text, files: binary.map(realFile), framing: 'form' }));
  }
  const junkForm = fc.tuple(fc.subarray(textFields), fc.tuple(...binary.map(file)), fc.array(fc.tuple(fc.constantFrom(...textFields.map(([k]) => k), 'extra'), hostileValue.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? ''))), { maxLength: 2 }));
  const boundary = 'fuzzboundary';
  const head = (name: string, filename?: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: text/csv\r\n' : ''}\r\n`;
  const full = Buffer.from(`${textFields.map(([k, v]) => `${head(k)}${v}\r\n`).join('')}${binary.map((k) => `${head(k, 'f.csv')}${csv}\r\n`).join('')}--${boundary}--\r\n`);
  return fc.oneof(
    { weight: 6, arbitrary: junkForm.map(([text, files, extra]) => ({ kind: 'form' as const, fields: [...text, ...extra], files, framing: 'junk form' })) },
    { weight: 2, arbitrary: fc.nat({ max: full.length - 1 }).map((n) => ({ kind: 'raw' as const, data: full.subarray(0, n), type: `multipart/form-data; boundary=${boundary}`, framing: 'truncated form' })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'raw' as const, data: full, type: 'multipart/form-data', framing: 'no boundary' }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'raw' as const, data: gzipSync(full), type: `multipart/form-data; boundary=${boundary}`, extraHeaders: { 'content-encoding': 'gzip' }, framing: 'gzip form' }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'json' as const, value: fields, framing: 'form as json' }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'form' as const, fields: Array.from({ length: 60 }, (_, i): [string, string] => [`f${i}`, 'x']), files: [] as [string, Buffer, string, string][], framing: 'too many fields' }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'form' as const, fields: textFields.slice(0, 1).map(([k]): [string, string] => [k, MARK.repeat(25_000)]), files: [] as [string, Buffer, string, string][], framing: 'field over the limit' }) },
  );
}

/**
 * A request to the operation: valid in every part (so it reaches the operation's own rules), or broken in
 * one part (path, query, body, the body's framing), or in several at once.
 */
export function requestFor(c: ContractOperation, world: World, csv: string): fc.Arbitrary<FuzzRequest> {
  const pathParams = c.params.filter((p) => p.in === 'path');
  const queryParams = c.params.filter((p) => p.in === 'query');
  const headerParams = c.params.filter((p) => p.in === 'header');

  const validPath = fc.tuple(...pathParams.map((p) => fc.oneof({ weight: 6, arbitrary: fc.constant(encodeURIComponent(pathId(world, c.method, c.template, p.name))) }, { weight: 1, arbitrary: fc.uuid() })));
  const brokenPath = fc.tuple(...pathParams.map((p) => fc.oneof({ weight: 1, arbitrary: fc.constant(encodeURIComponent(pathId(world, c.method, c.template, p.name))) }, { weight: 2, arbitrary: hostilePathValue })));

  const validValue = (p: Parameter) => valueOf(p.schema, world, c.template, p.name).map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  const validQuery = fc.tuple(...queryParams.map((p) => (p.required ? validValue(p).map((v) => [p.name, v] as [string, string]) : fc.option(validValue(p).map((v) => [p.name, v] as [string, string]), { nil: undefined }))));
  const brokenQuery = fc.tuple(
    fc.tuple(...queryParams.map((p) => fc.option(queryValue(p, world, c.template).map((v) => [p.name, v] as [string, string]), { nil: undefined }))),
    fc.option(fc.tuple(fc.constantFrom('bogus', 'limit', 'league', '__proto__'), fc.constantFrom('1', MARK.repeat(300), 'a\u0000')), { nil: undefined }),
  ).map(([declared, extra]) => (extra ? [...declared, extra] : declared));

  const headers = fc.tuple(...headerParams.map((p) => fc.option(fc.string({ maxLength: 40 }).map((v) => [p.name, v] as [string, string]), { nil: undefined })));

  const noBody: fc.Arbitrary<Body> = fc.constant({ kind: 'none' as const, framing: 'no body' });
  let validBody: fc.Arbitrary<Body>;
  let brokenBody: fc.Arbitrary<Body>;
  let brokenFraming: fc.Arbitrary<Body>;
  if (c.media === 'application/json') {
    validBody = fc.oneof(
      { weight: 6, arbitrary: validJson(c, world).map((value) => ({ kind: 'json' as const, value, framing: 'json' })) },
      { weight: 1, arbitrary: validJson(c, world).map((value) => ({ kind: 'raw' as const, data: gzipSync(JSON.stringify(value) ?? 'null'), type: 'application/json', extraHeaders: { 'content-encoding': 'gzip' }, framing: 'gzip json' })) },
    );
    brokenBody = brokenJson(c, world).map((value) => ({ kind: 'json' as const, value, framing: 'broken json' }));
    brokenFraming = validJson(c, world).chain(brokenJsonFraming);
  } else if (c.media === 'multipart/form-data') {
    validBody = formBody(c, world, csv, true);
    brokenBody = formBody(c, world, csv, false).filter((b) => b.framing === 'junk form' || b.framing === 'too many fields' || b.framing === 'field over the limit');
    brokenFraming = formBody(c, world, csv, false).filter((b) => b.framing !== 'junk form' && b.framing !== 'too many fields' && b.framing !== 'field over the limit');
  } else {
    validBody = noBody;
    brokenBody = hostileValue.map((value) => ({ kind: 'json' as const, value, framing: 'a body nobody asked for' }));
    brokenFraming = corrupt.map((data) => ({ kind: 'raw' as const, data, type: 'application/json', extraHeaders: { 'content-encoding': 'gzip' }, framing: 'a corrupt body nobody asked for' }));
  }

  type Parts = [string[], ([string, string] | undefined)[], ([string, string] | undefined)[], Body];
  const parts = (path: fc.Arbitrary<string[]>, query: fc.Arbitrary<([string, string] | undefined)[]>, body: fc.Arbitrary<Body>, mode: string) =>
    fc.tuple(path, query, headers, body).map(([p, q, h, b]): [string, Parts] => [mode, [p, q, h, b]]);
  const cases = [
    { weight: 4, arbitrary: parts(validPath, validQuery, validBody, 'valid') },
    { weight: 3, arbitrary: parts(validPath, validQuery, brokenBody, 'broken body') },
    { weight: 2, arbitrary: parts(validPath, validQuery, brokenFraming, 'broken framing') },
    { weight: 1, arbitrary: parts(validPath, brokenQuery, validBody, 'broken query') },
    { weight: 1, arbitrary: parts(brokenPath, brokenQuery, fc.oneof(brokenBody, brokenFraming), 'broken everywhere') },
  ];
  if (pathParams.length) cases.push({ weight: 1, arbitrary: parts(brokenPath, validQuery, validBody, 'broken path') });
  return fc.oneof(...cases).map(([mode, [values, declared, headerValues, b]]) => {
    let i = 0;
    const path = c.template.replace(/\{[^}]+\}/g, () => values[i++]!);
    const { extraHeaders, framing, ...sent } = b;
    return {
      what: `${mode}: ${framing}`,
      path,
      query: declared.filter((x): x is [string, string] => x !== undefined),
      headers: { ...Object.fromEntries(headerValues.filter((x): x is [string, string] => x !== undefined)), ...(extraHeaders ?? {}) },
      body: sent as FuzzRequest['body'],
    };
  });
}
