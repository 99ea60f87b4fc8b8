/**
 * Registering OpenID Connect clients (/api/admin/oidc-clients): the rule a client's settings meet,
 * the secret answered once and kept as its SHA-256, a rotation that ends the old secret, tenant
 * isolation, and the audit rows (naming the client, never holding a secret).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { auditSentence, type AdminOidcClient, type AuditEntry, type Paged } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../../test/harness.js';

let ctx: TestContext;
/** The same installation started in production: no address beyond public ones is allowed. */
let production: TestContext;
let operator: string;
let platform: string;
let member: string;

const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;
const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;
const messageOf = (res: { json(): unknown }) => (res.json() as { message: string }).message;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const webApp = {
  name: '园区门户助手',
  nameEn: 'Park assistant',
  confidential: true,
  grantTypes: ['authorization_code', 'refresh_token'],
  redirectUris: ['https://assistant.example.com/callback'],
  postLogoutRedirectUris: ['https://assistant.example.com/'],
  backchannelLogoutUri: 'https://assistant.example.com/backchannel',
  scopes: ['openid', 'profile', 'roles'],
  firstParty: true,
};

type Row = {
  tenant: string;
  client_id: string;
  secret_hash: string | null;
  secret_set_at: string | null;
  grant_types: string[];
  redirect_uris: string[];
  scopes: string[];
  first_party: boolean;
  id_token_alg: string;
  enabled: boolean;
};
async function row(id: string): Promise<Row | undefined> {
  const { rows } = await ctx.db.execute<Row>(sql`SELECT t.code AS tenant, c.* FROM oidc_clients c
    JOIN tenants t ON t.id = c.tenant_id WHERE c.id = ${Number(id)}`);
  return rows[0];
}

async function create(body: object, token = operator, query = '') {
  return ctx.call({ url: `/api/admin/oidc-clients${query}`, body, token });
}

/** The newest row of `action` in the demo tenant, as the console reads it. */
async function newest(action: string): Promise<AuditEntry> {
  const log = data<Paged<AuditEntry>>(
    await ctx.call({ url: `/api/admin/audit?action=${action}&limit=1`, token: operator }),
  );
  expect(log.records, action).toHaveLength(1);
  return log.records[0]!;
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  production = await createTestContext({ NODE_ENV: 'production', PORTAL_TEST_CAPTCHA: '0' }, { databaseUrl: ctx.url });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
  member = await ctx.login('member');
});
afterAll(async () => {
  await production?.close();
  await ctx?.close();
});

describe('a confidential client', () => {
  let id: string;
  let secret: string;

  it('is created with a random client_id and a 256-bit secret answered once, kept only as its SHA-256', async () => {
    const res = await create(webApp);
    expect(statusOf(res)).toBe(200);
    const made = data<{ id: string; clientId: string; secret: string }>(res);
    ({ id, secret } = made);
    expect(made.clientId).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(secret).toMatch(/^[A-Za-z0-9]{43}$/);
    const kept = await row(id);
    expect(kept).toMatchObject({
      tenant: 'demo',
      client_id: made.clientId,
      secret_hash: sha256(secret),
      grant_types: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'roles'],
      first_party: true,
      id_token_alg: 'ES256',
      enabled: true,
    });
    expect(kept!.secret_set_at).not.toBeNull();
    // Never again: the list and the client itself carry no secret and no hash.
    const one = await ctx.call({ method: 'GET', url: `/api/admin/oidc-clients/${id}`, token: operator });
    const shown = data<AdminOidcClient>(one);
    expect(shown).toMatchObject({ clientId: made.clientId, name: '园区门户助手', nameEn: 'Park assistant' });
    expect(JSON.stringify(one.json())).not.toMatch(new RegExp(`${secret}|${sha256(secret)}|secretHash`));
    const list = await ctx.call({ method: 'GET', url: '/api/admin/oidc-clients?q=assistant', token: operator });
    expect(data<Paged<AdminOidcClient>>(list).records.map((c) => c.id)).toEqual([id]);
    expect(JSON.stringify(list.json())).not.toContain(sha256(secret));
  });

  it('gets a new secret on rotation, and the old one no longer matches', async () => {
    const res = await ctx.call({ method: 'POST', url: `/api/admin/oidc-clients/${id}/secret`, token: operator });
    expect(statusOf(res)).toBe(200);
    const next = data<{ secret: string }>(res).secret;
    expect(next).not.toBe(secret);
    const kept = await row(id);
    expect(kept!.secret_hash).toBe(sha256(next));
    expect(kept!.secret_hash).not.toBe(sha256(secret));
  });

  it('is disabled, enabled and changed; the rule is checked on the client as it would be', async () => {
    expect(
      statusOf(await ctx.call({ method: 'POST', url: `/api/admin/oidc-clients/${id}/disable`, token: operator })),
    ).toBe(200);
    expect((await row(id))!.enabled).toBe(false);
    expect(
      statusOf(await ctx.call({ method: 'POST', url: `/api/admin/oidc-clients/${id}/enable`, token: operator })),
    ).toBe(200);
    expect((await row(id))!.enabled).toBe(true);
    const patch = (body: object, lang = '') =>
      ctx.call({ method: 'PATCH', url: `/api/admin/oidc-clients/${id}${lang}`, body, token: operator });
    // Dropping authorization_code leaves refresh_token alone.
    const alone = await patch({ grantTypes: ['refresh_token', 'client_credentials'] }, '?language=eng');
    expect(alone.json()).toEqual({
      status: 400,
      message: 'refresh_token needs authorization_code or the device code grant beside it',
      data: null,
    });
    const ok = await patch({ grantTypes: ['client_credentials'], scopes: ['roles'], idTokenAlg: 'RS256' });
    expect(statusOf(ok)).toBe(200);
    expect(await row(id)).toMatchObject({
      grant_types: ['client_credentials'],
      scopes: ['roles'],
      id_token_alg: 'RS256',
    });
  });

  it('writes audit rows that name the client and never hold a secret', async () => {
    const created = await newest('oidc_client.create');
    expect(created.subject).toEqual({ type: 'oidc_client', id, name: '园区门户助手', en: 'Park assistant' });
    expect(auditSentence(created, 'zh')).toBe(`${created.actor!.name} 登记了 OIDC 客户端 园区门户助手`);
    expect(auditSentence(created, 'en')).toBe(`${created.actor!.name} registered the OIDC client Park assistant`);
    const rotated = await newest('oidc_client.secret.rotate');
    expect(rotated.subject?.id).toBe(id);
    const updated = await newest('oidc_client.update');
    expect(updated.changes).toEqual(
      expect.arrayContaining([
        { field: 'grantTypes', from: ['authorization_code', 'refresh_token'], to: ['client_credentials'] },
        { field: 'signatureAlg', from: 'ES256', to: 'RS256' },
      ]),
    );
    expect((await newest('oidc_client.disable')).subject?.id).toBe(id);
    expect((await newest('oidc_client.enable')).subject?.id).toBe(id);
    const { rows } = await ctx.db.execute<{ detail: string }>(
      sql`SELECT detail::text AS detail FROM audit_log WHERE action LIKE 'oidc_client.%'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const r of rows) expect(r.detail).not.toMatch(/secret_?hash|[A-Za-z0-9]{43}/i);
  });

  it('is deleted, with its audit row naming it', async () => {
    const res = await ctx.call({ method: 'DELETE', url: `/api/admin/oidc-clients/${id}`, token: operator });
    expect(statusOf(res)).toBe(200);
    expect(await row(id)).toBeUndefined();
    expect((await newest('oidc_client.delete')).subject).toMatchObject({ id, name: '园区门户助手' });
    const again = await ctx.call({ method: 'DELETE', url: `/api/admin/oidc-clients/${id}`, token: operator });
    expect(statusOf(again)).toBe(404);
  });
});

describe('a public client', () => {
  it('has no secret, cannot use client_credentials, and has no secret to rotate', async () => {
    const spa = {
      name: '移动端',
      confidential: false,
      grantTypes: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      redirectUris: ['https://m.example.com/cb'],
      scopes: ['openid'],
    };
    const res = await create(spa);
    expect(statusOf(res)).toBe(200);
    const made = data<{ id: string; secret: string | null }>(res);
    expect(made.secret).toBeNull();
    expect(await row(made.id)).toMatchObject({ secret_hash: null, secret_set_at: null, first_party: false });
    const cc = await create({ ...spa, grantTypes: ['client_credentials'] });
    expect(cc.json()).toEqual({
      status: 400,
      message: '公开客户端没有密钥，不能使用 client_credentials 授权',
      data: null,
    });
    const rotate = await ctx.call({
      method: 'POST',
      url: `/api/admin/oidc-clients/${made.id}/secret`,
      token: operator,
    });
    expect(rotate.json()).toEqual({ status: 409, message: '公开客户端没有密钥', data: null });
  });
});

describe('the rule', () => {
  const refused = [
    ['no redirect URI for authorization_code', { redirectUris: [] }, '使用 authorization_code 授权时'],
    ['no openid for a user grant', { scopes: ['profile'] }, '须包含 openid 范围'],
    ['a fragment', { redirectUris: ['https://a.example.com/cb#x'] }, '回调地址须为'],
    ['a wildcard', { redirectUris: ['https://*.example.com/cb'] }, '回调地址须为'],
    ['user info', { redirectUris: ['https://u:p@a.example.com/cb'] }, '回调地址须为'],
    ['a relative address', { redirectUris: ['/cb'] }, '回调地址须为'],
    ['another scheme', { postLogoutRedirectUris: ['javascript:alert(1)'] }, '回调地址须为'],
    ['a custom scheme', { redirectUris: ['com.example.app:/cb'] }, '回调地址须为'],
    [
      'more than 20',
      { redirectUris: Array.from({ length: 21 }, (_, i) => `https://a.example.com/${i}`) },
      '每类回调地址最多20个',
    ],
    ['a back-channel address with a fragment', { backchannelLogoutUri: 'https://a.example.com/b#x' }, '后台退出'],
    ['a name with a line break', { name: '两\n行' }, '名称不能包含换行'],
    ['an empty name', { name: '   ' }, '请输入客户端名称'],
  ] as const;

  it.each(refused)('refuses %s with a 400 saying why', async (_, change, words) => {
    const before = (await ctx.db.execute(sql`SELECT count(*)::int AS n FROM oidc_clients`)).rows[0];
    const res = await create({ ...webApp, ...change });
    expect(res.statusCode).toBe(400);
    expect(statusOf(res)).toBe(400);
    expect(messageOf(res)).toContain(words);
    expect((await ctx.db.execute(sql`SELECT count(*)::int AS n FROM oidc_clients`)).rows[0]).toEqual(before);
  });

  it('refuses an unknown grant or scope by the schema', async () => {
    for (const change of [{ grantTypes: ['implicit'] }, { scopes: ['offline_access'] }, { idTokenAlg: 'HS256' }]) {
      expect(statusOf(await create({ ...webApp, ...change })), JSON.stringify(change)).toBe(400);
    }
  });

  it('refuses a back-channel address the outbound rule refuses with a 409, in production', async () => {
    for (const host of ['127.0.0.1', '169.254.169.254', '10.0.0.5']) {
      const res = await production.call({
        url: '/api/admin/oidc-clients?language=eng',
        body: { ...webApp, backchannelLogoutUri: `http://${host}/logout` },
        token: operator,
      });
      expect(res.statusCode, host).toBe(409);
      expect(messageOf(res)).toContain('the server sends no requests there');
    }
    // Redirect addresses are the browser's, not the server's: a loopback one is taken.
    const local = await production.call({
      url: '/api/admin/oidc-clients',
      body: { ...webApp, backchannelLogoutUri: null, redirectUris: ['http://127.0.0.1:8080/cb'] },
      token: operator,
    });
    expect(statusOf(local)).toBe(200);
  });
});

describe('tenants and permissions', () => {
  it('keeps each tenant to its own clients', async () => {
    await ctx.db.execute(sql`INSERT INTO tenants (code, name) VALUES ('north-park', '北园') ON CONFLICT DO NOTHING`);
    const other = await create({ ...webApp, name: '北园客户端' }, platform, '?tenant=north-park');
    expect(statusOf(other)).toBe(200);
    const id = data<{ id: string }>(other).id;
    expect((await row(id))!.tenant).toBe('north-park');
    for (const [method, url, body] of [
      ['GET', `/api/admin/oidc-clients/${id}`, undefined],
      ['PATCH', `/api/admin/oidc-clients/${id}`, { name: '改名' }],
      ['POST', `/api/admin/oidc-clients/${id}/disable`, undefined],
      ['POST', `/api/admin/oidc-clients/${id}/secret`, undefined],
      ['DELETE', `/api/admin/oidc-clients/${id}`, undefined],
    ] as const) {
      const res = await ctx.call({ method, url, ...(body ? { body } : {}), token: operator });
      expect(statusOf(res), `${method} ${url}`).toBe(404);
    }
    const mine = data<Paged<AdminOidcClient>>(
      await ctx.call({ method: 'GET', url: '/api/admin/oidc-clients?limit=100', token: operator }),
    );
    expect(mine.records.map((c) => c.id)).not.toContain(id);
    expect(await row(id)).toMatchObject({ enabled: true });
    // Another tenant's operator may not name it either.
    const named = await ctx.call({ method: 'GET', url: '/api/admin/oidc-clients?tenant=north-park', token: operator });
    expect(statusOf(named)).toBe(40303);
  });

  it('refuses a caller without the operators permission, before reading the id', async () => {
    const res = await ctx.call({ method: 'GET', url: '/api/admin/oidc-clients/not-a-number', token: member });
    expect(statusOf(res)).toBe(40303);
    expect(statusOf(await create(webApp, member))).toBe(40303);
  });
});

describe('the console entry', () => {
  const entryOf = async (tenant: string) =>
    (
      await ctx.db.execute<{ component: string; title: string; roles: string }>(sql`
      SELECT m.component, m.meta->>'title' AS title, string_agg(r.code, ',') AS roles FROM menus m
      JOIN tenants t ON t.id = m.tenant_id AND t.code = ${tenant}
      JOIN role_menus rm ON rm.menu_id = m.id JOIN roles r ON r.id = rm.role_id
      WHERE m.name = 'system-oidc-clients' GROUP BY m.id, m.component`)
    ).rows;

  it('is provisioned for a tenant, and given once by migration 0022 to a tenant from before', async () => {
    expect(await entryOf('demo')).toEqual([
      { component: 'admin/oidc-clients', title: 'OIDC 客户端', roles: 'park_operator' },
    ]);
    // As a tenant provisioned before: no entry.
    await ctx.db.execute(sql`DELETE FROM menus WHERE name = 'system-oidc-clients'
      AND tenant_id = (SELECT id FROM tenants WHERE code = 'demo')`);
    const text = await readFile(
      new URL('../../../../migrations/0022_oidc_clients_console.sql', import.meta.url),
      'utf8',
    );
    for (let i = 0; i < 2; i++) await ctx.db.execute(sql.raw(text));
    expect(await entryOf('demo')).toEqual([
      { component: 'admin/oidc-clients', title: 'OIDC 客户端', roles: 'park_operator' },
    ]);
  });
});
