/**
 * Single sign-on end to end, in real Chromium against the real built server, which here is both the
 * portal and its sign-on server (SSO_URL = its own address): a deep link survives the trip through
 * the sign-on page; a second portal session in the same browser needs no credentials; logout from
 * the portal ends the sign-on session and, by single logout, every portal session it gave out. The
 * demo's example systems (CAS and OpenID Connect) are entered from the menu and signed out with it.
 */
import { mkdirSync } from 'node:fs';
import type { RuntimeConfig } from '@portal/contracts';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, sharedBrowser, signedFetch } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { clickMenu, fillCaptcha, settled, signOutFromMenu, submitSignOnForm } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([
    startServer({ PORTAL_RUNTIME_CONFIG: '{"languageSwitch":true}' }, { signOn: true }),
    sharedBrowser(),
  ]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

const token = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('portal_token') ?? 'null')?.v as string | undefined);

/** From the sign-on page the portal sent the browser to, signed in as the demo member, home. */
async function signInAtSignOnPage(page: Page) {
  await submitSignOnForm(page);
  await page.getByText('欢迎回来，张敏').waitFor();
}

describe('single sign-on', () => {
  it('keeps the deep link through the sign-on page, signs in again without credentials, and logs out everywhere', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    // Signed out, a deep link with kept parameters: off to the sign-on server's page.
    await page.goto(`${server.url}/center/ent/colist?tc=demo&benchCode=B1`);
    await page.waitForURL(/\/cas\/login\?/);
    const casUrl = new URL(page.url());
    expect(casUrl.searchParams.get('loginType')).toBe('2');
    expect(casUrl.searchParams.get('tenantCode')).toBe('demo');
    const service = new URL(casUrl.searchParams.get('service')!);
    expect(service.pathname).toBe('/center/login');
    expect(service.searchParams.get('redirect')).toBe('/ent/colist?tc=demo&benchCode=B1');
    expect(service.searchParams.get('signOnState')).toMatch(/^[0-9a-f]{32}$/);
    await page.getByText('统一认证中心 · 演示园区').waitFor();
    await page.locator('.login-captcha-image img').waitFor(); // the first captcha of a cold server may take seconds
    await page.screenshot({ path: `${SHOTS}/sso-login-zh-1440.png` });

    // A wrong password: the message, and still on the sign-on page.
    await page.locator('#username').fill('member');
    await page.locator('#password').fill('Wrong@2026!');
    await fillCaptcha(page);
    await page.keyboard.press('Enter');
    await page.getByText('用户名、密码或验证码错误').waitFor();
    expect(new URL(page.url()).pathname).toBe('/cas/login');

    await page.locator('#password').fill('Demo@2026!');
    await fillCaptcha(page);
    await page.keyboard.press('Enter');
    // Back at the deep link, signed in, with no ticket left in the address bar.
    await page.waitForURL(/\/center\/ent\/colist\?/);
    expect(page.url()).not.toContain('ticket=');
    const landed = new URL(page.url());
    expect(landed.searchParams.get('tc')).toBe('demo');
    expect(landed.searchParams.get('benchCode')).toBe('B1');
    await page.locator('.ant-breadcrumb').getByText('企业信息').waitFor();
    const first = (await token(page))!;
    expect(first).toBeTruthy();

    // The sign-on server's own page, asked without a service, says who is signed in.
    await page.goto(`${server.url}/cas/login?tenantCode=demo`);
    await page.getByText('张敏，您已登录演示园区统一认证中心。').waitFor();
    await page.screenshot({ path: `${SHOTS}/sso-signed-in-zh-1440.png` });

    // The portal session gone from this browser (as for another application): back in through the
    // sign-on session, without the form.
    await page.evaluate(() => localStorage.removeItem('portal_token'));
    await page.goto(`${server.url}/center/index`);
    await page.waitForURL(/\/center\/index$/);
    await page.getByText('欢迎回来，张敏').waitFor();
    const second = (await token(page))!;
    expect(second).not.toBe(first);

    // Entering an external system of the tenant (/front/esa/system/sso): it receives a ticket its
    // CAS client can validate. (The system is played by an intercepted address.)
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO sso_services (tenant_id, name, pattern, sys_code, entry_url)
       SELECT id, 'ERP', 'http://erp.test/', 'ERP', 'http://erp.test/sso/entry' FROM tenants WHERE code = 'demo'`,
    );
    await db.end();
    await page.route('http://erp.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>ERP</title><h1>ERP</h1>' }),
    );
    await page.goto(`${server.url}/center/front/esa/system/sso?sysCode=ERP&tc=demo`);
    await page.waitForURL(/^http:\/\/erp\.test\/sso\/entry\?ticket=ST-/);
    const erpTicket = new URL(page.url()).searchParams.get('ticket')!;
    const validation = await fetch(
      `${server.url}/cas/p3/serviceValidate?${new URLSearchParams({ ticket: erpTicket, service: 'http://erp.test/sso/entry', format: 'JSON' })}`,
    );
    expect((await validation.json()).serviceResponse.authenticationSuccess.user).toBe('member');
    await page.goto(`${server.url}/center/index`);
    await page.getByText('欢迎回来，张敏').waitFor();

    // Logout from the portal: through the sign-on server's logout, back to its login form.
    await signOutFromMenu(page);
    await page.waitForURL(/\/cas\/login\?/);
    await page.locator('#username').waitFor();
    // Single logout ended the other portal session too: the server refuses its token.
    const config = await page.evaluate(
      () => (window as unknown as { __PORTAL_CONFIG__: RuntimeConfig }).__PORTAL_CONFIG__,
    );
    for (const t of [first, second]) {
      const refused = await signedFetch(server.url, config.signSecret, '/api/front/member/front/infoV2', { token: t });
      expect(refused.status).toBe(401);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("enters the demo's example external system from the menu; signing out there ends the portal session", async () => {
    // The system knows the language only from the browser's.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${server.url}/center/index`);
    await signInAtSignOnPage(page);
    const portalToken = (await token(page))!;
    await clickMenu(page, '园区链接');
    await settled(page);
    const [system] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('menuitem', { name: '物业服务' }).click(),
    ]);
    // Through /front/esa/system/sso and the sign-on server (no second sign-in), into its own session.
    await system.waitForURL(`${server.url}/example-system/`);
    await system.getByText('张敏，您已通过统一认证中心登录本系统。').waitFor();
    await system.screenshot({ path: `${SHOTS}/example-system-zh-1440.png` });

    await system.getByRole('link', { name: '退出' }).click();
    await system.waitForURL(/\/cas\/login\?/);
    await system.locator('#username').waitFor();
    const config = await page.evaluate(
      () => (window as unknown as { __PORTAL_CONFIG__: RuntimeConfig }).__PORTAL_CONFIG__,
    );
    const refused = await signedFetch(server.url, config.signSecret, '/api/front/member/front/infoV2', {
      token: portalToken,
    });
    expect(refused.status).toBe(401);
    await context.close();
  });

  it('enters the OpenID Connect example system from the menu; logging out of the portal ends its session', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${server.url}/center/index`);
    await signInAtSignOnPage(page);
    await clickMenu(page, '园区链接');
    await settled(page);
    const [system] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('menuitem', { name: '访客服务' }).click(),
    ]);
    // Through the provider's authorization endpoint and the sign-on session (no second sign-in).
    await system.waitForURL(`${server.url}/oidc-example/`);
    await system.getByText('张敏，您已通过 OpenID Connect 登录本系统。').waitFor();
    await system.screenshot({ path: `${SHOTS}/oidc-example-zh-1440.png` });

    // Logging out of the portal ends the sign-on session, and it ends this system's (back-channel logout).
    await page.bringToFront();
    await signOutFromMenu(page);
    await page.waitForURL(/\/cas\/login\?/);
    await system.reload();
    await system.getByText('您尚未登录本系统。').waitFor();
    await context.close();
  });

  it('shows the example external system in English on a phone', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      locale: 'en-US',
    });
    await context.addInitScript(() => localStorage.setItem('portal_locale', JSON.stringify({ v: 'en', e: null })));
    const page = await context.newPage();
    await page.goto(`${server.url}/example-system/`);
    await submitSignOnForm(page);
    await page.getByText('张敏, you are signed in through the sign-on service.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/example-system-en-390.png` });
    // The OpenID Connect example system, with the same sign-on session.
    await page.goto(`${server.url}/oidc-example/login`);
    // Its English name, from the provider's language-tagged claim.
    await page.getByText('Zhang Min, you are signed in through OpenID Connect.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}/oidc-example-en-390.png` });
    await context.close();
  });

  it('asks on a tenant-code mismatch: cancel stays, confirm logs out towards that tenant', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/center/index?tc=demo`);
    await signInAtSignOnPage(page);

    await page.goto(`${server.url}/center/index?tc=park2`);
    const dialog = page.getByRole('dialog').filter({ hasText: '租户编码不一致，您已被登出请重新登陆' });
    await dialog.waitFor();
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/sso-tenant-mismatch-zh-1440.png` });
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await token(page)).toBeTruthy();

    await page.goto(`${server.url}/center/index?tc=park3`);
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '重新登录' }).click();
    // Signed out everywhere, and on to the sign-on page of the tenant the address named.
    await page.waitForURL(/\/cas\/login\?.*tenantCode=park3/);
    await page.getByText('租户不存在').waitFor(); // park3 is not a tenant of the demo data
    expect(await page.evaluate(() => localStorage.getItem('portal_token'))).toBeNull();
    await context.close();
  });

  it("does not exchange a ticket the tab did not ask for (someone else's, handed over in a link)", async () => {
    // The attacker signs in and has the sign-on server issue a portal ticket without using it.
    const attacker = await browser.newContext();
    const page = await attacker.newPage();
    await page.goto(`${server.url}/center/index`);
    await signInAtSignOnPage(page);
    // Issued for a service address with the attacker's own state, as the attacker's tab would have.
    const service = `${server.url}/center/login?redirect=%2Findex&signOnState=${'a1'.repeat(16)}`;
    const issued = await page.request.get(
      `${server.url}/cas/login?${new URLSearchParams({ tenantCode: 'demo', service })}`,
      {
        maxRedirects: 0,
      },
    );
    const handed = issued.headers().location!;
    const ticket = new URL(handed).searchParams.get('ticket')!;
    expect(ticket).toMatch(/^ST-/);
    await attacker.close();

    // The victim opens the link: not signed in as the attacker, but sent to sign in themselves.
    const victim = await browser.newContext();
    const vpage = await victim.newPage();
    await vpage.goto(handed);
    await vpage.waitForURL(/\/cas\/login\?/);
    await vpage.locator('#username').waitFor();
    expect(await token(vpage)).toBeUndefined();
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    const row = await db.query('SELECT validated_at FROM sso_tickets WHERE ticket = $1', [ticket]);
    await db.end();
    expect(row.rows).toEqual([{ validated_at: null }]); // never even presented to the server
    await victim.close();
  });

  it('stops redirecting and says so when the sign-on server keeps sending the browser back without a ticket', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // A sign-on server that never signs in (as with cookies blocked): straight back to the service.
    let trips = 0;
    await page.route(`${server.url}/cas/login**`, (route) => {
      trips++;
      const service = new URL(route.request().url()).searchParams.get('service')!;
      return route.fulfill({ status: 302, headers: { location: service } });
    });
    await page.goto(`${server.url}/center/index`);
    await page.getByText('多次跳转统一认证中心仍未登录，已停止自动跳转。').waitFor();
    expect(trips).toBe(3);
    await page.screenshot({ path: `${SHOTS}/sso-loop-zh-1440.png` });
    await context.close();
  });

  it('shows the sign-on page in English on a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.addInitScript(() => localStorage.setItem('portal_locale', JSON.stringify({ v: 'en', e: null })));
    const page = await context.newPage();
    await page.goto(`${server.url}/center/index`);
    await page.waitForURL(/\/cas\/login\?/);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.locator('.login-captcha-image img').waitFor(); // the first captcha of a cold server may take seconds
    await page.screenshot({ path: `${SHOTS}/sso-login-en-390.png` });
    await context.close();
  });
});
