/**
 * The audit log a person reads (ADR 044), against the real server and database: operators' changes
 * name their object with its name as it was and keep what changed, field by field, without secrets;
 * the log filters by who, what and which object; the CSV export is bounded, neutralises formulas,
 * is itself recorded, and never holds another tenant's rows.
 */
import {
  AUDIT_ACTION_CODES,
  AUDIT_EXPORT_MAX,
  auditSentence,
  type AuditEntry,
  type AuditExport,
} from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_SUBJECTS } from '../../../platform/audit-subjects.js';
import { ADMIN_ROUTE_ACTIONS } from '../../../platform/audit.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../../test/harness.js';

let ctx: TestContext;
let operator: string;

const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;
const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;
type Log = { records: AuditEntry[]; total: number };

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await ctx.db.execute(query);
  return rows[0] as T;
}
const demoId = (table: string, where: string) =>
  one<{ id: string }>(
    sql.raw(`SELECT x.id::text AS id FROM ${table} x JOIN tenants t ON t.id = x.tenant_id
      WHERE t.code = 'demo' AND ${where} ORDER BY x.id LIMIT 1`),
  ).then((r) => r.id);

/** The newest row of `action` in the demo tenant, as the console reads it. */
async function newest(action: string, lang = ''): Promise<AuditEntry> {
  const log = data<Log>(await ctx.call({ url: `/api/admin/audit?action=${action}&limit=1${lang}`, token: operator }));
  expect(log.records, action).toHaveLength(1);
  return log.records[0]!;
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
});
afterAll(async () => {
  await ctx?.close();
});

describe('the audit log names objects and what changed', () => {
  it('has an object rule (or an explicit none) for every audited operator code', () => {
    // A code added to ADMIN_ROUTE_ACTIONS needs its entry in AUDIT_SUBJECTS: an object, or null.
    const missing = Object.values(ADMIN_ROUTE_ACTIONS).filter((code) => !Object.hasOwn(AUDIT_SUBJECTS, code));
    expect(missing, 'codes without an entry in AUDIT_SUBJECTS').toEqual([]);
    expect(Object.keys(AUDIT_SUBJECTS).filter((code) => !AUDIT_ACTION_CODES.includes(code as never))).toEqual([]);
  });

  it('a review: the enterprise by its name in both languages, the decision as before and after', async () => {
    const id = await demoId('enterprises', `x.name = '蓝海智能制造有限公司'`);
    const res = await ctx.call({ url: `/api/admin/enterprises/${id}/review`, body: { estatus: 1 }, token: operator });
    expect(statusOf(res)).toBe(200);
    const row = await newest('enterprise.review');
    expect(row.subject).toEqual({
      type: 'enterprise',
      id,
      name: '蓝海智能制造有限公司',
      en: 'Lanhai Intelligent Manufacturing Co., Ltd.',
    });
    expect(row.changes).toEqual([{ field: 'estatus', from: 0, to: 1 }]);
    expect(auditSentence(row, 'zh')).toBe(`${row.actor!.name} 通过了 蓝海智能制造有限公司 的入驻审核`);
    const english = await newest('enterprise.review', '&language=eng');
    expect(auditSentence(english, 'en')).toBe(
      `${english.actor!.name} approved Lanhai Intelligent Manufacturing Co., Ltd.’s registration`,
    );
    // The name as it was: renaming the enterprise later leaves the row as it is.
    await ctx.db.execute(sql`UPDATE enterprises SET name = '改名后的企业' WHERE id = ${id}`);
    expect((await newest('enterprise.review')).subject?.name).toBe('蓝海智能制造有限公司');
    await ctx.db.execute(sql`UPDATE enterprises SET name = '蓝海智能制造有限公司' WHERE id = ${id}`);
  });

  it('a user disabled and enabled: the user with the username, the state before and after', async () => {
    const id = await demoId('users', `x.username = 'member'`);
    expect(statusOf(await ctx.call({ url: `/api/admin/users/${id}/disable`, body: {}, token: operator }))).toBe(200);
    const row = await newest('user.disable');
    expect(row.subject).toMatchObject({ type: 'user', id, username: 'member', name: '张敏' });
    expect(row.changes).toEqual([{ field: 'disabled', from: false, to: true }]);
    expect(auditSentence(row, 'zh')).toBe(`${row.actor!.name} 停用了用户 张敏（member）`);
    expect(statusOf(await ctx.call({ url: `/api/admin/users/${id}/enable`, body: {}, token: operator }))).toBe(200);
    expect((await newest('user.enable')).changes).toEqual([{ field: 'disabled', from: true, to: false }]);
  });

  it("a role's permissions: the codes before and after", async () => {
    const roleId = await demoId('roles', `x.code = 'ent_member'`);
    const { ids } = await one<{ ids: string[] }>(sql`SELECT coalesce(array_agg(permission_id::text), '{}') AS ids
      FROM role_permissions WHERE role_id = ${roleId}`);
    const { id: extra, code } = await one<{ id: string; code: string }>(sql`SELECT p.id::text AS id, p.code
      FROM permissions p WHERE p.tenant_id = (SELECT tenant_id FROM roles WHERE id = ${roleId})
        AND p.id NOT IN (SELECT permission_id FROM role_permissions WHERE role_id = ${roleId})
        AND p.code NOT LIKE 'system:%' AND p.code NOT LIKE '%:manage' ORDER BY p.id LIMIT 1`);
    const res = await ctx.call({
      method: 'PUT',
      url: `/api/admin/roles/${roleId}/permissions`,
      body: { permissionIds: [...ids, extra] },
      token: operator,
    });
    expect(statusOf(res)).toBe(200);
    const row = await newest('role.permissions.set');
    expect(row.subject).toMatchObject({ type: 'role', id: roleId, en: 'Enterprise member' });
    expect(row.changes).toHaveLength(1);
    const change = row.changes[0]! as { field: string; from: string[]; to: string[] };
    expect(change.field).toBe('permissions');
    expect(change.to.filter((c) => !change.from.includes(c))).toEqual([code]);
  });

  it("the tenant's settings: the tenant named, each switch before and after", async () => {
    const before = data<{ settings: Record<string, unknown> }>(
      await ctx.call({ url: '/api/admin/settings', token: operator }),
    ).settings;
    const res = await ctx.call({
      method: 'PUT',
      url: '/api/admin/settings',
      body: { ...before, siteName: '演示园区门户', keepAlive: true },
      token: operator,
    });
    expect(statusOf(res)).toBe(200);
    const row = await newest('settings.update');
    expect(row.subject).toMatchObject({ type: 'tenant' });
    const fields = Object.fromEntries(row.changes.map((c) => [c.field, c]));
    expect(fields.siteName).toMatchObject({ to: '演示园区门户' });
    expect(fields.keepAlive?.to).toBe(true);
    expect(auditSentence(row, 'zh')).toMatch(/修改了 .+ 的租户设置$/);
    // The agreement, as its words.
    const agreement = data<{ html: string; htmlEn?: string }>(
      await ctx.call({ url: '/api/admin/agreement', token: operator }),
    );
    const put = await ctx.call({
      method: 'PUT',
      url: '/api/admin/agreement',
      body: { ...agreement, html: '<h2>用户协议</h2><p>第一条 新的条款。</p>' },
      token: operator,
    });
    expect(statusOf(put)).toBe(200);
    const changed = await newest('agreement.update');
    expect(changed.changes.map((c) => c.field)).toEqual(['agreement']);
    expect(changed.changes[0]!.to).toBe('用户协议 第一条 新的条款。');
  });

  it('a user edited and given a password: names before and after, and no password anywhere', async () => {
    const created = await ctx.call({
      url: '/api/admin/users',
      body: {
        username: 'audit_subject',
        name: '审计对象',
        nameEn: 'Audit Subject',
        password: ctx.encrypt('Fresh#Pass2026'),
      },
      token: operator,
    });
    expect(statusOf(created)).toBe(200);
    const id = data<string>(created);
    const made = await newest('user.create');
    expect(made.subject).toMatchObject({
      type: 'user',
      id,
      name: '审计对象',
      en: 'Audit Subject',
      username: 'audit_subject',
    });
    expect(made.changes).toContainEqual({ field: 'name', to: '审计对象' });
    // What it was given, not every default a new user has.
    expect(made.changes.map((c) => c.field)).not.toContain('disabled');
    const patched = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/users/${id}`,
      body: { name: '审计对象乙', mobile: '13900001111' },
      token: operator,
    });
    expect(statusOf(patched)).toBe(200);
    const row = await newest('user.update');
    expect(row.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', from: '审计对象', to: '审计对象乙' },
        { field: 'mobile', from: null, to: '13900001111' },
      ]),
    );
    // The sentence names the user by the name after the change.
    expect(auditSentence(row, 'en')).toBe(`${row.actor!.name} changed the user Audit Subject (audit_subject)`);
    const set = await ctx.call({
      url: `/api/admin/users/${id}/password`,
      body: { password: ctx.encrypt('Other#Pass2026'), temporary: true },
      token: operator,
    });
    expect(statusOf(set)).toBe(200);
    const pw = await newest('user.password.set');
    expect(pw.subject?.username).toBe('audit_subject');
    const { hash } = await one<{ hash: string }>(sql`SELECT password_hash AS hash FROM users WHERE id = ${id}`);
    const { rows } = await ctx.db.execute(
      sql`SELECT detail::text AS d FROM audit_log WHERE detail -> 'subject' ->> 'id' = ${id}`,
    );
    const stored = rows.map((r) => String(r.d)).join('\n');
    expect(stored).not.toContain('Pass2026');
    expect(stored).not.toContain(hash);
    expect(stored).not.toMatch(/"field": "\w*(password|secret|token)/i);
    expect(stored).not.toMatch(/"password": "(?!\[redacted\])/);
  });

  it('filters by who, by action and by object (its kind, id or name in either language)', async () => {
    const byActor = data<Log>(await ctx.call({ url: '/api/admin/audit?actor=ADMIN&limit=100', token: operator }));
    expect(byActor.total).toBeGreaterThan(3);
    expect(byActor.records.every((r) => r.actor?.username === 'admin')).toBe(true);
    const byName = data<Log>(
      await ctx.call({ url: `/api/admin/audit?actor=${encodeURIComponent('系统管')}`, token: operator }),
    );
    expect(byName.total).toBe(byActor.total);
    const kind = data<Log>(await ctx.call({ url: '/api/admin/audit?objectType=enterprise', token: operator }));
    expect(kind.total).toBeGreaterThan(0);
    expect(kind.records.every((r) => r.subject?.type === 'enterprise')).toBe(true);
    const byEnglish = data<Log>(await ctx.call({ url: '/api/admin/audit?object=lanhai', token: operator }));
    expect(byEnglish.records.map((r) => r.action)).toEqual(['enterprise.review']);
    const byChinese = data<Log>(
      await ctx.call({
        url: `/api/admin/audit?object=${encodeURIComponent('蓝海')}&action=enterprise.review`,
        token: operator,
      }),
    );
    expect(byChinese.total).toBe(1);
    const byId = data<Log>(
      await ctx.call({
        url: `/api/admin/audit?objectType=enterprise&object=${byChinese.records[0]!.subject!.id}`,
        token: operator,
      }),
    );
    expect(byId.total).toBe(1);
    const byUsername = data<Log>(await ctx.call({ url: '/api/admin/audit?object=audit_subject', token: operator }));
    expect(new Set(byUsername.records.map((r) => r.action))).toEqual(
      new Set(['user.create', 'user.update', 'user.password.set']),
    );
    expect(data<Log>(await ctx.call({ url: '/api/admin/audit?object=nothing-like-this', token: operator })).total).toBe(
      0,
    );
  });

  it('reads sign-ins as sentences: who signed in, and the username typed when no account matched', async () => {
    await expect(ctx.login('no_such_person')).rejects.toThrow(/login failed/);
    const failed = await newest('login.failed');
    expect(failed.actor).toBeNull();
    expect(auditSentence(failed, 'zh')).toBe('登录失败：用户名 no_such_person（无此用户）');
    const signedIn = await newest('login.succeeded');
    expect(auditSentence(signedIn, 'zh')).toBe(`${signedIn.actor!.name} 登录成功`);
  });

  it('exports CSV in the reader’s language: bounded, formulas neutralised, recorded, of this tenant only', async () => {
    // A name a spreadsheet would run as a formula.
    const formula = await ctx.call({
      url: '/api/admin/users',
      body: {
        username: 'formula_name',
        name: '=HYPERLINK("http://x.example")',
        password: ctx.encrypt('Fresh#Pass2026'),
      },
      token: operator,
    });
    expect(statusOf(formula)).toBe(200);
    const zh = data<AuditExport>(await ctx.call({ url: '/api/admin/audit/export?action=user.', token: operator }));
    expect(zh.csv.startsWith('\ufeff时间,操作人,用户名,IP 地址,操作,说明,对象类型,对象,对象 ID,变更\r\n')).toBe(true);
    expect(zh.fileName).toMatch(/^audit-\d{8}-\d{6}\.csv$/);
    expect(zh.truncated).toBe(false);
    expect(zh.rows).toBe(zh.csv.trim().split('\r\n').length - 1);
    expect(zh.csv).toContain('停用了用户 张敏（member）');
    expect(zh.csv).toContain(`"'=HYPERLINK(""http://x.example"")"`);
    expect(zh.csv).not.toMatch(/,=HYPERLINK/);
    expect(zh.csv).not.toContain('Pass2026');
    const en = data<AuditExport>(
      await ctx.call({ url: '/api/admin/audit/export?action=enterprise.review&language=eng', token: operator }),
    );
    expect(en.csv).toContain('Time,Who,Username,IP address,Action,What happened,Object type,Object,Object ID,Changes');
    expect(en.csv).toContain('approved Lanhai Intelligent Manufacturing Co., Ltd.’s registration');
    expect(en.csv).toContain('Review status: Awaiting review → Approved');
    // Who took a copy, and of what, is in the log.
    const recorded = await newest('audit.export');
    expect(recorded.detail?.query).toMatchObject({ action: 'enterprise.review' });
    expect(recorded.detail?.result).toBeUndefined();

    // Another tenant's rows never appear, and at most AUDIT_EXPORT_MAX rows go out.
    const { north } = await one<{ north: string }>(
      sql`INSERT INTO tenants (code, name) VALUES ('north-park', '北园') RETURNING id::text AS north`,
    );
    const { demo } = await one<{ demo: string }>(sql`SELECT id::text AS demo FROM tenants WHERE code = 'demo'`);
    await ctx.db.execute(sql`INSERT INTO audit_log (tenant_id, action, detail)
      SELECT ${north}, 'user.disable', '{"subject":{"type":"user","id":"1","name":"北园秘密用户"}}'::jsonb FROM generate_series(1, 3)`);
    await ctx.db.execute(sql`INSERT INTO audit_log (tenant_id, action, detail)
      SELECT ${demo}, 'menu.import', '{"result": 1}'::jsonb FROM generate_series(1, ${AUDIT_EXPORT_MAX})`);
    const all = data<AuditExport>(await ctx.call({ url: '/api/admin/audit/export', token: operator }));
    expect(all.rows).toBe(AUDIT_EXPORT_MAX);
    expect(all.truncated).toBe(true);
    expect(all.csv).not.toContain('北园秘密用户');
    const northRead = data<Log>(await ctx.call({ url: '/api/admin/audit?object=北园秘密', token: operator }));
    expect(northRead.total).toBe(0);
    // The platform operator reads that tenant's, naming it.
    const platform = await ctx.login('platform', DEMO_PASSWORD, 'platform');
    const theirs = data<AuditExport>(
      await ctx.call({ url: '/api/admin/audit/export?tenant=north-park&actor=', token: platform }),
    );
    expect(theirs.csv).toContain('北园秘密用户');
    expect(theirs.csv).not.toContain('张敏');
  });
});
