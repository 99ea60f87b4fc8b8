/**
 * The OpenID Provider against an independent relying party (openid-client) over real HTTP, with
 * the real sign-on session: discovery, the code flow with PKCE through the interaction, refresh
 * rotation and reuse, userinfo, introspection, revocation, client credentials, the device grant,
 * the protocol's rules one test each, tenant isolation, and tokens refused once the sign-on session
 * ended.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../db/demo/seed.js';
import { freePort } from '../../db/embedded.js';
import { sha256Hex } from '../../platform/hash.js';
import { hashPassword } from '../../platform/passwords.js';
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

/** A browser: cookies by path, redirects followed by hand. */
class Browser {
  cookies = new Map<string, { value: string; path: string }>();
  constructor(readonly lang = 'zh-CN') {}
  header(path: string) {
    return [...this.cookies.entries()]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([k, c]) => `${k.split('|')[0]}=${c.value}`)
      .join('; ');
  }
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const path = attrs.map((a) => /^\s*path=(.*)$/i.exec(a)?.[1]).find(Boolean) ?? '/';
      const gone = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line) || value === '';
      if (gone) this.cookies.delete(`${name}|${path}`);
      else this.cookies.set(`${name}|${path}`, { value, path });
    }
  }
  async go(url: string, init: { method?: string; body?: string; origin?: string } = {}) {
    const u = new URL(url, base);
    const res = await fetch(u, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: this.header(u.pathname),
        'accept-language': this.lang,
        ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(init.origin ? { origin: init.origin } : {}),
      },
      ...(init.body ? { body: init.body } : {}),
    });
    this.take(res);
    return res;
  }
  /** Follows redirects until one leaves this server (or a page is shown). */
  async follow(url: string, max = 12): Promise<{ res: Response; url: string; trail: string[] }> {
    let at = url;
    const trail: string[] = [];
    for (let i = 0; i < max; i++) {
      const res = await this.go(at);
      trail.push(`${res.status} ${at}`);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: at, trail };
      const next = new URL(location, new URL(at, base));
      if (next.origin !== new URL(base).origin) return { res, url: next.href, trail };
      at = next.href;
    }
    throw new Error(`too many redirects: ${trail.join(' → ')}`);
  }
  get tgc() {
    return this.cookies.get('CASTGC|/cas')?.value;
  }
}

/** A sign-in at the sign-on server (the form's POST), for `service`; the browser keeps CASTGC. */
async function casSignIn(b: Browser, opts: { service?: string; username?: string; tenantCode?: string } = {}) {
  const captchaKey = randomBytes(8).toString('hex');
  await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  const form = new URLSearchParams({
    username: opts.username ?? 'member',
    password: ctx.encrypt(DEMO_PASSWORD),
    imgvercode: '8888',
    captchaKey,
    tenantCode: opts.tenantCode ?? 'demo',
    ...(opts.service ? { service: opts.service } : {}),
  });
  const res = await b.go('/cas/login', { method: 'POST', body: form.toString() });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

/** openid-client's error for a 401 with an invalid_client challenge. */
const INVALID_CLIENT = { status: 401, cause: [{ parameters: { error: 'invalid_client' } }] };

async function pkce() {
  const verifier = client.randomPKCECodeVerifier();
  return { verifier, challenge: await client.calculatePKCECodeChallenge(verifier) };
}

/** The code flow through the browser; the callback address the provider sent it to. */
async function authorize(config: client.Configuration, b: Browser, extra: Record<string, string> = {}) {
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
  const b = new Browser();
  await casSignIn(b, { username });
  expect(b.tgc).toBeTruthy();
  return b;
}

async function codeFlowTokens(clientId: string, b?: Browser) {
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
    expect(d.scopes_supported).toEqual(['openid', 'profile', 'phone', 'roles', 'enterprise']);
    expect(d.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
    expect(d.id_token_signing_alg_values_supported).toHaveLength(2);
    expect(d.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    expect(d.authorization_response_iss_parameter_supported).toBe(true);
    expect(d.backchannel_logout_supported).toBe(true);
    // The provider's answers carry the server's own headers.
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
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
    expect(decodeProtectedHeader(tokens.id_token!).alg).toBe('ES256');
    // The RP's own check of the signature against the published keys.
    await jwtVerify(tokens.id_token!, createRemoteJWKSet(new URL(`${issuer}/jwks`)), { issuer, audience: clientId });
    const info = await client.fetchUserInfo(config, tokens.access_token, subject);
    expect(info).toMatchObject({ sub: subject, tenant: 'demo', preferred_username: 'member' });
    expect(Array.isArray(info.roles)).toBe(true);
  });
});
