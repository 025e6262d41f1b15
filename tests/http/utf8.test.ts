/**
 * One rule for text that is not what was meant: bytes that are not UTF-8
 * (stored as U+FFFD until now) and unpaired UTF-16 surrogates (refused
 * already) are both 422 `request.invalid` with the location of the text,
 * wherever the request carries it: a JSON body (a value, a key, nested), a
 * multipart form field, an uploaded CSV file, the operator UI's form, a
 * query parameter, a path parameter. Table-driven over a sample of
 * operations; each case also checks that nothing was written.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpErrors } from '../../src/http/http.errors.js';
import { brands } from '../../src/modules/brands/brands.table.js';
import { questionDefinitions } from '../../src/modules/definitions/definitions.table.js';
import { playerGroups } from '../../src/modules/player-groups/player-groups.table.js';
import { pushDevices } from '../../src/modules/push/push.table.js';
import { users } from '../../src/modules/users/users.table.js';
import { assertMatchesContract } from '../helpers/contract.js';
import { inGameDefinitionInput } from '../helpers/definitions.js';
import { expectError } from '../helpers/errors.js';
import { createAdmin, registerUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app.js';

let app: TestApp;
let admin: TestUser;
let player: TestUser;
const db = () => app.services.database.db;

beforeAll(async () => {
  app = await startTestApp();
  admin = await createAdmin(app);
  player = await registerUser(app, { verified: true });
  const device = await app.request('POST', '/api/users/me/devices', {
    token: player.token,
    body: { device_id: 'phone-1', platform: 'ios', token: 'apns-token-0123456789abcdef' },
  });
  expect(device.status, device.text).toBe(201);
});
afterAll(() => app?.close());

/** The ways a client sends text that is not UTF-8: raw bytes that are none, and a JSON escape of half a surrogate pair. */
const NOT_UTF8: [string, Buffer][] = [
  ['a lone 0xFF byte', Buffer.from([0xff])],
  ['Latin-1 text', Buffer.from('Caf\xe9', 'latin1')],
  ['a truncated sequence', Buffer.from([0xe2, 0x82])],
  ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
  ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
];
/** The same in a URL: percent-escapes of those bytes. */
const escaped = (bytes: Buffer) => [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** A JSON body with `bytes` spliced raw into the string at the placeholder. */
const jsonWith = (template: unknown, bytes: Buffer) => {
  const [before, after] = JSON.stringify(template).split('@@');
  return Buffer.concat([Buffer.from(before!), bytes, Buffer.from(after!)]);
};

interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** A request as it is sent (the path may carry a raw query), its answer checked against the contract. */
async function send(
  method: string,
  pathAndQuery: string,
  opts: { token?: string; body?: Buffer; contentType?: string; contract?: boolean } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const res = await fetch(`${app.url}${pathAndQuery}`, { method, headers, body: opts.body });
  const text = await res.text();
  const body: unknown = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
  if (opts.contract !== false)
    assertMatchesContract({
      method,
      path: pathAndQuery.split('?')[0]!,
      status: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body,
      text,
      header: (n) => res.headers.get(n),
    });
  return { status: res.status, body, text, headers: res.headers };
}

function expectRefused(res: Answer, loc: (string | number)[], type: string) {
  expectError(res, httpErrors.invalid);
  expect(res.body.detail).toEqual([expect.objectContaining({ loc, type })]);
}

const multipart = (parts: { name: string; filename?: string; type?: string; data: Buffer }[]) => {
  const boundary = '----utf8test';
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
    ),
    p.data,
    Buffer.from('\r\n'),
  ]);
  return { body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
};

const COLOURS = [
  { name: 'primary_color', data: Buffer.from('#112233') },
  { name: 'secondary_color', data: Buffer.from('#445566') },
];

const brandCount = async () => (await db().select({ n: count() }).from(brands))[0]!.n;
const definitionCount = async () => (await db().select({ n: count() }).from(questionDefinitions))[0]!.n;
const groupCount = async () => (await db().select({ n: count() }).from(playerGroups))[0]!.n;
const userCount = async () => (await db().select({ n: count() }).from(users))[0]!.n;
const firstName = async () => (await db().select({ v: users.firstName }).from(users).where(eq(users.id, player.id)))[0]!.v;

interface Case {
  name: string;
  /** Sends `bytes` (not UTF-8) where the case puts text; resolves with the answer. */
  send: (bytes: Buffer) => Promise<Answer>;
  loc: (string | number)[];
  type: string;
  /** What must not change. */
  unchanged: () => Promise<unknown>;
}

const cases: Case[] = [
  {
    name: 'a JSON value (updateCurrentUser)',
    send: (b) => send('PATCH', '/api/users/me', { token: player.token, contentType: 'application/json', body: jsonWith({ first_name: 'A@@' }, b) }),
    loc: ['body', 'first_name'],
    type: 'utf8_invalid',
    unchanged: firstName,
  },
  {
    name: 'a JSON object key (updateCurrentUser)',
    send: (b) => send('PATCH', '/api/users/me', { token: player.token, contentType: 'application/json', body: jsonWith({ ['k@@']: 1 }, b) }),
    // The key as it could be read: U+FFFD (or the surrogate) where the text was not UTF-8.
    loc: ['body', expect.stringMatching(/^k./)],
    type: 'utf8_invalid',
    unchanged: firstName,
  },
  {
    name: 'an open operation (register)',
    send: (b) =>
      send('POST', '/api/auth/register', {
        contentType: 'application/json',
        body: jsonWith({ username: `utf8${Date.now()}`, email: `utf8${Date.now()}@example.com`, password: 'correct horse battery', first_name: '@@' }, b),
      }),
    loc: ['body', 'first_name'],
    type: 'utf8_invalid',
    unchanged: userCount,
  },
  {
    name: 'a nested value (createQuestionDefinition choices[1].label_template)',
    send: (b) => {
      const input = inGameDefinitionInput({ name: `utf8 ${Date.now()}` }) as { choices: { label_template: string }[] };
      input.choices[1]!.label_template = '@@';
      return send('POST', '/api/question-definitions?league=wc', { token: admin.token, contentType: 'application/json', body: jsonWith(input, b) });
    },
    loc: ['body', 'choices', 1, 'label_template'],
    type: 'utf8_invalid',
    unchanged: definitionCount,
  },
  {
    name: 'a player group name (createPlayerGroup)',
    send: (b) => send('POST', '/api/player-groups', { token: player.token, contentType: 'application/json', body: jsonWith({ name: 'Club @@' }, b) }),
    loc: ['body', 'name'],
    type: 'utf8_invalid',
    unchanged: groupCount,
  },
  {
    name: 'a multipart form field (createBrand name)',
    send: (b) =>
      send('POST', '/api/brands', { token: admin.token, ...multipart([...COLOURS, { name: 'name', data: Buffer.concat([Buffer.from('Brand '), b]) }]) }),
    loc: ['body', 'name'],
    type: 'utf8_invalid',
    unchanged: brandCount,
  },
  {
    name: 'an uploaded CSV file (importQuestionDefinitions, applied)',
    send: async (b) => {
      const exported = await app.request('GET', '/api/question-definitions/export', { token: admin.token });
      const header = exported.text.split('\n')[0]!;
      const file = Buffer.concat([Buffer.from(`${header}\n,wc,`), b, Buffer.from('\n')]);
      return send('POST', '/api/question-definitions/import?dry_run=false', {
        token: admin.token,
        ...multipart([{ name: 'file', filename: 'defs.csv', type: 'text/csv', data: file }]),
      });
    },
    loc: ['body', 'file'],
    type: 'utf8_invalid',
    unchanged: definitionCount,
  },
  {
    name: 'a query parameter (listBrands q)',
    send: (b) => send('GET', `/api/brands?q=${escaped(b)}`),
    loc: ['query', 'q'],
    type: 'percent_encoding',
    unchanged: brandCount,
  },
  {
    name: "a query parameter of a write (createQuestionDefinition's league)",
    send: (b) =>
      send('POST', `/api/question-definitions?league=wc${escaped(b)}`, {
        token: admin.token,
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(inGameDefinitionInput({ name: `utf8 q ${Date.now()}` }))),
      }),
    loc: ['query', 'league'],
    type: 'percent_encoding',
    unchanged: definitionCount,
  },
  {
    name: 'a query parameter name (listMatches)',
    send: (b) => send('GET', `/api/matches?x${escaped(b)}=1`),
    loc: ['query', expect.stringMatching(/^x.*\uFFFD/)],
    type: 'percent_encoding',
    unchanged: brandCount,
  },
  {
    name: 'a path parameter (deleteCurrentUserDevice)',
    send: (b) => send('DELETE', `/api/users/me/devices/phone-1${escaped(b)}`, { token: player.token }),
    loc: ['path', 'device_id'],
    type: 'percent_encoding',
    unchanged: async () => (await db().select().from(pushDevices).where(eq(pushDevices.userId, player.id))).map((d) => d.deviceId),
  },
  {
    name: "the operator UI's sign-in form",
    send: (b) =>
      send('POST', '/admin/login', {
        contentType: 'application/x-www-form-urlencoded',
        body: Buffer.from(`login=${escaped(b)}&password=x&csrf=x`),
        contract: false,
      }),
    loc: ['body', 'login'],
    type: 'utf8_invalid',
    unchanged: userCount,
  },
];

describe('text that is not UTF-8', () => {
  for (const c of cases) {
    for (const [what, bytes] of NOT_UTF8) {
      it(`is 422 at ${c.name}: ${what}, and nothing is written`, async () => {
        const before = await c.unchanged();
        expectRefused(await c.send(bytes), c.loc, c.type);
        expect(await c.unchanged()).toEqual(before);
      });
    }
  }

  it('is told apart from text that is: the same places take valid UTF-8 (U+FFFD itself included in JSON)', async () => {
    const ok = await send('PATCH', '/api/users/me', {
      token: player.token,
      contentType: 'application/json',
      body: jsonWith({ first_name: 'Ren@@' }, Buffer.from('é \uFFFD 😀')),
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.first_name).toBe('René \uFFFD 😀');
    expect((await send('GET', `/api/brands?q=${encodeURIComponent('Café 😀')}`)).status).toBe(200);
    const brand = await send('POST', '/api/brands', {
      token: admin.token,
      ...multipart([...COLOURS, { name: 'name', data: Buffer.from(`Café ${Date.now()}`) }]),
    });
    expect(brand.status, brand.text).toBe(201);
  });
});

describe('an unpaired surrogate, spelled as a JSON escape', () => {
  it('is refused by the same rule, at the same places', async () => {
    const lone = Buffer.from('\\ud800');
    for (const c of cases.filter((x) => x.type === 'utf8_invalid' && x.name.includes('JSON'))) {
      const before = await c.unchanged();
      expectRefused(await c.send(lone), c.loc, 'lone_surrogate');
      expect(await c.unchanged()).toEqual(before);
    }
  });
});
