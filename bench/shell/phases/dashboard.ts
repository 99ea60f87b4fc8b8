/**
 * h: the open dashboard's bytes and the work screen's time to its first full frame.
 */
import type { Browser } from 'playwright-core';
import { noCache, recordAssets, type AssetSummary } from '../../../e2e/support/assets.js';
import { round } from '../../common.js';
import { newContext } from '../pages.js';

/** Every script and stylesheet of /user/dashboard until its four charts are drawn, cache disabled. */
export async function measureDashboard(browser: Browser, base: string): Promise<AssetSummary> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await noCache(context, page);
    const rec = recordAssets(page);
    await page.goto(`${base}/center/user/dashboard?tc=demo`, { waitUntil: 'networkidle' });
    await page.waitForFunction(() => document.querySelectorAll('.echart canvas').length === 4, null, {
      timeout: 30_000,
    });
    await rec.idle();
    return await rec.summary();
  } finally {
    await context.close();
  }
}

/**
 * /workscreen in a fresh context, cache disabled: navigation start → the page's `workscreen-ready`
 * mark, set when its first figures are drawn in every chart (ECharts' `finished`), page clock.
 */
export async function measureWorkScreen(browser: Browser, base: string): Promise<number> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await noCache(context, page);
    await page.goto(`${base}/center/workscreen?tc=demo`);
    await page.locator('.ws-stage[data-ready=true]').waitFor({ timeout: 30_000 });
    const ms = await page.evaluate(() => performance.getEntriesByName('workscreen-ready')[0]?.startTime ?? NaN);
    return round(ms, 1);
  } finally {
    await context.close();
  }
}
