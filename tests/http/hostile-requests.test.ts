/**
 * Requests an attacker would send, one class each: none may crash the
 * process, stall it or answer 5xx; the answer is the contract's 4xx with a
 * short detail. (tests/http/contract-fuzz.test.ts generates such requests for
 * every operation; these are the known shapes, kept as plain examples.)
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { httpErrors } from '../../src/http/http.errors.js';
import { authErrors } from '../../src/modules/auth/auth.errors.js';
import { brandErrors } from '../../src/modules/brands/brands.errors.js';
import { groupErrors } from '../../src/modules/groups/groups.errors.js';
import { leagueErrors } from '../../src/modules/leagues/leagues.errors.js';
import { expectError } from '../helpers/errors.js';
import { UNKNOWN_ID } from '../helpers/factories.js';
import { registerUser, type TestApp } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

/** A request written by hand (bodies fetch would not send: cut short, lying about their length). */
function rawRequest(
  app: TestApp,
  { method, path, headers, body }: { method: string; path: string; headers: Record<string, string>; body: Buffer | string },
): Promise<{ status: number; text: string }> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const MULTIPART_OPERATIONS = [
  ['POST', '/api/brands'],
  ['PATCH', `/api/brands/${UNKNOWN_ID}`],
  ['POST', '/api/question-definitions/import'],
  ['POST', '/api/match-question-definitions/import'],
] as const;

/** A multipart body whose file part never ends (no closing boundary). */
const truncatedForm = (field: string) =>
  Buffer.from(
    `--XX\r\nContent-Disposition: form-data; name="name"\r\n\r\nAcme\r\n--XX\r\nContent-Disposition: form-data; name="${field}"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nname,league\r\nabc,w`,
  );

describe('hostile requests', () => {
  const { app, admin } = useTestApp();

  it('survives a multipart upload cut off mid-file, on every multipart operation, with any key', async () => {
    const player = await registerUser(app);
    for (const [method, path] of MULTIPART_OPERATIONS) {
      for (const token of [admin.token, player.token, 'qp_not_a_key', null]) {
        const field = path.includes('import') ? 'file' : 'logo';
        const headers: Record<string, string> = { 'content-type': 'multipart/form-data; boundary=XX' };
        if (token) headers.authorization = `Bearer ${token}`;
        const res = await rawRequest(app, { method, path, headers, body: truncatedForm(field) });
        const expected = token === admin.token ? 422 : token === player.token ? 403 : 401;
        expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} ${expected}`);
        if (expected === 422) expect(JSON.parse(res.text).detail[0]).toMatchObject({ loc: ['body'], type: 'multipart_invalid' });
      }
    }
    // Still serving.
    expect((await app.request('GET', '/api/leagues')).status).toBe(200);
  });

  it('answers 422 for a malformed percent-encoding in a path parameter, decoding each parameter once', async () => {
    for (const path of [
      '/api/brands/%ff',
      '/api/brands/%E0%A4%A',
      '/api/leagues/%',
      `/api/brands/${UNKNOWN_ID}/question-sponsorships%ff`,
      '/api/user-feedback/%c0%80',
    ]) {
      const res = await app.request('GET', path, { token: admin.token });
      expect(res.status, path).toBeLessThan(500);
    }
    const bad = await app.request('GET', '/api/brands/%ff');
    expectError(bad, httpErrors.invalid);
    expect(bad.body.detail).toEqual([{ loc: ['path', 'brand_id'], msg: 'not valid percent-encoded UTF-8', type: 'percent_encoding' }]);
    // A lone surrogate cannot be percent-encoded UTF-8 either.
    expect((await app.request('GET', '/api/leagues/%ED%A0%80')).body.detail[0]).toMatchObject({ loc: ['path', 'league_id'], type: 'percent_encoding' });
    // `%2577c` is the text `%77c`, not `wc` (decoded once, not twice).
    expectError(await app.request('GET', '/api/leagues/%2577c'), leagueErrors.notFound);
    expect((await app.request('GET', '/api/leagues/%77c')).status).toBe(200);
  });

  it('answers 422 for a compressed body that does not decompress, or an unknown encoding, with and without a key', async () => {
    const valid = gzipSync(JSON.stringify({ username: 'nobody', password: 'wrong password' }));
    const ok = await app.request('POST', '/api/auth/login', { raw: { body: valid, contentType: 'application/json' }, headers: { 'content-encoding': 'gzip' } });
    expectError(ok, authErrors.invalidCredentials);
    for (const encoding of ['gzip', 'deflate', 'br', 'compress', 'gzip, br']) {
      for (const [path, token] of [
        ['/api/auth/login', null],
        ['/api/auth/register', null],
        ['/api/users/me/devices', admin.token],
        ['/api/question-definitions/preview', admin.token],
      ] as const) {
        const res = await app.request('POST', path, {
          token,
          raw: { body: Buffer.from('this is not compressed'), contentType: 'application/json' },
          headers: { 'content-encoding': encoding },
        });
        expectError(res, httpErrors.invalid);
        expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'content_encoding' });
      }
    }
    const form = await app.request('POST', '/api/question-definitions/import', {
      token: admin.token,
      raw: { body: gzipSync('--XX--'), contentType: 'multipart/form-data; boundary=XX' },
      headers: { 'content-encoding': 'gzip' },
    });
    expectError(form, httpErrors.invalid);
    expect(form.body.detail[0]).toMatchObject({ loc: ['body'], type: 'content_encoding' });
  });

  it('answers 422 for an unpaired UTF-16 surrogate in any text, as for U+0000, whether the column is text or jsonb', async () => {
    const lone = (s: string) => s.replace('X', '\\ud800');
    const templates = await app.request('PATCH', '/api/push-settings', {
      token: admin.token,
      raw: { body: lone('{"issuance": {"templates": {"title_template": "aXb"}}}'), contentType: 'application/json' },
    });
    expectError(templates, httpErrors.invalid);
    expect(templates.body.detail).toEqual([
      { loc: ['body', 'issuance', 'templates', 'title_template'], msg: 'text must not contain an unpaired UTF-16 surrogate', type: 'lone_surrogate' },
    ]);
    const name = await app.request('PATCH', '/api/users/me', {
      token: admin.token,
      raw: { body: lone('{"first_name": "aXb"}'), contentType: 'application/json' },
    });
    expectError(name, httpErrors.invalid);
    expect(name.body.detail[0]).toMatchObject({ loc: ['body', 'first_name'], type: 'lone_surrogate' });
    const key = await app.request('PATCH', '/api/users/me', { token: admin.token, raw: { body: '{"\\udc00": 1}', contentType: 'application/json' } });
    expect(key.body.detail[0]).toMatchObject({ loc: ['body', '\udc00'], type: 'lone_surrogate' });
    // A pair is a character like any other.
    const pair = await app.request('PATCH', '/api/users/me', { token: admin.token, body: { first_name: 'a\ud83d\ude00b' } });
    expect(pair.status).toBe(200);
    expect(pair.body.first_name).toBe('a\ud83d\ude00b');
  });

  it('checks the role before reading or validating the body, on every kind of body', async () => {
    const player = await registerUser(app);
    const cases: [string, string, Parameters<TestApp['request']>[2]][] = [
      ['POST', '/api/question-definitions/import', { raw: { body: 'not a form', contentType: 'text/plain' } }],
      ['POST', '/api/question-definitions/import', { form: new FormData() }],
      ['POST', '/api/match-question-definitions/import', { form: new FormData() }],
      ['POST', '/api/brands', { form: new FormData() }],
      ['POST', '/api/question-groups', { raw: { body: '{"broken', contentType: 'application/json' } }],
      ['POST', '/api/question-groups', { raw: { body: '{}', contentType: 'text/plain' } }],
      ['POST', '/api/question-groups', { raw: { body: Buffer.from('junk'), contentType: 'application/json' }, headers: { 'content-encoding': 'gzip' } }],
      ['POST', '/api/question-groups', { body: { name: 'a\u0000' } }],
      ['PATCH', '/api/leagues/wc', { body: 'x'.repeat(2 * 1024 * 1024) }],
      ['PATCH', '/api/leagues/%ff', { body: {} }],
      ['GET', '/api/users', { query: { bogus: '\u0000' } }],
    ];
    for (const [method, path, opts] of cases) {
      const anonymous = await app.request(method, path, opts);
      expect(`${method} ${path} anonymous ${anonymous.status}`).toBe(`${method} ${path} anonymous 401`);
      expectError(anonymous, authErrors.unauthorized);
      const asPlayer = await app.request(method, path, { ...opts, token: player.token });
      expect(`${method} ${path} player ${asPlayer.status}`).toBe(`${method} ${path} player 403`);
      expectError(asPlayer, authErrors.forbidden);
    }
  });

  it('quotes at most a short prefix of what was sent in an error detail', async () => {
    const huge = 'z'.repeat(1024 * 1024 - 200);
    const group = await app.request('POST', '/api/question-groups', { token: admin.token, query: { league: 'wc' }, body: { name: 'G', slug: huge } });
    expectError(group, groupErrors.invalidSlug);
    const form = new FormData();
    form.set('name', 'Acme');
    form.set('primary_color', 'z'.repeat(60_000));
    const brand = await app.request('POST', '/api/brands', { token: admin.token, form });
    expectError(brand, brandErrors.invalidColor);
    const route = await app.request('GET', `/api/${'z'.repeat(8000)}`);
    expectError(route, httpErrors.routeNotFound);
    const league = await app.request('GET', '/api/question-definitions', { query: { league: 'z'.repeat(6000) } });
    expect(league.status).toBeGreaterThanOrEqual(400);
    const key = await app.request('PATCH', '/api/users/me', { token: admin.token, body: { ['z'.repeat(100_000)]: 1 } });
    expectError(key, httpErrors.invalid);
    for (const res of [group, brand, route, league, key]) {
      expect(res.text.length).toBeLessThan(600);
      expect(res.text).not.toContain('z'.repeat(100));
    }
  });
});
