/**
 * The name grammar (ADR 032) in the browser: the member registration form and the console's user
 * drawer say what is wrong with a name before anything is sent, in the server's words; the drawer
 * renames a user, who then signs in with the new name. Screenshots in zh and en, desktop and phone.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { go, settled, signIn, signInAsOperator } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 } };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer()]);
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

const fieldError = (page: Page, id: string) =>
  page.locator('.ant-form-item', { has: page.locator(`#${id}`) }).locator('.ant-form-item-explain-error');

const MESSAGES = {
  zh: {
    invisible: '用户名不能包含换行、控制字符或不可见字符',
    characters: '用户名只能包含文字、数字、空格和 . _ - @ + · 符号',
  },
  en: {
    invisible: 'A username cannot contain line breaks, control characters or invisible characters',
    characters: 'A username may contain only letters, digits, spaces and . _ - @ + ·',
  },
} as const;

describe('the member registration form', () => {
  it.each(['zh', 'en'] as const)('says what is wrong with a user name as it is typed (%s)', async (lang) => {
    const { context, page, errors } = await openPage(browser, DESKTOP, lang);
    await page.goto(`${server.url}/center/user/register?type=member`);
    const username = page.locator('#username');
    await username.fill('admin\u2028zz');
    await username.blur();
    await expect.poll(() => fieldError(page, 'username').innerText()).toBe(MESSAGES[lang].invisible);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/names-register-${lang}-1440.png` });
    await page.setViewportSize(PHONE);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/names-register-${lang}-390.png`, fullPage: true });
    await username.fill('a<b>');
    await expect.poll(() => fieldError(page, 'username').innerText()).toBe(MESSAGES[lang].characters);
    // A Chinese name is a name: the message goes.
    await username.fill('王小明');
    await username.blur();
    await expect.poll(() => fieldError(page, 'username').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** The demo admin in the park operator's role, on the console's users page. */
async function usersPage(lang: 'zh' | 'en') {
  const opened = await openPage(browser, DESKTOP, lang);
  const { page } = opened;
  await signInAsOperator(page, server.url);
  await go(page, '/system/users');
  await page.locator('.admin-users .ant-table-row').first().waitFor();
  await settled(page);
  return opened;
}

describe("the console's user drawer", () => {
  it.each([
    ['zh', 'member', 'member-zh'],
    ['en', 'member-zh', 'member-en'],
  ] as const)('checks a user name and renames the user (%s)', async (lang, from, to) => {
    const { context, page, errors } = await usersPage(lang);
    const row = page.locator('.ant-table-row', { hasText: from });
    await row.getByRole('button', { name: lang === 'zh' ? /编\s?辑/ : 'Edit' }).click();
    const drawer = page.locator('.ant-drawer-content');
    const username = drawer.locator('#username');
    await expect.poll(() => username.inputValue()).toBe(from);
    await username.fill(`\u202e${from}`);
    await username.blur();
    await expect.poll(() => fieldError(page, 'username').innerText()).toBe(MESSAGES[lang].invisible);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/names-console-user-${lang}-1440.png` });
    await page.setViewportSize(PHONE);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/names-console-user-${lang}-390.png` });
    await page.setViewportSize(DESKTOP.viewport!);

    await username.fill(to);
    await drawer.getByRole('button', { name: lang === 'zh' ? /保\s?存/ : 'Save' }).click();
    await page.locator('.ant-message-notice', { hasText: lang === 'zh' ? '已保存' : 'Saved' }).waitFor();
    await page.locator('.ant-table-row', { hasText: to }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const user = await openPage(browser, DESKTOP, lang);
    await signIn(user.page, server.url, '/center/login', to);
    await user.page
      .locator('.shell-user')
      .getByText(lang === 'zh' ? '张敏' : 'Zhang Min')
      .waitFor();
    await user.context.close();
  });
});
