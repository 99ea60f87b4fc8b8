/**
 * The sign-on server with an independent CAS client in front of a web application: Apache httpd's
 * mod_auth_cas (a C implementation many sites run), driven through a real browser: sign-in at the
 * sign-on page, single sign-on into fresh client sessions (each in one trip: the client accepts
 * every ticket by CAS 3.0 §3.7's grammar), `renew`, SAML 1.1 validation with attributes, and single
 * logout ending every client session.
 */
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApache, type RunningApache } from './support/apache.js';
import { closeContexts, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { submitSignOnForm } from './support/shell.js';

let server: RunningServer;
let apache: RunningApache;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every address the browser was sent to at the sign-on server. */
let signOnTrips: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), sharedBrowser()]);
  apache = await startApache(server.url);
  // Both of Apache's addresses are services of the demo tenant (a standard client names no tenant:
  // the sign-on server finds it by the service).
  const db = new pg.Client({ connectionString: server.databaseUrl });
  await db.connect();
  for (const url of [apache.url, apache.samlUrl]) {
    await db.query(
      `INSERT INTO sso_services (tenant_id, name, pattern) SELECT id, 'Apache mod_auth_cas', $1 FROM tenants WHERE code = 'demo'`,
      [`${url}/`],
    );
  }
  await db.end();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  page.on('request', (req) => {
    if (req.isNavigationRequest() && req.url().startsWith(`${server.url}/cas/login`)) signOnTrips.push(req.url());
  });
});
afterAll(async () => {
  await context?.close();
  await closeContexts(browser);
  await apache?.stop();
  await server?.stop();
});

/** The application's page (the CGI prints what mod_auth_cas put in the request). */
async function appPage(url: string) {
  await page.waitForURL((u) => u.href.startsWith(url) && !u.search.includes('ticket='));
  return (await page.locator('body').innerText()).trim();
}

describe('mod_auth_cas (Apache httpd) as the CAS client', () => {
  it('signs in through the sign-on page and gets the user and the CAS 3.0 attributes', async () => {
    await page.goto(`${apache.url}/app/`);
    await page.waitForURL(/\/cas\/login\?/);
    expect(new URL(page.url()).searchParams.get('service')).toBe(`${apache.url}/app/`);
    await page.getByText('统一认证中心 · 演示园区').waitFor();
    await submitSignOnForm(page);
    const text = await appPage(`${apache.url}/app/`);
    expect(text, apache.log()).toContain('user=member');
    expect(text).toContain('HTTP_CAS_TENANTCODE=demo');
    expect(text).toContain('HTTP_CAS_ISFROMNEWLOGIN=true');
  });

  it('enters fresh client sessions by single sign-on, each in exactly one trip to the sign-on server', async () => {
    for (let i = 0; i < 12; i++) {
      await context.clearCookies({ name: 'MOD_AUTH_CAS' });
      signOnTrips = [];
      await page.goto(`${apache.url}/app/?round=${i}`);
      const text = await appPage(`${apache.url}/app/`);
      expect(text, `round ${i}: ${apache.log().slice(-2000)}`).toContain('user=member');
      // A ticket the client refused would have sent the browser back for another (CAS 3.0 §3.7).
      expect(signOnTrips, `round ${i}`).toHaveLength(1);
      expect(new URL(page.url()).searchParams.get('round')).toBe(String(i));
    }
  });

  it('asks for the password again where the client requires renew, though a sign-on session lives', async () => {
    await page.goto(`${apache.url}/renew/`);
    await page.waitForURL(/\/cas\/login\?/);
    expect(new URL(page.url()).searchParams.get('renew')).toBe('true');
    await submitSignOnForm(page);
    const text = await appPage(`${apache.url}/renew/`);
    expect(text, apache.log()).toContain('user=member');
    expect(text).toContain('HTTP_CAS_ISFROMNEWLOGIN=true');
  });

  it('validates by SAML 1.1 (/samlValidate) and receives the attributes from the assertion', async () => {
    await page.goto(`${apache.samlUrl}/app/`);
    const text = await appPage(`${apache.samlUrl}/app/`);
    expect(text, apache.log()).toContain('user=member');
    expect(text).toContain('HTTP_CAS_TENANTCODE=demo');
    expect(text).toContain('HTTP_CAS_ISFROMNEWLOGIN=false');
  });

  it('single logout ends every session of the client: each application asks for a new sign-in', async () => {
    await page.goto(`${server.url}/cas/logout`);
    await page.getByText('您已退出统一认证中心').waitFor();
    for (const url of [`${apache.url}/app/`, `${apache.url}/renew/`, `${apache.samlUrl}/app/`]) {
      await page.goto(url);
      await page.waitForURL(/\/cas\/login\?/);
      await page.locator('#username').waitFor();
    }
  });
});
