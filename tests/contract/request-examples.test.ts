/**
 * Every request example of the contract is a request the service takes.
 * Frontends build against `npm run mock` and the examples /docs and /redoc
 * show; an example the real service refuses is a bug a frontend finds late.
 * A request's example is its media type's `examples` (each), or else what
 * Redoc and Swagger UI show: the body sampled from the schema's property
 * examples (openapi-sampler, Redoc's own sampler), with parameters from
 * their examples. Ids in an example name things that exist in this database
 * (tests/helpers/world.ts), so the answer comes from the operation's rules,
 * not from a missing row.
 */
import { sample } from 'openapi-sampler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractDocument, isAdminOperation } from '../../src/http/contract.js';
import { startS3, type TestS3 } from '../helpers/s3-server.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { buildWorld, pathId, PNG_1X1, withWorldIds, type World } from '../helpers/world.js';

type Schema = Record<string, unknown>;
interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema?: Schema & { example?: unknown };
}
interface Media {
  schema: Schema;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId: string;
  summary?: string;
  parameters?: Parameter[];
  security?: Record<string, unknown>[];
  requestBody?: { content: Record<string, Media> };
}

const doc = contractDocument() as {
  paths: Record<string, Record<string, Operation & Parameter[]>>;
  components: { parameters: Record<string, Parameter> };
  security?: Record<string, unknown>[];
};
const resolveParameter = (p: Parameter) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!]! : p);

/** Deletions and sign-outs last, so the rest finds the world whole. */
const LAST = new Set([
  'logoutUser',
  'unfollowMatch',
  'deactivateUser',
  'deleteBrand',
  'deleteQuestionDefinition',
  'deleteMatchQuestionDefinition',
  'deleteQuestionGroup',
  'deleteMatch',
  'deleteCurrentUserDevice',
]);

const operations = Object.entries(doc.paths)
  .flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        template,
        op: op as Operation,
        params: [...((item.parameters as Parameter[] | undefined) ?? []), ...((op as Operation).parameters ?? [])].map(resolveParameter),
      })),
  )
  .sort(
    (a, b) =>
      Number(LAST.has(a.op.operationId)) - Number(LAST.has(b.op.operationId)) ||
      Number(a.op.operationId === 'logoutUser') - Number(b.op.operationId === 'logoutUser'),
  );

/** The example bodies of a media type: its named examples, its example, or the sample of its schema. */
function exampleBodies(media: Media): { name: string; value: unknown }[] {
  if (media.examples) return Object.entries(media.examples).map(([name, e]) => ({ name, value: e.value }));
  if (media.example !== undefined) return [{ name: 'example', value: media.example }];
  return [{ name: 'sampled from the schema', value: sample(media.schema as never, { skipReadOnly: true }, doc as never) }];
}

const paramExample = (p: Parameter) => p.example ?? p.schema?.example;

/** A multipart example as a form: its fields as text, its binary fields as a real logo or the export of the definitions. */
async function formOf(app: TestApp, world: World, template: string, value: Record<string, unknown>, schema: Schema): Promise<FormData> {
  const properties = ((schema.$ref ? undefined : schema.properties) ?? sampleProps(schema)) as Record<string, { format?: string }>;
  const form = new FormData();
  for (const [name, v] of Object.entries(value)) {
    if (properties[name]?.format === 'binary') {
      if (name === 'logo') form.set(name, new Blob([PNG_1X1], { type: 'image/png' }), 'logo.png');
      else {
        const exportPath = template.replace('/import', '/export');
        const csv = await app.request('GET', exportPath, { token: world.admin.token });
        form.set(name, new Blob([csv.text], { type: 'text/csv' }), 'definitions.csv');
      }
    } else {
      form.set(name, typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return form;
}

function sampleProps(schema: Schema): Record<string, unknown> {
  const ref = schema.$ref as string | undefined;
  const target = ref ? (doc as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas[ref.split('/').pop()!]! : schema;
  return (target.properties ?? {}) as Record<string, unknown>;
}

describe('request examples of the contract', () => {
  let s3: TestS3;
  let app: TestApp;
  let world: World;
  beforeAll(async () => {
    // A bucket, so the brand examples (which upload a logo) can be taken.
    s3 = await startS3();
    app = await startTestApp({ config: { s3: s3.config } });
    world = await buildWorld(app);
  });
  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  it('are all accepted by the service (no 400, no 422)', async () => {
    const refused: string[] = [];
    let sent = 0;
    for (const { method, template, op, params } of operations) {
      const secured = (op.security ?? doc.security ?? []).some((s) => Object.keys(s).length > 0);
      const token = isAdminOperation(op) ? world.admin.token : secured ? world.player.token : null;
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathId(world, method, template, name)));
      const query: Record<string, string> = {};
      const headers: Record<string, string> = {};
      for (const p of params) {
        const example = paramExample(p);
        if (example === undefined || p.in === 'path') continue;
        const value = withWorldIds(world, template, example, p.name);
        if (p.in === 'query') query[p.name] = Array.isArray(value) ? value.join(',') : String(value);
        else headers[p.name] = String(value);
      }
      if (op.operationId === 'createAdminApiSession') Object.assign(headers, await adminSessionHeaders(app, world));
      const bodies = op.requestBody
        ? Object.entries(op.requestBody.content).flatMap(([type, media]) => exampleBodies(media).map((e) => ({ type, media, ...e })))
        : [{ type: null, media: null, name: 'no body', value: undefined }];
      for (const body of bodies) {
        const value = withWorldIds(world, template, body.value);
        const opts: Parameters<TestApp['request']>[2] = { token, query, headers };
        if (body.type === 'multipart/form-data') opts.form = await formOf(app, world, template, value as Record<string, unknown>, body.media!.schema);
        else if (value !== undefined) opts.body = value;
        const res = await app.request(method, path, opts);
        sent++;
        if (res.status === 400 || res.status === 422 || res.status >= 500)
          refused.push(`${op.operationId} (${body.name}): ${res.status} ${res.text.slice(0, 300)}`);
      }
    }
    expect(sent).toBeGreaterThanOrEqual(operations.length);
    expect(refused).toEqual([]);
  });
});

/** Signs the world's admin in to the operator UI; the session cookie and its CSRF token. */
async function adminSessionHeaders(app: TestApp, world: World): Promise<Record<string, string>> {
  const cookieOf = (res: Response, name: string) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))
      ?.split(';')[0];
  const form = await fetch(`${app.url}/admin/login`, { redirect: 'manual' });
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${app.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieOf(form, 'qp_admin_login_csrf')! },
    body: new URLSearchParams({ csrf, login: world.admin.username, password: world.admin.password }).toString(),
  });
  const session = cookieOf(res, 'qp_admin_session')!;
  const page = await fetch(`${app.url}/admin/`, { headers: { cookie: session } });
  const token = /name="csrf-token" content="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  return { cookie: session, 'X-CSRF-Token': token };
}
