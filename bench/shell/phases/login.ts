/**
 * c: login → first screen (tab strip and side menu rendered), on the page's clock.
 */
import type { Browser } from 'playwright-core';
import { round } from '../../common.js';
import { firstScreen, newContext } from '../pages.js';
import { DEMO_PASSWORD } from '../settings.js';

export interface LoginRun {
  /** Submit (Enter) → tab strip and side menu rendered, page clock. */
  ms: number;
  /** Submit → the token response received, page clock (server side of the login: argon2, session). */
  tokenMs: number | null;
  /** Submit → the menu response received, page clock. */
  menuMs: number | null;
  /** The menu response's decoded size. */
  menuBytes: number | null;
}

export async function measureLogin(browser: Browser, base: string): Promise<LoginRun> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(`${base}/center/login`, { waitUntil: 'networkidle' });
    await page.locator('#username').fill('member');
    await page.locator('#password').fill(DEMO_PASSWORD);
    await page.locator('#imgvercode').fill('8888');
    // The page's own clock at the keystroke and when each response arrives (the login is in-app).
    await page.evaluate(() => {
      const w = window as unknown as { __bench: Record<string, number> };
      w.__bench = {};
      document.addEventListener('keydown', (e) => e.key === 'Enter' && (w.__bench.submit ??= performance.now()), {
        capture: true,
      });
    });
    const menuResponse = page.waitForResponse((r) => r.url().includes('/allPermissionV2'), { timeout: 60_000 });
    const tokenResponse = page.waitForResponse((r) => r.url().includes('/api/auth/jwt/front/token'), {
      timeout: 60_000,
    });
    await page.keyboard.press('Enter');
    const token = await tokenResponse;
    if (token.status() !== 200) throw new Error(`login answered HTTP ${token.status()}: ${await token.text()}`);
    await firstScreen(page);
    const done = await page.evaluate(() => {
      const w = window as unknown as { __bench?: Record<string, number> };
      return { now: performance.now(), submit: w.__bench?.submit ?? null };
    });
    if (done.submit === null) throw new Error('the login reloaded the page: cannot time it on the page clock');
    const menu = await menuResponse;
    const timing = (r: typeof token) => {
      const t = r.request().timing();
      return t.responseEnd > 0 ? t.startTime + t.responseEnd : null;
    };
    // Playwright's timings are epoch milliseconds; the page clock starts at timeOrigin.
    const origin = await page.evaluate(() => performance.timeOrigin);
    const since = (epoch: number | null) => (epoch === null ? null : round(epoch - origin - done.submit!, 1));
    return {
      ms: round(done.now - done.submit, 1),
      tokenMs: since(timing(token)),
      menuMs: since(timing(menu)),
      menuBytes: (await menu.body()).length,
    };
  } finally {
    await context.close();
  }
}
