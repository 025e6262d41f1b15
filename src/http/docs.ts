/** Interactive documentation, served from installed packages (no CDN). */
import path from 'node:path';
import { createRequire } from 'node:module';
import express, { type Router } from 'express';
import { contractJson } from './contract.js';

const require = createRequire(import.meta.url);

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${head}</head><body style="margin:0">${body}</body></html>`;

export function docsRouter(): Router {
  const router = express.Router();
  const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');
  const json = contractJson();

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').set('Cache-Control', 'no-cache').send(json);
  });
  router.use('/docs/assets', express.static(swaggerDir, { index: false, maxAge: '1h' }));
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(
      `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true, validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], plugins: [SwaggerUIBundle.plugins.DownloadUrl], layout: 'StandaloneLayout' });`,
    );
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(
      page(
        'Question-Play API - Swagger UI',
        '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">',
        '<div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/swagger-ui-standalone-preset.js"></script><script src="/docs/init.js"></script>',
      ),
    );
  });
  router.get('/redoc/redoc.standalone.js', (_req, res) => {
    res.sendFile(redocBundle, { maxAge: '1h' });
  });
  router.get(['/redoc', '/redoc/'], (_req, res) => {
    res.type('html').send(page('Question-Play API - ReDoc', '', '<redoc spec-url="/openapi.json"></redoc><script src="/redoc/redoc.standalone.js"></script>'));
  });
  return router;
}
