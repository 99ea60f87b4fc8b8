/**
 * The demo's example external system over real HTTP: entered from a portal session through the
 * sign-on server (docs/product/screens.md#fixed-routes /front/esa/system/sso), signed in by a validated ticket, ended by the
 * sign-on server's single logout.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_URL: base, SSO_URL: base });
  await ctx.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => ctx?.close());

const get = (path: string, cookie?: string, lang?: string) =>
  fetch(`${base}${path}`, {
    redirect: 'manual',
    headers: { ...(cookie ? { cookie } : {}), ...(lang ? { 'accept-language': lang } : {}) },
  });
const cookieIn = (res: Response, name: string) =>
  new RegExp(`${name}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '')?.[1];

it('is entered from the portal through the sign-on server and left by its single logout', async () => {
  const system = `${base}/example-system/`;
  // Without a session of its own it sends the visitor to the sign-on server, for its own address.
  const first = await get('/example-system/');
  expect(first.status).toBe(302);
  expect(first.headers.get('location')).toBe(`${base}/cas/login?service=${encodeURIComponent(system)}`);

  // The portal's sysCode leads a portal session without an SSO session to that same login.
  const token = await ctx.login('admin');
  const entry = await ctx.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'PROPERTY' }, token });
  expect(entry.json().data).toBe(`${base}/cas/login?loginType=2&tenantCode=demo&service=${encodeURIComponent(system)}`);

  // Signing in there returns with a ticket; the system validates it and opens its own session.
  const captchaKey = randomBytes(8).toString('hex');
  await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  const login = await fetch(`${base}/cas/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      username: 'admin',
      password: ctx.encrypt(DEMO_PASSWORD),
      imgvercode: '8888',
      captchaKey,
      service: system,
      tenantCode: 'demo',
    }),
  });
  expect(login.status).toBe(303);
  const tgc = cookieIn(login, 'CASTGC')!;
  const withTicket = new URL(login.headers.get('location')!);
  expect(withTicket.searchParams.get('ticket')).toMatch(/^ST-[A-Za-z0-9-]+$/);
  const back = await get(`${withTicket.pathname}${withTicket.search}`);
  expect(back.status).toBe(303);
  expect(back.headers.get('location')).toBe('/example-system/');
  const session = `EXAMPLE_SYSTEM=${cookieIn(back, 'EXAMPLE_SYSTEM')}`;
  const page = await get('/example-system/', session);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('园区物业服务（示例外部系统）');
  expect(html).toContain('系统管理员，您已通过统一认证中心登录本系统。');
  expect(html).toContain('<dd>demo</dd>');
  const english = await (await get('/example-system/', session, 'en-GB,en;q=0.9')).text();
  expect(english).toContain('系统管理员, you are signed in through the sign-on service.');

  // The same ticket a second time opens nothing.
  const replay = await get(`${withTicket.pathname}${withTicket.search}`);
  expect(replay.status).toBe(401);
  expect(await replay.text()).toContain('票据无效或已过期');

  // Signing out of the sign-on server reaches the system (single logout): its session is over.
  const logout = await get('/cas/logout', `CASTGC=${tgc}`);
  expect(logout.status).toBe(200);
  const after = await get('/example-system/', session);
  expect(after.status).toBe(302);
  expect(after.headers.get('location')).toContain('/cas/login?service=');
});

it('signs out of itself and of the sign-on server from its own page', async () => {
  const res = await get('/example-system/logout', `EXAMPLE_SYSTEM=${'a'.repeat(64)}`);
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe(
    `${base}/cas/logout?service=${encodeURIComponent(`${base}/example-system/`)}`,
  );
  expect(res.headers.get('set-cookie')).toContain(
    'EXAMPLE_SYSTEM=; Max-Age=0; Path=/example-system/; HttpOnly; SameSite=Lax',
  );
});
