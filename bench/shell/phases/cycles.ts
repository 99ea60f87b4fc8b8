/**
 * g: a sub-application tab and a frame tab, opened and closed 20 times each.
 */
import type { Browser } from 'playwright-core';
import { openCloseCycles, parkSite, signIn } from '../../../e2e/support/shell.js';
import { round } from '../../common.js';
import { firstScreen, newContext } from '../pages.js';
import { TARGETS } from '../settings.js';

export interface CyclesResult {
  path: string;
  firstMb: number;
  lastMb: number;
  growthMb: number;
  comesBack: boolean;
}

/**
 * The demo sub-application's tab and an embedded page's tab, each opened and closed 20 times (the
 * same cycles as e2e/micro-apps.spec.ts): the JS heap after the first cycle and after the last.
 */
export async function measureCycles(browser: Browser, base: string): Promise<CyclesResult[]> {
  const context = await newContext(browser);
  try {
    await parkSite(context);
    const page = await context.newPage();
    await signIn(page, base);
    await firstScreen(page);
    const cdp = await context.newCDPSession(page);
    const app = '[data-micro-app="park-services"]';
    const runs: [string, () => Promise<unknown>, () => Promise<boolean>][] = [
      [
        '/park-services/repair',
        () => page.locator(`${app} .park-row`).first().waitFor(),
        async () => (await page.locator(app).count()) === 0,
      ],
      [
        '/IframePageContent/serviceHall',
        () => page.frameLocator('iframe.page-frame').locator('#q').waitFor(),
        async () => (await page.locator('iframe.page-frame').count()) === 0,
      ],
    ];
    const out: CyclesResult[] = [];
    for (const [path, shown, gone] of runs) {
      const { firstMb, lastMb } = await openCloseCycles(page, cdp, path, shown, gone);
      const growthMb = round(lastMb - firstMb, 2);
      out.push({
        path,
        firstMb: round(firstMb, 2),
        lastMb: round(lastMb, 2),
        growthMb,
        comesBack: growthMb <= Math.max(TARGETS.memoryBackRatio * firstMb, TARGETS.memoryBackMb),
      });
    }
    return out;
  } finally {
    await context.close();
  }
}
