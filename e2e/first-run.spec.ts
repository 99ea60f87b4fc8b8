/**
 * The first run of an installation without the demo (ADR 033), in Chromium against the real built
 * server: `npm run admin -- bootstrap` (the built CLI as a process) makes the platform operator with
 * a temporary password; their first sign-in lands on the change-password page, where nothing else
 * is open to them; once they chose their own they are in the portal and the console works. The
 * page is photographed in both languages at desktop and phone width (e2e/artifacts/first-run-*.png).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { fillCaptcha, settled } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const ROOT = resolve(import.meta.dirname, '..');
const TEMPORARY = 'Harbour#2026x';
const OWN = 'Lantern#2026q';
const THIRD = 'Compass#2026w';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let server: RunningServer;
let dir: string;

/** The built admin CLI, as an operator runs it on the server's machine with its environment. */
function bootstrap(args: string[]) {
  return spawnSync(process.execPath, ['apps/server/dist/programs/admin/main.js', 'bootstrap', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', DATABASE_URL: server.databaseUrl, INIT_CWD: dir },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function signIn(page: Page, password: string) {
  await page.goto(`${server.url}/center/login?tc=platform`);
  await page.locator('#username').fill('ops');
  await page.locator('#password').fill(password);
  await fillCaptcha(page);
  await page.keyboard.press('Enter');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(join(tmpdir(), 'portal-first-run-'));
  // No demo: the installation has nobody until the bootstrap.
  [browser, server] = await Promise.all([sharedBrowser(), startServer({ SEED_DEMO: '0' })]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the first run', () => {
  it('bootstraps the platform operator, whose first sign-in asks for their own password, then the console works', async () => {
    writeFileSync(join(dir, 'password.txt'), `${TEMPORARY}\n`, { mode: 0o600 });
    const made = bootstrap(['--user', 'ops', '--name', '运维负责人', '--password-file', 'password.txt']);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toContain('Created the platform tenant "platform"');

    const { context, page, errors } = await openPage(browser, { viewport: DESKTOP });
    await signIn(page, TEMPORARY);
    await page.waitForURL(/\/center\/user\/register-result\?/);
    expect(new URL(page.url()).searchParams.get('required')).toBe('1');
    await page.getByRole('heading', { name: '设置新密码' }).waitFor();
    await page.getByText('当前密码是他人为您设置的临时密码').waitFor();
    await page.screenshot({ path: `${SHOTS}/first-run-password-zh-1440.png` });

    // The address of any other page brings the person back here: the session may do nothing else.
    await page.goto(`${server.url}/center/system/tenants`);
    await page.waitForURL(/\/center\/user\/register-result\?.*redirect=%2Fsystem%2Ftenants/);
    await page.getByRole('heading', { name: '设置新密码' }).waitFor();

    // The rule is checked on the page; the same password again is the server's refusal.
    await page.locator('#oldPwd').fill(TEMPORARY);
    await page.locator('#password').fill('short');
    await page.locator('#repeat').fill('short');
    await page.getByRole('button', { name: '确定并进入' }).click();
    await page.getByText('密码强度不够').waitFor();
    await page.locator('#password').fill(TEMPORARY);
    await page.locator('#repeat').fill(TEMPORARY);
    await page.getByRole('button', { name: '确定并进入' }).click();
    await page.getByText('新密码不能与当前密码相同').waitFor();

    await page.locator('#password').fill(OWN);
    await page.locator('#repeat').fill(OWN);
    await page.getByRole('button', { name: '确定并进入' }).click();
    // On to where they were headed, signed in: the platform's tenants.
    await page.waitForURL(/\/center\/system\/tenants/);
    await page.locator('.ant-table-row', { hasText: 'platform' }).waitFor();
    await page.locator('.shell-user').getByText('运维负责人').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // The temporary password is gone; their own signs in straight to the portal.
    const again = await openPage(browser, { viewport: DESKTOP });
    await signIn(again.page, OWN);
    await again.page.waitForURL((u) => !u.pathname.endsWith('/login'));
    await again.page.getByRole('tablist').waitFor();
    expect(again.page.url()).not.toContain('register-result');
    await again.context.close();

    // Run again, the bootstrap says who is there and changes nothing.
    const twice = bootstrap(['--user', 'other', '--password-file', 'password.txt']);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/^Nothing done: the platform tenant "platform" .* ops \(since /);
  });

  it('shows the change page in both languages, at desktop and at phone width', async () => {
    for (const lang of ['zh', 'en'] as const) {
      // The operator's password made temporary again, as an operator's reset would.
      await sql(`UPDATE users SET must_change_password = true WHERE username = 'ops'`);
      const { context, page, errors } = await openPage(browser, { viewport: DESKTOP }, lang);
      await signIn(page, OWN);
      await page.waitForURL(/\/center\/user\/register-result\?/);
      await page.getByRole('heading', { name: lang === 'zh' ? '设置新密码' : 'Choose your password' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/first-run-password-${lang}-1440.png` });
      await page.setViewportSize(PHONE);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/first-run-password-${lang}-390.png` });
      // Signing out is open to the session too.
      await page.getByRole('button', { name: lang === 'zh' ? '退出登录' : 'Sign out' }).click();
      await page.waitForURL(/\/center\/login/);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('sends a temporary password from the sign-on page to the change page, and back to sign in with the new one', async () => {
    // The same installation signing in through its own sign-on server (SSO_URL).
    const signOn = await startServer({ SEED_DEMO: '0', DATABASE_URL: server.databaseUrl }, { signOn: true });
    try {
      await sql(`UPDATE users SET must_change_password = true WHERE username = 'ops'`);
      const { context, page, errors } = await openPage(browser, { viewport: DESKTOP });
      await page.goto(`${signOn.url}/center/login?tc=platform`);
      await page.waitForURL(/\/cas\/login\?/);
      await page.locator('#username').fill('ops');
      await page.locator('#password').fill(OWN);
      await fillCaptcha(page);
      await page.keyboard.press('Enter');
      // No ticket for a temporary password: the change without a session, the account filled in.
      await page.waitForURL(/\/center\/user\/register-result\?/);
      await page.getByText('该账号的密码是他人设置的临时密码').waitFor();
      expect(await page.locator('#username').inputValue()).toBe('ops');
      await page.screenshot({ path: `${SHOTS}/first-run-sign-on-change-zh-1440.png` });
      await page.locator('#oldPwd').fill(OWN);
      await page.locator('#password').fill(THIRD);
      await page.locator('#repeat').fill(THIRD);
      await fillCaptcha(page, '#imgCode');
      await page.getByRole('button', { name: /确\s?定/ }).click();
      await page.getByText('密码已修改').waitFor();
      // Back to the sign-on page it came from, where the new password signs in.
      await page.waitForURL(/\/cas\/login\?/, { timeout: 10_000 });
      await page.locator('#username').fill('ops');
      await page.locator('#password').fill(THIRD);
      await fillCaptcha(page);
      await page.keyboard.press('Enter');
      await page.waitForURL((u) => u.pathname.startsWith('/center/') && !u.pathname.endsWith('/login'));
      await page.getByRole('tablist').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await signOn.stop();
    }
  });

  it("shows the operator's choice of a temporary password in the new user's form, in both languages", async () => {
    for (const lang of ['zh', 'en'] as const) {
      const { context, page, errors } = await openPage(browser, { viewport: DESKTOP }, lang);
      await signIn(page, THIRD);
      await page.getByRole('tablist').waitFor();
      await page.goto(`${server.url}/center/system/users`);
      await page.getByRole('button', { name: lang === 'zh' ? '新建用户' : 'New user' }).click();
      const drawer = page.locator('.ant-drawer-content');
      const temporary = drawer.getByLabel(
        lang === 'zh' ? '临时密码：下次登录时须先修改' : 'Temporary: to be changed at the next sign-in',
      );
      expect(await temporary.isChecked()).toBe(true);
      await temporary.scrollIntoViewIfNeeded();
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/first-run-new-user-${lang}-1440.png` });
      await page.setViewportSize(PHONE);
      await temporary.scrollIntoViewIfNeeded();
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/first-run-new-user-${lang}-390.png` });
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
