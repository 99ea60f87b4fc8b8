/**
 * The tenant's security policy (ADR 053) against the real app and PostgreSQL: the admin API (its
 * defaults, its validation, its audit row field by field, its isolation), the password rules held
 * by every password set (each rule can refuse), the history of the last N, the common-password
 * list, expiry at sign-in into the must-change flow, and the operator's reset of a user's factors.
 */
import { DEFAULT_SECURITY_POLICY, type AuditEntry, type Paged, type SecurityPolicy } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../../test/harness.js';

let ctx: TestContext;
let operator: string;
let platform: string;
let member: string;
let userId: string;

const POLICY = '/api/admin/security-policy';
const body = (res: { json(): unknown }) => res.json() as { status: number; message: string; data: unknown };
const FIRST = 'Harbour#Lamp2026';

async function save(patch: Partial<SecurityPolicy>, token = operator, query = '') {
  return ctx.call({ method: 'PUT', url: `${POLICY}${query}`, body: { ...DEFAULT_SECURITY_POLICY, ...patch }, token });
}

async function setPassword(password: string, lang = '') {
  return body(
    await ctx.call({
      url: `/api/admin/users/${userId}/password${lang}`,
      body: { password: ctx.encrypt(password), temporary: false },
      token: operator,
    }),
  );
}

async function newest(action: string): Promise<AuditEntry> {
  const log = body(await ctx.call({ url: `/api/admin/audit?action=${action}&limit=1`, token: operator }))
    .data as Paged<AuditEntry>;
  expect(log.records, action).toHaveLength(1);
  return log.records[0]!;
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '1000000' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
  member = await ctx.login('member');
  const created = await ctx.call({
    url: '/api/admin/users',
    body: { username: 'ruled', name: '守规矩', password: ctx.encrypt(FIRST), temporary: false },
    token: operator,
  });
  expect(body(created).status, created.body).toBe(200);
  userId = body(created).data as string;
});
afterAll(async () => {
  await ctx?.close();
});

describe('the security policy API', () => {
  it('answers the defaults to a tenant that set nothing, to its operators only', async () => {
    const res = body(await ctx.call({ url: POLICY, token: operator }));
    expect(res).toMatchObject({
      status: 200,
      data: { policy: DEFAULT_SECURITY_POLICY, defaults: DEFAULT_SECURITY_POLICY },
    });
    expect((await ctx.call({ url: POLICY, token: member })).statusCode).toBe(403);
  });

  it('refuses bad values with a message that names them, and changes nothing', async () => {
    for (const bad of [
      { passwordMinLength: 4 },
      { passwordHistory: 25 },
      { passwordClasses: 0 },
      { stepUpMinutes: 0 },
      { factorRequirement: 'always' },
      { allowedFactors: ['totp', 'totp'] },
      { loginHistoryDays: 1.5 },
    ]) {
      const res = await save(bad as Partial<SecurityPolicy>);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(body(res).message, JSON.stringify(bad)).toContain(Object.keys(bad)[0]);
    }
    const unknown = await ctx.call({
      method: 'PUT',
      url: POLICY,
      body: { ...DEFAULT_SECURITY_POLICY, passwordColour: 'red' },
      token: operator,
    });
    // A key the policy has not is dropped, as in the tenant's settings.
    expect(unknown.statusCode).toBe(200);
    expect(JSON.stringify(body(await ctx.call({ url: POLICY, token: operator })).data)).not.toContain('passwordColour');
    const onlyRecovery = await save({ factorRequirement: 'everyone', allowedFactors: ['recovery'] });
    expect(body(onlyRecovery).message).toMatch(/^要求两步验证时/);
    const en = await save({ factorRequirement: 'operators', allowedFactors: [] }, operator, '?language=eng');
    expect(body(en).message).toMatch(/^When second factors are asked for/);
    expect((body(await ctx.call({ url: POLICY, token: operator })).data as { policy: unknown }).policy).toEqual(
      DEFAULT_SECURITY_POLICY,
    );
  });

  it('keeps what an operator saves, audited field by field', async () => {
    expect(body(await save({ passwordMinLength: 12, factorRequirement: 'operators' })).status).toBe(200);
    const view = body(await ctx.call({ url: POLICY, token: operator })).data as { policy: SecurityPolicy };
    expect(view.policy).toMatchObject({ passwordMinLength: 12, factorRequirement: 'operators' });
    const row = await newest('security_policy.update');
    expect(row.subject).toMatchObject({ type: 'tenant' });
    expect(row.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'pwMinLength', from: 8, to: 12 }),
        expect.objectContaining({ field: 'factorRequirement', from: 'optional', to: 'operators' }),
      ]),
    );
    expect(row.changes).toHaveLength(2);
    expect(body(await save({})).status).toBe(200);
  });

  it('lets a platform operator act on the tenant they chose, and no tenant operator on another tenant', async () => {
    expect(body(await save({ passwordHistory: 3 }, platform, '?tenant=demo')).status).toBe(200);
    const demo = body(await ctx.call({ url: POLICY, token: operator })).data as { policy: SecurityPolicy };
    expect(demo.policy.passwordHistory).toBe(3);
    const own = body(await ctx.call({ url: POLICY, token: platform })).data as { policy: SecurityPolicy };
    expect(own.policy.passwordHistory).toBe(0);
    const foreignRead = await ctx.call({ url: `${POLICY}?tenant=platform`, token: operator });
    expect(body(foreignRead).status).not.toBe(200);
    const foreignWrite = await save({ passwordHistory: 5 }, operator, '?tenant=platform');
    expect(body(foreignWrite).status).not.toBe(200);
    expect(
      (body(await ctx.call({ url: POLICY, token: platform })).data as { policy: SecurityPolicy }).policy
        .passwordHistory,
    ).toBe(0);
    expect(body(await save({})).status).toBe(200);
  });
});

describe('the password rules', () => {
  it('keep the registration rule for a tenant that set nothing', async () => {
    expect((await setPassword('short')).message).toBe('密码长度至少8位');
    expect((await setPassword('harbour#lamp2026')).message).toBe('密码须同时包含数字、小写字母、大写字母和特殊符号');
    expect((await setPassword('Ruled#Lamp2026')).message).toBe('密码不能包含用户名');
    expect((await setPassword('Asdf#Lamp2026')).message).toBe(
      '密码不能包含键盘或字母顺序的连续字符（如 1234、qwer、abcd）',
    );
    // Common, yet allowed: the list is the tenant's choice, off by default.
    expect((await setPassword('P@ssw0rd')).status).toBe(200);
    expect((await setPassword(FIRST)).status).toBe(200);
  });

  it('each rule the tenant sets refuses, in the request language', async () => {
    await save({
      passwordMinLength: 14,
      passwordClasses: 2,
      passwordNotUsername: false,
      passwordNotCommon: true,
    });
    expect((await setPassword('Harbour#2026')).message).toBe('密码长度至少14位');
    expect((await setPassword('Harbour#2026', '?language=eng')).message).toBe('A password has at least 14 characters');
    // Two classes are enough now; the username is allowed.
    expect((await setPassword('harbourlamp2026')).status).toBe(200);
    expect((await setPassword('ruledharbour2026')).status).toBe(200);
    expect((await setPassword('harbourlampxyzw')).message).toBe(
      '密码须包含数字、小写字母、大写字母、特殊符号中的至少2类',
    );
    await save({ passwordNotCommon: true });
    expect((await setPassword('P@ssw0rd')).message).toBe('该密码过于常见，容易被猜中，请换一个');
    expect((await setPassword('P@ssW0rd', '?language=eng')).message).toBe(
      'This password is too common and easily guessed; choose another',
    );
    await save({});
    expect((await setPassword(FIRST)).status).toBe(200);
  });

  it('refuses one of the last N passwords, and only those', async () => {
    await save({ passwordHistory: 2 });
    const second = 'Second#Lamp2026';
    const third = 'Third#Lamp2026';
    expect((await setPassword(FIRST)).message).toBe('新密码不能与最近2次使用过的密码相同');
    expect((await setPassword(second)).status).toBe(200);
    expect((await setPassword(FIRST)).message).toBe('新密码不能与最近2次使用过的密码相同');
    expect((await setPassword(third)).status).toBe(200);
    // FIRST is now three passwords back: allowed with a history of 2, refused with 3.
    await save({ passwordHistory: 3 });
    expect((await setPassword(FIRST)).message).toBe('新密码不能与最近3次使用过的密码相同');
    await save({ passwordHistory: 2 });
    expect((await setPassword(FIRST)).status).toBe(200);
    const { rows } = await ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM password_history WHERE user_id = ${Number(userId)}`,
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(3);
    await save({});
  });

  it('an expired password leads into the must-change flow at sign-in; others sign in as before', async () => {
    await save({ passwordMaxAgeDays: 30 });
    await ctx.db.execute(
      sql`UPDATE users SET password_changed_at = now() - interval '31 days' WHERE id = ${Number(userId)}`,
    );
    const fresh = await ctx.login('member');
    expect(body(await ctx.call({ url: '/api/front/member/front/infoV2', token: fresh })).status).toBe(200);
    const token = await ctx.login('ruled', FIRST);
    expect(body(await ctx.call({ url: '/api/front/member/front/infoV2', token })).status).toBe(40305);
    const row = await newest('login.password_expired');
    expect(row.actor?.username).toBe('ruled');
    const changed = await ctx.call({
      url: '/api/front/account/auth/updatePassword',
      body: { oldPwd: ctx.encrypt(FIRST), newPwd: ctx.encrypt('Renewed#Lamp2026') },
      token,
    });
    expect(body(changed).status, changed.body).toBe(200);
    const again = await ctx.login('ruled', 'Renewed#Lamp2026');
    expect(body(await ctx.call({ url: '/api/front/member/front/infoV2', token: again })).status).toBe(200);
    await save({});
  });
});

describe("an operator's reset of a user's second factors", () => {
  it('removes factors, recovery codes, remembered browsers and pending sign-ins in one go, audited', async () => {
    const id = Number(userId);
    const { rows } = await ctx.db.execute<{ tenant: number }>(
      sql`SELECT tenant_id AS tenant FROM users WHERE id = ${id}`,
    );
    const tenant = rows[0]!.tenant;
    await ctx.db.execute(sql`INSERT INTO user_factors (tenant_id, user_id, kind, name, confirmed_at)
      VALUES (${tenant}, ${id}, 'totp', 'phone', now())`);
    await ctx.db.execute(
      sql`INSERT INTO recovery_codes (tenant_id, user_id, code_hash) VALUES (${tenant}, ${id}, 'x')`,
    );
    await ctx.db.execute(sql`INSERT INTO remembered_browsers (token_hash, tenant_id, user_id, expires_at)
      VALUES ('reset-test', ${tenant}, ${id}, now() + interval '1 day')`);
    const res = await ctx.call({ url: `/api/admin/users/${userId}/factors/reset`, body: {}, token: operator });
    expect(body(res).status, res.body).toBe(200);
    const left = await ctx.db.execute<{ f: number; r: number; b: number; at: string | null }>(sql`SELECT
      (SELECT count(*)::int FROM user_factors WHERE user_id = ${id}) AS f,
      (SELECT count(*)::int FROM recovery_codes WHERE user_id = ${id}) AS r,
      (SELECT count(*)::int FROM remembered_browsers WHERE user_id = ${id}) AS b,
      (SELECT factors_reset_at FROM users WHERE id = ${id}) AS at`);
    expect(left.rows[0]).toMatchObject({ f: 0, r: 0, b: 0 });
    expect(left.rows[0]!.at).not.toBeNull();
    const row = await newest('user.factors.reset');
    expect(row.subject).toMatchObject({ type: 'user', id: userId });
    expect(row.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'factors', from: 1, to: 0 })]),
    );
  });

  it("is refused for the operator's own account, another tenant's user and a member", async () => {
    const self = await ctx.db.execute<{ id: number }>(sql`SELECT id FROM users WHERE username = 'admin'`);
    const own = await ctx.call({
      url: `/api/admin/users/${self.rows[0]!.id}/factors/reset`,
      body: {},
      token: operator,
    });
    expect(own.statusCode).toBe(400);
    const foreign = await ctx.db.execute<{
      id: number;
    }>(sql`SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
      WHERE t.code = 'platform' LIMIT 1`);
    const other = await ctx.call({
      url: `/api/admin/users/${foreign.rows[0]!.id}/factors/reset`,
      body: {},
      token: operator,
    });
    expect(other.statusCode).toBe(404);
    const byMember = await ctx.call({ url: `/api/admin/users/${userId}/factors/reset`, body: {}, token: member });
    expect(byMember.statusCode).toBe(403);
  });
});
