/**
 * The park at a glance in Chromium against the real server (ADR 027): the open dashboard
 * in zh and en at 1440 and 390 px (real figures, English names in English, no serious
 * accessibility violations); the work screen's 1920×1080 stage scaled whole into 1920×1080 and
 * 1280×720 windows; and the work screen riding out a server restart: the last figures stay, a
 * small marker says it is reconnecting, and it goes away by itself once the server is back.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { axeViolations, settled } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE: BrowserContextOptions = {
  ...STILL,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
};
const RUNTIME = { PORTAL_RUNTIME_CONFIG: JSON.stringify({ languageSwitch: true }) };

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer(RUNTIME);
  browser = await sharedBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

/** Chinese characters shown on the page, outside the language switch (which names the other language). */
const chineseShown = (page: Page) =>
  page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    clone.querySelectorAll('.language-toggle').forEach((e) => e.remove());
    return (clone.textContent ?? '').match(/[\u4e00-\u9fff]+/g) ?? [];
  });

describe('the open dashboard', () => {
  it("shows the park's figures to anyone, in zh and en, on a desktop and a phone", async () => {
    for (const [lang, options, width] of [
      ['zh', DESKTOP, 1440],
      ['en', DESKTOP, 1440],
      ['zh', PHONE, 390],
      ['en', PHONE, 390],
    ] as const) {
      const { context, page, errors } = await openPage(browser, options, lang);
      await page.goto(`${server.url}/center/user/dashboard?tc=demo`);
      const kpis = page.locator('.dash-kpi');
      await expect.poll(() => kpis.count()).toBe(4);
      // The demo park: 4 resident enterprises, 13 registered, 7 of 8 public devices online, 2 open alerts.
      expect(await kpis.nth(0).innerText()).toContain('4');
      expect(await kpis.nth(1).innerText()).toContain('13');
      expect((await kpis.nth(2).innerText()).replace(/\s+/g, '')).toContain('7/8');
      expect(await kpis.nth(3).innerText()).toContain('2');
      await expect.poll(() => page.locator('.echart canvas').count()).toBe(4);
      const tables = await page.locator('.echart table').allTextContents();
      if (lang === 'en') {
        expect(await page.locator('h1').innerText()).toBe('Demo Park · Park overview');
        expect(tables.join(' ')).toContain('Information transmission, software and information technology services');
        expect(tables.join(' ')).toContain('Shanghai');
        expect(await chineseShown(page)).toEqual([]);
      } else {
        expect(tables.join(' ')).toContain('信息传输、软件和信息技术服务业');
        expect(tables.join(' ')).toContain('上海市');
      }
      // Nothing wider than the window (one column on a phone).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/dashboard-${lang}-${width}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('the work screen', () => {
  it('scales its 1920×1080 stage whole into the window, letterboxed, and rescales with it', async () => {
    for (const [lang, width, height] of [
      ['zh', 1920, 1080],
      ['en', 1280, 720],
      ['zh', 1280, 720],
      ['en', 1024, 768],
    ] as const) {
      const { context, page, errors } = await openPage(browser, { viewport: { width, height } }, lang);
      await page.goto(`${server.url}/center/workscreen?tc=demo`);
      const stage = page.locator('.ws-stage[data-ready=true]');
      await stage.waitFor();
      const fits = async (w: number, h: number) => {
        const box = (await stage.boundingBox())!;
        const scale = Math.min(w / 1920, h / 1080);
        expect(Number(await stage.getAttribute('data-scale'))).toBeCloseTo(scale, 3);
        expect(box.width).toBeCloseTo(1920 * scale, 0);
        expect(box.height).toBeCloseTo(1080 * scale, 0);
        expect(box.x).toBeGreaterThanOrEqual(-0.5);
        expect(box.y).toBeGreaterThanOrEqual(-0.5);
        expect(box.x + box.width).toBeLessThanOrEqual(w + 0.5);
        expect(box.y + box.height).toBeLessThanOrEqual(h + 0.5);
        // Centred: the bars on either side are equal.
        expect(box.x * 2 + box.width).toBeCloseTo(w, 0);
        expect(box.y * 2 + box.height).toBeCloseTo(h, 0);
      };
      await fits(width, height);
      expect((await page.locator('.ws-kpi').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toHaveLength(4);
      expect(await page.locator('.ws-alert').count()).toBe(2);
      if (lang === 'en') {
        expect(await page.locator('.ws-alert').first().innerText()).toContain('passenger trapped');
        expect(await chineseShown(page)).toEqual([]);
      }
      await page.screenshot({ path: `${SHOTS}/workscreen-${lang}-${width}x${height}.png` });
      await page.setViewportSize({ width: 800, height: 1000 });
      await expect.poll(() => stage.getAttribute('data-scale')).toBe((800 / 1920).toFixed(4));
      await fits(800, 1000);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('keeps its figures through a server restart, says it is reconnecting, and recovers by itself', async () => {
    const { context, page, errors } = await openPage(browser, { viewport: { width: 1280, height: 720 } });
    await page.goto(`${server.url}/center/workscreen?tc=demo`);
    await page.locator('.ws-stage[data-ready=true]').waitFor();
    const marker = page.locator('.ws-reconnecting');
    expect(await marker.count()).toBe(0);

    await server.stop();
    // The next poll (at most 10 s away) fails: the marker shows, the figures stay.
    await marker.waitFor({ timeout: 20_000 });
    expect(await marker.innerText()).toBe('重新连接中…');
    expect(await page.locator('.ws-kpi').count()).toBe(4);
    expect(await page.locator('.ws-alert').count()).toBe(2);
    await page.screenshot({ path: `${SHOTS}/workscreen-reconnecting.png` });

    // The same portal again, on its database and address.
    server = await startServer({
      ...RUNTIME,
      DATABASE_URL: server.databaseUrl,
      PORT: String(server.port),
      PUBLIC_URL: server.url,
    });
    await marker.waitFor({ state: 'detached', timeout: 25_000 });
    expect(await page.locator('.ws-stage[data-ready=true]').count()).toBe(1);
    // Never reloaded: errors would show a failed chunk or a lost page.
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
