/**
 * The OpenID Provider with an independent relying party in front of a web application: Apache
 * httpd's mod_auth_openidc (a C implementation many sites run), registered as a confidential client
 * of the demo tenant through the operators' CLI and driven through a real browser: the code flow
 * with PKCE S256 through the portal's sign-on page, the user and the claims in the application,
 * single sign-on with the portal both ways, back-channel logout when the portal logs out, and
 * RP-initiated logout ending the sign-on session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/db/embedded.js';
import { main } from '../apps/server/src/programs/admin/main.js';
import { openidcAddresses, startOpenidcApache, type RunningOpenidc } from './support/apache.js';
import { closeContexts, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { signOutFromMenu, submitSignOnForm } from './support/shell.js';

const SCOPE = 'openid profile phone roles';
let server: RunningServer;
let apache: RunningOpenidc;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every address the browser was sent to at the portal's sign-on page and the provider's /auth. */
let signOnTrips: string[] = [];
let authRequests: URL[] = [];

/** `npm run admin -- …` in this process, with its session file in `dir`; stdout, or the error. */
async function admin(dir: string, args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const input = new PassThrough();
  input.end(stdin);
  const write = (to: 'out' | 'err') => ({ write: (s: string) => (to === 'out' ? (stdout += s) : (stderr += s)) });
  const code = await main(args, {
    stdout: write('out'),
    stderr: write('err'),
    stdin: input,
    env: {},
    cwd: dir,
    configPath: join(dir, 'session.json'),
  });
  if (code !== 0) throw new Error(`admin ${args[0]} exited with ${code}: ${stderr}`);
  return stdout;
}

/** Registers mod_auth_openidc on `port` as a confidential client of the demo tenant, as an operator would. */
async function registerClient(port: number) {
  const at = openidcAddresses(port);
  const dir = mkdtempSync(join(tmpdir(), 'oidc-cli-'));
  try {
    await admin(dir, [
      'login',
      ...['--server', server.url, '--tenant', 'demo', '--user', 'admin', '--password', 'Demo@2026!'],
      ...['--captcha', '8888', '--role', 'park_operator'],
    ]);
    const client = {
      name: 'Apache 应用',
      nameEn: 'Apache application',
      confidential: true,
      grantTypes: ['authorization_code'],
      redirectUris: [at.redirectUri],
      postLogoutRedirectUris: [at.signedOutUrl],
      backchannelLogoutUri: at.backchannelLogoutUri,
      scopes: SCOPE.split(' '),
      firstParty: true,
    };
    const out = await admin(dir, ['create', 'oidc-clients', '-f', '-'], JSON.stringify(client));
    const [, clientId, clientSecret] = out.match(/client_id: (\S+)\nclient_secret: (\S+)\n/)!;
    return { clientId: clientId!, clientSecret: clientSecret! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  let port: number;
  [server, browser, port] = await Promise.all([startServer({}, { signOn: true }), sharedBrowser(), freePort()]);
  const client = await registerClient(port);
  apache = await startOpenidcApache(port, { issuer: `${server.url}/oidc/demo`, scope: SCOPE, ...client });
  // The provider's own pages (the logout question) speak the browser's language.
  context = await browser.newContext({ ...STILL, viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });
  page = await context.newPage();
  page.on('request', (req) => {
    if (!req.isNavigationRequest()) return;
    if (req.url().startsWith(`${server.url}/cas/login`)) signOnTrips.push(req.url());
    if (req.url().startsWith(`${server.url}/oidc/demo/auth?`)) authRequests.push(new URL(req.url()));
  });
});
afterAll(async () => {
  await context?.close();
  await closeContexts(browser);
  await apache?.stop();
  await server?.stop();
});

/** The application's page (the CGI prints REMOTE_USER and the OIDC_CLAIM_* variables). */
async function appPage() {
  await page.waitForURL(apache.protectedUrl);
  return (await page.locator('body').innerText()).trim();
}

/** The portal's first screen, signed in as the demo member. */
const portalHome = () => page.getByText('欢迎回来，张敏').waitFor();

describe('mod_auth_openidc (Apache httpd) as the OpenID Connect client', () => {
  it('signs in through the sign-on page (code flow, PKCE S256) and gets the user and the claims', async () => {
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/cas\/login\?/);
    await page.getByText('统一认证中心 · 演示园区').waitFor();
    await submitSignOnForm(page);
    const text = await appPage();
    expect(text, apache.log()).toContain('user=member');
    expect(text).toContain('OIDC_CLAIM_preferred_username=member');
    expect(text).toContain('OIDC_CLAIM_name=张敏');
    expect(text).toContain('OIDC_CLAIM_tenant=demo');
    expect(text).toMatch(/^OIDC_CLAIM_roles=\S*member/m);
    expect(text).toMatch(/^OIDC_CLAIM_phone_number=1\d{10}$/m);
    expect(text).toMatch(/^OIDC_CLAIM_sid=\S+$/m);
    const [auth] = authRequests;
    expect(auth?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth?.searchParams.get('redirect_uri')).toBe(apache.redirectUri);
    expect(auth?.searchParams.get('scope')).toBe(SCOPE);
  });

  it('the portal then signs in without a password (single sign-on)', async () => {
    signOnTrips = [];
    await page.goto(`${server.url}/center/index`);
    await portalHome();
    // Through the sign-on server, which answered with a ticket and no form.
    expect(signOnTrips).toHaveLength(1);
  });

  it('logging out of the portal logs out of the application too (back-channel logout): it asks for a sign-in', async () => {
    await signOutFromMenu(page);
    await page.waitForURL(/\/cas\/login\?/);
    await page.locator('#username').waitFor();
    // Apache's own session would still serve the page had the logout token not ended it.
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/cas\/login\?/);
    await page.locator('#username').waitFor();
  });

  it('signed into the portal first, the application signs in without a password', async () => {
    await page.goto(`${server.url}/center/index`);
    await submitSignOnForm(page);
    await portalHome();
    signOnTrips = [];
    authRequests = [];
    await page.goto(apache.protectedUrl);
    expect(await appPage(), apache.log()).toContain('user=member');
    // A new sign-in at the provider (Apache had no session), finished by the sign-on session.
    expect(authRequests).toHaveLength(1);
    expect(signOnTrips).toEqual([]);
  });

  it("the application's logout (RP-initiated) ends the sign-on session, and with it the portal's", async () => {
    await page.goto(apache.logoutUrl);
    await page.getByText('要退出统一认证中心吗？').waitFor();
    await page.getByRole('button', { name: '退出', exact: true }).click();
    await page.waitForURL(apache.signedOutUrl);
    // The sign-on server asks for the password again, for the portal and for the application.
    await page.goto(`${server.url}/center/index`);
    const signedOut = page.getByRole('dialog', { name: /你已被登出/ });
    await signedOut.getByRole('button', { name: '重新登录' }).click();
    await page.waitForURL(/\/cas\/login\?/);
    await page.locator('#username').waitFor();
    await page.goto(apache.protectedUrl);
    await page.waitForURL(/\/cas\/login\?/);
    await page.locator('#username').waitFor();
  });
});
