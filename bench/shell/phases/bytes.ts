/**
 * a, b: the JS and CSS of the login page and of the first screen after login.
 */
import type { Browser } from 'playwright-core';
import { noCache, recordAssets, type AssetSummary } from '../../../e2e/support/assets.js';
import { signIn } from '../../../e2e/support/shell.js';
import { firstScreen, newContext } from '../pages.js';

export async function measureLoginPage(browser: Browser, base: string): Promise<AssetSummary> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await noCache(context, page);
    const rec = recordAssets(page);
    await page.goto(`${base}/center/login`, { waitUntil: 'networkidle' });
    await page.locator('#username').waitFor();
    await rec.idle();
    return await rec.summary();
  } finally {
    await context.close();
  }
}

export async function measureFirstScreen(browser: Browser, base: string): Promise<AssetSummary> {
  const context = await newContext(browser);
  try {
    const signing = await context.newPage();
    await signIn(signing, base);
    await firstScreen(signing);
    // A fresh page load with the stored session, nothing from the cache.
    const page = await context.newPage();
    await noCache(context, page);
    const rec = recordAssets(page);
    await page.goto(`${base}/center/index`, { waitUntil: 'networkidle' });
    await firstScreen(page);
    await rec.idle();
    if (!new URL(page.url()).pathname.endsWith('/index')) throw new Error(`first screen landed on ${page.url()}`);
    return await rec.summary();
  } finally {
    await context.close();
  }
}
