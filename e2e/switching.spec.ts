/**
 * The account dialogs of the user drop-down (ADR 011) in Chromium: account setting (nickname,
 * shown in the header at once), password change (a wrong old password warned, the new one then
 * signs in), role switch (the menu follows the new role; the old token is refused), application
 * and workbench switches with their defaults, a fixed workbench code, the enterprise table (paging,
 * estatus colours, confirmation; the tabs cleared and the new group name shown) and the enterprise
 * information entry. Screenshots in zh and en, at 1440 and 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@portal/contracts';
import { closeContexts, openPage, sharedBrowser, signedFetch, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import {
  axeViolations,
  clickOpenMenuItem,
  fillCaptcha,
  openSignedIn,
  settled,
  signIn,
  signedInState,
  signOutFromMenu,
  tabTitles,
} from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESK = { ...STILL, viewport: { width: 1440, height: 900 } };
let server: RunningServer;
/** The same portal with 切换应用 configured (runtime `appSwitch`). */
let withApps: RunningServer;
let browser: Browser;
/** The member signed in once on each, for the tests that neither sign in nor end the session. */
let member: Awaited<ReturnType<typeof signedInState>>;
let memberWithApps: typeof member;

beforeAll(async () => {
  [server, withApps, browser] = await Promise.all([
    startServer(),
    startServer({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ appSwitch: true }) }),
    sharedBrowser(),
  ]);
  [member, memberWithApps] = await Promise.all([
    signedInState(browser, server.url),
    signedInState(browser, withApps.url),
  ]);
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await Promise.all([server?.stop(), withApps?.stop()]);
});

const token = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('portal_token')!).v as string);
/** infoV2 with `t`, signed as the page's client signs (an unsigned call is refused whatever the token). */
const infoOf = async (page: Page, base: string, t: string) => {
  const secret = await page.evaluate(
    () => (window as unknown as { __PORTAL_CONFIG__: RuntimeConfig }).__PORTAL_CONFIG__.signSecret,
  );
  return signedFetch(base, secret, '/api/front/member/front/infoV2', { token: t });
};
const userMenuItems = async (page: Page) => {
  await page.locator('.shell-user').click();
  const items = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem');
  await items.first().waitFor();
  const names = await items.allInnerTexts();
  await page.keyboard.press('Escape');
  await page
    .locator('.ant-dropdown:not(.ant-dropdown-hidden)')
    .waitFor({ state: 'detached' })
    .catch(() => {});
  return names;
};

async function openFromUserMenu(page: Page, name: RegExp) {
  await page.locator('.shell-user').click();
  await clickOpenMenuItem(page, name);
  await page.locator('.ant-modal').waitFor();
  await settled(page);
}

describe('account dialogs', () => {
  it('account setting: the nickname is required and shows in the header once saved (zh)', async () => {
    const { context, page } = await openPage(browser, { ...DESK, storageState: member });
    await openSignedIn(page, server.url);
    await openFromUserMenu(page, /账户设置/);
    await page.locator('#nickName').fill(' ');
    await page.getByRole('button', { name: /确\s?定|OK/ }).click();
    await page.getByText('请输入昵称').waitFor();
    await page.locator('#nickName').fill('小敏');
    await page.screenshot({ path: `${SHOTS}/dialog-nickname-zh-1440.png` });
    await page.getByRole('button', { name: /确\s?定|OK/ }).click();
    await expect.poll(() => page.locator('.shell-user-name').innerText()).toBe('小敏');
    await context.close();
  });

  it('role switch: unchanged just closes; another role gives a new token and its menu', async () => {
    const { context, page } = await openPage(browser, DESK);
    await signIn(page, server.url, '/center/login', 'member');
    // Whether the role's menu has 邀请成员 (ent_admin only): its page opens as a tab, or not at all.
    const invite = async () => {
      await page.goto(`${server.url}/center/ent/members/invite`);
      await page.getByRole('tab', { name: '邀请成员' }).or(page.getByText('404')).first().waitFor();
      const found = await page.getByRole('tab', { name: '邀请成员' }).count();
      await page.goto(`${server.url}/center/index`);
      await page.getByRole('tablist').waitFor();
      return found;
    };
    expect(await invite()).toBe(0);
    const oldToken = await page.evaluate(() => localStorage.getItem('portal_token'));
    await openFromUserMenu(page, /切换角色/);
    await page.getByRole('radio', { name: '企业成员' }).waitFor();
    expect(await page.getByRole('radio', { name: '企业成员' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /确\s?定/ }).click();
    await expect.poll(() => page.locator('.ant-modal').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('portal_token'))).toBe(oldToken);

    await openFromUserMenu(page, /切换角色/);
    await page.getByRole('radio', { name: '企业管理员' }).check();
    await page.screenshot({ path: `${SHOTS}/dialog-role-zh-1440.png` });
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: /确\s?定/ }).click()]);
    await page.getByRole('tablist').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('portal_token'))).not.toBe(oldToken);
    expect(await invite()).toBe(1);
    const old = JSON.parse(oldToken!).v as string;
    expect((await infoOf(page, server.url, old)).status).toBe(401);
    expect((await infoOf(page, server.url, await token(page))).status).toBe(200);
    await context.close();
  });

  it('password: a wrong old password is warned; the new one signs in (en)', async () => {
    const { context, page } = await openPage(browser, DESK, 'en');
    await signIn(page, server.url, '/center/login', 'admin');
    await openFromUserMenu(page, /Change password/);
    await page.locator('#oldPwd').fill('Wrong#Pw9x');
    await page.locator('#password').fill('Next#Step7q');
    await page.locator('#repeat').fill('Next#Step7q');
    await page.screenshot({ path: `${SHOTS}/dialog-password-en-1440.png` });
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('The current password is wrong').waitFor();
    await page.locator('#oldPwd').fill('Demo@2026!');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Password changed; other devices were signed out').waitFor();
    await signOutFromMenu(page);
    await page.waitForURL((u) => u.pathname.endsWith('/login'));
    await page.locator('#username').fill('admin');
    await page.locator('#password').fill('Next#Step7q');
    await fillCaptcha(page);
    await page.keyboard.press('Enter');
    await page.getByRole('tablist').waitFor();
    await context.close();
  });

  it('enterprise: pages, colours, confirms, clears the tabs and shows the new group (zh); info entry', async () => {
    const { context, page } = await openPage(browser, DESK);
    // admin's password is changed on `server` by the test above.
    await signIn(page, withApps.url, '/center/login', 'admin');
    await expect.poll(() => page.locator('.shell-group').innerText()).toContain('星河科技有限公司');
    // 企业信息 (colist) opens the ent/colist entry as a tab.
    await page.locator('.shell-user').click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem').first().waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/user-menu-zh-1440.png` });
    await clickOpenMenuItem(page, /企业信息/);
    await page.getByRole('tab', { name: '企业信息' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/center/ent/colist');
    const before = await token(page);

    await openFromUserMenu(page, /切换企业/);
    const rows = page.locator('.ant-modal .ant-table-tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(10);
    await page.getByText('共 13 条').waitFor();
    await page.getByText('当前企业：星河科技有限公司').waitFor();
    // The statuses are coloured by estatus.
    const colour = (text: string) =>
      page
        .locator('.ant-modal .estatus', { hasText: new RegExp(`^${text}$`) })
        .first()
        .evaluate((e) => getComputedStyle(e).color);
    expect(await colour('未审核')).toBe('rgb(173, 78, 0)');
    expect(await colour('已通过')).toBe('rgb(35, 120, 4)');
    expect(await colour('未通过')).toBe('rgb(207, 19, 34)');
    await page.screenshot({ path: `${SHOTS}/dialog-enterprise-zh-1440.png` });
    await page.locator('.ant-modal .ant-pagination-item-2').click();
    await expect.poll(() => rows.count()).toBe(3);
    // The current enterprise (joined first, so on the last page) is chosen and marked.
    const current = rows.filter({ hasText: '星河科技有限公司' });
    expect(await current.locator('input[type=radio]').isChecked()).toBe(true);
    expect(await current.innerText()).toContain('当前');
    // 5 per page: back to the first page, three pages in all.
    await page.locator('.ant-modal .ant-pagination-options .ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: /^5 条\/页$/ }).click();
    await expect.poll(() => rows.count()).toBe(5);
    await page.locator('.ant-modal .ant-pagination-item-3').waitFor();
    expect(await page.locator('.ant-modal .ant-pagination-item-active').innerText()).toBe('1');

    // The same enterprise: OK just closes.
    await page.getByRole('button', { name: /确\s?定/ }).click();
    await expect.poll(() => page.locator('.ant-modal').count()).toBe(0);
    expect(await token(page)).toBe(before);

    await openFromUserMenu(page, /切换企业/);
    await page.locator('.ant-modal .ant-pagination-item-2').click();
    await rows.filter({ hasText: '蓝海智能制造有限公司' }).click();
    await page.getByRole('button', { name: /确\s?定/ }).click();
    await page.locator('.ant-modal-confirm-title', { hasText: '确定切换到企业“蓝海智能制造有限公司”吗？' }).waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/dialog-enterprise-confirm-zh-1440.png` });
    await Promise.all([
      page.waitForEvent('load'),
      page
        .locator('.ant-modal-confirm')
        .getByRole('button', { name: /确\s?定/ })
        .click(),
    ]);
    await page.getByRole('tablist').waitFor();
    await expect.poll(() => page.locator('.shell-group').innerText()).toContain('蓝海智能制造有限公司');
    // The app starts again at home, without the old enterprise's saved tabs.
    expect(new URL(page.url()).pathname).toMatch(/^\/center\/(index)?$/);
    expect(await tabTitles(page)).toHaveLength(1);
    expect(await page.getByRole('tab', { name: '企业信息' }).count()).toBe(0);
    expect((await infoOf(page, withApps.url, before)).status).toBe(401);
    await context.close();
  });

  it('enterprise at 390 px (en): name and status fit the phone; no serious accessibility violations', async () => {
    const { context, page } = await openPage(
      browser,
      {
        ...STILL,
        storageState: member,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        bypassCSP: true,
      },
      'en',
    );
    await openSignedIn(page, server.url);
    await openFromUserMenu(page, /Switch enterprise/);
    await page.getByText('3 in all').waitFor();
    // Name and status fit; the credit code and join time are left for wider screens.
    await page.locator('.ant-modal').getByText('Not passed').waitFor();
    expect(await page.locator('.ant-modal').getByText('91310000MA1FL0XK3A').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The table fits the dialog: every heading shows whole, none scrolled out of sight.
    const headings = await page.locator('.switch-enterprises th').evaluateAll((ths) => {
      const box = document.querySelector('.ant-modal-content')!.getBoundingClientRect();
      return ths
        .filter((th) => th.textContent)
        .map((th) => [th.textContent, th.getBoundingClientRect().right <= box.right - 16] as const);
    });
    expect(headings).toEqual([
      ['Enterprise', true],
      ['Review status', true],
    ]);
    await page.screenshot({ path: `${SHOTS}/dialog-enterprise-en-390.png` });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('enterprise list behind a failing proxy (en): one Server error, the proxy page not shown', async () => {
    const { context, page } = await openPage(browser, { ...DESK, storageState: member }, 'en');
    await openSignedIn(page, server.url);
    await page.route('**/api/front/ent/joinEntList*', (r) =>
      r.fulfill({ status: 502, contentType: 'text/html', body: '<html><body>502 Bad Gateway nginx</body></html>' }),
    );
    await openFromUserMenu(page, /Switch enterprise/);
    await page.locator('.ant-message-notice').first().waitFor();
    await page.waitForTimeout(500); // a second message would have been raised with the first
    expect(await page.locator('.ant-message-notice').allInnerTexts()).toEqual(['Server error']);
    expect(await page.getByText('Bad Gateway').count()).toBe(0);
    await context.close();
  });

  it('application and workbench: the menu follows the application; defaults for the next login (en)', async () => {
    const { context, page } = await openPage(browser, DESK, 'en');
    await signIn(page, withApps.url, '/center/login', 'admin');
    const menuHas = (title: string) => page.locator('.ant-layout-sider').getByText(title, { exact: true }).count();
    expect(await menuHas('Workbench apps')).toBe(0);

    await openFromUserMenu(page, /Switch application/);
    const enterpriseWorkbench = page.getByRole('radio', { name: /Enterprise workbench/ });
    expect(await page.getByRole('radio', { name: /Enterprise services/ }).isChecked()).toBe(true);
    await enterpriseWorkbench.check();
    await page.getByRole('checkbox', { name: 'Use by default at next login' }).check();
    await page.screenshot({ path: `${SHOTS}/dialog-application-en-1440.png` });
    const before = await token(page);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'OK' }).click()]);
    await page.getByRole('tablist').waitFor();
    await expect.poll(() => menuHas('Workbench apps')).toBe(1);
    const info = (await infoOf(page, withApps.url, await token(page))).body.data as Record<string, string>;
    expect(info.applyId).toBe(info.defaultApplyId);
    expect((await infoOf(page, withApps.url, before)).status).toBe(401);

    await openFromUserMenu(page, /Switch workbench/);
    await page.getByRole('radio', { name: /Park workbench/ }).check();
    await page.screenshot({ path: `${SHOTS}/dialog-workbench-en-1440.png` });
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'OK' }).click()]);
    await page.getByRole('tablist').waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('portal_workbenchCode')!).v)).toBe('WB_PARK');
    await openFromUserMenu(page, /Switch workbench/);
    expect(await page.getByRole('radio', { name: /Park workbench/ }).isChecked()).toBe(true);
    // Not the default (Enterprise workbench is): the checkbox may make it one.
    expect(await page.getByRole('checkbox', { name: 'Use by default at next login' }).isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Cancel' }).click();

    // The next login starts in the default application, the one chosen above.
    await signOutFromMenu(page);
    await page.waitForURL((u) => u.pathname.endsWith('/login'));
    await signIn(page, withApps.url, '/center/login', 'admin');
    await expect.poll(() => menuHas('Workbench apps')).toBe(1);
    await context.close();
  });

  it('a fixed workbench code: only that workbench, no defaults, no enterprise switch (zh)', async () => {
    const { context, page } = await openPage(browser, DESK);
    await signIn(page, withApps.url, '/center/login?benchCode=WB_ENT', 'member');
    const items = await userMenuItems(page);
    // The application switch stays (it is configured here); the enterprise switch goes.
    expect(items).toEqual(['账户设置', '修改密码', '账户安全', '切换角色', '切换应用', '切换工作台', '退出登录']);
    await openFromUserMenu(page, /切换工作台/);
    await expect.poll(() => page.getByRole('radio').count()).toBe(1);
    expect(await page.getByRole('radio', { name: /企业工作台/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/dialog-workbench-fixed-zh-1440.png` });
    await context.close();
  });

  it.each([
    ['zh', ['账户设置', '修改密码', '切换角色', '切换应用', '切换工作台', '切换企业']],
    [
      'en',
      [
        'Account settings',
        'Change password',
        'Switch role',
        'Switch application',
        'Switch workbench',
        'Switch enterprise',
      ],
    ],
  ] as const)('every dialog, photographed in %s, without serious accessibility violations', async (lang, labels) => {
    const { context, page } = await openPage(browser, { ...DESK, bypassCSP: true, storageState: memberWithApps }, lang);
    await openSignedIn(page, withApps.url);
    const keys = ['nickname', 'password', 'role', 'application', 'workbench', 'enterprise'];
    for (const [i, label] of labels.entries()) {
      await openFromUserMenu(page, new RegExp(`${label}$`));
      const modal = page.locator('.ant-modal');
      // The lists have loaded: a radio (dialog lists) or a form field.
      await modal.locator('input').first().waitFor();
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/dialog-${keys[i]}-${lang}.png` });
      expect(await axeViolations(page), keys[i]).toEqual([]);
      // Escape closes the dialog that has the focus, as it has once it opened.
      await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('.ant-modal-wrap'))).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => modal.count()).toBe(0);
      await settled(page);
    }
    await context.close();
  });
});
