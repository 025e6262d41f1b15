/**
 * Serves the operator UI: the page shell for every /admin path (for a
 * signed-in admin; others go to the login form), the UI bundle, and its
 * stylesheet. The compiled service (`npm run start:prod`) serves the bundle
 * `npm run build` wrote to dist/admin; from sources, the bundle is built from
 * src/admin/ui with esbuild when first asked for (so `npm start` needs no
 * build step).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import express, { type Router } from 'express';
import { compiled, paths } from '../paths.js';
import type { Services } from '../services.js';
import { escapeHtml, page } from './html.js';
import { activeAdminSession } from './session.js';

/** esbuild options of the UI bundle: one definition for the first-request build and for `npm run build`. */
export const UI_BUILD_OPTIONS: BuildOptions = {
  entryPoints: [path.join(paths.adminUiSource, 'main.tsx')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  legalComments: 'none',
  logLevel: 'silent',
};

let bundle: Promise<string> | null = null;

/** The UI bundle (read or built once per process). */
export function uiBundle(): Promise<string> {
  // The compiled service serves the bundle built with it; from sources, a dist/ left by an earlier build would be stale.
  if (!bundle && compiled) bundle = fs.promises.readFile(paths.adminUiBundle, 'utf8');
  bundle ??= import('esbuild')
    .then((esbuild) =>
      esbuild.build({
        ...UI_BUILD_OPTIONS,
        write: false,
        sourcemap: 'inline',
      }),
    )
    .then((result) => result.outputFiles![0]!.text)
    .catch((err) => {
      bundle = null;
      throw err;
    });
  return bundle;
}

const RESERVED = new Set(['/login', '/logout', '/api-session']);

export function adminUiRoutes(services: Services): Router {
  const router = express.Router();
  const css = fs.readFileSync(paths.adminUiCss, 'utf8');

  router.get('/assets/admin.css', (_req, res) => {
    res.type('text/css').set('Cache-Control', 'no-cache').send(css);
  });
  router.get('/assets/app.js', async (_req, res, next) => {
    try {
      res
        .type('application/javascript')
        .set('Cache-Control', 'no-cache')
        .send(await uiBundle());
    } catch (err) {
      next(err);
    }
  });

  router.get(/.*/, async (req, res, next) => {
    if (RESERVED.has(req.path) || req.path.startsWith('/assets/')) return next();
    const found = await activeAdminSession(services, req);
    if (!found) return res.redirect(303, '/admin/login');
    const name = found.user.username ?? found.user.email;
    res
      .type('html')
      .set('Cache-Control', 'no-store')
      .send(
        page({
          title: 'Operators',
          head: `<meta name="csrf-token" content="${escapeHtml(found.session.csrfToken)}"><script type="module" src="/admin/assets/app.js"></script>`,
          body: `<div id="app" data-user="${escapeHtml(name)}"><p class="loading">Loading the operator UI...</p></div>`,
        }),
      );
  });
  return router;
}
