import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const get = (path: string) => fetch(`${app.url}${path}`);
const externalRefs = (html: string) => [...html.matchAll(/(?:src|href|spec-url)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => /^(https?:)?\/\//.test(u));

describe('documentation', () => {
  it('serves the contract at /openapi.json, version 0.1.0', async () => {
    const res = await get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as Record<string, any>;
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toContain('/api/brands');
    expect(doc['x-generated']).toBeUndefined();
  });

  it('serves Swagger UI at /docs with its assets from the installed package, no CDN', async () => {
    const res = await get('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('swagger-ui');
    expect(externalRefs(html)).toEqual([]);
    for (const asset of ['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui-standalone-preset.js', '/docs/assets/swagger-ui.css', '/docs/init.js']) {
      const a = await get(asset);
      expect(a.status, asset).toBe(200);
      expect((await a.text()).length).toBeGreaterThan(100);
    }
    expect(await (await get('/docs/init.js')).text()).toContain("url: '/docs/openapi.json'");
  });

  it("names no fixed server: 'Try it out' calls the host and port the page came from", async () => {
    for (const url of ['/openapi.json', '/docs/openapi.json']) {
      const doc = (await (await get(url)).json()) as { servers: { url: string }[] };
      expect(doc.servers.map((s) => s.url)).toEqual(['/']);
    }
  });

  it("gives Swagger UI optional filters and path parameters without examples (a plain Execute lists today's matches, and no id of the mock's story is sent), the examples in their descriptions", async () => {
    const full = (await (await get('/openapi.json')).json()) as Record<string, any>;
    const docs = (await (await get('/docs/openapi.json')).json()) as Record<string, any>;
    const resolve = (doc: Record<string, any>, p: Record<string, any>) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p);
    const params = (doc: Record<string, any>) => (doc.paths['/api/matches'].get.parameters as Record<string, any>[]).map((p) => resolve(doc, p));
    const league = (doc: Record<string, any>) => params(doc).find((p) => p.name === 'league')!;
    expect(league(full).example ?? league(full).schema.example).toBeDefined();
    expect(league(docs).example).toBeUndefined();
    expect(league(docs).schema.example).toBeUndefined();
    expect(league(docs).description).toMatch(/Example: `\w+`/);
    for (const p of params(docs)) expect(p.example ?? p.schema?.example, p.name).toBeUndefined();
    // Path parameters start empty too: the examples' ids are the mock's story, unknown to this service (a 404).
    const matchId = (doc: Record<string, any>) => resolve(doc, doc.paths['/api/matches/{match_id}'].parameters[0]);
    expect(matchId(full).example ?? matchId(full).schema.example).toBe('7d444840-9dc0-11d1-b245-5ffdce74fad2');
    expect(matchId(docs).example ?? matchId(docs).schema.example).toBeUndefined();
    expect(matchId(docs).description).toContain('Example: `7d444840-9dc0-11d1-b245-5ffdce74fad2`');
    for (const [path, item] of Object.entries(docs.paths as Record<string, Record<string, any>>))
      for (const op of [item, ...Object.values(item)])
        for (const p of ((op?.parameters ?? []) as Record<string, any>[]).map((q) => resolve(docs, q)).filter((q) => q.in === 'path'))
          expect(p.example ?? p.schema?.example, `${path} ${p.name}`).toBeUndefined();
    // Required query parameters keep theirs (the input must hold something), and so does everything else.
    const required = (docs.paths['/api/question-definitions'].get.parameters as Record<string, any>[]).map((p) => resolve(docs, p)).find((p) => p.required);
    expect(required.example ?? required.schema.example).toBeDefined();
    expect(Object.keys(docs.paths)).toEqual(Object.keys(full.paths));
  });

  it('serves a favicon of its own', async () => {
    for (const url of ['/favicon.ico', '/favicon.svg']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await res.text()).toMatch(/^<svg /);
    }
    expect(await (await get('/docs')).text()).toContain('<link rel="icon" href="/favicon.svg"');
  });

  it('serves ReDoc at /redoc with its bundle from the installed package, no CDN', async () => {
    const res = await get('/redoc');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<redoc spec-url="/openapi.json">');
    expect(externalRefs(html)).toEqual([]);
    const bundle = await get('/redoc/redoc.standalone.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    // Not even the footer's logo comes from a CDN.
    const text = await bundle.text();
    expect(text).not.toContain('cdn.redoc.ly');
    expect(text).toContain('/redoc/logo-mini.svg');
    expect((await get('/redoc/logo-mini.svg')).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('redirects / to /docs', async () => {
    const res = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
  });
});
