/**
 * Passkeys end to end in real Chromium with its DevTools virtual authenticator (a platform
 * authenticator with resident keys and user verification): a person signed in with the password
 * adds a passkey on the account security section, then signs in with it alone on the portal login
 * page and on the sign-on page. At desktop and phone widths, in Chinese and English. WebAuthn wants
 * a secure context and a domain as its relying party: the server's public address is localhost.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STILL, closeContexts, openPage, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/shell.js';

const SHOTS = process.env.PASSKEY_SHOTS ?? 'e2e/artifacts';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([
    startServer({ PORTAL_RUNTIME_CONFIG: '{"languageSwitch":true}' }, { localhost: true }),
    sharedBrowser(),
  ]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

/** A virtual platform authenticator that verifies its user at once (a fingerprint that always matches). */
async function addAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as { isResidentCredential: boolean }[];
  return { credentials };
}

const TEXT = {
  zh: {
    add: '添加通行密钥',
    ok: '确 定',
    added: '通行密钥已添加',
    signIn: '使用通行密钥登录',
    removeOf: (name: string) => `删除 ${name}`,
    remove: /^删\s*除$/,
    removed: '通行密钥已删除',
  },
  en: {
    add: 'Add a passkey',
    ok: 'OK',
    added: 'Passkey added',
    signIn: 'Sign in with a passkey',
    removeOf: (name: string) => `Remove ${name}`,
    remove: /^Remove$/,
    removed: 'Passkey removed',
  },
};

describe('passkeys', () => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    for (const lang of ['zh', 'en'] as const) {
      it(`adds a passkey and signs in with it alone (${lang}, ${width} px)`, async () => {
        const { context, page, errors } = await openPage(browser, { ...STILL, viewport: { width, height } }, lang);
        const authenticator = await addAuthenticator(context, page);
        const text = TEXT[lang];
        const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}-${lang}-${width}.png` });

        // Signed in with the password, the person adds a passkey on this device, named.
        await signIn(page, server.url);
        await page.goto(`${server.url}/center/account/security`);
        await page.getByRole('button', { name: text.add }).click();
        const name = `${lang === 'zh' ? '办公电脑' : 'Office laptop'} ${width}`;
        await page.getByLabel(lang === 'zh' ? '名称' : 'Name', { exact: true }).fill(name);
        await page.getByRole('dialog').getByRole('button', { name: text.ok }).click();
        await page.getByText(text.added).waitFor();
        await page.getByText(name, { exact: true }).waitFor();
        expect(await authenticator.credentials()).toEqual([expect.objectContaining({ isResidentCredential: true })]);
        await shot('passkeys-section');

        // Signed out, the login page offers the passkey, which signs in without username or password.
        await page.evaluate(() => localStorage.removeItem('portal_token'));
        await page.goto(`${server.url}/center/login`);
        const button = page.getByRole('button', { name: text.signIn });
        await button.waitFor();
        await page.locator('.login-captcha-image img').waitFor();
        await shot('passkey-login');
        await button.click();
        await page.waitForURL(/\/center\/index/);
        await page.getByRole('tablist').or(page.locator('.shell-bare')).first().waitFor();
        // The list says it was used just now.
        await page.goto(`${server.url}/center/account/security`);
        await page
          .locator('.ant-list-item', { hasText: name })
          .getByText(lang === 'zh' ? /上次使用 \d/ : /Last used \d/)
          .waitFor();

        // The sign-on page (and so the OpenID Provider's sign-in): the same button, an SSO session.
        await page.goto(`${server.url}/cas/login?tenantCode=demo`);
        await page.getByRole('button', { name: text.signIn }).waitFor();
        await page.locator('.login-captcha-image img').waitFor();
        await shot('passkey-sign-on');
        await page.getByRole('button', { name: text.signIn }).click();
        // It names no service: the sign-on server's own page says who is signed in (in its default language).
        await page.getByText(/您已登录/).waitFor();
        const cookies = await context.cookies(`${server.url}/cas/login`);
        expect(cookies.find((c) => c.name === 'CASTGC')?.httpOnly).toBe(true);

        // Removed again on 账户安全 (the next run signs in with the password alone, as a person without one).
        await page.goto(`${server.url}/center/account/security`);
        await page.getByRole('button', { name: text.removeOf(name) }).click();
        await page.locator('.ant-popconfirm').getByRole('button', { name: text.remove }).click();
        await page.getByText(text.removed).waitFor();
        await page.getByText(name, { exact: true }).waitFor({ state: 'detached' });

        expect(errors).toEqual([]);
        await context.close();
      }, 120_000);
    }
  }
});
