/**
 * What an operator's console keeps them from (ADR 036), in Chromium against the real server: the
 * settings form says why a site name with a link is refused before it is sent, and the server
 * refuses it too; the roles page marks the codes that administer, never offers them to the default
 * role, and never offers to make a role holding one the default. Each screen is photographed in
 * both languages at desktop and phone width (e2e/artifacts/powers-*.png).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { axeViolations, go, openSignedIn, operatorState, settled } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE = { width: 390, height: 844 };
const LANGS = ['zh', 'en'] as const;
type Lang = (typeof LANGS)[number];

let browser: Browser;
let server: RunningServer;
/** The demo admin in the park operator's role, signed in once for every test. */
let operator: Awaited<ReturnType<typeof operatorState>>;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer()]);
  operator = await operatorState(browser, server.url);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

/** The demo admin in the park operator's role. */
async function asOperator(lang: Lang) {
  const opened = await openPage(browser, { ...DESKTOP, storageState: operator }, lang);
  await openSignedIn(opened.page, server.url);
  return opened;
}

async function openConsole(page: Page, name: string) {
  await go(page, `/system/${name}`);
  await page.locator(`.admin-${name}`).waitFor();
  await expect
    .poll(() => page.locator('.admin-page:visible .ant-spin-spinning, .admin-page:visible .ant-skeleton').count())
    .toBe(0);
  await settled(page);
}

/** Both widths of the screen as it is now: `name`-`lang`-1440.png and -390.png. */
async function shoot(page: Page, name: string, lang: Lang, focus?: () => Promise<void>) {
  await page.setViewportSize(DESKTOP.viewport);
  await focus?.();
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/powers-${name}-${lang}-1440.png` });
  await page.setViewportSize(PHONE);
  await focus?.();
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} at 390 px`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/powers-${name}-${lang}-390.png` });
  await page.setViewportSize(DESKTOP.viewport);
}

describe("the operators' console keeps its powers in their place", () => {
  it('says why a site name with a link is refused, and does not send it', async () => {
    for (const lang of LANGS) {
      const { context, page, errors } = await asOperator(lang);
      await openConsole(page, 'settings');
      const field = page.locator('.admin-setting[data-key="siteName"]');
      await field.locator('.admin-setting-follow').click();
      await field.getByRole('textbox').fill('园区https://evil.example/verify');
      const issue = field.getByRole('alert');
      await issue.waitFor();
      expect(await issue.innerText()).toMatch(lang === 'zh' ? /不能包含网址或域名/ : /no link or domain name/);
      const save = page.getByRole('button', { name: /保\s?存|Save/ }).first();
      expect(await save.isDisabled()).toBe(true);
      if (lang === 'zh') expect(await axeViolations(page)).toEqual([]);
      await shoot(page, 'settings-link', lang, () => field.scrollIntoViewIfNeeded());
      // A name that keeps the rule is taken.
      await field.getByRole('textbox').fill('星河园区');
      await expect.poll(() => issue.count()).toBe(0);
      expect(await save.isDisabled()).toBe(false);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('marks the codes that administer, and keeps them from the default role', async () => {
    for (const lang of LANGS) {
      const { context, page, errors } = await asOperator(lang);
      await openConsole(page, 'roles');
      const drawer = page.locator('.ant-drawer-content');
      // The default role's codes: those that administer cannot be ticked.
      const member = page.locator('.ant-table-row', { hasText: 'ent_member' });
      await member.getByRole('button', { name: /权\s?限|Permissions/ }).click();
      await drawer.getByRole('alert').waitFor();
      const manage = drawer.locator('.ant-checkbox-wrapper', { hasText: 'system:manage' });
      expect(await manage.locator('input').isDisabled()).toBe(true);
      expect(await manage.innerText()).toMatch(lang === 'zh' ? /管理权限/ : /Administers/);
      const colist = drawer.locator('.ant-checkbox-wrapper', { hasText: 'colist' });
      expect(await colist.locator('input').isDisabled()).toBe(false);
      if (lang === 'zh') expect(await axeViolations(page)).toEqual([]);
      await shoot(page, 'roles-default-grant', lang);
      await page.keyboard.press('Escape');
      await expect.poll(() => drawer.isVisible()).toBe(false);

      // The park operator's role holds them: it is not offered as the default role.
      const operatorRow = page.locator('.ant-table-row', { hasText: 'park_operator' });
      await operatorRow.getByRole('button', { name: /编\s?辑|Edit/ }).click();
      const toggle = drawer.getByRole('switch');
      await toggle.waitFor();
      await expect.poll(() => toggle.isDisabled()).toBe(true);
      await drawer.getByText(lang === 'zh' ? /不能设为默认角色/ : /cannot be the default role/).waitFor();
      await shoot(page, 'roles-operator-edit', lang);
      await page.keyboard.press('Escape');
      await expect.poll(() => drawer.isVisible()).toBe(false);

      // The codes' own list marks them.
      await page.getByRole('tab', { name: /权限编码|Permission codes/ }).click();
      await page.locator('.ant-table-row', { hasText: 'microapp:manage' }).waitFor();
      expect(await page.locator('.ant-table-row', { hasText: 'microapp:manage' }).innerText()).toMatch(
        lang === 'zh' ? /管理权限/ : /Administers/,
      );
      expect(await page.locator('.ant-table-row', { hasText: 'colist' }).innerText()).not.toMatch(
        /管理权限|Administers/,
      );
      await shoot(page, 'roles-codes', lang);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
