/**
 * The account dialogs of the user drop-down (issue 7, first part) in Chromium: account setting
 * (nickname, shown in the header at once), password change (a wrong old password warned, the new
 * one then signs in) and role switch (the menu follows the new role; the old token is refused).
 * Screenshots in zh and en.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { clickOpenMenuItem, signIn, signOutFromMenu } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openFromUserMenu(page: Page, name: RegExp) {
  await page.locator('.shell-user').click();
  await clickOpenMenuItem(page, name);
  await page.locator('.ant-modal').waitFor();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

describe('account dialogs', () => {
  it('account setting: the nickname is required and shows in the header once saved (zh)', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.url);
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
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
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
    const res = await fetch(`${server.url}/api/front/member/front/infoV2`, { headers: { authorization_front: old } });
    expect(res.status).not.toBe(200);
    await context.close();
  });

  it('password: a wrong old password is warned; the new one signs in (en)', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(() => localStorage.setItem('portal_locale', JSON.stringify({ v: 'en', e: null })));
    const page = await context.newPage();
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
    await page.locator('#imgvercode').fill('8888');
    await page.keyboard.press('Enter');
    await page.getByRole('tablist').waitFor();
    await context.close();
  });
});
