/**
 * Service accounts (ADR 056): a client marked in the console obtains an access token at its
 * tenant's token endpoint with client_credentials and the `portal:admin` scope (openid-client,
 * over real HTTP, against the real provider), and calls the operators' API with it as a Bearer
 * credential: in its role, through the same permission checks and tenant rule as a person, audited
 * under its own name; refused once disabled, rotated or unmarked, without the scope, for a client
 * that is no service account, on step-up routes and on what needs a session.
 */
import { DEFAULT_SECURITY_POLICY, OPERATOR_PERMISSION, type AuditEntry, type Paged } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../../db/demo/seed.js';
import { freePort } from '../../../db/embedded.js';
import { hashPassword } from '../../../platform/passwords.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../../test/harness.js';

let ctx: TestContext;
let base: string;
let operator: string;
let platformOperator: string;
const roleIds: Record<string, string> = {};
let platformRole: string;
let otherUser: string;

const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;
const messageOf = (res: { json(): unknown }) => (res.json() as { message: string }).message;
const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;

interface Made {
  id: string;
  clientId: string;
  secret: string;
}

/** A service account made through the console's API, by the tenant's operator. */
async function serviceAccount(role: string, token = operator, extra: Record<string, unknown> = {}): Promise<Made> {
  const res = await ctx.call({
    url: '/api/admin/oidc-clients',
    token,
    body: {
      name: '部署机器人',
      nameEn: 'Deploy bot',
      confidential: true,
      grantTypes: ['client_credentials'],
      scopes: [],
      serviceAccount: true,
      serviceRoleId: role,
      ...extra,
    },
  });
  expect(statusOf(res), messageOf(res)).toBe(200);
  return data<Made>(res);
}

/** An access token from the tenant's token endpoint (client_credentials), as the CLI gets one. */
async function accessToken(m: Made, scope = 'portal:admin', tenant = 'demo'): Promise<string> {
  const config = await client.discovery(
    new URL(`${base}/oidc/${tenant}`),
    m.clientId,
    m.secret,
    client.ClientSecretBasic(m.secret),
    { execute: [client.allowInsecureRequests] },
  );
  const t = await client.clientCredentialsGrant(config, scope ? { scope } : {});
  return t.access_token;
}

const bearer = (
  token: string,
  url: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' = 'GET',
  body?: object,
) =>
  ctx.call({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { body: body as Record<string, unknown> } : {}),
  });

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_URL: base, LOGIN_RATE_PER_MINUTE: '100000' });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  platformOperator = await ctx.login('platform', DEMO_PASSWORD, 'platform');
  const { rows } = await ctx.db.execute<{ code: string; id: string }>(
    sql`SELECT r.code, r.id::text AS id FROM roles r JOIN tenants t ON t.id = r.tenant_id WHERE t.code = 'demo'`,
  );
  for (const r of rows) roleIds[r.code] = r.id;
  platformRole = (
    await ctx.db.execute<{ id: string }>(sql`
      SELECT r.id::text AS id FROM roles r JOIN tenants t ON t.id = r.tenant_id
      JOIN role_permissions rp ON rp.role_id = r.id JOIN permissions p ON p.id = rp.permission_id
      WHERE t.platform AND p.code = ${OPERATOR_PERMISSION} LIMIT 1`)
  ).rows[0]!.id;
  const hash = await hashPassword(DEMO_PASSWORD);
  await ctx.db.transaction((tx) => insertDemo(tx, hash, { code: 'other', name: '另一园区' }));
  otherUser = (
    await ctx.db.execute<{ id: string }>(sql`
      SELECT u.id::text AS id FROM users u JOIN tenants t ON t.id = u.tenant_id
      WHERE t.code = 'other' AND u.username = 'member'`)
  ).rows[0]!.id;
}, 60_000);
afterAll(async () => ctx?.close());

describe('marking a client as a service account', () => {
  it('needs a confidential client_credentials client and a role of its own tenant', async () => {
    const body = {
      name: '机器人',
      confidential: true,
      grantTypes: ['client_credentials'],
      scopes: [],
      serviceAccount: true,
    };
    const noRole = await ctx.call({ url: '/api/admin/oidc-clients', token: operator, body });
    expect(statusOf(noRole)).toBe(400);
    const grant = await ctx.call({
      url: '/api/admin/oidc-clients',
      token: operator,
      body: {
        ...body,
        grantTypes: ['authorization_code'],
        redirectUris: ['https://a.example.com/cb'],
        scopes: ['openid'],
        serviceRoleId: roleIds.park_operator,
      },
    });
    expect(statusOf(grant)).toBe(400);
    // A role of another tenant (the platform's) is none of this tenant's: it can never be given.
    const foreign = await ctx.call({
      url: '/api/admin/oidc-clients',
      token: operator,
      body: { ...body, serviceRoleId: platformRole },
    });
    expect(statusOf(foreign)).toBe(400);
    const made = await serviceAccount(roleIds.park_operator!);
    const shown = data<{ serviceAccount: boolean; serviceRoleId: string }>(
      await ctx.call({ method: 'GET', url: `/api/admin/oidc-clients/${made.id}`, token: operator }),
    );
    expect(shown).toMatchObject({ serviceAccount: true, serviceRoleId: roleIds.park_operator });
  });
});

describe('a service account on the operators’ API', () => {
  let operatorAccount: Made;
  let token: string;

  beforeAll(async () => {
    operatorAccount = await serviceAccount(roleIds.park_operator!);
    token = await accessToken(operatorAccount);
  });

  it('reads and changes in its role, and the audit names it', async () => {
    const users = await bearer(token, '/api/admin/users?limit=50');
    expect(statusOf(users), messageOf(users)).toBe(200);
    const records = data<Paged<{ id: string; username: string }>>(users).records;
    const member = records.find((u) => u.username === 'member')!;
    expect(member).toBeTruthy();
    // Only its own tenant's users.
    expect(records.map((u) => u.id)).not.toContain(otherUser);
    const changed = await bearer(token, `/api/admin/users/${member.id}`, 'PATCH', { name: '张三丰' });
    expect(statusOf(changed), messageOf(changed)).toBe(200);
    const log = data<Paged<AuditEntry>>(
      await ctx.call({ method: 'GET', url: '/api/admin/audit?action=user.update&limit=1', token: operator }),
    );
    expect(log.records[0]!.actor).toMatchObject({ id: operatorAccount.clientId, name: '服务账户 部署机器人' });
    const en = data<Paged<AuditEntry>>(
      await ctx.call({
        method: 'GET',
        url: '/api/admin/audit?action=user.update&limit=1&language=eng',
        token: operator,
      }),
    );
    expect(en.records[0]!.actor?.name).toBe('Service account Deploy bot');
    const byActor = data<Paged<AuditEntry>>(
      await ctx.call({
        method: 'GET',
        url: `/api/admin/audit?actor=${operatorAccount.clientId}&limit=5`,
        token: operator,
      }),
    );
    expect(byActor.records.length).toBeGreaterThan(0);
    const row = await ctx.db.execute<{ user_id: string | null }>(
      sql`SELECT user_id FROM audit_log WHERE action = 'user.update' ORDER BY id DESC LIMIT 1`,
    );
    expect(row.rows[0]!.user_id).toBeNull();
  });

  it('writes its token and a refused secret into the login history, through the CLI door', async () => {
    // Written beside the answer (the history never holds a sign-in up): read until it is there.
    const events = async () =>
      (
        await ctx.db.execute<{ outcome: string; via: string; user_id: string | null }>(sql`
          SELECT outcome, via, user_id FROM login_events WHERE username = ${operatorAccount.clientId} ORDER BY id`)
      ).rows;
    await expect.poll(events).toContainEqual({ outcome: 'succeeded', via: 'cli', user_id: null });
    await expect(accessToken({ ...operatorAccount, secret: 'wrong' })).rejects.toBeTruthy();
    await expect.poll(events).toContainEqual({ outcome: 'wrong_password', via: 'cli', user_id: null });
  });

  it('is refused what its role does not allow', async () => {
    const member = await serviceAccount(roleIds.ent_member!);
    const res = await bearer(await accessToken(member), '/api/admin/users');
    expect(statusOf(res)).toBe(40303);
  });

  it("is refused another tenant's routes and data", async () => {
    const named = await bearer(token, '/api/admin/users?tenant=other');
    expect(statusOf(named)).toBe(40303);
    const foreign = await bearer(token, `/api/admin/users/${otherUser}`, 'PATCH', { name: '越界' });
    expect(statusOf(foreign)).toBe(404);
    // Its token is its tenant's: the other tenant's provider does not know it.
    const other = await ctx.call({
      method: 'GET',
      url: `/oidc/other/token/introspection`,
    });
    expect(other.statusCode).not.toBe(200);
  });

  it('acts on every tenant only as a client of the platform tenant, in an operator role there', async () => {
    const platform = await serviceAccount(platformRole, platformOperator);
    const res = await bearer(await accessToken(platform, 'portal:admin', 'platform'), '/api/admin/users?tenant=other');
    expect(statusOf(res), messageOf(res)).toBe(200);
  });

  it('is refused what stays with people, authored content and what needs a session, and provisions users', async () => {
    const member = (
      await ctx.db.execute<{ id: string }>(sql`
        SELECT u.id::text AS id FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE t.code = 'demo' AND u.username = 'member'`)
    ).rows[0]!.id;
    // What stays with people, though its role holds the permission; a user's lifecycle does not.
    for (const [url, method, body] of [
      [`/api/admin/users/${member}/password`, 'POST', { password: 'Another1pass' }],
      ['/api/admin/security-policy', 'PUT', DEFAULT_SECURITY_POLICY],
      [`/api/admin/roles/${roleIds.park_operator}/permissions`, 'PUT', { permissionIds: [] }],
      ['/api/admin/sso-services/1', 'DELETE', undefined],
    ] as const) {
      const refused = await bearer(token, url, method, body);
      expect(statusOf(refused), url).toBe(40303);
      expect(messageOf(refused)).toContain('服务账户不能执行此操作');
    }
    const disable = await bearer(token, `/api/admin/users/${member}/disable`, 'POST');
    expect(statusOf(disable), messageOf(disable)).toBe(200);
    expect(statusOf(await bearer(token, `/api/admin/users/${member}/enable`, 'POST'))).toBe(200);
    const selfMark = await bearer(token, `/api/admin/oidc-clients/${operatorAccount.id}`, 'PATCH', {
      serviceRoleId: roleIds.park_operator,
    });
    expect(statusOf(selfMark)).toBe(40303);
    const authored = await bearer(token, '/api/admin/micro-apps/1/remove', 'POST');
    expect(statusOf(authored)).toBe(40303);
    const factors = await bearer(token, `/api/admin/users/${member}/factors/reset`, 'POST');
    expect(statusOf(factors)).toBe(40303);
    for (const url of ['/api/front/member/front/infoV2', '/api/front/security/sessions']) {
      const res = await bearer(token, url);
      expect(statusOf(res), url).toBe(40303);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it("cannot take a person over: not their number, not an operator's role, not the SMS outbox's codes", async () => {
    const member = (
      await ctx.db.execute<{ id: string; mobile: string | null }>(sql`
        SELECT u.id::text AS id, u.mobile FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE t.code = 'demo' AND u.username = 'member'`)
    ).rows[0]!;
    const refused = (res: { json(): unknown }) => {
      expect(statusOf(res), messageOf(res)).toBe(40303);
      expect(messageOf(res)).toContain('服务账户不能执行此操作');
    };
    // A number of its choosing would get the password reset's code and the SMS factor's.
    refused(await bearer(token, `/api/admin/users/${member.id}`, 'PATCH', { mobile: '13912345670' }));
    refused(await bearer(token, `/api/admin/users/${member.id}`, 'PATCH', { mobile: null }));
    const [after] = (
      await ctx.db.execute<{ mobile: string | null }>(sql`SELECT mobile FROM users WHERE id = ${member.id}`)
    ).rows;
    expect(after!.mobile).toBe(member.mobile);
    // A person it made an operator, with a password it set, would hold every power kept from it
    // (an enterprise admin it may make: that role holds no code that reaches other accounts).
    const newUser = (roles: string[]) =>
      bearer(token, '/api/admin/users', 'POST', {
        username: `sa${Date.now().toString(36)}${roles.length}`,
        name: '机器人建的',
        password: ctx.encrypt('Tz8#vKm2!pRw'),
        temporary: false,
        roleIds: roles,
      });
    refused(await newUser([roleIds.ent_member!, roleIds.park_operator!]));
    const made = await newUser([roleIds.ent_member!]);
    expect(statusOf(made), messageOf(made)).toBe(200);
    const madeId = data<string>(made);
    refused(await bearer(token, `/api/admin/users/${madeId}/roles`, 'PUT', { roleIds: [roleIds.park_operator] }));
    const plain = await bearer(token, `/api/admin/users/${madeId}/roles`, 'PUT', { roleIds: [roleIds.ent_admin] });
    expect(statusOf(plain), messageOf(plain)).toBe(200);
    // An operator the account did not make keeps the role it holds when its roles are set again.
    const admin = (
      await ctx.db.execute<{ id: string }>(sql`
        SELECT u.id::text AS id FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE t.code = 'demo' AND u.username = 'admin'`)
    ).rows[0]!.id;
    const kept = await bearer(token, `/api/admin/users/${admin}/roles`, 'PUT', {
      roleIds: [roleIds.ent_admin, roleIds.park_operator],
    });
    expect(statusOf(kept), messageOf(kept)).toBe(200);
    // The outbox keeps live codes: a password reset's, a second factor's.
    refused(await bearer(token, '/api/admin/sms-outbox'));
    // The lockout bounds guesses at a person's password and codes: lifting it stays with people.
    refused(await bearer(token, `/api/admin/users/${member.id}/unlock`, 'POST'));
  });

  it('needs the portal:admin scope and a client marked as a service account', async () => {
    const unscoped = await bearer(await accessToken(operatorAccount, ''), '/api/admin/users');
    expect(statusOf(unscoped)).toBe(401);
    const plain = await serviceAccount(roleIds.park_operator!, operator, {
      serviceAccount: false,
      serviceRoleId: null,
      scopes: ['openid'],
    });
    // The scope is offered to service accounts only.
    await expect(accessToken(plain)).rejects.toMatchObject({ error: 'invalid_scope' });
    expect(statusOf(await bearer(await accessToken(plain, ''), '/api/admin/users'))).toBe(401);
    expect(statusOf(await bearer('not-a-token', '/api/admin/users'))).toBe(401);
  });

  it('loses its power at the next request once disabled, rotated or unmarked', async () => {
    const call = (t: string) => bearer(t, '/api/admin/roles');
    const disabled = await serviceAccount(roleIds.park_operator!);
    const t1 = await accessToken(disabled);
    expect(statusOf(await call(t1))).toBe(200);
    const off = await ctx.call({
      method: 'POST',
      url: `/api/admin/oidc-clients/${disabled.id}/disable`,
      token: operator,
    });
    expect(statusOf(off)).toBe(200);
    expect(statusOf(await call(t1))).toBe(401);

    const rotated = await serviceAccount(roleIds.park_operator!);
    const t2 = await accessToken(rotated);
    expect(statusOf(await call(t2))).toBe(200);
    const res = await ctx.call({
      method: 'POST',
      url: `/api/admin/oidc-clients/${rotated.id}/secret`,
      token: operator,
    });
    expect(statusOf(res)).toBe(200);
    expect(statusOf(await call(t2))).toBe(401);
    const fresh = await accessToken({ ...rotated, secret: data<{ secret: string }>(res).secret });
    expect(statusOf(await call(fresh))).toBe(200);

    const unmarked = await serviceAccount(roleIds.park_operator!);
    const t3 = await accessToken(unmarked);
    expect(statusOf(await call(t3))).toBe(200);
    const patch = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/oidc-clients/${unmarked.id}`,
      token: operator,
      body: { serviceAccount: false },
    });
    expect(statusOf(patch), messageOf(patch)).toBe(200);
    expect(statusOf(await call(t3))).toBe(401);

    // Unmarked by a path that leaves its tokens (a restore, a hand edit): the per-request read refuses them.
    const bypassed = await serviceAccount(roleIds.park_operator!);
    const t4 = await accessToken(bypassed);
    expect(statusOf(await call(t4))).toBe(200);
    await ctx.db.execute(sql`UPDATE oidc_clients SET service_account = false WHERE client_id = ${bypassed.clientId}`);
    expect(statusOf(await call(t4))).toBe(401);
  });
});
