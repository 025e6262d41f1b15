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
      const params = [...((item.parameters as Parameter[] | undefined) ?? []), ...(op.parameters ?? [])].map((p) =>
        p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p,
      );
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
    // 2^53 + 1: not representable as a double, so it arrives as 2^53 (written as a string to say so).
    Number('9007199254740993'),
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
  ordinary: [
    'event.team = "home"',
    '$floor(event.clock_seconds / 60) + 1',
    '(state.goals ? state.goals : 0) + 1',
    '"yes"',
    'event.team',
    'match.home_team & " v " & match.away_team',
    'event.team = ',
  ],
  // A regular expression that backtracks polynomially (no step budget interrupts it), a quadratic
  // built-in, recursion, huge values.
  costly: [
    '$contains($pad("", 5000, "a"), /.*.*.*.*.*x/)',
    '$contains($pad("", 8000, "a"), /a*a*a*a*a*b/)',
    '$count($distinct([1..100000]))',
    '$sort([1..100000])',
    '($f := function($x){ $f($x) }; $f(1))',
    '$string([1..100000])',
    '$count([1..3000].([1..3000]))',
  ],
};
/** Templates likewise. */
const TEMPLATES = {
  ordinary: [
    '{{ match.home_team }}',
    'Goal for {{ event.team }}? {{ extract.minute }}',
    '{% if event.team == "home" %}Home{% else %}Away{% endif %}',
    '{{ question.text }}',
    '{% if %}',
  ],
  costly: [
    '{% for i in (1..3000) %}{% for j in (1..3000) %}{% endfor %}{% endfor %}x',
    '{% assign s = (1..900) | join: "" %}{{ s | replace: "1", s }}',
    `{{ "${'<'.repeat(1500)}" | strip_html }}x`,
  ],
};

/** What the contract says a text is: a JSONata expression, a Liquid template, or neither. */
function semanticOf(s: Schema, name: string | undefined): 'expression' | 'template' | undefined {
  if (/JSONata/.test(s.description ?? '')) return 'expression';
  if (/Liquid/.test(s.description ?? '') || name?.endsWith('_template')) return 'template';
  return undefined;
}

/** Texts of a kind: ordinary ones, and costly ones as often (what a bounded evaluation must survive); only costly ones with `costly`. */
const textsOf = (semantic: 'expression' | 'template', costlyOnly: boolean) => {
  const { ordinary, costly } = semantic === 'expression' ? EXPRESSIONS : TEMPLATES;
  return costlyOnly ? fc.constantFrom(...costly) : fc.oneof(fc.constantFrom(...ordinary), fc.constantFrom(...costly));
};

/** How valueOf draws: `costly`, every expression and template is a costly one (and no example stands in for it). */
interface Draw {
  costly?: boolean;
}

/** Values a schema admits: often its example, else one drawn from its type, format and bounds. */
export function valueOf(
  schema: Schema | undefined,
  world: World,
  template: string,
  name?: string,
  depth = 0,
  semantic?: 'expression' | 'template',
  draw: Draw = {},
): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (!s || depth > 6) return fc.constant(null);
  const kind = semantic ?? semanticOf(s, name);
  if (draw.costly && kind && s.type === 'string') return textsOf(kind, true);
  const generated = kind && s.type === 'string' ? textsOf(kind, false) : fromType(s, world, template, name, depth, kind, draw);
  const withNull = s.nullable ? fc.oneof({ weight: 5, arbitrary: generated }, { weight: 1, arbitrary: fc.constant(null) }) : generated;
  const example = s.example !== undefined && !(draw.costly && kind) ? withWorldIds(world, template, s.example, name) : undefined;
  return example === undefined ? withNull : fc.oneof({ weight: 2, arbitrary: fc.constant(example) }, { weight: 1, arbitrary: withNull });
}

function fromType(
  s: Schema,
  world: World,
  template: string,
  name: string | undefined,
  depth: number,
  semantic: 'expression' | 'template' | undefined,
  draw: Draw,
): fc.Arbitrary<unknown> {
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf)!.map((b) => valueOf(b, world, template, name, depth + 1, undefined, draw)));
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
          return fc
            .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10));
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
      const items = valueOf(s.items, world, template, undefined, depth + 1, undefined, draw);
      const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) };
      return s.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    default: {
      if (s.properties) {
        const entries = Object.entries(s.properties).filter(([, p]) => !resolve(p)?.readOnly);
        return fc.record(Object.fromEntries(entries.map(([k, p]) => [k, valueOf(p, world, template, k, depth + 1, undefined, draw)])), {
          requiredKeys: (s.required ?? []).filter((k) => entries.some(([e]) => e === k)),
        });
      }
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        // A map of expressions: its values are what its description says.
        return fc.dictionary(
          fc.string({ minLength: 1, maxLength: 8 }),
          valueOf(s.additionalProperties, world, template, undefined, depth + 1, semantic, draw),
          { minKeys: 1, maxKeys: 3 },
        );
      }
      return fc.jsonValue({ maxDepth: 2 });
    }
  }
}

/** The operation's example bodies (its media examples, else the one Redoc samples from the schema), ids naming the world's. */
export function exampleBodies(c: ContractOperation, world: World): unknown[] {
  const media = c.op.requestBody?.content[c.media!];
  if (!media) return [];
  const raw = media.examples
    ? Object.values(media.examples).map((e) => e.value)
    : media.example !== undefined
      ? [media.example]
      : [sample(media.schema as never, { skipReadOnly: true }, doc as never)];
  return raw.map((v) => withWorldIds(world, c.template, v));
}

/** A copy of `value` with the thing at a random place (a field, an item, or the whole) changed as `change` says. */
function mutateAt(value: unknown, pick: number, change: (old: unknown) => unknown | typeof DELETE): unknown {
  const places: { parent: Record<string, unknown> | unknown[] | null; key: string | number }[] = [{ parent: null, key: '' }];
  const copy = structuredClone(value);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        places.push({ parent: v, key: i });
        walk(item);
      });
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        places.push({ parent: v as Record<string, unknown>, key: k });
        walk(item);
      }
    }
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
const taintedText: fc.Arbitrary<(old: string) => string> = fc.oneof(
  fc.constantFrom(
    (old: string) => `${old}\u0000`,
    (old: string) => `${old.slice(0, 1)}\ud800${old.slice(1)}`,
    (old: string) => `\udc00${old}`,
    () => MARK.repeat(40_000),
    () => MARK.repeat(400),
  ),
  fc.constantFrom(...EXPRESSIONS.costly, ...TEMPLATES.costly).map((costly) => () => costly),
);

/** What each text of a body becomes in turn, by name: text the database cannot store as sent, or a text too long to echo. */
const HAZARDS: Record<string, fc.Arbitrary<(old: string) => string>> = {
  NUL: fc.constantFrom(
    (old: string) => `${old}\u0000`,
    (old: string) => `\u0000${old}`,
  ),
  'unpaired surrogate': fc.constantFrom(
    (old: string) => `${old.slice(0, 1)}\ud800${old.slice(1)}`,
    (old: string) => `\udc00${old}`,
  ),
  long: fc.constantFrom(
    () => MARK.repeat(400),
    () => MARK.repeat(40_000),
  ),
};

/** How many texts a value holds (what taintText picks among). */
function countTexts(value: unknown): number {
  if (typeof value === 'string') return 1;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countTexts(v), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((n: number, v) => n + countTexts(v), 0);
  return 0;
}

/** Every text of a value, replaced by `change` one at a time: a copy with the `pick`-th text changed. */
function taintText(value: unknown, pick: number, change: (old: string) => string): unknown {
  const copy = structuredClone(value);
  const texts: { parent: Record<string, unknown> | unknown[]; key: string | number }[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((item, i) => (typeof item === 'string' ? texts.push({ parent: v, key: i }) : walk(item)));
    else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (typeof item === 'string') texts.push({ parent: v as Record<string, unknown>, key: k });
        else walk(item);
      }
    }
  };
  walk(copy);
  if (!texts.length) return copy;
  const { parent, key } = texts[pick % texts.length]!;
  (parent as Record<string, unknown>)[key] = change((parent as Record<string, unknown>)[key] as string);
  return copy;
}

/** One change an attacker (or a careless client) makes to a valid body. */
const mutation: fc.Arbitrary<(v: unknown) => unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(fc.nat(), taintedText).map(
      ([pick, change]) =>
        (v: unknown) =>
          taintText(v, pick, change),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.nat(), hostileValue).map(
      ([pick, value]) =>
        (v: unknown) =>
          mutateAt(v, pick, () => value),
    ),
  },
  { weight: 1, arbitrary: fc.nat().map((pick) => (v: unknown) => mutateAt(v, pick, () => DELETE)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 12 }), hostileValue).map(
      ([pick, key, value]) =>
        (v: unknown) =>
          mutateAt(v, pick, (old) => (old && typeof old === 'object' && !Array.isArray(old) ? { ...old, [key]: value } : old)),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .nat()
      .map(
        (pick) => (v: unknown) =>
          mutateAt(v, pick, (old) =>
            typeof old === 'string'
              ? 12345
              : typeof old === 'number'
                ? String(old)
                : Array.isArray(old)
                  ? { not: 'an array' }
                  : old && typeof old === 'object'
                    ? ['not', 'an object']
                    : old,
          ),
      ),
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
    {
      weight: 6,
      arbitrary: fc.tuple(validJson(c, world), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([v, changes]) => changes.reduce((acc, f) => f(acc), v)),
    },
    { weight: 1, arbitrary: hostileValue },
  );
}

export interface FuzzRequest {
  what: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** JSON to send (`json`), bytes with their type (`raw`), a form (`form`), or nothing. */
  body:
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; data: Buffer | string; type: string | null }
    | { kind: 'form'; fields: [string, string][]; files: [string, Buffer, string, string][] }
    | { kind: 'none' };
  /** Bodies to send instead, one request each (the same body changed in one place each time). */
  variants?: FuzzRequest['body'][];
}

/** Path parameter values, as they appear in the URL (already percent-encoded). */
const hostilePathValue = fc.constantFrom(
  'not-a-uuid',
  '%ff',
  '%ED%A0%80',
  '%E0%A4%A',
  'a%00b',
  '%',
  MARK.repeat(300),
  '..%2F..%2Fetc',
  '%2F',
  '0',
  '-1',
  '%F0%9F%92%A5',
  '00000000-0000-0000-0000-000000000000',
  'urn:uuid:0f0e0d0c-0b0a-4908-8706-050403020100',
  'null',
  '%20',
);

/**
 * Query values, as text: drawn from the parameter's schema, or hostile. At most 1,000
 * characters each, so that the request head stays under Node's 16 KiB, whose 431 comes
 * before any operation (tests/http/server-limits.test.ts).
 */
function queryValue(p: Parameter, world: World, template: string): fc.Arbitrary<string> {
  const valid = valueOf(p.schema, world, template, p.name).map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  const hostile = fc.oneof(
    hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? '')).slice(0, 1000)),
    fc.constantFrom('zzz', '-1', '2147483648', '99999999999999999999999', '', '0000-06-01T00:00:00Z', '9999-12-31T23:59:59-05:00', '2016-12-31T23:59:60Z'),
  );
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

const corrupt = fc.constantFrom(
  Buffer.from('this is not compressed'),
  Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]),
  Buffer.alloc(64, 0xab),
);

type Body = FuzzRequest['body'] & { extraHeaders?: Record<string, string>; framing: string; variants?: FuzzRequest['body'][] };

/** The ways a client gets the framing of a JSON body wrong, by name; each sends the JSON `value`, or bytes instead. */
const JSON_FRAMINGS: Record<string, (value: unknown) => fc.Arbitrary<Body>> = {
  'truncated json': (value) => {
    const text = JSON.stringify(value) ?? 'null';
    return fc
      .nat({ max: Math.max(0, text.length - 1) })
      .map((n) => ({ kind: 'raw' as const, data: text.slice(0, n), type: 'application/json', framing: 'truncated json' }));
  },
  'another content type': (value) =>
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-16',
        'multipart/form-data; boundary=x',
        'application/vnd.api+json',
        'application/json; charset',
      )
      .map((type) => ({ kind: 'raw' as const, data: JSON.stringify(value) ?? 'null', type, framing: `as ${type}` })),
  'no content type': (value) => fc.constant({ kind: 'raw' as const, data: JSON.stringify(value) ?? 'null', type: null, framing: 'no content type' }),
  'not json': () =>
    fc
      .constantFrom('{"a":', 'nul\u0000', '\u00ff\u00fe', '[]]', '{"a": 1}{"b": 2}', '')
      .map((data) => ({ kind: 'raw' as const, data, type: 'application/json', framing: 'not json' })),
  'corrupt encoding': () =>
    fc.tuple(corrupt, fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'zstd', 'gzip, br', 'identity, gzip')).map(([data, encoding]) => ({
      kind: 'raw' as const,
      data,
      type: 'application/json',
      extraHeaders: { 'content-encoding': encoding },
      framing: `corrupt ${encoding}`,
    })),
  'over the limit': () =>
    fc.constant({ kind: 'raw' as const, data: JSON.stringify(MARK.repeat(400_000)), type: 'application/json', framing: 'over the limit' }),
};

const CSV_JUNK = [
  '',
  'a,b\n1,2\n',
  'name,league\n"unterminated\n',
  `name\n${'\u0000'}x\n`,
  Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('latin1'),
  `${MARK.repeat(100)}\n`,
];

/** Multipart forms: the valid one (the example's fields, real files), and by name the ways a form comes broken. */
function forms(
  c: ContractOperation,
  world: World,
  csv: string,
): { valid: fc.Arbitrary<Body>; broken: Record<string, fc.Arbitrary<Body>>; framings: Record<string, fc.Arbitrary<Body>> } {
  const schema = resolve(c.op.requestBody!.content[c.media!]!.schema)!;
  const binary = Object.entries(schema.properties ?? {})
    .filter(([, p]) => resolve(p)?.format === 'binary')
    .map(([k]) => k);
  const fields = exampleBodies(c, world)[0] as Record<string, unknown>;
  const textFields = Object.entries(fields)
    .filter(([k]) => !binary.includes(k))
    .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
  type File = [string, Buffer, string, string];
  const realFile = (name: string): File => [
    name,
    name === 'logo' ? PNG_1X1 : Buffer.from(csv),
    name === 'logo' ? 'logo.png' : 'definitions.csv',
    name === 'logo' ? 'image/png' : 'text/csv',
  ];
  const file = (name: string) =>
    fc.constantFrom<File>(
      realFile(name),
      [name, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'x.svg', 'image/svg+xml'],
      [name, Buffer.alloc(10, 0xff), '../../etc/passwd', 'application/octet-stream'],
      ...CSV_JUNK.map((junk): File => [name, Buffer.from(junk, 'latin1'), 'junk.csv', 'text/csv']),
    );
  const junkForm = fc.tuple(
    fc.subarray(textFields),
    fc.tuple(...binary.map(file)),
    fc.array(
      fc.tuple(
        fc.constantFrom(...textFields.map(([k]) => k), 'extra'),
        hostileValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
      ),
      { maxLength: 2 },
    ),
  );
  const boundary = 'fuzzboundary';
  const head = (name: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: text/csv\r\n' : ''}\r\n`;
  const fieldsPart = textFields.map(([k, v]) => `${head(k)}${v}\r\n`).join('');
  const full = Buffer.from(`${fieldsPart}${binary.map((k) => `${head(k, 'f.csv')}${csv}\r\n`).join('')}--${boundary}--\r\n`);
  // Where the first file's bytes begin: a body cut off there or later ends inside a file.
  const fileStart = Buffer.byteLength(fieldsPart) + (binary.length ? Buffer.byteLength(head(binary[0]!, 'f.csv')) : 0);
  const raw = (data: Buffer, type: string, framing: string, extraHeaders?: Record<string, string>): Body => ({
    kind: 'raw' as const,
    data,
    type,
    framing,
    ...(extraHeaders ? { extraHeaders } : {}),
  });
  return {
    // The required fields always, the optional ones or not.
    valid: fc.subarray(textFields.filter(([k]) => !schema.required?.includes(k))).map((optional) => ({
      kind: 'form' as const,
      fields: [...textFields.filter(([k]) => schema.required?.includes(k)), ...optional],
      files: binary.map(realFile),
      framing: 'form',
    })),
    broken: {
      'junk form': junkForm.map(([text, files, extra]) => ({ kind: 'form' as const, fields: [...text, ...extra], files, framing: 'junk form' })),
      'too many fields': fc.constant({
        kind: 'form' as const,
        fields: Array.from({ length: 60 }, (_, i): [string, string] => [`f${i}`, 'x']),
        files: [] as File[],
        framing: 'too many fields',
      }),
      'field over the limit': fc.constant({
        kind: 'form' as const,
        fields: textFields.slice(0, 1).map(([k]): [string, string] => [k, MARK.repeat(25_000)]),
        files: [] as File[],
        framing: 'field over the limit',
      }),
    },
    framings: {
      'truncated form': fc.nat({ max: full.length - 1 }).map((n) => raw(full.subarray(0, n), `multipart/form-data; boundary=${boundary}`, 'truncated form')),
      'form cut off inside a file': fc
        .integer({ min: Math.min(fileStart, full.length - 1), max: full.length - 1 })
        .map((n) => raw(full.subarray(0, n), `multipart/form-data; boundary=${boundary}`, 'form cut off inside a file')),
      'no boundary': fc.constant(raw(full, 'multipart/form-data', 'no boundary')),
      'compressed form': fc.constant(raw(gzipSync(full), `multipart/form-data; boundary=${boundary}`, 'compressed form', { 'content-encoding': 'gzip' })),
      'form as json': fc.constant({ kind: 'json' as const, value: fields, framing: 'form as json' }),
    },
  };
}

/**
 * `value` (valid for `schema`) with every text the contract says is an expression or a
 * template replaced by a costly one: the first of each kind by the first costly one of its
 * list (a step nothing inside it interrupts), the others as `picks` choose.
 */
function costlyIn(
  value: unknown,
  schema: Schema | undefined,
  picks: { expression: number[]; template: number[] },
  name?: string,
  semantic?: 'expression' | 'template',
): unknown {
  const s = resolve(schema);
  if (!s) return value;
  const kind = semantic ?? semanticOf(s, name);
  if (typeof value === 'string') {
    if (!kind) return value;
    const costly = kind === 'expression' ? EXPRESSIONS.costly : TEMPLATES.costly;
    return costly[(picks[kind].shift() ?? 0) % costly.length];
  }
  if (Array.isArray(value)) return value.map((v) => costlyIn(v, s.items, picks));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        s.properties?.[k]
          ? costlyIn(v, s.properties[k], picks, k)
          : typeof s.additionalProperties === 'object'
            ? costlyIn(v, s.additionalProperties, picks, undefined, kind)
            : v,
      ]),
    );
  }
  return value;
}

/** Whether a schema holds texts the contract says are expressions or templates. */
function hasSemanticText(schema: Schema | undefined, depth = 0, seen = new Set<Schema>()): boolean {
  const s = resolve(schema);
  if (!s || depth > 8 || seen.has(s)) return false;
  seen.add(s);
  if (s.type === 'string' && semanticOf(s, undefined)) return true;
  const children = [
    ...Object.entries(s.properties ?? {}).map(([k, p]) => (resolve(p)?.type === 'string' && semanticOf(resolve(p)!, k) ? null : p)),
    s.items,
    typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined,
    ...(s.oneOf ?? []),
    ...(s.anyOf ?? []),
  ];
  if (children.includes(null)) return true;
  if (/JSONata|Liquid/.test(s.description ?? '')) return true;
  return children.some((child) => child && hasSemanticText(child, depth + 1, seen));
}

/** What part of a request is broken in a case: nothing, one part, a framing of the body (by name), or everything. */
export type RequestKind = string;

/**
 * The kinds of request the fuzz sends to an operation, each the same number of times: so
 * every kind of breakage reaches every operation, whatever the seed.
 */
export function requestKinds(c: ContractOperation): RequestKind[] {
  const kinds = ['valid', 'broken body', 'broken query', 'broken everywhere'];
  if (c.media === 'application/json') kinds.push('tainted text', ...Object.keys(HAZARDS).map((h) => `each text: ${h}`));
  if (c.media === 'multipart/form-data') kinds.push(...Object.keys(HAZARDS).map((h) => `each field: ${h}`));
  if (c.media === 'application/json' && hasSemanticText(c.op.requestBody!.content[c.media]!.schema)) kinds.push('costly texts');
  if (c.params.some((p) => p.in === 'path')) kinds.push('broken path');
  const framings =
    c.media === 'application/json'
      ? Object.keys(JSON_FRAMINGS)
      : c.media === 'multipart/form-data'
        ? ['truncated form', 'form cut off inside a file', 'no boundary', 'compressed form', 'form as json']
        : ['corrupt body'];
  return [...kinds, ...framings.map((f) => `framing: ${f}`)];
}

/** A request of the given kind to the operation. */
export function requestFor(c: ContractOperation, world: World, csv: string, kind: RequestKind): fc.Arbitrary<FuzzRequest> {
  const pathParams = c.params.filter((p) => p.in === 'path');
  const queryParams = c.params.filter((p) => p.in === 'query');
  const headerParams = c.params.filter((p) => p.in === 'header');

  const validPath = fc.tuple(
    ...pathParams.map((p) =>
      fc.oneof({ weight: 6, arbitrary: fc.constant(encodeURIComponent(pathId(world, c.method, c.template, p.name))) }, { weight: 1, arbitrary: fc.uuid() }),
    ),
  );
  const brokenPath = fc.tuple(
    ...pathParams.map((p) =>
      fc.oneof(
        { weight: 1, arbitrary: fc.constant(encodeURIComponent(pathId(world, c.method, c.template, p.name))) },
        { weight: 2, arbitrary: hostilePathValue },
      ),
    ),
  );

  const validValue = (p: Parameter) =>
    valueOf(p.schema, world, c.template, p.name).map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)));
  const validQuery = fc.tuple(
    ...queryParams.map((p) =>
      p.required
        ? validValue(p).map((v) => [p.name, v] as [string, string])
        : fc.option(
            validValue(p).map((v) => [p.name, v] as [string, string]),
            { nil: undefined },
          ),
    ),
  );
  const brokenQuery = fc
    .tuple(
      fc.tuple(
        ...queryParams.map((p) =>
          fc.option(
            queryValue(p, world, c.template).map((v) => [p.name, v] as [string, string]),
            { nil: undefined },
          ),
        ),
      ),
      fc.option(fc.tuple(fc.constantFrom('bogus', 'limit', 'league', '__proto__'), fc.constantFrom('1', MARK.repeat(300), 'a\u0000')), { nil: undefined }),
    )
    .map(([declared, extra]) => (extra ? [...declared, extra] : declared));

  // The required parameters at their examples: the rest of a request that probes its body.
  const exampleQuery = fc.constant(
    queryParams
      .filter((p) => p.required)
      .map((p): [string, string] => {
        const v = withWorldIds(world, c.template, p.example ?? p.schema?.example ?? resolve(p.schema)?.example, p.name);
        return [p.name, Array.isArray(v) ? v.join(',') : String(v)];
      }),
  );
  const worldPath = fc.constant(pathParams.map((p) => encodeURIComponent(pathId(world, c.method, c.template, p.name))));

  const headers = fc.tuple(
    ...headerParams.map((p) =>
      fc.option(
        fc.string({ maxLength: 40 }).map((v) => [p.name, v] as [string, string]),
        { nil: undefined },
      ),
    ),
  );

  let validBody: fc.Arbitrary<Body>;
  let brokenBody: fc.Arbitrary<Body>;
  const framings: Record<string, fc.Arbitrary<Body>> = {};
  if (c.media === 'application/json') {
    validBody = fc.oneof(
      { weight: 6, arbitrary: validJson(c, world).map((value) => ({ kind: 'json' as const, value, framing: 'json' })) },
      {
        weight: 1,
        arbitrary: validJson(c, world).map((value) => ({
          kind: 'raw' as const,
          data: gzipSync(JSON.stringify(value) ?? 'null'),
          type: 'application/json',
          extraHeaders: { 'content-encoding': 'gzip' },
          framing: 'gzip json',
        })),
      },
    );
    brokenBody = brokenJson(c, world).map((value) => ({ kind: 'json' as const, value, framing: 'broken json' }));
    for (const [name, framing] of Object.entries(JSON_FRAMINGS)) framings[name] = validJson(c, world).chain(framing);
  } else if (c.media === 'multipart/form-data') {
    const f = forms(c, world, csv);
    validBody = f.valid;
    brokenBody = fc.oneof(...Object.values(f.broken));
    Object.assign(framings, f.framings);
  } else {
    validBody = fc.constant({ kind: 'none' as const, framing: 'no body' });
    brokenBody = hostileValue.map((value) => ({ kind: 'json' as const, value, framing: 'a body nobody asked for' }));
    framings['corrupt body'] = corrupt.map((data) => ({
      kind: 'raw' as const,
      data,
      type: 'application/json',
      extraHeaders: { 'content-encoding': 'gzip' },
      framing: 'a corrupt body nobody asked for',
    }));
  }
  const anyFraming = fc.oneof(...Object.values(framings));

  const [path, query, body] = ((): [fc.Arbitrary<string[]>, fc.Arbitrary<([string, string] | undefined)[]>, fc.Arbitrary<Body>] => {
    if (kind === 'valid') return [validPath, validQuery, validBody];
    if (kind === 'broken body') return [validPath, validQuery, brokenBody];
    if (kind === 'broken query') return [validPath, brokenQuery, validBody];
    if (kind === 'broken path') return [brokenPath, validQuery, validBody];
    if (kind === 'broken everywhere') return [brokenPath, brokenQuery, fc.oneof(brokenBody, anyFraming)];
    if (kind === 'tainted text')
      return [
        validPath,
        validQuery,
        fc
          .tuple(validJson(c, world), fc.nat(), taintedText)
          .map(([v, pick, change]) => ({ kind: 'json' as const, value: taintText(v, pick, change), framing: 'one text tainted' })),
      ];
    if (kind === 'costly texts') {
      // Each example, every expression and template in it costly; and one drawn from the schema.
      const schema = c.op.requestBody!.content[c.media!]!.schema;
      const examples = exampleBodies(c, world);
      const picks = fc.array(fc.nat(), { minLength: 32, maxLength: 32 }).map((rest) => [0, ...rest]);
      return [
        worldPath,
        exampleQuery,
        fc
          .tuple(
            fc.array(fc.tuple(picks, picks), { minLength: examples.length, maxLength: examples.length }),
            valueOf(schema, world, c.template, undefined, 0, undefined, { costly: true }),
          )
          .map(([perExample, drawn]) => ({
            kind: 'json' as const,
            value: drawn,
            framing: 'every expression and template costly',
            variants: [
              ...examples.map((v, i) => ({
                kind: 'json' as const,
                value: costlyIn(v, schema, { expression: perExample[i]![0], template: perExample[i]![1] }),
              })),
              { kind: 'json' as const, value: drawn },
            ],
          })),
      ];
    }
    if (kind.startsWith('each text: ')) {
      return [
        worldPath,
        exampleQuery,
        fc.tuple(fc.constantFrom(...exampleBodies(c, world)), HAZARDS[kind.slice('each text: '.length)]!).map(([v, change]) => ({
          kind: 'json' as const,
          value: v,
          framing: 'each text tainted in turn',
          variants: Array.from({ length: countTexts(v) }, (_, i) => ({ kind: 'json' as const, value: taintText(v, i, change) })),
        })),
      ];
    }
    if (kind.startsWith('each field: ')) {
      return [
        worldPath,
        exampleQuery,
        fc.tuple(forms(c, world, csv).valid, HAZARDS[kind.slice('each field: '.length)]!).map(([form, change]) => {
          const f = form as Extract<Body, { kind: 'form' }>;
          return {
            ...f,
            framing: 'each field tainted in turn',
            variants: f.fields.map((_, i) => ({ ...f, fields: f.fields.map(([k, v], j): [string, string] => [k, i === j ? change(v) : v]) })),
          };
        }),
      ];
    }
    const framing = framings[kind.replace(/^framing: /, '')];
    if (!framing) throw new Error(`no request kind ${kind} for ${c.op.operationId}`);
    return [validPath, validQuery, framing];
  })();
  return fc.tuple(path, query, headers, body).map(([values, declared, headerValues, b]) => {
    let i = 0;
    const filled = c.template.replace(/\{[^}]+\}/g, () => values[i++]!);
    const { extraHeaders, framing, variants, ...sent } = b;
    return {
      ...(variants
        ? {
            variants: variants.map((v) => {
              const { framing: _f, variants: _v, ...body } = v as Body;
              return body as FuzzRequest['body'];
            }),
          }
        : {}),
      what: `${kind} (${framing})`,
      path: filled,
      query: declared.filter((x): x is [string, string] => x !== undefined),
      headers: { ...Object.fromEntries(headerValues.filter((x): x is [string, string] => x !== undefined)), ...(extraHeaders ?? {}) },
      body: sent as FuzzRequest['body'],
    };
  });
}
