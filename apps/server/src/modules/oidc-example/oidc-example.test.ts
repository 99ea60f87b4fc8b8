/**
 * The demo's OpenID Connect example system over real HTTP against the real provider and the real
 * sign-on session: signing in (code flow with PKCE, ID token, UserInfo), what it shows in zh/en,
 * RP-initiated logout (which ends the sign-on session), and back-channel logout when the portal's
 * sign-on session ends elsewhere, with the logout token's rules one refusal each.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { SignJWT, generateKeyPair, importJWK, type JWK, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_EXAMPLE } from '../../db/demo/content/services.js';
import { freePort } from '../../db/embedded.js';
import { sha256Hex } from '../../platform/hash.js';
import { TestBrowser, casSignIn as signIn } from '../../test/browser.js';
import { createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let base: string;
let issuer: string;
beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_URL: base, LOGIN_RATE_PER_MINUTE: '100000' });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  issuer = `${base}/oidc/demo`;
}, 60_000);
afterAll(async () => ctx?.close());

const newBrowser = (lang?: string) => new TestBrowser(base, lang);

const casSignIn = (b: TestBrowser, username = 'member') => signIn(ctx, b, { username });

/** Signed in at the sign-on server, then into the example system from its menu address. */
async function enter(b = newBrowser()) {
  await casSignIn(b);
  const end = await b.follow('/oidc-example/login');
  expect(end.url, end.trail.join('\n')).toBe(`${base}/oidc-example/`);
  expect(end.res.status).toBe(200);
  return { browser: b, html: await end.res.text(), trail: end.trail };
}

const ssoEnded = async (tgc: string) =>
  (
    await ctx.db.execute<{ ended: boolean }>(
      sql`SELECT ended_at IS NOT NULL AS ended FROM sso_sessions WHERE cookie_hash = ${sha256Hex(tgc)}`,
    )
  ).rows[0]!.ended;

function formFields(html: string, formId: string) {
  const form = new RegExp(`<form id="${formId.replace('.', '\\.')}"[^>]*>([\\s\\S]*?)</form>`).exec(html)?.[1] ?? '';
  const out = new URLSearchParams();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) out.set(m[1]!, m[2]!);
  return out;
}

describe('the OpenID Connect example system', () => {
  it('is registered for the demo tenant only, with its addresses under this server', async () => {
    const rows = await ctx.db.execute<Record<string, unknown>>(sql`
      SELECT t.code, c.confidential, c.first_party, c.redirect_uris, c.post_logout_redirect_uris,
             c.backchannel_logout_uri, c.secret_hash
      FROM oidc_clients c JOIN tenants t ON t.id = c.tenant_id WHERE c.client_id = ${OIDC_EXAMPLE.clientId}`);
    expect(rows.rows).toHaveLength(1);
    const [row] = rows.rows;
    expect(row).toMatchObject({
      code: 'demo',
      confidential: true,
      first_party: true,
      redirect_uris: [`${base}/oidc-example/callback`],
      post_logout_redirect_uris: [`${base}/oidc-example/`],
      backchannel_logout_uri: `${base}/oidc-example/backchannel-logout`,
    });
    // The secret is a server secret of this installation; the row keeps its hash.
    const secret = await ctx.db.execute<{ value: string }>(
      sql`SELECT value FROM server_secrets WHERE name = ${OIDC_EXAMPLE.secretName}`,
    );
    expect(row!.secret_hash).toBe(sha256Hex(secret.rows[0]!.value));
  });

  it('signs in through the sign-on session, shows the claims in zh and en, and is not entered twice by one answer', async () => {
    const first = await newBrowser().go('/oidc-example/');
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('您尚未登录本系统。');

    const { browser, html, trail } = await enter();
    // Through the provider's authorization endpoint and its interaction, without a form.
    expect(trail.some((s) => s.includes(`${issuer}/auth?`))).toBe(true);
    expect(trail.some((s) => s.includes('/cas/oidc/demo/interaction/'))).toBe(true);
    const callback = trail.find((s) => s.includes('/oidc-example/callback?'))!.split(' ')[1]!;
    expect(html).toContain('园区访客服务（OpenID Connect 示例）');
    expect(html).toContain('张敏，您已通过 OpenID Connect 登录本系统。');
    expect(html).toContain('<dd>demo</dd>');
    expect(html).toMatch(/<dt>角色<\/dt><dd>[^<]*ent_member[^<]*<\/dd>/);
    expect(html).toMatch(/<dt>企业<\/dt><dd>[^<]+有限公司<\/dd>/);
    const subject = (
      await ctx.db.execute<{ subject: string }>(sql`SELECT subject FROM users WHERE username = 'member' LIMIT 1`)
    ).rows[0]!.subject;
    expect(html).toContain(`<dd>${subject}</dd>`);

    const english = newBrowser('en-GB,en;q=0.9');
    english.cookies = browser.cookies;
    const en = await (await english.go('/oidc-example/')).text();
    expect(en).toContain('Park visitor services (OpenID Connect example)');
    expect(en).toContain('you are signed in through OpenID Connect.');
    expect(en).toContain('<dt>Roles</dt>');
    // English names where they are kept: the provider's language-tagged claims.
    expect(en).toContain('<dd>Zhang Min</dd>');
    expect(en).toContain('<dd>Xinghe Technology Co., Ltd.</dd>');

    // The same answer of the provider a second time opens nothing, and sends the browser nowhere.
    const replay = await browser.go(callback);
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain('登录未完成');
    // An answer for no sign-in this browser began (another's code) is refused the same way.
    const stranger = await newBrowser().go(callback);
    expect(stranger.status).toBe(401);
  });

  it('signs out by RP-initiated logout: the provider asks, ends the sign-on session and comes back here', async () => {
    const { browser } = await enter();
    const tgc = browser.tgc!;
    const out = await browser.go('/oidc-example/logout');
    expect(out.status).toBe(302);
    const end = new URL(out.headers.get('location')!);
    expect(`${end.origin}${end.pathname}`).toBe(`${issuer}/session/end`);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/oidc-example/`);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    // This system's session is over already.
    expect(await (await browser.go('/oidc-example/')).text()).toContain('您尚未登录本系统。');

    const question = await browser.go(end.href);
    expect(question.status).toBe(200);
    const form = formFields(await question.text(), 'op.logoutForm');
    form.set('logout', 'yes');
    const done = await browser.go(`${issuer}/session/end/confirm`, { method: 'POST', body: form.toString() });
    const back = await browser.follow(new URL(done.headers.get('location')!, base).href);
    expect(back.url).toBe(`${base}/oidc-example/`);
    expect(await back.res.text()).toContain('您尚未登录本系统。');
    expect(await ssoEnded(tgc)).toBe(true);
  });

  it('signing out of the portal ends its session by back-channel logout', async () => {
    const { browser } = await enter();
    const other = await enter();
    await browser.go('/cas/logout');
    expect(await (await browser.go('/oidc-example/')).text()).toContain('您尚未登录本系统。');
    // Another person's session stays.
    expect(await (await other.browser.go('/oidc-example/')).text()).toContain('张敏，您已通过 OpenID Connect');
  });

  it('ends nothing for a logout token that is not the provider’s for this client', async () => {
    const { browser } = await enter();
    const [row] = (
      await ctx.db.execute<{ sid: string }>(
        sql`SELECT sid FROM oidc_example_sessions WHERE ended_at IS NULL AND sid IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    const sid = row!.sid;
    const [key] = (
      await ctx.db.execute<{ kid: string; jwk: JWK }>(sql`
        SELECT k.kid, k.private_jwk AS jwk FROM oidc_keys k JOIN tenants t ON t.id = k.tenant_id
        WHERE t.code = 'demo' AND k.state = 'active' AND k.alg = 'ES256' LIMIT 1`)
    ).rows;
    const signed = async (claims: JWTPayload, over: { iss?: string; aud?: string; omitIat?: boolean } = {}) => {
      const jwt = new SignJWT({
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
        sid,
        jti: randomBytes(8).toString('hex'),
        ...claims,
      })
        .setProtectedHeader({ alg: 'ES256', kid: key!.kid, typ: 'logout+jwt' })
        .setIssuer(over.iss ?? issuer)
        .setAudience(over.aud ?? OIDC_EXAMPLE.clientId);
      if (!over.omitIat) jwt.setIssuedAt();
      return jwt.sign(await importJWK(key!.jwk, 'ES256'));
    };
    const post = (logoutToken: string) =>
      fetch(`${base}/oidc-example/backchannel-logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: logoutToken }).toString(),
      });
    const refused = [
      'not-a-token',
      await signed({ nonce: 'n' }),
      await signed({ events: { other: {} } }),
      await signed({ sid: undefined }),
      await signed({}, { iss: `${base}/oidc/other` }),
      await signed({}, { aud: 'another-client' }),
      await signed({}, { omitIat: true }),
      // Signed with a key the provider does not publish.
      await new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} }, sid })
        .setProtectedHeader({ alg: 'ES256', kid: key!.kid })
        .setIssuer(issuer)
        .setAudience(OIDC_EXAMPLE.clientId)
        .setIssuedAt()
        .sign((await generateKeyPair('ES256')).privateKey),
    ];
    for (const token of refused) {
      const res = await post(token);
      expect(res.status, token).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'invalid_request' });
    }
    expect(await (await browser.go('/oidc-example/')).text()).toContain('张敏，您已通过 OpenID Connect');
    // The same token, right: the session ends.
    expect((await post(await signed({}))).status).toBe(200);
    expect(await (await browser.go('/oidc-example/')).text()).toContain('您尚未登录本系统。');
  });

  it('sends a browser only to itself or its provider', async () => {
    const login = await newBrowser().go('/oidc-example/login?language=eng');
    expect(login.status).toBe(302);
    const to = new URL(login.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${issuer}/auth`);
    expect(to.searchParams.get('redirect_uri')).toBe(`${base}/oidc-example/callback`);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('ui_locales')).toBe('en');
    const out = await newBrowser().go('/oidc-example/logout');
    expect(out.headers.get('location')).toBe('/oidc-example/');
  });
});
