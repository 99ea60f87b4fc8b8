/**
 * Session control in Chromium against the real server (ADR 052): a person signed in in two browsers
 * (a computer and a phone) opens 账户安全 from the user drop-down, sees both sign-ins, ends the
 * phone's; the phone is signed out at its next page. The park operator then sees the person on
 * 在线用户 and ends their sign-in: the computer is signed out too. With SESSIONS_SHOTS=<folder> the
 * pages (账户安全, 在线用户, 登录日志) are photographed in both languages at 1440 and 390 px.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STILL, closeContexts, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { clickOpenMenuItem, go, settled, signIn, signInAsOperator } from './support/shell.js';

const SHOTS = process.env.SESSIONS_SHOTS;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer()]);
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

const signIns = (page: Page) => page.locator('.security-signin');

/** The page's next request finds its session ended: the dialog says so, and 重新登录 leads to the login page. */
async function signedOut(page: Page) {
  await page.reload();
  await page.getByRole('dialog').getByRole('button', { name: '重新登录' }).click();
  await page.waitForURL((u) => u.pathname.endsWith('/login'));
}

/** Each width and language of a page, photographed (only with SESSIONS_SHOTS). */
async function photograph(page: Page, name: string, ready: () => Promise<void>) {
  if (!SHOTS) return;
  for (const lang of ['zh', 'en'] as const) {
    await page.evaluate((v) => localStorage.setItem('portal_locale', JSON.stringify({ v, e: null })), lang);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.reload();
      await ready();
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/${name}-${lang}-${size.width}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => localStorage.setItem('portal_locale', JSON.stringify({ v: 'zh', e: null })));
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await ready();
}

describe('my sessions and online users', () => {
  it('ends the other browser’s sign-in, and the operator ends the last one', async () => {
    const desk = await browser.newContext({ ...STILL, viewport: DESKTOP });
    const phone = await browser.newContext({ ...STILL, viewport: PHONE, userAgent: IPHONE, isMobile: true });
    const ops = await browser.newContext({ ...STILL, viewport: DESKTOP });
    try {
      const a = await desk.newPage();
      const b = await phone.newPage();
      await signIn(a, server.url);
      await signIn(b, server.url);

      await a.locator('.shell-user').click();
      await clickOpenMenuItem(a, /账户安全|Account security/);
      await expect.poll(() => signIns(a).count()).toBe(2);
      await expect(signIns(a).filter({ hasText: '当前设备' }).count()).resolves.toBe(1);
      const other = signIns(a).filter({ hasText: 'iOS' });
      await expect(other.count()).resolves.toBe(1);
      await a.locator('#security-history').waitFor();
      await photograph(a, 'account-security', () => signIns(a).first().waitFor());

      await signIns(a).filter({ hasText: 'iOS' }).getByRole('button', { name: '结束登录' }).click();
      await a
        .getByRole('dialog')
        .getByRole('button', { name: /确\s?定|OK/ })
        .click();
      await a.locator('.ant-message-notice', { hasText: '已结束该登录' }).waitFor();
      await expect.poll(() => signIns(a).count()).toBe(1);

      // The phone's next page finds its session ended: back to the login page.
      await signedOut(b);

      const o = await ops.newPage();
      await signInAsOperator(o, server.url);
      await go(o, '/system/online-users');
      await o.locator('.admin-online-users').waitFor();
      await o.getByLabel('用户', { exact: true }).fill('member');
      await o.getByRole('button', { name: /查\s?询/ }).click();
      const row = o.locator('.ant-table-row', { hasText: 'member' });
      await expect.poll(() => row.count()).toBe(1);
      await photograph(o, 'online-users', () => o.locator('.admin-online-users .ant-table').waitFor());
      await o.getByLabel('用户', { exact: true }).fill('member');
      await o.getByRole('button', { name: /查\s?询/ }).click();
      await expect.poll(() => row.count()).toBe(1);
      await row.getByRole('button', { name: '强制下线' }).click();
      await o
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /确\s?定|OK/ })
        .click();
      await expect.poll(() => row.count()).toBe(0);

      await signedOut(a);

      await go(o, '/system/login-history');
      await o.locator('.admin-login-history .ant-table-row').first().waitFor();
      await photograph(o, 'login-history', () => o.locator('.admin-login-history .ant-table-row').first().waitFor());
    } finally {
      await Promise.all([desk.close(), phone.close(), ops.close()]);
    }
  }, 240_000);
});
