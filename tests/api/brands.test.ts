/**
 * Brands over HTTP: the five operations, their rules (names, colors, logos)
 * and the logo objects in a real S3-protocol bucket. A second app runs
 * without a bucket for the 503 cases.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brands } from '../../src/modules/brands/brands.table.js';
import { brandErrors } from '../../src/modules/brands/brands.errors.js';
import { expectError } from '../helpers/errors.js';
import { UNKNOWN_ID } from '../helpers/factories.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { createAdmin, registerUser, startTestApp, type ApiResponse, type TestApp, type TestUser } from '../helpers/test-app.js';

/** Real, tiny images (1x1). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const TEXT = Buffer.from('this is not an image, just some text\n');
const MiB = 1024 * 1024;

interface Logo {
  data: Buffer;
  name: string;
  type?: string;
}

interface BrandBody {
  id: string;
  name: string;
  primary_color: string;
  secondary_color: string | null;
  logo_filename: string | null;
  logo_content_type: string | null;
  logo_url: string | null;
  created_at: string;
  updated_at: string;
}

let s3: TestS3;
let app: TestApp;
let bare: TestApp;
let admin: TestUser;
let player: TestUser;
let bareAdmin: TestUser;

beforeAll(async () => {
  s3 = await startS3();
  app = await startTestApp({ config: { s3: s3.config } });
  bare = await startTestApp({ config: { s3: null } });
  admin = await createAdmin(app);
  player = await registerUser(app);
  bareAdmin = await createAdmin(bare);
});
afterAll(async () => {
  await app?.close();
  await bare?.close();
  await s3?.close();
});

let counter = 0;
/** A name no other test uses. */
const unique = (prefix = 'Brand') => `${prefix} ${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

function form(fields: Record<string, string>, logo?: Logo): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (logo) fd.append('logo', new Blob([new Uint8Array(logo.data)], { type: logo.type ?? 'application/octet-stream' }), logo.name);
  return fd;
}

const png = (name = 'logo.png'): Logo => ({ data: PNG, name, type: 'image/png' });

async function create(
  fields: Record<string, string>,
  logo?: Logo,
  on: TestApp = app,
  token = on === app ? admin.token : bareAdmin.token,
): Promise<ApiResponse<BrandBody>> {
  return on.request<BrandBody>('POST', '/api/brands', { token, form: form(fields, logo) });
}

async function createOk(fields: Partial<Record<string, string>> = {}, logo?: Logo, on: TestApp = app): Promise<BrandBody> {
  const res = await create({ name: unique(), primary_color: '#123456', ...fields } as Record<string, string>, logo, on);
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

async function patch(
  id: string,
  fields: Record<string, string>,
  logo?: Logo,
  on: TestApp = app,
  token = on === app ? admin.token : bareAdmin.token,
): Promise<ApiResponse<BrandBody>> {
  return on.request<BrandBody>('PATCH', `/api/brands/${id}`, { token, form: form(fields, logo) });
}

const detailOf = (res: ApiResponse<unknown>): string => (res.body as { detail: string }).detail;
const get = (id: string, on: TestApp = app) => on.request<BrandBody>('GET', `/api/brands/${id}`);
const list = (q?: string, on: TestApp = app) => on.request<BrandBody[]>('GET', '/api/brands', { query: { q } });
const keyOf = (b: Pick<BrandBody, 'id' | 'logo_filename'>) => `brands/${b.id}/${b.logo_filename}`;
const publicUrl = (key: string) => `${s3.config.endpoint}/${s3.config.bucket}/${key}`;

/** GET of a public object URL, body read to the end. */
async function fetchObject(url: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, contentType: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every object key in the bucket (ListObjectsV2 over the S3 HTTP API). */
async function bucketKeys(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const params = new URLSearchParams({ 'list-type': '2', 'max-keys': '1000' });
    if (token) params.set('continuation-token', token);
    const res = await fetch(`${s3.config.endpoint}/${s3.config.bucket}?${params}`);
    if (!res.ok) throw new Error(`S3 list: ${res.status}`);
    const xml = await res.text();
    for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g))
      keys.push(
        m[1]!
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'"),
      );
    token = /<IsTruncated>true<\/IsTruncated>/.test(xml) ? /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] : undefined;
  } while (token);
  return keys.sort();
}

/** Runs fn and checks that the bucket holds the same objects afterwards. */
async function expectBucketUnchanged(fn: () => Promise<unknown>): Promise<void> {
  const before = await bucketKeys();
  await fn();
  expect(await bucketKeys()).toEqual(before);
}

describe('POST /api/brands', () => {
  it('creates a brand with all fields and stores the logo at brands/{id}/{filename}', async () => {
    const name = unique('Acme Sports Drinks');
    const res = await create({ name, primary_color: '#FF5500', secondary_color: '#024' }, png('acme-logo.png'));
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b).toEqual({
      id: expect.any(String),
      name,
      primary_color: '#ff5500',
      secondary_color: '#002244',
      logo_filename: 'acme-logo.png',
      logo_content_type: 'image/png',
      logo_url: publicUrl(`brands/${b.id}/acme-logo.png`),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await s3.read(`brands/${b.id}/acme-logo.png`)).toEqual(PNG);
    expect(await fetchObject(b.logo_url!)).toEqual({ status: 200, contentType: 'image/png', bytes: PNG });
    expect((await get(b.id)).body).toEqual(b);
  });

  it('creates a brand without a logo or secondary color', async () => {
    const name = unique();
    const res = await create({ name, primary_color: '#abcdef' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, primary_color: '#abcdef', secondary_color: null, logo_filename: null, logo_content_type: null, logo_url: null });
  });

  it('treats an empty secondary_color as none', async () => {
    const res = await create({ name: unique(), primary_color: '#abcdef', secondary_color: '' });
    expect(res.status).toBe(201);
    expect(res.body.secondary_color).toBeNull();
  });

  it('trims the name', async () => {
    const name = unique('Trimmed');
    const res = await create({ name: `   ${name} \t `, primary_color: '#000' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
    expect((await list(name)).body.map((b) => b.name)).toEqual([name]);
  });

  it.each([
    ['#ABC', '#aabbcc'],
    ['#aBc', '#aabbcc'],
    ['#f0a', '#ff00aa'],
    ['#9ABCDE', '#9abcde'],
    ['#9aBcDe', '#9abcde'],
    ['#0f0f0f', '#0f0f0f'],
  ])('normalizes the color %s to %s', async (input, expected) => {
    const res = await create({ name: unique(), primary_color: input, secondary_color: input });
    expect(res.status).toBe(201);
    expect(res.body.primary_color).toBe(expected);
    expect(res.body.secondary_color).toBe(expected);
    expect((await get(res.body.id)).body).toMatchObject({ primary_color: expected, secondary_color: expected });
  });

  it.each(['primary_color', 'secondary_color'])('answers 400 naming %s for invalid colors, creating nothing', async (field) => {
    for (const bad of ['red', '#12', 'ff5500', '#gggggg', '#12345', '#1234567', '#ff 550']) {
      const name = unique();
      const fields = { name, primary_color: '#123456', [field]: bad };
      const res = await create(fields);
      expectError(res, brandErrors.invalidColor);
      expect(res.body).toEqual({ detail: expect.stringContaining(field) });
      expect(detailOf(res)).toContain(bad);
      expect((await list(name)).body).toEqual([]);
    }
  });

  it('answers 400 for a blank name', async () => {
    expectError(await create({ name: '   ', primary_color: '#123456' }), brandErrors.invalidName);
  });

  it('answers 422 when name or primary_color is missing, empty or too long', async () => {
    expect((await create({ primary_color: '#123456' })).status).toBe(422);
    expect((await create({ name: '', primary_color: '#123456' })).status).toBe(422);
    expect((await create({ name: 'x'.repeat(121), primary_color: '#123456' })).status).toBe(422);
    expect((await create({ name: unique() })).status).toBe(422);
    expect((await create({ name: unique(), primary_color: '#123456', colour: '#fff' })).status).toBe(422);
  });

  it('answers 422 for a JSON body instead of a multipart form', async () => {
    const res = await app.request('POST', '/api/brands', { token: admin.token, body: { name: unique(), primary_color: '#123456' } });
    expect(res.status).toBe(422);
  });

  it('answers 409 for a duplicate name, whatever its case or surrounding blanks', async () => {
    const name = unique('Dup Brand');
    expect((await create({ name, primary_color: '#123456' })).status).toBe(201);
    for (const again of [name, name.toLowerCase(), name.toUpperCase(), `  ${name.toUpperCase()}  `]) {
      const res = await create({ name: again, primary_color: '#654321' });
      expectError(res, brandErrors.nameTaken);
      // The message quotes the name as sent (trimmed), not as stored.
      expect(detailOf(res)).toContain(again.trim());
    }
    expect((await list(name)).body).toHaveLength(1);
  });

  it('compares names without regard to case beyond ASCII', async () => {
    const name = unique('Éclair Ölbrand');
    expect((await create({ name, primary_color: '#123456' })).status).toBe(201);
    expectError(await create({ name: name.toLowerCase(), primary_color: '#123456' }), brandErrors.nameTaken);
    expectError(await create({ name: name.toUpperCase(), primary_color: '#123456' }), brandErrors.nameTaken);
  });

  it('leaves no object in the bucket when a create with a logo ends in 409', async () => {
    const name = unique('Taken');
    await createOk({ name });
    await expectBucketUnchanged(async () => {
      expectError(await create({ name: name.toUpperCase(), primary_color: '#123456' }, png('taken.png')), brandErrors.nameTaken);
    });
  });

  it('uploads nothing when the colors are invalid', async () => {
    await expectBucketUnchanged(async () => {
      expectError(await create({ name: unique(), primary_color: 'red' }, png()), brandErrors.invalidColor);
    });
  });

  it.each([
    ['PNG', PNG, 'image/png', 'png'],
    ['JPEG', JPEG, 'image/jpeg', 'jpg'],
    ['GIF', GIF, 'image/gif', 'gif'],
    ['WebP', WEBP, 'image/webp', 'webp'],
  ])('accepts a %s logo, stored with its bytes and real type', async (_label, data, mime, ext) => {
    const b = await createOk({}, { data, name: `brand-mark.${ext}`, type: mime });
    expect(b).toMatchObject({ logo_filename: `brand-mark.${ext}`, logo_content_type: mime, logo_url: publicUrl(`brands/${b.id}/brand-mark.${ext}`) });
    expect(await s3.read(keyOf(b))).toEqual(data);
    expect(await fetchObject(b.logo_url!)).toEqual({ status: 200, contentType: mime, bytes: data });
  });

  it('recognizes the logo from its bytes: a real PNG named logo.txt is stored as logo.png, image/png', async () => {
    const b = await createOk({}, { data: PNG, name: 'logo.txt', type: 'text/plain' });
    expect(b).toMatchObject({ logo_filename: 'logo.png', logo_content_type: 'image/png' });
    expect(b.logo_url).toBe(publicUrl(`brands/${b.id}/logo.png`));
    expect(await s3.read(`brands/${b.id}/logo.png`)).toEqual(PNG);
    expect(await s3.read(`brands/${b.id}/logo.txt`)).toBeNull();
    expect(await fetchObject(b.logo_url!)).toEqual({ status: 200, contentType: 'image/png', bytes: PNG });
  });

  it('names the logo after its real type: JPEG bytes declared as photo.png become photo.jpg', async () => {
    const b = await createOk({}, { data: JPEG, name: 'photo.png', type: 'image/png' });
    expect(b).toMatchObject({ logo_filename: 'photo.jpg', logo_content_type: 'image/jpeg' });
    expect(await s3.read(keyOf(b))).toEqual(JPEG);
  });

  it.each([
    ['a text file named logo.png declared image/png', { data: TEXT, name: 'logo.png', type: 'image/png' }, brandErrors.logoType],
    ['a BMP image', { data: Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]), name: 'logo.bmp', type: 'image/bmp' }, brandErrors.logoType],
    [
      'an SVG image',
      { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>'), name: 'logo.svg', type: 'image/svg+xml' },
      brandErrors.logoType,
    ],
    ['a PDF named logo.png', { data: Buffer.from('%PDF-1.4\n%%EOF\n'), name: 'logo.png', type: 'image/png' }, brandErrors.logoType],
    ['an empty file', { data: Buffer.alloc(0), name: 'logo.png', type: 'image/png' }, brandErrors.logoEmpty],
  ])('answers 400 for %s, creating and storing nothing', async (_label, logo, error) => {
    const name = unique();
    await expectBucketUnchanged(async () => {
      expectError(await create({ name, primary_color: '#123456' }, logo), error);
    });
    expect((await list(name)).body).toEqual([]);
  });

  it('accepts a logo of exactly 2 MiB and answers 400 for one byte more', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(2 * MiB - PNG.length)]);
    const b = await createOk({}, { data: exact, name: 'big.png', type: 'image/png' });
    expect(b.logo_content_type).toBe('image/png');
    // Buffer.equals: a deep toEqual over 2 MiB blocks the event loop for seconds (and lets idle keep-alive sockets go stale).
    const stored = await s3.read(keyOf(b));
    expect(stored?.length).toBe(exact.length);
    expect(stored!.equals(exact)).toBe(true);

    const over = Buffer.concat([PNG, Buffer.alloc(2 * MiB - PNG.length + 1)]);
    const name = unique();
    await expectBucketUnchanged(async () => {
      const res = await create({ name, primary_color: '#123456' }, { data: over, name: 'big.png', type: 'image/png' });
      expectError(res, brandErrors.logoTooLarge);
      // The message states the limit.
      expect(detailOf(res)).toContain('2 MiB');
    });
    expect((await list(name)).body).toEqual([]);
  });

  it('answers 413 for a request body far over the logo limit', async () => {
    const name = unique();
    const res = await create({ name, primary_color: '#123456' }, { data: Buffer.concat([PNG, Buffer.alloc(3 * MiB)]), name: 'huge.png', type: 'image/png' });
    expect(res.status).toBe(413);
    expect((await list(name)).body).toEqual([]);
  });

  it('answers 413 for a chunked body (no Content-Length) over the limit, without keeping it', async () => {
    const name = unique();
    const boundary = `----qp${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="primary_color"\r\n\r\n#123456\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const send = (authorization: Record<string, string>) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          `${app.url}/api/brands`,
          { method: 'POST', headers: { ...authorization, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' } },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, text }));
          },
        );
        req.on('error', reject);
        req.write(head);
        req.write(PNG);
        // 3 MiB in 64 KiB chunks, then the closing boundary.
        const chunk = Buffer.alloc(64 * 1024);
        for (let i = 0; i < 48; i++) req.write(chunk);
        req.end(Buffer.from(`\r\n--${boundary}--\r\n`));
      });
    const { status, text } = await send({ authorization: `Bearer ${admin.token}` });
    expect(status, text).toBe(413);
    // Without a key the upload is not even read: 401.
    expect((await send({})).status).toBe(401);
    expect(JSON.parse(text).detail).toContain('request body exceeds the limit');
    expect((await list(name)).body).toEqual([]);
  });

  it.each([
    ['../../etc/passwd.png', 'passwd.png'],
    ['..\\..\\windows\\logo.png', 'logo.png'],
    ['my logo (final).png', 'my-logo-final.png'],
    ['Café Logo.png', 'Cafe-Logo.png'],
    ['über—brand™.png', 'uber-brandTM.png'],
    ['日本語.png', 'logo.png'],
    ['.png', 'logo.png'],
    ['a..b...c.png', 'a-b-c.png'],
    ['-.-weird-.png', 'weird.png'],
  ])('sanitizes the file name %j to %j', async (original, expected) => {
    const b = await createOk({}, png(original));
    expect(b.logo_filename).toBe(expected);
    expect(b.logo_filename).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._-]*\.png$/);
    expect(b.logo_url).toBe(publicUrl(`brands/${b.id}/${expected}`));
    expect(await s3.read(`brands/${b.id}/${expected}`)).toEqual(PNG);
    expect((await bucketKeys()).filter((k) => k.startsWith(`brands/${b.id}/`))).toEqual([`brands/${b.id}/${expected}`]);
  });

  it('needs an admin: 401 without a key, 403 for a player, storing nothing', async () => {
    const name = unique();
    await expectBucketUnchanged(async () => {
      const anon = await app.request('POST', '/api/brands', { form: form({ name, primary_color: '#123456' }, png()) });
      expect(anon.status).toBe(401);
      expect(anon.headers.get('www-authenticate')).toBe('Bearer');
      const res = await app.request('POST', '/api/brands', { token: player.token, form: form({ name, primary_color: '#123456' }, png()) });
      expect(res.status).toBe(403);
    });
    expect((await list(name)).body).toEqual([]);
  });
});

describe('GET /api/brands', () => {
  it('is open and lists brands ordered by name without regard to case', async () => {
    const tag = unique('order').replace(/\s/g, '');
    const names = [`${tag} delta`, `${tag} Bravo`, `${tag} alpha`, `${tag} Charlie`, `${tag} ECHO`];
    for (const name of names) await createOk({ name });
    const res = await app.request<BrandBody[]>('GET', '/api/brands', { query: { q: tag } });
    expect(res.status).toBe(200);
    expect(res.body.map((b) => b.name)).toEqual([`${tag} alpha`, `${tag} Bravo`, `${tag} Charlie`, `${tag} delta`, `${tag} ECHO`]);
  });

  it('searches case-insensitively by substring of name, colors, logo file name and id', async () => {
    const tag = unique('srch').replace(/\s/g, '');
    const byName = await createOk({ name: `Needle ${tag} Brand`, primary_color: '#010203' });
    const byPrimary = await createOk({ name: unique('Plain'), primary_color: '#A7E3C1', secondary_color: '#010203' });
    const bySecondary = await createOk({ name: unique('Plain'), primary_color: '#010203', secondary_color: '#B8F4D2' });
    const byFile = await createOk({ name: unique('Plain'), primary_color: '#010203' }, png(`File-${tag}-Mark.png`));
    const byId = await createOk({ name: unique('Plain'), primary_color: '#010203' });

    const ids = async (q: string) => (await list(q)).body.map((b) => b.id);
    expect(await ids(`NEEDLE ${tag.toUpperCase()}`)).toEqual([byName.id]);
    expect(await ids(`needle ${tag.toLowerCase()} b`)).toEqual([byName.id]);
    expect(await ids('a7e3c1')).toEqual([byPrimary.id]);
    expect(await ids('#A7E3')).toEqual([byPrimary.id]);
    expect(await ids('b8f4D2')).toEqual([bySecondary.id]);
    expect(await ids(`file-${tag.toLowerCase()}-mark`)).toEqual([byFile.id]);
    expect(await ids(`${tag.toUpperCase()}-MARK.PNG`)).toEqual([byFile.id]);
    expect(await ids(byId.id)).toEqual([byId.id]);
    expect(await ids(byId.id.slice(-12).toUpperCase())).toEqual([byId.id]);
    expect(await ids(`${tag}-nothing-matches`)).toEqual([]);
    // An empty q lists everything.
    expect((await list('')).body.length).toBe((await list()).body.length);
  });

  it('treats % and _ in q as plain characters', async () => {
    const tag = unique('pct').replace(/\s/g, '');
    const percent = await createOk({ name: `${tag} 100% Juice` });
    await createOk({ name: `${tag} 1000 Juice` });
    const underscore = await createOk({ name: `${tag} Half_Off` });
    await createOk({ name: `${tag} HalfXOff` });
    expect((await list(`${tag} 100%`)).body.map((b) => b.id)).toEqual([percent.id]);
    expect((await list('half_off')).body.map((b) => b.id)).toEqual([underscore.id]);
  });

  it('answers 422 for a q longer than 200 characters', async () => {
    expect((await list('x'.repeat(201))).status).toBe(422);
  });
});

describe('GET /api/brands/{brand_id}', () => {
  it('returns the brand, without credentials', async () => {
    const b = await createOk({ secondary_color: '#fff' }, png());
    const res = await get(b.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(b);
  });

  it('answers 404 for an unknown brand and 422 for a malformed id', async () => {
    expectError(await get(UNKNOWN_ID), brandErrors.notFound);
    expect((await get('not-a-uuid')).status).toBe(422);
    expect((await get('12345')).status).toBe(422);
  });
});

describe('PATCH /api/brands/{brand_id}', () => {
  it('changes only the fields sent', async () => {
    const b = await createOk({ primary_color: '#111111', secondary_color: '#222222' }, png('keep.png'));
    const res = await patch(b.id, { primary_color: '#0F0' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...b, primary_color: '#00ff00', updated_at: res.body.updated_at });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(b.updated_at));

    const renamed = unique('Renamed');
    const again = await patch(b.id, { name: `  ${renamed}  `, secondary_color: '#ABC' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...b, name: renamed, primary_color: '#00ff00', secondary_color: '#aabbcc', updated_at: again.body.updated_at });
    expect(await s3.read(keyOf(b))).toEqual(PNG);

    const nothing = await patch(b.id, {});
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual(again.body);
    expect((await get(b.id)).body).toEqual(again.body);
  });

  it('clears the secondary color with an empty value', async () => {
    const b = await createOk({ secondary_color: '#222222' });
    const res = await patch(b.id, { secondary_color: '' });
    expect(res.status).toBe(200);
    expect(res.body.secondary_color).toBeNull();
    expect(res.body.primary_color).toBe(b.primary_color);
    expect((await get(b.id)).body.secondary_color).toBeNull();
  });

  it('answers 400 for invalid colors or a blank name, changing nothing', async () => {
    const b = await createOk({ secondary_color: '#222222' }, png());
    for (const [field, value] of [
      ['primary_color', 'red'],
      ['primary_color', ''],
      ['secondary_color', '#12'],
      ['secondary_color', 'ff5500'],
      ['name', '   '],
    ] as const) {
      const res = await patch(b.id, { [field]: value, ...(field === 'name' ? {} : { name: unique('Ignored') }) });
      expectError(res, field === 'name' ? brandErrors.invalidName : brandErrors.invalidColor);
      expect(detailOf(res), `${field}=${value}`).toContain(field);
    }
    expect((await get(b.id)).body).toEqual(b);
  });

  it('answers 409 when renaming to an existing name in any case, and allows a case change of its own name', async () => {
    const other = await createOk({ name: unique('Existing') });
    const b = await createOk({ name: unique('Mine') });
    for (const name of [other.name, other.name.toUpperCase(), ` ${other.name.toLowerCase()} `]) {
      const res = await patch(b.id, { name, primary_color: '#999' });
      expect(res.status, name).toBe(409);
    }
    expect((await get(b.id)).body).toEqual(b);
    const own = await patch(b.id, { name: b.name.toUpperCase() });
    expect(own.status).toBe(200);
    expect(own.body.name).toBe(b.name.toUpperCase());
  });

  it('replaces the logo and deletes the old object when its key differs', async () => {
    const b = await createOk({}, png('old-mark.png'));
    const oldKey = keyOf(b);
    expect(await s3.read(oldKey)).toEqual(PNG);
    const res = await patch(b.id, {}, { data: GIF, name: 'new-mark.gif', type: 'image/gif' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...b,
      logo_filename: 'new-mark.gif',
      logo_content_type: 'image/gif',
      logo_url: publicUrl(`brands/${b.id}/new-mark.gif`),
      updated_at: res.body.updated_at,
    });
    expect(await s3.read(`brands/${b.id}/new-mark.gif`)).toEqual(GIF);
    expect(await s3.read(oldKey)).toBeNull();
    expect((await bucketKeys()).filter((k) => k.startsWith(`brands/${b.id}/`))).toEqual([`brands/${b.id}/new-mark.gif`]);
    expect(await fetchObject(res.body.logo_url!)).toEqual({ status: 200, contentType: 'image/gif', bytes: GIF });
  });

  it('keeps the object when the new logo has the same key, holding the new bytes', async () => {
    const b = await createOk({}, png('same.png'));
    const newBytes = Buffer.concat([PNG, Buffer.from('trailing bytes make a different file')]);
    const res = await patch(b.id, {}, { data: newBytes, name: 'same.png', type: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.logo_filename).toBe('same.png');
    expect(await s3.read(keyOf(b))).toEqual(newBytes);
  });

  it('adds a logo to a brand that had none', async () => {
    const b = await createOk();
    const res = await patch(b.id, {}, { data: WEBP, name: 'fresh.webp', type: 'image/webp' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ logo_filename: 'fresh.webp', logo_content_type: 'image/webp', logo_url: publicUrl(`brands/${b.id}/fresh.webp`) });
    expect(await s3.read(`brands/${b.id}/fresh.webp`)).toEqual(WEBP);
  });

  it('removes the logo with clear_logo=true', async () => {
    const b = await createOk({}, png('gone.png'));
    const res = await patch(b.id, { clear_logo: 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...b, logo_filename: null, logo_content_type: null, logo_url: null, updated_at: res.body.updated_at });
    expect(await s3.read(keyOf(b))).toBeNull();
    expect((await get(b.id)).body).toEqual(res.body);
    // Clearing again, and clearing a brand without a logo, changes nothing.
    const again = await patch(b.id, { clear_logo: 'true' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('keeps the logo with clear_logo=false', async () => {
    const b = await createOk({}, png('kept.png'));
    const res = await patch(b.id, { clear_logo: 'false', primary_color: '#321' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ logo_filename: 'kept.png', primary_color: '#332211' });
    expect(await s3.read(keyOf(b))).toEqual(PNG);
  });

  it('answers 400 for a logo together with clear_logo=true, changing and storing nothing', async () => {
    const b = await createOk({}, png('both.png'));
    await expectBucketUnchanged(async () => {
      const res = await patch(b.id, { clear_logo: 'true', name: unique('Changed') }, { data: GIF, name: 'other.gif', type: 'image/gif' });
      expectError(res, brandErrors.logoConflict);
    });
    expect((await get(b.id)).body).toEqual(b);
    expect(await s3.read(keyOf(b))).toEqual(PNG);
  });

  it('answers 400 for an invalid logo, changing and storing nothing', async () => {
    const b = await createOk({}, png('valid.png'));
    await expectBucketUnchanged(async () => {
      expectError(await patch(b.id, { primary_color: '#000' }, { data: TEXT, name: 'valid.png', type: 'image/png' }), brandErrors.logoType);
      expectError(await patch(b.id, {}, { data: Buffer.concat([PNG, Buffer.alloc(2 * MiB)]), name: 'valid.png', type: 'image/png' }), brandErrors.logoTooLarge);
      expectError(await patch(b.id, {}, { data: Buffer.alloc(0), name: 'valid.png', type: 'image/png' }), brandErrors.logoEmpty);
    });
    expect((await get(b.id)).body).toEqual(b);
    expect(await s3.read(keyOf(b))).toEqual(PNG);
  });

  it('on a 409 with a new logo, stores nothing and keeps the old logo', async () => {
    const other = await createOk({ name: unique('Occupied') });
    const b = await createOk({}, png('before.png'));
    await expectBucketUnchanged(async () => {
      expectError(await patch(b.id, { name: other.name.toLowerCase() }, { data: GIF, name: 'after.gif', type: 'image/gif' }), brandErrors.nameTaken);
    });
    expect((await get(b.id)).body).toEqual(b);
    expect(await s3.read(keyOf(b))).toEqual(PNG);
  });

  it('on a 409 with a logo of the same key, keeps the old logo bytes', async () => {
    const other = await createOk({ name: unique('Occupied') });
    const b = await createOk({}, png('same-key.png'));
    const newBytes = Buffer.concat([PNG, Buffer.from('a different file under the same name')]);
    expectError(await patch(b.id, { name: other.name.toUpperCase() }, { data: newBytes, name: 'same-key.png', type: 'image/png' }), brandErrors.nameTaken);
    expect((await get(b.id)).body).toEqual(b);
    expect(await s3.read(keyOf(b))).toEqual(PNG);
  });

  it('answers 404 for an unknown brand, storing nothing, and 422 for a malformed id', async () => {
    await expectBucketUnchanged(async () => {
      expectError(await patch(UNKNOWN_ID, { name: unique() }), brandErrors.notFound);
      expectError(await patch(UNKNOWN_ID, {}, png()), brandErrors.notFound);
    });
    expect((await patch('not-a-uuid', { name: unique() })).status).toBe(422);
  });

  it('answers 422 for a clear_logo that is not a boolean or an unknown field', async () => {
    const b = await createOk({}, png());
    expect((await patch(b.id, { clear_logo: 'maybe' })).status).toBe(422);
    expect((await patch(b.id, { colour: '#fff' })).status).toBe(422);
    expect((await get(b.id)).body).toEqual(b);
  });

  it('needs an admin: 401 without a key, 403 for a player', async () => {
    const b = await createOk({}, png());
    await expectBucketUnchanged(async () => {
      expect((await patch(b.id, { name: unique() }, png('x.png'), app, '')).status).toBe(401);
      expect((await patch(b.id, { clear_logo: 'true' }, undefined, app, player.token)).status).toBe(403);
    });
    expect((await get(b.id)).body).toEqual(b);
  });
});

describe('DELETE /api/brands/{brand_id}', () => {
  it('deletes the brand and its stored logo', async () => {
    const b = await createOk({}, png('doomed.png'));
    expect(await s3.read(keyOf(b))).toEqual(PNG);
    const res = await app.request('DELETE', `/api/brands/${b.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await s3.read(keyOf(b))).toBeNull();
    expectError(await get(b.id), brandErrors.notFound);
    expect((await list(b.name)).body).toEqual([]);
    expectError(await app.request('DELETE', `/api/brands/${b.id}`, { token: admin.token }), brandErrors.notFound);
  });

  it('deletes a brand without a logo, and frees its name', async () => {
    const b = await createOk();
    expect((await app.request('DELETE', `/api/brands/${b.id}`, { token: admin.token })).status).toBe(204);
    expectError(await get(b.id), brandErrors.notFound);
    expect((await create({ name: b.name, primary_color: '#123456' })).status).toBe(201);
  });

  it('answers 404 for an unknown brand and 422 for a malformed id', async () => {
    expectError(await app.request('DELETE', `/api/brands/${UNKNOWN_ID}`, { token: admin.token }), brandErrors.notFound);
    expect((await app.request('DELETE', '/api/brands/not-a-uuid', { token: admin.token })).status).toBe(422);
  });

  it('needs an admin: 401 without a key, 403 for a player', async () => {
    const b = await createOk({}, png());
    expect((await app.request('DELETE', `/api/brands/${b.id}`)).status).toBe(401);
    expect((await app.request('DELETE', `/api/brands/${b.id}`, { token: player.token })).status).toBe(403);
    expect((await get(b.id)).body).toEqual(b);
    expect(await s3.read(keyOf(b))).toEqual(PNG);
  });
});

describe('without a configured bucket', () => {
  /** A brand row with a logo, as left by a deployment that had a bucket. */
  async function brandWithLogo(): Promise<BrandBody> {
    const id = randomUUID();
    await bare.services.database.db.insert(brands).values({
      id,
      name: unique('Legacy'),
      primaryColor: '#123456',
      logoFilename: 'legacy.png',
      logoKey: `brands/${id}/legacy.png`,
      logoContentType: 'image/png',
      logoSizeBytes: PNG.length,
    });
    const res = await get(id, bare);
    expect(res.status).toBe(200);
    return res.body;
  }

  it('answers 503 for a create with a logo, creating nothing', async () => {
    const name = unique();
    const res = await create({ name, primary_color: '#123456' }, png(), bare);
    expectError(res, brandErrors.storageNotConfigured);
    // The message says what to configure.
    expect(detailOf(res)).toMatch(/S3_BUCKET/);
    expect((await list(name, bare)).body).toEqual([]);
  });

  it('creates a brand without a logo', async () => {
    const name = unique();
    const res = await create({ name, primary_color: '#ABC' }, undefined, bare);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, primary_color: '#aabbcc', logo_filename: null, logo_url: null });
  });

  it('answers 503 for a PATCH with a logo, changing nothing', async () => {
    const b = await createOk({}, undefined, bare);
    expectError(await patch(b.id, { name: unique('Changed') }, png(), bare), brandErrors.storageNotConfigured);
    expect((await get(b.id, bare)).body).toEqual(b);
  });

  it('answers 503 for clear_logo on a brand that has a logo, changing nothing', async () => {
    const b = await brandWithLogo();
    expect(b.logo_filename).toBe('legacy.png');
    expectError(await patch(b.id, { clear_logo: 'true', primary_color: '#000' }, undefined, bare), brandErrors.storageNotConfigured);
    expect((await get(b.id, bare)).body).toEqual(b);
  });

  it('allows edits that do not touch the logo', async () => {
    const withLogo = await brandWithLogo();
    const renamed = unique('Renamed');
    const res = await patch(withLogo.id, { name: renamed }, undefined, bare);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: renamed, logo_filename: 'legacy.png', logo_content_type: 'image/png' });

    const plain = await createOk({}, undefined, bare);
    const cleared = await patch(plain.id, { clear_logo: 'true' }, undefined, bare);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toEqual(plain);
  });

  it('answers 503 for deleting a brand with a logo, keeping the row', async () => {
    const b = await brandWithLogo();
    expectError(await bare.request('DELETE', `/api/brands/${b.id}`, { token: bareAdmin.token }), brandErrors.storageNotConfigured);
    expect((await get(b.id, bare)).body).toEqual(b);
  });

  it('deletes a brand without a logo', async () => {
    const b = await createOk({}, undefined, bare);
    expect((await bare.request('DELETE', `/api/brands/${b.id}`, { token: bareAdmin.token })).status).toBe(204);
    expectError(await get(b.id, bare), brandErrors.notFound);
  });
});
