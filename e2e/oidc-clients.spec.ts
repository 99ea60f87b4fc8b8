/**
 * OIDC 客户端 in Chromium against the real server: the operator (admin in the park operator's role)
 * registers a confidential client from the console and sees its secret once, in a dialog with a
 * copy button and a warning; the list never shows it again; replacing it asks first and shows the
 * new one once. Then the page, its drawer and the dialog in zh and en at 1440 and 390 px, without
 * serious accessibility violations and with nothing wider than a phone.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { axeViolations, go, settled, signInAsOperator } from './support/shell.js';

const SHOTS = process.env.OIDC_SHOTS ?? 'e2e/artifacts';
const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  [browser, server] = await Promise.all([
    sharedBrowser(),
    startServer({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ languageSwitch: true }) }),
  ]);
  await mkdir(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

async function openClients(page: Page) {
  await go(page, '/system/oidc-clients');
  await page.locator('.admin-oidc-clients').waitFor();
  await expect.poll(() => page.locator('.admin-page:visible .ant-spin-spinning').count()).toBe(0);
  await settled(page);
}

/** Registers a confidential client through the drawer; the dialog with its secret is left open. */
async function register(page: Page, name: string, zh: boolean) {
  await page.getByRole('button', { name: zh ? '登记客户端' : 'Register client' }).click();
  const drawer = page.locator('.ant-drawer', { hasText: zh ? '授权类型' : 'Grant types' });
  await drawer.waitFor();
  await settled(page);
  await drawer.getByLabel(zh ? '名称' : 'Name', { exact: true }).fill(name);
  await drawer
    .getByLabel(zh ? '登录回调地址' : 'Redirect URIs', { exact: true })
    .fill('https://assistant.example.com/callback');
  await drawer.getByRole('checkbox', { name: 'roles' }).check();
  return drawer;
}

describe('OIDC 客户端', () => {
  it('registers a client and shows its secret once; a new secret is asked for and shown once', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP, 'zh');
    await signInAsOperator(page, server.url);
    await openClients(page);
    const drawer = await register(page, '园区助手', true);
    // The public type says it has no secret and must use PKCE.
    await drawer.getByRole('radio', { name: '公开客户端' }).check();
    await drawer.getByText('必须使用 PKCE（S256）').waitFor();
    await drawer.locator('.ant-drawer-body').evaluate((el) => (el.scrollTop = 0));
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/oidc-clients-drawer-public-zh-1440.png` });
    await drawer.getByRole('radio', { name: '机密客户端' }).check();
    await drawer.getByRole('button', { name: /保\s?存/ }).click();

    const dialog = page.getByRole('dialog', { name: /客户端密钥/ });
    await dialog.waitFor();
    await dialog.getByText('密钥只显示这一次').waitFor();
    const secret = (await dialog.getByTestId('oidc-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(await dialog.getByRole('button', { name: /复制|Copy/ }).count()).toBe(2);
    await dialog.getByRole('button', { name: '我已保存' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.locator('.ant-table-row', { hasText: '园区助手' });
    await row.waitFor();
    expect(await row.innerText()).toContain('机密客户端');
    // Never again: not in the page, not in what the list answered.
    expect(await page.content()).not.toContain(secret);

    await row.getByRole('button', { name: '重置密钥' }).click();
    await page.locator('.ant-popconfirm', { hasText: '旧密钥立即失效' }).waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '重置密钥' }).click();
    const again = page.getByRole('dialog', { name: /客户端密钥/ });
    await again.waitFor();
    const next = (await again.getByTestId('oidc-secret').innerText()).trim();
    expect(next).toMatch(/^[A-Za-z0-9]{43}$/);
    expect(next).not.toBe(secret);
    await again.getByRole('button', { name: '我已保存' }).click();
    await again.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('marks a client as a service account with a role of the tenant, in zh and en at 1440 and 390 px', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const zh = lang === 'zh';
      const { context, page, errors } = await openPage(browser, DESKTOP, lang);
      await signInAsOperator(page, server.url);
      for (const width of [1440, 390] as const) {
        await page.setViewportSize(width === 1440 ? DESKTOP.viewport! : PHONE);
        await openClients(page);
        const name = `${zh ? '部署机器人' : 'Deploy bot'} ${width}`;
        await page.getByRole('button', { name: zh ? '登记客户端' : 'Register client' }).click();
        const drawer = page.locator('.ant-drawer', { hasText: zh ? '授权类型' : 'Grant types' });
        await drawer.waitFor();
        await drawer.getByLabel(zh ? '名称' : 'Name', { exact: true }).fill(name);
        // Off until the client may be one: confidential, with client_credentials.
        const mark = drawer.getByRole('switch', { name: zh ? '服务账户' : 'Service account' });
        await drawer.getByRole('checkbox', { name: zh ? '授权码' : 'Authorization code' }).uncheck();
        await drawer.getByRole('checkbox', { name: zh ? '刷新令牌' : 'Refresh token' }).uncheck();
        await drawer.getByRole('checkbox', { name: 'openid' }).uncheck();
        await drawer.getByRole('checkbox', { name: 'profile' }).uncheck();
        expect(await mark.isDisabled()).toBe(true);
        await drawer.getByRole('checkbox', { name: zh ? '客户端凭据' : 'Client credentials' }).check();
        await mark.click();
        const role = drawer.getByRole('combobox');
        await role.click();
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option', {
            hasText: zh ? '园区运营' : 'Park operator',
          })
          .first()
          .click();
        await mark.scrollIntoViewIfNeeded();
        await settled(page);
        await page.screenshot({ path: `${SHOTS}/service-account-drawer-${lang}-${width}.png` });
        if (width === 1440) expect(await axeViolations(page), `service account ${lang}`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await drawer.getByRole('button', { name: zh ? /保\s?存/ : 'Save' }).click();
        const dialog = page.getByRole('dialog', { name: zh ? /客户端密钥/ : /Client secret/ });
        await dialog.waitFor();
        await dialog.getByRole('button', { name: zh ? '我已保存' : 'I have saved it' }).click();
        await dialog.waitFor({ state: 'hidden' });
        const row = page.locator('.ant-table-row', { hasText: name });
        await row.getByText(zh ? '服务账户' : 'Service account').waitFor();
        await settled(page);
        await page.screenshot({ path: `${SHOTS}/service-account-list-${lang}-${width}.png` });
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('fits 1440 and 390 px in zh and en: list, drawer and the secret dialog', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const zh = lang === 'zh';
      const { context, page, errors } = await openPage(browser, DESKTOP, lang);
      await signInAsOperator(page, server.url);
      for (const width of [1440, 390] as const) {
        await page.setViewportSize(width === 1440 ? DESKTOP.viewport! : PHONE);
        await openClients(page);
        const shot = (what: string) => page.screenshot({ path: `${SHOTS}/oidc-clients-${what}-${lang}-${width}.png` });
        await shot('list');
        const wide = () => page.evaluate(() => document.documentElement.scrollWidth);
        expect(await wide(), `list ${lang} ${width}`).toBeLessThanOrEqual(width);
        const drawer = await register(page, `${lang}-${width}`, zh);
        // From its top: the name, the type and what it means.
        await drawer.locator('.ant-drawer-body').evaluate((el) => (el.scrollTop = 0));
        await settled(page);
        await shot('drawer');
        if (width === 1440) expect(await axeViolations(page), `drawer ${lang}`).toEqual([]);
        await drawer.getByRole('button', { name: zh ? /保\s?存/ : 'Save' }).click();
        const dialog = page.getByRole('dialog', { name: zh ? /客户端密钥/ : /Client secret/ });
        await dialog.waitFor();
        await settled(page);
        await shot('secret');
        if (width === 1440) expect(await axeViolations(page), `secret ${lang}`).toEqual([]);
        expect(await wide(), `secret ${lang} ${width}`).toBeLessThanOrEqual(width);
        await dialog.getByRole('button', { name: zh ? '我已保存' : 'I have saved it' }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
