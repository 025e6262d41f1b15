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
    expect(await (await get('/docs/init.js')).text()).toContain("url: '/openapi.json'");
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
  });

  it('redirects / to /docs', async () => {
    const res = await fetch(`${app.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
  });
});
