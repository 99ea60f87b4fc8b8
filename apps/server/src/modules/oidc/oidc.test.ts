/**
 * The OpenID Provider against an independent relying party (openid-client) over real HTTP, with
 * the real sign-on session: discovery, the code flow with PKCE through the interaction, refresh
 * rotation and reuse, userinfo, introspection, revocation, client credentials, the device grant,
 * the protocol's rules one test each, tenant isolation, and tokens refused once the sign-on session
 * ended.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../db/demo/seed.js';
import { freePort } from '../../db/embedded.js';
import { sha256Hex } from '../../platform/hash.js';
import { sweep } from '../../platform/housekeeping.js';
import { createOidcRepository } from './oidc.repository.js';
import { DEVICE_CODE_ENTRIES_PER_MINUTE } from './oidc.routes.js';
import { hashPassword } from '../../platform/passwords.js';
import { TestBrowser, casSignIn as signIn } from '../../test/browser.js';
import { encryptSecret, newTotpSecret, totpOf } from '../factors/secrets.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let base: string;
let issuer: string;
let tenantA: number;
let tenantB: number;
const REDIRECT = 'https://rp.test/callback';
const SECRET = 'test-secret-of-256-bits-0123456789abcdefghijklmno';

async function addClient(
  tenantId: number,
  c: Partial<{
    clientId: string;
    confidential: boolean;
    grantTypes: string[];
    scopes: string[];
    firstParty: boolean;
    enabled: boolean;
    idTokenAlg: string;
    redirectUris: string[];
    backchannelLogoutUri: string;
  }> = {},
) {
  const clientId = c.clientId ?? `c_${randomBytes(8).toString('hex')}`;
  const confidential = c.confidential ?? true;
  await ctx.db.execute(sql`
    INSERT INTO oidc_clients (tenant_id, client_id, name, translations, confidential, secret_hash, secret_set_at,
      grant_types, redirect_uris, scopes, first_party, id_token_alg, enabled)
    VALUES (${tenantId}, ${clientId}, ${'测试应用'}, ${JSON.stringify({ en: { name: 'Test app' } })}::jsonb, ${confidential},
      ${confidential ? sha256Hex(SECRET) : null}, ${confidential ? sql`now()` : null},
      ${`{${(c.grantTypes ?? ['authorization_code', 'refresh_token']).join(',')}}`}::text[],
      ${`{${(c.redirectUris ?? [REDIRECT]).join(',')}}`}::text[],
      ${`{${(c.scopes ?? ['openid', 'profile', 'phone', 'roles', 'enterprise']).join(',')}}`}::text[],
      ${c.firstParty ?? true}, ${c.idTokenAlg ?? 'ES256'}, ${c.enabled ?? true})`);
  if (c.backchannelLogoutUri) {
    await ctx.db.execute(
      sql`UPDATE oidc_clients SET backchannel_logout_uri = ${c.backchannelLogoutUri} WHERE client_id = ${clientId}`,
    );
  }
  return clientId;
}

async function rp(clientId: string, opts: { confidential?: boolean; at?: string } = {}) {
  const confidential = opts.confidential ?? true;
  return client.discovery(
    new URL(opts.at ?? issuer),
    clientId,
    confidential ? SECRET : { token_endpoint_auth_method: 'none' },
    confidential ? client.ClientSecretBasic(SECRET) : client.None(),
    { execute: [client.allowInsecureRequests] },
  );
}

const newBrowser = (lang?: string) => new TestBrowser(base, lang);

const casSignIn = (b: TestBrowser, opts?: Parameters<typeof signIn>[2]) => signIn(ctx, b, opts);

/** openid-client's error for a 401 with an invalid_client challenge. */
const INVALID_CLIENT = { status: 401, cause: [{ parameters: { error: 'invalid_client' } }] };

async function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** The code flow through the browser; the callback address the provider sent it to. */
async function authorize(config: client.Configuration, b: TestBrowser, extra: Record<string, string> = {}) {
  const { verifier, challenge } = await pkce();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid profile phone roles enterprise',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const end = await b.follow(url.href);
  return { ...end, verifier, state, nonce };
}

async function signedInBrowser(username = 'member') {
  const b = newBrowser();
  await casSignIn(b, { username });
  expect(b.tgc).toBeTruthy();
  return b;
}

async function codeFlowTokens(clientId: string, b?: TestBrowser) {
  const config = await rp(clientId);
  const browser = b ?? (await signedInBrowser());
  const a = await authorize(config, browser);
  expect(a.url.startsWith(REDIRECT), a.trail.join('\n')).toBe(true);
  const tokens = await client.authorizationCodeGrant(config, new URL(a.url), {
    pkceCodeVerifier: a.verifier,
    expectedState: a.state,
    expectedNonce: a.nonce,
  });
  return { config, tokens, browser, callback: a.url };
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_URL: base, LOGIN_RATE_PER_MINUTE: '100000' });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  issuer = `${base}/oidc/demo`;
  tenantA = Number((await ctx.db.execute<{ id: number }>(sql`SELECT id FROM tenants WHERE code = 'demo'`)).rows[0]!.id);
  const hash = await hashPassword(DEMO_PASSWORD);
  tenantB = await ctx.db.transaction((tx) => insertDemo(tx, hash, { code: 'other', name: '另一园区' }));
}, 60_000);
afterAll(async () => ctx?.close());

describe('the provider of a tenant', () => {
  it('serves discovery at its issuer, with the endpoints and rules it keeps', async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const d = (await res.json()) as Record<string, unknown>;
    expect(d.issuer).toBe(issuer);
    for (const e of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'revocation_endpoint',
      'introspection_endpoint',
      'end_session_endpoint',
      'device_authorization_endpoint',
    ]) {
      expect(String(d[e]), e).toMatch(new RegExp(`^${issuer}/`));
    }
    expect(d.response_types_supported).toEqual(['code']);
    expect(d.grant_types_supported).toEqual(
      expect.arrayContaining([
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ]),
    );
    expect(d.grant_types_supported).not.toContain('implicit');
    expect(d.grant_types_supported).not.toContain('password');
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.scopes_supported).toEqual(['openid', 'profile', 'phone', 'roles', 'enterprise', 'portal:admin']);
    expect(d.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
    expect(d.id_token_signing_alg_values_supported).toHaveLength(2);
    expect(d.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    expect(d.authorization_response_iss_parameter_supported).toBe(true);
    expect(d.backchannel_logout_supported).toBe(true);
    // The levels an ID token's acr names, weakest first, and the claims parameter to ask for one as essential.
    expect(d.acr_values_supported).toEqual(['urn:portal:loa:1', 'urn:portal:loa:2']);
    expect(d.claims_parameter_supported).toBe(true);
    // The provider's answers carry the server's own headers.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it("builds its addresses on the issuer's, whatever Host or forwarded headers a request names", async () => {
    const res = await ctx.app.inject({
      url: '/oidc/demo/.well-known/openid-configuration',
      headers: { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' },
    });
    const d = res.json<Record<string, unknown>>();
    expect(d.issuer).toBe(issuer);
    expect(d.token_endpoint).toBe(`${issuer}/token`);
    expect(d.authorization_endpoint).toBe(`${issuer}/auth`);
    expect(res.body).not.toContain('evil.test');
  });

  it('answers odd requests in the protocol form, never with a 5xx', async () => {
    const odd: [string, Parameters<typeof fetch>[1]][] = [
      ['/oidc/demo/jwks', { method: 'HEAD' }],
      ['/oidc/demo/nothing-here', {}],
      [
        '/oidc/demo/token',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":"x"}' },
      ],
      [
        '/oidc/demo/token',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: `a=${'x'.repeat(200_000)}`,
        },
      ],
      [
        '/oidc/demo/token',
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '%' },
      ],
      ['/oidc/%E0%A4%A/jwks', {}],
      ['/oidc/demo/auth?client_id=%00&response_type=code', {}],
      ['/oidc/demo/device', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }],
      ['/oidc/demo/device', { method: 'POST' }],
      [
        '/oidc/demo/device',
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'user_code=ABCD' },
      ],
      ['/cas/oidc/demo/interaction/nope', {}],
      ['/cas/oidc/nope/interaction/nope', {}],
    ];
    for (const [path, init] of odd) {
      const res = await fetch(`${base}${path}`, init);
      expect(res.status, path).toBeLessThan(500);
      const text = await res.text();
      expect(text, path).not.toMatch(/node_modules|\.js:\d+|at [\w.]+ \(/);
    }
  });

  it('publishes an ES256 and an RS256 key, the same on every read', async () => {
    const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: { kid: string; alg: string; d?: string }[] };
    expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(jwks.keys.every((k) => k.d === undefined)).toBe(true);
    const again = (await (await fetch(`${issuer}/jwks`)).json()) as { keys: { kid: string }[] };
    expect(again.keys.map((k) => k.kid)).toEqual(jwks.keys.map((k) => k.kid));
  });

  it('answers 404 in the protocol form for an unknown or disabled tenant', async () => {
    for (const path of ['/oidc/nope/.well-known/openid-configuration', '/oidc/nope']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe('not_found');
    }
    await ctx.db.execute(sql`UPDATE tenants SET disabled_at = now() WHERE id = ${tenantB}`);
    const res = await fetch(`${base}/oidc/other/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
    await ctx.db.execute(sql`UPDATE tenants SET disabled_at = NULL WHERE id = ${tenantB}`);
    expect((await fetch(`${base}/oidc/other/.well-known/openid-configuration`)).status).toBe(200);
  });
});

describe('client credentials', () => {
  it('issues a token to a confidential client, which introspection describes', async () => {
    const id = await addClient(tenantA, { grantTypes: ['client_credentials'], scopes: ['openid'] });
    const config = await rp(id);
    const t = await client.clientCredentialsGrant(config, {});
    expect(t.access_token).toBeTruthy();
    expect(t.refresh_token).toBeUndefined();
    const i = await client.tokenIntrospection(config, t.access_token);
    expect(i.active).toBe(true);
    expect(i.client_id).toBe(id);
    expect(i.sub).toBeUndefined();
  });

  it('refuses a wrong secret and a disabled client', async () => {
    const id = await addClient(tenantA, { grantTypes: ['client_credentials'], scopes: ['openid'] });
    const wrong = await client.discovery(
      new URL(issuer),
      id,
      'not-the-secret',
      client.ClientSecretBasic('not-the-secret'),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    await expect(client.clientCredentialsGrant(wrong, {})).rejects.toMatchObject(INVALID_CLIENT);
    // The right secret works; once disabled, the client is unknown.
    const right = await rp(id);
    expect((await client.clientCredentialsGrant(right, {})).access_token).toBeTruthy();
    await ctx.db.execute(sql`UPDATE oidc_clients SET enabled = false WHERE client_id = ${id}`);
    await expect(client.clientCredentialsGrant(right, {})).rejects.toMatchObject(INVALID_CLIENT);
  });
});

describe('the code flow with PKCE through the sign-on session', () => {
  it('signs in without a form from a live sign-on session; the ID token is right', async () => {
    const clientId = await addClient(tenantA);
    const { tokens, callback, config } = await codeFlowTokens(clientId);
    const back = new URL(callback);
    // RFC 9207: the issuer in the authorization response.
    expect(back.searchParams.get('iss')).toBe(issuer);
    const claims = tokens.claims()!;
    const subject = (
      await ctx.db.execute<{ subject: string }>(
        sql`SELECT subject FROM users WHERE username = 'member' AND tenant_id = ${tenantA}`,
      )
    ).rows[0]!.subject;
    expect(claims.sub).toBe(subject);
    expect(claims.iss).toBe(issuer);
    expect(claims.aud).toBe(clientId);
    expect(claims.azp ?? clientId).toBe(clientId);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(10);
    const session = (
      await ctx.db.execute<{ created_at: Date }>(
        sql`SELECT created_at FROM sso_sessions WHERE user_id = (SELECT id FROM users WHERE subject = ${subject}) ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows[0]!;
    expect(claims.auth_time).toBe(Math.floor(new Date(session.created_at).getTime() / 1000));
    // at_hash is for ID tokens from the authorization endpoint (none here: code flow only); an ID
    // token from the token endpoint may leave it out, and this one does.
    expect(claims.at_hash).toBeUndefined();
    expect(claims.nonce).toBeTruthy();
    // A password alone: level 1, and what it proved.
    expect(claims.acr).toBe('urn:portal:loa:1');
    expect(claims.amr).toEqual(['pwd']);
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
    // The RP's own check of the signature against the published keys.
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: clientId });
    const info = await client.fetchUserInfo(config, tokens.access_token, subject);
    expect(info).toMatchObject({ sub: subject, tenant: 'demo', preferred_username: 'member' });
    expect(Array.isArray(info.roles)).toBe(true);
  });
});

/** The hidden fields of a form in a page the provider rendered. */
function formFields(html: string, formId?: string) {
  const open = formId ? `<form id="${formId.replace('.', '\\.')}"[^>]*>` : '<form[^>]*>';
  const form = new RegExp(`${open}([\\s\\S]*?)</form>`).exec(html)?.[1] ?? '';
  const out = new URLSearchParams();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) out.set(m[1]!, m[2]!);
  return out;
}

const subjectOf = async (username: string, tenantId = tenantA) =>
  (
    await ctx.db.execute<{ subject: string }>(
      sql`SELECT subject FROM users WHERE username = ${username} AND tenant_id = ${tenantId}`,
    )
  ).rows[0]!.subject;

describe('signing in through the sign-on page', () => {
  it('sends a browser without a sign-on session to the sign-on page, which comes back to the interaction', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = newBrowser();
    const a = await authorize(config, b);
    // The sign-on page (the SPA's /cas/login) with the interaction as where to go back.
    const login = new URL(a.url, base);
    expect(login.pathname).toBe('/cas/login');
    const service = login.searchParams.get('service')!;
    expect(service).toMatch(new RegExp(`^${base}/cas/oidc/demo/interaction/[A-Za-z0-9_-]+$`));
    expect(login.searchParams.get('tenantCode')).toBe('demo');
    // The page shows the form even for a live session (no ticket, nothing else).
    const back = await casSignIn(b, { service });
    expect(back).toBe(service);
    const end = await b.follow(back);
    expect(end.url.startsWith(REDIRECT), end.trail.join('\n')).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, new URL(end.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
      expectedNonce: a.nonce,
    });
    expect(tokens.claims()!.sub).toBe(await subjectOf('member'));
  });

  it('goes back only to an interaction address of this server and tenant', async () => {
    const b = newBrowser();
    for (const service of [
      'https://evil.test/cas/oidc/demo/interaction/abc',
      `${base}/cas/oidc/other/interaction/abc`,
      `${base}/cas/oidc/demo/interaction/abc?x=1`,
      `${base}/cas/oidc/demo/interaction/abc/../../../evil`,
      `${base}/cas/oidc/demo/interaction/abc#x`,
    ]) {
      const captchaKey = randomBytes(8).toString('hex');
      await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
      const form = new URLSearchParams({
        username: 'member',
        password: ctx.encrypt(DEMO_PASSWORD),
        imgvercode: '8888',
        captchaKey,
        tenantCode: 'demo',
        service,
      });
      const res = await b.go('/cas/login', { method: 'POST', body: form.toString() });
      // An unregistered service: the refusal page, no redirect anywhere.
      expect(res.status, service).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('prompt=login asks for a new sign-in although the session lives; auth_time is the new one', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = await signedInBrowser();
    const first = await codeFlowTokens(clientId, b);
    // A minute later (the sign-on session and the provider's session it made).
    const sso = await ctx.db.execute<{ id: string }>(
      sql`UPDATE sso_sessions SET created_at = created_at - interval '1 minute' WHERE cookie_hash = ${sha256Hex(b.tgc!)} RETURNING id`,
    );
    await ctx.db.execute(sql`
      UPDATE oidc_payloads SET payload = jsonb_set(payload, '{loginTs}', to_jsonb((payload->>'loginTs')::int - 60))
      WHERE model = 'Session' AND sso_session_id = ${sso.rows[0]!.id}`);
    const a = await authorize(config, b, { prompt: 'login' });
    expect(new URL(a.url, base).pathname).toBe('/cas/login');
    const end = await b.follow(await casSignIn(b, { service: new URL(a.url, base).searchParams.get('service')! }));
    const tokens = await client.authorizationCodeGrant(config, new URL(end.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
      expectedNonce: a.nonce,
    });
    expect(tokens.claims()!.auth_time).toBeGreaterThan(first.tokens.claims()!.auth_time! - 30);
    expect(Date.now() / 1000 - tokens.claims()!.auth_time!).toBeLessThan(30);
  });

  it('max_age: a session older than it asks for a new sign-in; a young one does not', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = await signedInBrowser();
    const young = await authorize(config, b, { max_age: '300' });
    expect(young.url.startsWith(REDIRECT)).toBe(true);
    // Ten minutes later (the sign-on session and the provider's session it made).
    const sso = await ctx.db.execute<{ id: string }>(
      sql`UPDATE sso_sessions SET created_at = created_at - interval '10 minutes' WHERE cookie_hash = ${sha256Hex(b.tgc!)} RETURNING id`,
    );
    await ctx.db.execute(sql`
      UPDATE oidc_payloads SET payload = jsonb_set(payload, '{loginTs}', to_jsonb((payload->>'loginTs')::int - 600))
      WHERE model = 'Session' AND sso_session_id = ${sso.rows[0]!.id}`);
    const old = await authorize(config, b, { max_age: '300' });
    expect(new URL(old.url, base).pathname, old.trail.join('\n')).toBe('/cas/login');
    const end = await b.follow(await casSignIn(b, { service: new URL(old.url, base).searchParams.get('service')! }));
    const tokens = await client.authorizationCodeGrant(config, new URL(end.url), {
      pkceCodeVerifier: old.verifier,
      expectedState: old.state,
      expectedNonce: old.nonce,
      maxAge: 300,
    });
    expect(Date.now() / 1000 - tokens.claims()!.auth_time!).toBeLessThan(30);
  });

  it('prompt=none without a sign-on session answers login_required to the client', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const a = await authorize(config, newBrowser(), { prompt: 'none' });
    const back = new URL(a.url);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('login_required');
    expect(back.searchParams.get('state')).toBe(a.state);
    expect(back.searchParams.get('iss')).toBe(issuer);
  });
});

describe('the protocol rules', () => {
  it('returns state exactly as sent and echoes the nonce', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = await signedInBrowser();
    const state = `${randomBytes(8).toString('hex')}.~-_ä`;
    const a = await authorize(config, b, { state });
    expect(new URL(a.url).searchParams.get('state')).toBe(state);
    const tokens = await client.authorizationCodeGrant(config, new URL(a.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: state,
      expectedNonce: a.nonce,
    });
    expect(tokens.claims()!.nonce).toBe(a.nonce);
  });

  it('a code used twice is refused, and what it issued is revoked', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = await signedInBrowser();
    const a = await authorize(config, b);
    const checks = { pkceCodeVerifier: a.verifier, expectedState: a.state, expectedNonce: a.nonce };
    const tokens = await client.authorizationCodeGrant(config, new URL(a.url), checks);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    await expect(client.authorizationCodeGrant(config, new URL(a.url), checks)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('of three uses of a code sent together, one gets tokens, and they are revoked', async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = await signedInBrowser();
    const a = await authorize(config, b);
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code: new URL(a.url).searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: a.verifier,
    }).toString();
    const exchange = () =>
      fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      });
    const answers = await Promise.all([exchange(), exchange(), exchange()]);
    const ok = answers.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe('invalid_grant');
    }
    const tokens = (await ok[0]!.json()) as { access_token: string };
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it('compares redirect_uri exactly: another address gets an error page, not a redirect', async () => {
    const clientId = await addClient(tenantA);
    const b = await signedInBrowser();
    for (const redirect of [`${REDIRECT}/`, `${REDIRECT}?x=1`, REDIRECT.toUpperCase(), 'https://rp.test/Callback']) {
      const q = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirect,
        response_type: 'code',
        scope: 'openid',
      });
      const res = await b.go(`${issuer}/auth?${q}`);
      expect(res.status, redirect).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      const html = await res.text();
      expect(html).toContain('redirect_uri');
      expect(html).toContain('统一认证中心');
    }
    // Without redirect_uri (one registered) it is still required.
    const res = await b.go(
      `${issuer}/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'openid' })}`,
    );
    expect(res.status).toBe(400);
  });

  it('refuses PKCE plain, and a public client without PKCE', async () => {
    const clientId = await addClient(tenantA, { confidential: false });
    const b = await signedInBrowser();
    const plain = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    const res = await b.go(`${issuer}/auth?${plain}`);
    const back = new URL(res.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    plain.delete('code_challenge');
    plain.delete('code_challenge_method');
    const none = new URL((await b.go(`${issuer}/auth?${plain}`)).headers.get('location')!);
    expect(none.searchParams.get('error')).toBe('invalid_request');
    expect(none.searchParams.get('error_description')).toMatch(/PKCE/);
    // With S256 the public client gets its tokens (no secret).
    const config = await rp(clientId, { confidential: false });
    const a = await authorize(config, b);
    const tokens = await client.authorizationCodeGrant(config, new URL(a.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
      expectedNonce: a.nonce,
    });
    expect(tokens.access_token).toBeTruthy();
  });

  it('never accepts alg none: not offered, and an unsigned request object is refused', async () => {
    const d = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string[] | undefined
    >;
    for (const key of Object.keys(d).filter((k) => k.endsWith('alg_values_supported'))) {
      expect(d[key], key).not.toContain('none');
      expect(
        d[key]!.some((alg) => alg.startsWith('HS')),
        key,
      ).toBe(false);
    }
    const clientId = await addClient(tenantA);
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({
        iss: clientId,
        aud: issuer,
        client_id: clientId,
        response_type: 'code',
        redirect_uri: REDIRECT,
        scope: 'openid',
      }),
    ).toString('base64url');
    const q = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid',
      request: `${header}.${payload}.`,
    });
    const res = await newBrowser().go(`${issuer}/auth?${q}`);
    const where = res.headers.get('location');
    const error = where ? new URL(where).searchParams.get('error') : null;
    expect(
      res.status === 400 ||
        (error !== null && /^(invalid_request_object|request_not_supported|invalid_request)$/.test(error)),
    ).toBe(true);
    expect(where?.includes('code=') ?? false).toBe(false);
  });

  it('an ID token signed with RS256 for a client registered so', async () => {
    const clientId = await addClient(tenantA, { idTokenAlg: 'RS256' });
    const { tokens } = await codeFlowTokens(clientId);
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('RS256');
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: clientId });
  });
});

describe('refresh, introspection, revocation', () => {
  it('rotates the refresh token; reusing a spent one revokes the grant', async () => {
    const clientId = await addClient(tenantA);
    const { config, tokens } = await codeFlowTokens(clientId);
    const first = tokens.refresh_token!;
    expect(first).toBeTruthy();
    const second = await client.refreshTokenGrant(config, first);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first);
    expect(second.claims()!.sub).toBe(tokens.claims()!.sub);
    // The spent token again: refused, and the whole grant with it (the newest token, its access token).
    await expect(client.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(client.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await client.tokenIntrospection(config, second.access_token)).active).toBe(false);
  });

  it('gives no refresh token to a client not allowed refresh_token', async () => {
    const clientId = await addClient(tenantA, { grantTypes: ['authorization_code'] });
    const { tokens } = await codeFlowTokens(clientId);
    expect(tokens.refresh_token).toBeUndefined();
  });

  it("another client of the tenant can neither introspect nor revoke a client's tokens", async () => {
    const { tokens } = await codeFlowTokens(await addClient(tenantA));
    const other = await rp(await addClient(tenantA, { grantTypes: ['client_credentials'], scopes: ['profile'] }));
    expect(await client.tokenIntrospection(other, tokens.access_token)).toEqual({ active: false });
    await client.tokenRevocation(other, tokens.access_token);
    await client.tokenRevocation(other, tokens.refresh_token!);
    await expect(client.fetchUserInfo(other, tokens.access_token, client.skipSubjectCheck)).resolves.toMatchObject({
      preferred_username: 'member',
    });
  });

  it('introspects and revokes access and refresh tokens', async () => {
    const clientId = await addClient(tenantA);
    const { config, tokens } = await codeFlowTokens(clientId);
    const i = await client.tokenIntrospection(config, tokens.access_token);
    expect(i).toMatchObject({
      active: true,
      client_id: clientId,
      sub: await subjectOf('member'),
      token_type: 'Bearer',
    });
    await client.tokenRevocation(config, tokens.access_token);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)).rejects.toMatchObject({
      status: 401,
    });
    await client.tokenRevocation(config, tokens.refresh_token!);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('the device grant', () => {
  it('a device signs in when the user approves its code on the verification page', async () => {
    const clientId = await addClient(tenantA, {
      grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
    });
    const config = await rp(clientId);
    const start = await client.initiateDeviceAuthorization(config, { scope: 'openid profile' });
    expect(start.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    const b = await signedInBrowser();
    // The code entry page, in the page's language.
    const entry = await b.go(`${issuer}/device`);
    expect(entry.status).toBe(200);
    expect(await entry.text()).toContain('请输入设备上显示的代码');
    // The address with the code posts it by itself (the provider's auto-submitting form).
    const page = await b.go(start.verification_uri_complete!);
    expect(page.status).toBe(200);
    const confirm = await b.go(`${issuer}/device`, { method: 'POST', body: formFields(await page.text()).toString() });
    const confirmHtml = await confirm.text();
    expect(confirmHtml).toContain(start.user_code);
    expect(confirmHtml).toContain('测试应用');
    const approved = await b.go(`${issuer}/device`, {
      method: 'POST',
      body: formFields(confirmHtml, 'op.deviceConfirmForm').toString(),
    });
    expect(approved.status).toBe(303);
    const end = await b.follow(new URL(approved.headers.get('location')!, base).href);
    expect(end.res.status, end.trail.join('\n')).toBe(200);
    expect(await end.res.text()).toContain('设备已登录');
    // Polled at once: the test does not wait the interval the provider asks of real devices.
    const tokens = await client.pollDeviceAuthorizationGrant(config, { ...start, interval: 0 });
    expect(tokens.claims()!.sub).toBe(await subjectOf('member'));
    expect(tokens.claims()!.aud).toBe(clientId);
    // Bound to the sign-on session the approval came from, as any sign-in.
    const bound = await ctx.db.execute<{ sso: string | null }>(
      sql`SELECT sso_session_id AS sso FROM oidc_payloads WHERE model = 'AccessToken' AND id = ${tokens.access_token}`,
    );
    expect(bound.rows[0]?.sso).toBeTruthy();
  });
});

describe('tenant isolation', () => {
  it('a client of another tenant is unknown at this issuer', async () => {
    const otherClient = await addClient(tenantB, { grantTypes: ['client_credentials'], scopes: ['openid'] });
    await expect(client.clientCredentialsGrant(await rp(otherClient), {})).rejects.toMatchObject(INVALID_CLIENT);
    const atHome = await rp(otherClient, { at: `${base}/oidc/other` });
    expect((await client.clientCredentialsGrant(atHome, {})).access_token).toBeTruthy();
    const q = new URLSearchParams({
      client_id: otherClient,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
    });
    const res = await newBrowser().go(`${issuer}/auth?${q}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid_client');
  });

  it("another tenant's sign-on session gets no code here: the sign-on page instead", async () => {
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = newBrowser();
    await casSignIn(b, { tenantCode: 'other' });
    const a = await authorize(config, b);
    expect(new URL(a.url, base).pathname, a.trail.join('\n')).toBe('/cas/login');
    expect(new URL(a.url, base).searchParams.get('tenantCode')).toBe('demo');
    // And a token of one tenant is nothing at the other's endpoints.
    const { tokens } = await codeFlowTokens(clientId);
    const res = await fetch(`${base}/oidc/other/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(res.status).toBe(401);
  });
});

describe('the sign-on session ends everything', () => {
  it('after logout at /cas/logout, refresh, userinfo and introspection refuse its tokens', async () => {
    const clientId = await addClient(tenantA);
    const { config, tokens, browser } = await codeFlowTokens(clientId);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    await browser.go('/cas/logout');
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)).rejects.toMatchObject({
      status: 401,
    });
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The browser's next request needs a new sign-in (the provider's own session ended too).
    const again = await authorize(config, browser);
    expect(new URL(again.url, base).pathname).toBe('/cas/login');
  });

  it('a disabled user: every session ends, and with it the tokens', async () => {
    const clientId = await addClient(tenantA);
    const { config, tokens } = await codeFlowTokens(clientId, await signedInBrowser('admin'));
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    // What the operator's disable does to the user's sign-on sessions.
    await ctx.db.execute(sql`UPDATE users SET disabled_at = now() WHERE username = 'admin' AND tenant_id = ${tenantA}`);
    await ctx.db.execute(
      sql`UPDATE sso_sessions SET ended_at = now() WHERE user_id = (SELECT id FROM users WHERE username = 'admin' AND tenant_id = ${tenantA})`,
    );
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await ctx.db.execute(sql`UPDATE users SET disabled_at = NULL WHERE username = 'admin' AND tenant_id = ${tenantA}`);
  });

  it('every row of a user sign-on carries the sign-on session', async () => {
    const clientId = await addClient(tenantA);
    const { browser } = await codeFlowTokens(clientId);
    const ssoId = (
      await ctx.db.execute<{ id: string }>(
        sql`SELECT id FROM sso_sessions WHERE cookie_hash = ${sha256Hex(browser.tgc!)}`,
      )
    ).rows[0]!.id;
    const rows = await ctx.db.execute<{ model: string; bound: boolean }>(
      sql`SELECT model, sso_session_id = ${ssoId} AS bound FROM oidc_payloads
          WHERE model IN ('Session', 'Grant', 'AccessToken', 'AuthorizationCode', 'RefreshToken')
            AND (sso_session_id = ${ssoId} OR payload->>'clientId' = ${clientId})`,
    );
    expect(new Set(rows.rows.map((r) => r.model))).toEqual(
      new Set(['Session', 'Grant', 'AccessToken', 'AuthorizationCode', 'RefreshToken']),
    );
    expect(rows.rows.every((r) => r.bound)).toBe(true);
  });
});

describe('pages the provider shows a person', () => {
  it('an error page of our own: escaped, in Chinese or English by Accept-Language or ui_locales', async () => {
    const evil = '<script>alert(1)</script>';
    const q = new URLSearchParams({ client_id: evil, response_type: 'code', scope: 'openid' });
    const zh = await newBrowser().go(`${issuer}/auth?${q}`);
    expect(zh.status).toBe(400);
    expect(zh.headers.get('content-type')).toMatch(/^text\/html/);
    expect(zh.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(zh.headers.get('cache-control')).toBe('no-store');
    const zhHtml = await zh.text();
    expect(zhHtml).toContain('登录请求无法完成');
    expect(zhHtml).toContain('lang="zh-CN"');
    expect(zhHtml).not.toContain('<script>');
    const en = await newBrowser('en-US,en;q=0.9').go(`${issuer}/auth?${q}`);
    const enHtml = await en.text();
    expect(enHtml).toContain('The sign-in request could not be completed');
    expect(enHtml).not.toContain('<script>');
    expect(enHtml).not.toMatch(/[\u4e00-\u9fff]/);
    const clientId = await addClient(tenantA);
    const bad = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'https://x.test/',
      ui_locales: 'en',
    });
    expect(await (await newBrowser('zh-CN').go(`${issuer}/auth?${bad}`)).text()).toContain(
      'Error code: invalid_redirect_uri',
    );
  });

  it("the logout question of RP-initiated logout, and the signed-out page, in the portal's look", async () => {
    const { browser } = await codeFlowTokens(await addClient(tenantA));
    const res = await browser.go(`${issuer}/session/end`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('要退出统一认证中心吗？');
    const form = formFields(html, 'op.logoutForm');
    form.set('logout', 'yes');
    const done = await browser.go(`${issuer}/session/end/confirm`, { method: 'POST', body: form.toString() });
    const end = await browser.follow(new URL(done.headers.get('location')!, base).href);
    expect(await end.res.text()).toContain('您已退出统一认证中心');
    // One session, one logout: the sign-on session has ended too.
    const sso = await ctx.db.execute<{ ended: boolean }>(
      sql`SELECT ended_at IS NOT NULL AS ended FROM sso_sessions WHERE cookie_hash = ${sha256Hex(browser.tgc!)}`,
    );
    expect(sso.rows[0]!.ended).toBe(true);
    const en = newBrowser('en');
    await codeFlowTokens(await addClient(tenantA), await (async () => (await casSignIn(en), en))());
    expect(await (await en.go(`${issuer}/session/end`)).text()).toContain('Sign out of the sign-on service?');
  });

  it('a third-party client asks consent (zh/en); allowing gives the code, denying access_denied', async () => {
    const clientId = await addClient(tenantA, { firstParty: false });
    const config = await rp(clientId);
    const b = await signedInBrowser();
    const a = await authorize(config, b, { scope: 'openid phone' });
    const page = new URL(a.url, base);
    expect(page.pathname).toMatch(/^\/cas\/oidc\/demo\/interaction\//);
    expect(a.res.status).toBe(200);
    const html = await a.res.text();
    expect(html).toContain('授权确认');
    expect(html).toContain('测试应用');
    expect(html).toContain('手机号');
    // A consent posted from another site is refused.
    const foreign = await b.go(page.pathname, { method: 'POST', body: 'decision=allow', origin: 'https://evil.test' });
    expect(foreign.status).toBe(403);
    const allowed = await b.go(page.pathname, { method: 'POST', body: 'decision=allow', origin: base });
    expect(allowed.status).toBe(303);
    const end = await b.follow(new URL(allowed.headers.get('location')!, base).href);
    const tokens = await client.authorizationCodeGrant(config, new URL(end.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
      expectedNonce: a.nonce,
    });
    expect(tokens.scope?.split(' ').sort()).toEqual(['openid', 'phone']);
    // The grant stands: the next request needs no question.
    expect((await authorize(config, b, { scope: 'openid phone' })).url.startsWith(REDIRECT)).toBe(true);
    // English, and a denial.
    const other = await addClient(tenantA, { firstParty: false });
    const otherConfig = await rp(other);
    const en = newBrowser('en');
    await casSignIn(en);
    const asked = await authorize(otherConfig, en, { scope: 'openid roles' });
    const enHtml = await asked.res.text();
    expect(enHtml).toContain('Allow access');
    expect(enHtml).toContain('Test app');
    expect(enHtml).not.toMatch(/[\u4e00-\u9fff]/);
    const denied = await en.go(new URL(asked.url, base).pathname, { method: 'POST', body: 'decision=deny' });
    const back = await en.follow(new URL(denied.headers.get('location')!, base).href);
    expect(new URL(back.url).searchParams.get('error')).toBe('access_denied');
  });
});

/** A relying party's back-channel logout address on loopback: the bodies it received, answered with `status`. */
async function logoutReceiver(status: number) {
  const received: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(status).end();
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { port, received, close: () => new Promise((r) => server.close(r)) };
}

describe('ending a sign-on session for the provider', () => {
  it('tells each client with a back-channel logout address (a signed logout token) and removes the rows', async () => {
    const { port, received, close } = await logoutReceiver(200);
    try {
      const clientId = await addClient(tenantA, { backchannelLogoutUri: `http://127.0.0.1:${port}/logout` });
      const { tokens, browser, config } = await codeFlowTokens(clientId);
      const sid = tokens.claims()!.sid as string;
      expect(sid).toBeTruthy();
      const ssoId = (
        await ctx.db.execute<{ id: string }>(
          sql`SELECT id FROM sso_sessions WHERE cookie_hash = ${sha256Hex(browser.tgc!)}`,
        )
      ).rows[0]!.id;
      await ctx.app.oidc.endSsoSession(ssoId);
      expect(received).toHaveLength(1);
      const token = new URLSearchParams(received[0]).get('logout_token')!;
      const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${issuer}/jwks`)), {
        issuer,
        audience: clientId,
      });
      expect(payload.sub).toBe(await subjectOf('member'));
      expect(payload.sid).toBe(sid);
      expect(payload.events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
      expect(payload.nonce).toBeUndefined();
      const left = await ctx.db.execute(sql`SELECT 1 FROM oidc_payloads WHERE sso_session_id = ${ssoId}`);
      expect(left.rows).toHaveLength(0);
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    } finally {
      await close();
    }
  });
});

describe('logout at the sign-on server', () => {
  it('/cas/logout sends back-channel logout to the OpenID clients the session signed into', async () => {
    const { port, received, close } = await logoutReceiver(204);
    try {
      const clientId = await addClient(tenantA, { backchannelLogoutUri: `http://127.0.0.1:${port}/bcl` });
      const { tokens, browser } = await codeFlowTokens(clientId);
      await browser.go('/cas/logout');
      expect(received).toHaveLength(1);
      const token = new URLSearchParams(received[0]).get('logout_token')!;
      const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${issuer}/jwks`)), {
        issuer,
        audience: clientId,
      });
      expect(payload.sid).toBe(tokens.claims()!.sid);
    } finally {
      await close();
    }
  });
});

describe('the adapter', () => {
  it('spends a code once: of two spends at the same moment, exactly one succeeds', async () => {
    const repo = createOidcRepository(ctx.db);
    await repo.upsert(tenantA, 'AuthorizationCode', 'race-code', { grantId: 'race-grant' }, 60, {
      ssoSessionId: null,
      sessionUid: null,
    });
    const spends = await Promise.all([1, 2, 3].map(() => repo.consume(tenantA, 'AuthorizationCode', 'race-code')));
    expect(spends.filter(Boolean)).toEqual([{ grantId: 'race-grant' }]);
    expect((await repo.find(tenantA, 'AuthorizationCode', 'race-code'))?.consumed).toBe(true);
    // Another tenant's row of the same id is another row.
    expect(await repo.find(tenantB, 'AuthorizationCode', 'race-code')).toBeUndefined();
  });
});

describe('housekeeping', () => {
  it('never returns an expired row, and the sweep deletes it', async () => {
    const clientId = await addClient(tenantA);
    const { config, tokens } = await codeFlowTokens(clientId);
    const jti = tokens.access_token;
    await ctx.db.execute(
      sql`UPDATE oidc_payloads SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND id = ${jti}`,
    );
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await sweep(ctx.db);
    const left = await ctx.db.execute(sql`SELECT 1 FROM oidc_payloads WHERE model = 'AccessToken' AND id = ${jti}`);
    expect(left.rows).toHaveLength(0);
    const live = await ctx.db.execute(sql`SELECT 1 FROM oidc_payloads WHERE model = 'RefreshToken' AND grant_id =
      (SELECT grant_id FROM oidc_payloads WHERE model = 'RefreshToken' AND payload->>'clientId' = ${clientId} LIMIT 1)`);
    expect(live.rows.length).toBeGreaterThan(0);
  });
});

describe('sign-on sessions ended by an operator', () => {
  it('housekeeping tells the clients (back-channel logout) once, and removes the rows', async () => {
    const { port, received, close } = await logoutReceiver(200);
    try {
      const clientId = await addClient(tenantA, { backchannelLogoutUri: `http://127.0.0.1:${port}/bcl` });
      const { tokens, browser } = await codeFlowTokens(clientId);
      // What an operator's disable (or a password set, a tenant disabled) does to the sign-on session.
      const ended = await ctx.db.execute<{ id: string }>(
        sql`UPDATE sso_sessions SET ended_at = now() WHERE cookie_hash = ${sha256Hex(browser.tgc!)} RETURNING id`,
      );
      const task = ctx.app.housekeeping.find((t) => t.name === 'OpenID logouts of ended sign-on sessions')!;
      await task.run();
      expect(received).toHaveLength(1);
      const token = new URLSearchParams(received[0]).get('logout_token')!;
      const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${issuer}/jwks`)), {
        issuer,
        audience: clientId,
      });
      expect(payload.sid).toBe(tokens.claims()!.sid);
      const left = await ctx.db.execute(sql`SELECT 1 FROM oidc_payloads WHERE sso_session_id = ${ended.rows[0]!.id}`);
      expect(left.rows).toHaveLength(0);
      await task.run();
      expect(received).toHaveLength(1);
    } finally {
      await close();
    }
  });
});

describe('signing keys', () => {
  const day = 24 * 3600_000;
  const jwks = async (at = issuer) =>
    ((await (await fetch(`${at}/jwks`)).json()) as { keys: { kid: string; alg: string }[] }).keys;
  const signingKid = async () => {
    const { tokens } = await codeFlowTokens(await addClient(tenantA));
    return decodeProtectedHeader(tokens.id_token!).kid;
  };

  it('are the same on a second instance, and made once when two ask at once', async () => {
    const second = await createTestContext({ PUBLIC_URL: base }, { databaseUrl: ctx.url });
    try {
      const onSecond = async (code: string) =>
        (JSON.parse((await second.app.inject({ url: `/oidc/${code}/jwks` })).body) as { keys: { kid: string }[] }).keys
          .map((k) => k.kid)
          .sort();
      expect(await onSecond('demo')).toEqual((await jwks()).map((k) => k.kid).sort());
      // A tenant without keys yet, asked on both instances at once.
      const hash = await hashPassword(DEMO_PASSWORD);
      await ctx.db.transaction((tx) => insertDemo(tx, hash, { code: 'third', name: '第三园区' }));
      const [a, b] = await Promise.all([jwks(`${base}/oidc/third`), onSecond('third')]);
      expect(a.map((k) => k.kid).sort()).toEqual(b);
      const count = await ctx.db.execute(
        sql`SELECT 1 FROM oidc_keys WHERE tenant_id = (SELECT id FROM tenants WHERE code = 'third')`,
      );
      expect(count.rows).toHaveLength(2);
    } finally {
      await second.close();
    }
  });

  it('rotate: the successor is published first, then signs; the old one stays published until it is deleted', async () => {
    const second = await createTestContext({ PUBLIC_URL: base }, { databaseUrl: ctx.url });
    try {
      const onSecond = async () =>
        (JSON.parse((await second.app.inject({ url: '/oidc/demo/jwks' })).body) as { keys: { kid: string }[] }).keys
          .map((k) => k.kid)
          .sort();
      const t0 = Date.now();
      const before = await jwks();
      expect(before).toHaveLength(2);
      const oldKid = await signingKid();
      expect(before.map((k) => k.kid)).toContain(oldKid);
      expect(await ctx.app.oidc.rotateKeys(new Date(t0 + day))).toBe(0);
      // Near the end of the period: successors published, not signing yet.
      expect(await ctx.app.oidc.rotateKeys(new Date(t0 + 89.5 * day))).toBeGreaterThan(0);
      const published = await jwks();
      expect(published).toHaveLength(4);
      expect(await signingKid()).toBe(oldKid);
      // Every instance publishes the same set (the second hears of the change).
      expect(await onSecond()).toEqual(published.map((k) => k.kid).sort());
      const { tokens: oldToken } = await codeFlowTokens(await addClient(tenantA));
      // A day later: the successor signs, the old key is still published.
      await ctx.app.oidc.rotateKeys(new Date(t0 + 90.6 * day));
      const after = await jwks();
      expect(after).toHaveLength(4);
      const newKid = await signingKid();
      expect(newKid).not.toBe(oldKid);
      expect(after.map((k) => k.kid)).toContain(newKid);
      await jwtVerify(oldToken.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer });
      expect(await onSecond()).toEqual(after.map((k) => k.kid).sort());
      // A day after it stopped signing, the old key is gone (the new one, signing since, stays).
      await ctx.app.oidc.rotateKeys(new Date(t0 + 91.7 * day));
      const last = (await jwks()).map((k) => k.kid);
      expect(last).not.toContain(oldKid);
      expect(last).toContain(newKid);
      expect(await onSecond()).toEqual([...last].sort());
      const states = await ctx.db.execute<{ state: string }>(
        sql`SELECT state FROM oidc_keys WHERE tenant_id = ${tenantA} ORDER BY state`,
      );
      expect(states.rows.every((r) => r.state !== 'retiring')).toBe(true);
    } finally {
      await second.close();
    }
  });
});

describe('what a relying party may not do', () => {
  const introspect = async (callerId: string, token: string) => {
    const res = await fetch(`${issuer}/token/introspection`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${callerId}:${SECRET}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token }).toString(),
    });
    return { status: res.status, body: (await res.json()) as { active: boolean; sub?: string } };
  };

  it("introspects only its own tokens: another client's, live or of a disabled client, are inactive to it", async () => {
    const other = await addClient(tenantA, { grantTypes: ['client_credentials'], scopes: ['openid'] });
    const service = await addClient(tenantA, { grantTypes: ['client_credentials'], scopes: ['openid'] });
    const serviceToken = (await client.clientCredentialsGrant(await rp(service), {})).access_token;
    const app = await addClient(tenantA);
    const { tokens } = await codeFlowTokens(app);
    // Each client sees its own token; another client learns nothing of it (not even its subject).
    expect((await introspect(service, serviceToken)).body.active).toBe(true);
    expect((await introspect(app, tokens.access_token)).body.active).toBe(true);
    expect(await introspect(other, serviceToken)).toEqual({ status: 200, body: { active: false } });
    expect(await introspect(other, tokens.access_token)).toEqual({ status: 200, body: { active: false } });
    // Disabled: no one hears of its tokens as active (before, another client got `active: true` for
    // its client-credentials token, and a 500 for a user's token).
    await ctx.db.execute(sql`UPDATE oidc_clients SET enabled = false WHERE client_id IN (${service}, ${app})`);
    expect(await introspect(other, serviceToken)).toEqual({ status: 200, body: { active: false } });
    expect(await introspect(other, tokens.access_token)).toEqual({ status: 200, body: { active: false } });
  });
  it("a client disabled in the console loses its users' grants and tokens: enabling it again revives none", async () => {
    const clientId = await addClient(tenantA, { confidential: false });
    const config = await rp(clientId, { confidential: false });
    const b = await signedInBrowser();
    const a = await authorize(config, b);
    const tokens = await client.authorizationCodeGrant(config, new URL(a.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
      expectedNonce: a.nonce,
    });
    const other = await codeFlowTokens(await addClient(tenantA), b);
    const rowId = (await ctx.db.execute<{ id: number }>(sql`SELECT id FROM oidc_clients WHERE client_id = ${clientId}`))
      .rows[0]!.id;
    const operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
    for (const step of ['disable', 'enable']) {
      const res = await ctx.call({ method: 'POST', url: `/api/admin/oidc-clients/${rowId}/${step}`, token: operator });
      expect((res.json() as { status: number }).status).toBe(200);
    }
    // A public client's refresh token (no secret stands behind it) and its access token are spent.
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)).rejects.toMatchObject({
      status: 401,
    });
    // Another client of the same sign-on is untouched.
    expect((await client.tokenIntrospection(other.config, other.tokens.access_token)).active).toBe(true);
    // The browser's next request signs in again without a form (the sign-on session lives).
    const again = await authorize(config, b);
    expect(again.url.startsWith(REDIRECT), again.trail.join('\n')).toBe(true);
  });
  it('a scope taken from a client in the console is gone at once from the tokens it holds', async () => {
    const clientId = await addClient(tenantA);
    const { config, tokens } = await codeFlowTokens(clientId);
    const rowId = (await ctx.db.execute<{ id: number }>(sql`SELECT id FROM oidc_clients WHERE client_id = ${clientId}`))
      .rows[0]!.id;
    const operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
    const patch = async (body: object) =>
      (
        (
          await ctx.call({ method: 'PATCH', url: `/api/admin/oidc-clients/${rowId}`, body, token: operator })
        ).json() as { status: number }
      ).status;
    // A change that takes nothing away leaves the tokens alone.
    expect(await patch({ nameEn: 'Renamed app' })).toBe(200);
    expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    // The phone number taken away: before, UserInfo still answered it, and a refresh kept the scope.
    expect(await patch({ scopes: ['openid', 'profile', 'roles', 'enterprise'] })).toBe(200);
    await expect(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)).rejects.toMatchObject({
      status: 401,
    });
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // And asking for it again is refused.
    const again = await authorize(config, await signedInBrowser());
    expect(new URL(again.url).searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('what a visitor may not do', () => {
  it('tries user codes on the device page at most 10 a minute from one address (429, the page in its language)', async () => {
    // Only this test's entries count (another test of this file entered codes from this address).
    await ctx.db.execute(sql`DELETE FROM rate_limits WHERE key LIKE 'oidc-device:%'`);
    const b = newBrowser('en');
    const fields = formFields(await (await b.go(`${issuer}/device`)).text());
    const statuses: number[] = [];
    for (let i = 0; i < DEVICE_CODE_ENTRIES_PER_MINUTE + 1; i++) {
      fields.set('user_code', 'BCDF-GHJK');
      const res = await b.go(`${issuer}/device`, { method: 'POST', body: fields.toString() });
      statuses.push(res.status);
      const html = await res.text();
      const xsrf = formFields(html).get('xsrf');
      if (xsrf) fields.set('xsrf', xsrf);
      if (res.status === 429) {
        expect(html).toContain('Too many requests');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      }
    }
    expect(statuses).toEqual([...Array<number>(DEVICE_CODE_ENTRIES_PER_MINUTE).fill(200), 429]);
    // The page itself, and devices asking for codes, are not counted.
    expect((await b.go(`${issuer}/device`)).status).toBe(200);
    await ctx.db.execute(sql`DELETE FROM rate_limits WHERE key LIKE 'oidc-device:%'`);
  });
});

describe('a sign-in with a second factor', () => {
  it('goes through the factor step of the sign-on page, and the ID token says what was proven (amr)', async () => {
    // A member with a confirmed authenticator.
    const username = `mfa${randomBytes(4).toString('hex')}`;
    const secret = newTotpSecret();
    await ctx.db.execute(sql`
      INSERT INTO users (tenant_id, username, password_hash, name)
      SELECT tenant_id, ${username}, password_hash, ${username} FROM users WHERE username = 'member' AND tenant_id = ${tenantA}`);
    await ctx.db.execute(sql`
      INSERT INTO user_factors (tenant_id, user_id, kind, name, secret_cipher, confirmed_at)
      SELECT tenant_id, id, 'totp', 'Phone', ${encryptSecret(ctx.secrets.factorKey, secret)}, now()
      FROM users WHERE username = ${username}`);
    const clientId = await addClient(tenantA);
    const config = await rp(clientId);
    const b = newBrowser();
    const a = await authorize(config, b);
    const service = new URL(a.url, base).searchParams.get('service')!;

    // The sign-on page's password step (as its script posts it): 40308 with the challenge.
    const captchaKey = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    const json = (path: string, body: Record<string, unknown>, form = false) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          origin: base,
          cookie: b.header(path),
          'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        },
        body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
      });
    const password = await json(
      '/cas/login',
      {
        username,
        password: ctx.encrypt(DEMO_PASSWORD),
        imgvercode: '8888',
        captchaKey,
        tenantCode: 'demo',
        service,
      },
      true,
    );
    const refused = (await password.json()) as { status: number; data: { challenge: string; factors: string[] } };
    expect(refused.status).toBe(40308);
    expect(refused.data.factors).toEqual(['totp']);
    expect(b.tgc).toBeUndefined();

    const wrong = await json('/cas/login/factor', { challenge: refused.data.challenge, kind: 'totp', code: '000000' });
    expect(((await wrong.json()) as { status: number }).status).toBe(40002);
    const right = await json('/cas/login/factor', {
      challenge: refused.data.challenge,
      kind: 'totp',
      code: totpOf(secret).generate(),
    });
    b.take(right);
    expect(((await right.json()) as { data: { redirect: string } }).data.redirect).toBe(service);
    expect(b.tgc).toBeTruthy();

    const end = await b.follow(service);
    expect(end.url.startsWith(REDIRECT), end.trail.join('\n')).toBe(true);
    const tokens = await client.authorizationCodeGrant(config, new URL(end.url), {
      pkceCodeVerifier: a.verifier,
      expectedState: a.state,
      expectedNonce: a.nonce,
    });
    expect(tokens.claims()!.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(tokens.claims()!.acr).toBe('urn:portal:loa:2');

    // A client asking level 2 as essential gets it from this session without a new sign-in; one
    // asking level 1 (voluntary: acr_values) is answered with the stronger level the session has.
    for (const [extra, acr] of [
      [{ claims: JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:portal:loa:2'] } } }) }, 'loa:2'],
      [{ acr_values: 'urn:portal:loa:1' }, 'loa:2'],
    ] as const) {
      const again = await authorize(config, b, extra);
      expect(again.url.startsWith(REDIRECT), again.trail.join('\n')).toBe(true);
      const t = await client.authorizationCodeGrant(config, new URL(again.url), {
        pkceCodeVerifier: again.verifier,
        expectedState: again.state,
        expectedNonce: again.nonce,
      });
      expect(t.claims()!.acr).toBe(`urn:portal:${acr}`);
    }
  });

  it('an essential level 2 asks a password-only session for a new sign-in, then answers unmet_authentication_requirements', async () => {
    const config = await rp(await addClient(tenantA));
    const b = await signedInBrowser();
    // Signed in a minute before the request (a sign-in of the same second counts as made for it).
    await ctx.db.execute(
      sql`UPDATE sso_sessions SET created_at = created_at - interval '1 minute' WHERE cookie_hash = ${sha256Hex(b.tgc!)}`,
    );
    const essential = {
      claims: JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:portal:loa:2'] } } }),
    };
    const a = await authorize(config, b, essential);
    // The sign-on page (the person may have a factor to prove), not a code.
    expect(new URL(a.url, base).pathname, a.trail.join('\n')).toBe('/cas/login');
    const service = new URL(a.url, base).searchParams.get('service')!;
    // A new sign-in with a password alone (no factor to ask): still level 1, so the client hears it.
    const back = await b.follow(await casSignIn(b, { service }));
    expect(back.url.startsWith(REDIRECT), back.trail.join('\n')).toBe(true);
    const answer = new URL(back.url).searchParams;
    expect(answer.get('error')).toBe('unmet_authentication_requirements');
    expect(answer.get('state')).toBe(a.state);
    expect(answer.get('code')).toBeNull();
  });
});
