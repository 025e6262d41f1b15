/**
 * Interactive documentation, served from installed packages: no CDN, no
 * request leaves for a third party (ReDoc's footer logo is served from here
 * too), and a favicon of our own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import express, { type Router } from 'express';
import { contractDocument, contractJson } from './contract.js';

const require = createRequire(import.meta.url);

/** The service's mark: a Q on the operator UI's blue. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4fd1"/><circle cx="15" cy="15" r="8" fill="none" stroke="#fff" stroke-width="3.5"/><path d="M19.5 19.5l6 6" stroke="#fff" stroke-width="3.5" stroke-linecap="round"/></svg>`;
const REDOC_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#8a94a6"/></svg>`;
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">${head}</head><body style="margin:0">${body}</body></html>`;

type Json = Record<string, unknown>;

/**
 * The contract as Swagger UI gets it: optional query parameters and path
 * parameters carry their example in the description instead of `example`,
 * because Swagger UI fills a parameter's input with its example: a plain
 * "Execute" of `GET /api/matches` would then filter by the example league
 * and dates instead of listing today's matches, and one of
 * `GET /api/matches/{match_id}` would ask this service for the mock's story
 * match (a 404). Everything else is the contract as is (`/openapi.json`, what
 * ReDoc and the mock read, keeps every example).
 */
export function docsVariant(document: Json): Json {
  const doc = structuredClone(document);
  const unfill = (param: Json) => {
    if (param.in !== 'path' && (param.in !== 'query' || param.required === true)) return;
    const schema = (param.schema ?? {}) as Json;
    const example = param.example ?? schema.example;
    if (example === undefined) return;
    delete param.example;
    delete schema.example;
    const shown = typeof example === 'string' ? example : JSON.stringify(example);
    param.description = `${typeof param.description === 'string' ? `${param.description.trimEnd()}\n\n` : ''}Example: \`${shown}\``;
  };
  for (const param of Object.values(((doc.components as Json | undefined)?.parameters ?? {}) as Record<string, Json>)) unfill(param);
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [key, value] of Object.entries(item)) {
      const params = key === 'parameters' ? value : (value as Json | undefined)?.parameters;
      if (Array.isArray(params)) for (const param of params as Json[]) if (!param.$ref) unfill(param);
    }
  }
  return doc;
}

export function docsRouter(): Router {
  const router = express.Router();
  const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const redocBundlePath = require.resolve('redoc/bundles/redoc.standalone.js');
  const json = contractJson();
  let docsJson: string | undefined;
  let redocBundle: string | undefined;

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(json);
  });
  router.get('/docs/openapi.json', (_req, res) => {
    docsJson ??= JSON.stringify(docsVariant(contractDocument()));
    res.type('application/json').set('Cache-Control', 'no-cache').send(docsJson);
  });
  router.get(['/favicon.ico', '/favicon.svg'], (_req, res) => {
    res.type('image/svg+xml').set('Cache-Control', 'public, max-age=86400').send(FAVICON_SVG);
  });
  router.use('/docs/assets', express.static(swaggerDir, { index: false, maxAge: '1h' }));
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(
      `window.ui = SwaggerUIBundle({ url: '/docs/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], plugins: [SwaggerUIBundle.plugins.DownloadUrl], layout: 'StandaloneLayout' });`,
    );
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res
      .type('html')
      .send(
        page(
          'Question-Play API - Swagger UI',
          '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">',
          '<div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script><script src="/docs/init.js"></script>',
        ),
      );
  });
  router.get('/redoc/redoc.standalone.js', (_req, res) => {
    // Read once, on first use: the footer's logo comes from here rather than Redocly's CDN.
    redocBundle ??= fs.readFileSync(redocBundlePath, 'utf8').replaceAll(REDOC_CDN_LOGO, '/redoc/logo-mini.svg');
    res.type('application/javascript').set('Cache-Control', 'public, max-age=3600').send(redocBundle);
  });
  router.get('/redoc/logo-mini.svg', (_req, res) => {
    res.type('image/svg+xml').set('Cache-Control', 'public, max-age=86400').send(REDOC_LOGO_SVG);
  });
  router.get(['/redoc', '/redoc/'], (_req, res) => {
    res.type('html').send(page('Question-Play API - ReDoc', '', '<redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script>'));
  });
  return router;
}
