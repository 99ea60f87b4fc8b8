/**
 * The sign-in slice end to end, in real Chromium against the real built server and PostgreSQL:
 * land on login, validation, a failed attempt, login, the role's menu four levels deep, reload,
 * kept query parameters, deep link through login, logout with storage cleared and the token
 * refused, and the whole flow on a plain-http origin that is not localhost (no WebCrypto there).
 */
import { mkdirSync } from 'node:fs';
import type { RuntimeConfig } from '@portal/contracts';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, launch, sharedBrowser, signedFetch } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { clickMenu, settled, signOutFromMenu } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer();
  browser = await sharedBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

async function fillLogin(page: Page, username: string, password: string, captcha = '8888') {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('.login-captcha-image img').waitFor();
  await page.locator('#imgvercode').fill(captcha);
}

const storageKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('portal_')));

describe('sign-in slice', () => {
  it('signs in, keeps the session over a reload, walks the menu and signs out for good', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${server.url}/center/`);
    await page.waitForURL(/\/center\/login/);
    await page.locator('.login-captcha-image img').waitFor(); // the first captcha of a cold server may take seconds
    await page.screenshot({ path: `${SHOTS}/login-zh-1440.png` });

    // docs/product/validation.md#login validation messages, all three at once.
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    for (const text of ['用户名不可以为空', '密码不可以为空', '验证码不可以为空']) {
      await page.getByText(text).waitFor();
    }

    // A wrong captcha: the server's message, and a new captcha image.
    const firstImage = await page.locator('.login-captcha-image img').getAttribute('src');
    await fillLogin(page, 'member', 'Demo@2026!', '0000');
    await page.keyboard.press('Enter');
    await page.getByText('用户名、密码或验证码错误').waitFor();
    await expect.poll(() => page.locator('.login-captcha-image img').getAttribute('src')).not.toBe(firstImage);
    expect(await page.locator('#imgvercode').inputValue()).toBe('');

    // Enter submits.
    await fillLogin(page, 'member', 'Demo@2026!');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/center\/index/);
    await page.getByText('欢迎回来，张敏').waitFor();
    await page.getByRole('menuitem', { name: /企业服务/ }).waitFor();

    // Reload: still signed in.
    await page.reload();
    await page.getByText('欢迎回来，张敏').waitFor();

    // Four menu levels: 企业服务 › 企业管理 › 成员管理 › 成员列表.
    await page.goto(`${server.url}/center/index?tc=demo&benchCode=B1`);
    await clickMenu(page, /企业服务/, /企业管理/, /成员管理/, '成员列表');
    await page.waitForURL(/\/center\/ent\/members\/list/);
    const url = new URL(page.url());
    expect(url.searchParams.get('tc')).toBe('demo');
    expect(url.searchParams.get('benchCode')).toBe('B1');
    await page.locator('.ant-breadcrumb').getByText('成员管理').waitFor();
    // The member role does not hold the admin-only entry; hidden entries are not shown.
    expect(await page.getByRole('menuitem', { name: '邀请成员' }).count()).toBe(0);
    expect(await page.getByRole('menuitem', { name: '企业详情' }).count()).toBe(0);

    // Unknown paths go to /404, shown inside the shell: the menu and the tabs stay, none selected;
    // the browser's console has nothing to say about it (React Router warns of a misplaced route).
    const said: string[] = [];
    const listen = (m: ConsoleMessage) => void (['warning', 'error'].includes(m.type()) && said.push(m.text()));
    page.on('console', listen);
    await page.goto(`${server.url}/center/no/such/page`);
    await page.waitForURL(/\/center\/404/);
    await page.locator('.ant-result-404').waitFor();
    expect(await page.getByRole('tablist').count()).toBe(1);
    expect(await page.getByRole('menuitem', { name: /企业服务/ }).count()).toBe(1);
    expect(await page.locator('[role=tab][aria-selected=true]').count()).toBe(0);
    await page.goto(`${server.url}/center/404`);
    await page.locator('.ant-result-404').waitFor();
    await settled(page);
    page.off('console', listen);
    expect(said).toEqual([]);

    // Logout: storage cleared, the old token refused by the server.
    await page.goto(`${server.url}/center/index`);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('portal_token') ?? 'null')?.v as string);
    expect(token).toBeTruthy();
    await signOutFromMenu(page);
    await page.waitForURL(/\/center\/login/);
    expect(await storageKeys(page)).not.toContain('portal_token');
    expect(await storageKeys(page)).not.toContain('portal_userInfo');
    const config = await page.evaluate(
      () => (window as unknown as { __PORTAL_CONFIG__: RuntimeConfig }).__PORTAL_CONFIG__,
    );
    const refused = await signedFetch(server.url, config.signSecret, '/api/front/member/front/infoV2', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes a signed-out deep link through login and lands on it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/center/ent/colist?tc=demo`);
    await page.waitForURL(/\/center\/login\?.*redirect=/);
    await fillLogin(page, 'member', 'Demo@2026!');
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await page.waitForURL(/\/center\/ent\/colist\?tc=demo/);
    await page.locator('.ant-breadcrumb').getByText('企业信息').waitFor();
    // 企业信息 is the current enterprise's profile.
    const info = page.locator('.enterprise-info');
    await info.getByText('星河科技有限公司').waitFor();
    for (const text of ['91310000MA1FL0XK3A', '已通过', '上海市 / 浦东新区']) await info.getByText(text).waitFor();
    await context.close();
  });

  it("shows the shell's outline, never a blank page, while the shell's code and menu load", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/center/login`);
    await fillLogin(page, 'member', 'Demo@2026!');
    // A slow network, as on a phone: every answer after the login takes 400 ms more.
    await page.route('**/*', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    // Every frame from the click on: the login form, the outline, or the shell; never an empty page.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { seen: string[] }).seen = []);
      const look = () => {
        seen.push(
          document.querySelector('[role=tablist]')
            ? 'shell'
            : document.querySelector('.sk[role=status]')
              ? 'outline'
              : document.querySelector('#username')
                ? 'form'
                : 'empty',
        );
        if (seen.at(-1) !== 'shell') requestAnimationFrame(look);
      };
      look();
    });
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await page.getByRole('tablist').waitFor();
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen).toContain('outline');
    // A frame or two while the form gives way is not a blank page; a run of them would be.
    expect(seen.filter((s) => s === 'empty').length).toBeLessThanOrEqual(2);
    await context.close();
  });

  it('works on a plain-http origin that is not localhost (no WebCrypto), in English', async () => {
    const intranet = await launch([`--host-resolver-rules=MAP intranet.test 127.0.0.1`]);
    try {
      const page = await intranet.newPage({ viewport: { width: 390, height: 844 } });
      const origin = `http://intranet.test:${server.port}`;
      await page.goto(`${origin}/center/login`);
      expect(await page.evaluate(() => [window.isSecureContext, typeof crypto.subtle])).toEqual([false, 'undefined']);
      await page.evaluate(() => localStorage.setItem('portal_locale', JSON.stringify({ v: 'en', e: null })));
      await page.reload();
      await page.getByText('Only the 360 browser').waitFor();
      await page.screenshot({ path: `${SHOTS}/login-en-390.png` });
      await fillLogin(page, 'admin', 'Demo@2026!');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(/\/center\/index/);
      await page.getByText('Welcome back, System Administrator').waitFor();
      await page.screenshot({ path: `${SHOTS}/home-en-390.png` });
    } finally {
      await intranet.close();
    }
  });
});

describe('screens in both languages at desktop and phone width', () => {
  for (const [locale, width] of [
    ['zh', 1440],
    ['zh', 390],
    ['en', 1440],
  ] as const) {
    it(`login and home, ${locale} at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/center/login`);
      await page.evaluate((l) => localStorage.setItem('portal_locale', JSON.stringify({ v: l, e: null })), locale);
      await page.reload();
      await page.locator('.login-captcha-image img').waitFor(); // the first captcha of a cold server may take seconds
      await page.screenshot({ path: `${SHOTS}/login-${locale}-${width}.png` });
      await fillLogin(page, 'member', 'Demo@2026!');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/center\/index/);
      await page.getByText(locale === 'zh' ? '欢迎回来，张敏' : 'Welcome back, Zhang Min').waitFor();
      await page.screenshot({ path: `${SHOTS}/home-${locale}-${width}.png` });
      if (width < 800) {
        // Phones: the side menu is a drawer behind the header button.
        await page.getByRole('button', { name: '展开菜单' }).click();
        await page.getByRole('menuitem', { name: /企业服务/ }).waitFor();
        await settled(page); // the drawer has slid in before the picture
        await page.screenshot({ path: `${SHOTS}/menu-${locale}-${width}.png` });
      }
      await context.close();
    });
  }
});
