/**
 * A real browser for the operator UI tests: Debian's Chromium driven by
 * playwright-core (no browser download). Tests skip with a clear message when
 * Chromium is not installed (.ci/run installs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TestApp, TestUser } from '../helpers/test-app.js';
import { useTestApp } from '../helpers/use-test-app.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = fs.existsSync(CHROMIUM);
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/screenshots');

export const VIEWPORTS = { laptop: { width: 1366, height: 860 }, tablet: { width: 820, height: 1180 } } as const;

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh browser context signed in to the operator UI as `user`. */
export async function signedIn(
  browser: Browser,
  app: TestApp,
  user: TestUser,
  viewport: { width: number; height: number } = VIEWPORTS.laptop,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, baseURL: app.url });
  const page = await context.newPage();
  await page.goto('/admin/login');
  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\/$/);
  await page.locator('.nav').waitFor();
  return { context, page };
}

/** Keeps a screenshot of the page as a test artifact (test-artifacts/screenshots). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * The usual start of a browser test file: the file's app with its admin
 * (useTestApp) and one Chromium, started before its tests and closed after.
 * `browser()` is the running Chromium (inside tests and hooks).
 */
export function useBrowserApp(): { app: TestApp; admin: TestUser; browser: () => Browser } {
  const { app, admin } = useTestApp();
  let running: Browser | undefined;
  beforeAll(async () => {
    running = await launch();
  });
  afterAll(async () => {
    await running?.close();
  });
  return {
    app,
    admin,
    browser: () => {
      if (!running) throw new Error('useBrowserApp: the browser is read before beforeAll launched it');
      return running;
    },
  };
}
