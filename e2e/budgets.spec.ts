/**
 * Byte budgets (ADR 015): the JS + CSS of the login page and of the first screen after login,
 * gzip -9 of what the browser decodes, in real Chromium against the built server. Bytes are the
 * same on every machine, so `npm test` enforces them; times stay in `npm run bench:shell`.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTE_BUDGETS, kb, noCache, recordAssets, type AssetSummary } from './support/assets.js';
import { closeContexts, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/shell.js';

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), sharedBrowser()]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

const largest = (s: AssetSummary) =>
  s.files
    .slice(0, 6)
    .map((f) => `${f.path.replace(/^.*\//, '')} ${kb(f.gzip)}`)
    .join(', ');

describe('byte budgets', () => {
  it(`keeps the login page within ${BYTE_BUDGETS.loginPageGzipKb} KB gzip of JS and CSS`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await noCache(context, page);
    const rec = recordAssets(page);
    await page.goto(`${server.url}/center/login`);
    await page.locator('.login-captcha-image img').waitFor();
    await rec.idle();
    const s = await rec.summary();
    console.log(`login page: ${kb(s.total.gzip)} KB gzip in ${s.total.count} files (largest: ${largest(s)})`);
    expect(s.js.count).toBeGreaterThan(0);
    expect(kb(s.total.gzip), largest(s)).toBeLessThanOrEqual(BYTE_BUDGETS.loginPageGzipKb);
    await context.close();
  });

  it(`keeps the first screen after login within ${BYTE_BUDGETS.firstScreenGzipKb} KB gzip of JS and CSS`, async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signIn(await context.newPage(), server.url);
    // A fresh page load with the stored session, nothing from the cache.
    const page = await context.newPage();
    await noCache(context, page);
    const rec = recordAssets(page);
    await page.goto(`${server.url}/center/index`);
    await page.getByRole('tablist').waitFor();
    await page.locator('.shell-sider [role=menu]').waitFor();
    await rec.idle();
    const s = await rec.summary();
    console.log(`first screen: ${kb(s.total.gzip)} KB gzip in ${s.total.count} files (largest: ${largest(s)})`);
    expect(kb(s.total.gzip), largest(s)).toBeLessThanOrEqual(BYTE_BUDGETS.firstScreenGzipKb);
    await context.close();
  });
});
