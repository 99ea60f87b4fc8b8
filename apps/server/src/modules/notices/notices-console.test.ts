/**
 * The console's notices over HTTP against the real database: publishing with attachments to an
 * audience of the tenant only, the list and detail with their counts, each recipient's state
 * (filtered, exported as CSV without formulas), withdrawing (gone from the members' lists and
 * counts at once, told to their streams, audited, refused twice), the permission and the tenant of
 * every route, the hourly quota, and the notice an enterprise's review sends its members.
 */
import { readFile } from 'node:fs/promises';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../db/demo/seed.js';
import { hashPassword } from '../../platform/passwords.js';
import { DEMO_PASSWORD, createTestContext, injectStreaming, type TestContext } from '../../test/harness.js';
import { NOTICES_PER_HOUR } from './notices.service.js';

let ctx: TestContext;
let member: string;
/** The demo admin in the park operator's role (holds notice:publish). */
let operator: string;
/** The same admin in the enterprise administrator's role (does not). */
let entAdmin: string;
let otherTenant: number;
const ids: Record<string, number> = {};

// The smallest real PNG: its signature and an IHDR chunk are what file-type reads.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

const one = async (query: ReturnType<typeof sql>) => Number((await ctx.db.execute<{ v: number }>(query)).rows[0]!.v);

beforeAll(async () => {
  ctx = await createTestContext({ UPLOAD_MAX_BYTES: '65536' });
  const hash = await hashPassword(DEMO_PASSWORD);
  otherTenant = await ctx.db.transaction((tx) => insertDemo(tx, hash, { code: 'other', name: '另一园区' }));
  member = await ctx.login('member');
  entAdmin = await ctx.login('admin');
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  ids.member = await one(sql`SELECT u.id AS v FROM users u JOIN tenants t ON t.id = u.tenant_id
    WHERE t.code = 'demo' AND u.username = 'member'`);
  ids.admin = await one(sql`SELECT u.id AS v FROM users u JOIN tenants t ON t.id = u.tenant_id
    WHERE t.code = 'demo' AND u.username = 'admin'`);
  ids.otherUser = await one(sql`SELECT id AS v FROM users WHERE tenant_id = ${otherTenant} AND username = 'member'`);
  ids.otherRole = await one(sql`SELECT id AS v FROM roles WHERE tenant_id = ${otherTenant} ORDER BY id LIMIT 1`);
  ids.memberRole = await one(sql`SELECT r.id AS v FROM roles r JOIN tenants t ON t.id = r.tenant_id
    WHERE t.code = 'demo' AND r.code = 'ent_member'`);
  ids.otherNotice = await one(sql`SELECT id AS v FROM notices WHERE tenant_id = ${otherTenant} ORDER BY id LIMIT 1`);
});
afterAll(async () => ctx?.close());

const upload = (url: string, token: string, fileName: string, content: Buffer) =>
  ctx.upload(url, token, fileName, content);

const publish = (body: Record<string, unknown>, token = operator) =>
  ctx.call({
    url: '/api/admin/notices',
    body: { title: '园区通知', remark: '<p>正文</p>', replyWay: 1, audience: { kind: 'tenant' }, ...body },
    token,
  });

const audit = (action: string) => one(sql`SELECT count(*)::int AS v FROM audit_log WHERE action = ${action}`);

describe("the console's notices", () => {
  it('publishes with attachments to roles, enterprises or users of the tenant, and lists them with counts', async () => {
    const up = await upload('/api/admin/notices/attachments', operator, '议程.png', PNG);
    expect(up.statusCode, up.body).toBe(200);
    const addr = up.json().data as string;
    const res = await publish({
      title: '季度安全检查',
      remark: '<p>请配合<script>alert(1)</script>检查</p>',
      replyWay: 2,
      validityTime: new Date(Date.now() + 86_400_000).toISOString(),
      audience: { kind: 'users', ids: [ids.member, ids.admin] },
      pushFile: [{ addr, fileName: '议程.png' }],
      translations: { en: { title: 'Quarterly safety check', remark: '<p>Please help</p>' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, recipients } = res.json().data as { id: string; recipients: number };
    expect(recipients).toBe(2);

    // The member sees it, with its attachment, in their language.
    const mine = await ctx.call({ url: `/api/front/letter/replyInfo/${id}?language=eng`, token: member });
    expect(mine.json().data).toMatchObject({ title: 'Quarterly safety check', pushFile: [{ fileName: '议程.png' }] });

    const list = await ctx.call({ url: '/api/admin/notices?q=季度安全', token: operator });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toMatchObject({
      total: 1,
      records: [
        {
          id,
          title: '季度安全检查',
          titleEn: 'Quarterly safety check',
          replyWay: 2,
          recipients: 2,
          read: 0,
          replied: 0,
          confirmed: 0,
          sender: '系统管理员',
          withdrawnAt: null,
          audience: { kind: 'users', names: [{ name: expect.any(String) }, { name: expect.any(String) }] },
        },
      ],
    });
    const detail = await ctx.call({ url: `/api/admin/notices/${id}`, token: operator });
    expect(detail.json().data).toMatchObject({
      id,
      remarkEn: '<p>Please help</p>',
      pushFile: [{ fileName: '议程.png' }],
    });
    expect(detail.json().data.remark).not.toMatch(/script/);
    expect(detail.json().data.pushFile[0].url).toMatch(/^\/api\/resources\/files\/.+\?e=\d+&s=/);

    // By role: the tenant's members of 企业成员.
    const byRole = await publish({ audience: { kind: 'role', ids: [ids.memberRole] } });
    expect(byRole.statusCode, byRole.body).toBe(200);
    expect(byRole.json().data.recipients).toBeGreaterThan(0);
    const roleDetail = await ctx.call({
      url: `/api/admin/notices/${byRole.json().data.id}?language=eng`,
      token: operator,
    });
    expect(roleDetail.json().data.audience).toEqual({
      kind: 'role',
      names: [{ id: String(ids.memberRole), name: 'Enterprise member' }],
    });
    expect(await audit('notice.attachment.upload')).toBe(1);
  });

  it("offers the tenant's own roles, enterprises and users to send to, by name", async () => {
    const choices = async (q: string, token = operator) => ctx.call({ url: `/api/admin/notices/audience?${q}`, token });
    const roles = (await choices('kind=role&language=eng')).json().data as {
      id: string;
      name: string;
      detail: string;
    }[];
    expect(roles).toContainEqual({ id: String(ids.memberRole), name: 'Enterprise member', detail: 'ent_member' });
    expect(roles.map((r) => r.id)).not.toContain(String(ids.otherRole));
    const users = (await choices('kind=users&q=member')).json().data as { id: string; detail: string }[];
    expect(users).toEqual([expect.objectContaining({ id: String(ids.member), detail: 'member' })]);
    expect((await choices('kind=enterprise')).json().data.length).toBeGreaterThan(0);
    expect((await choices('kind=tenants')).statusCode).toBe(400);
    expect((await choices('kind=role', entAdmin)).json().status).toBe(40303);
  });

  it('refuses an audience, an attachment, a title or a validity that is not right', async () => {
    const refused = async (body: Record<string, unknown>, status: number, message: string) => {
      const res = await publish(body);
      expect(res.statusCode, res.body).toBe(status === 40000 ? 400 : status);
      expect(res.json().message).toBe(message);
    };
    const inTenant = '接收范围中有不属于本租户的角色、企业或用户';
    await refused({ audience: { kind: 'users', ids: [ids.member, ids.otherUser] } }, 400, inTenant);
    await refused({ audience: { kind: 'role', ids: [ids.otherRole] } }, 400, inTenant);
    await refused({ audience: { kind: 'enterprise', ids: [987654321] } }, 400, inTenant);
    await refused({ title: '   ' }, 400, '请填写通知标题');
    const oneLine = '通知标题须为一行文字，不能含换行、控制字符或不可见字符';
    // Control characters are refused by every route's input rules; bidi and zero-width ones here.
    for (const title of ['停水\n通知', '停水\u0007通知']) expect((await publish({ title })).statusCode).toBe(400);
    for (const title of ['停水\u202e通知', '停水\u200b通知', '停水\u2028通知']) await refused({ title }, 400, oneLine);
    await refused({ translations: { en: { title: 'Water\u202eSet' } } }, 400, oneLine);
    await refused({ validityTime: '2020-01-01T00:00:00Z' }, 400, '有效期须晚于现在');
    // A member's reply upload is not the operator's own upload for a notice.
    const theirs = await upload('/api/front/letter/uploadReplyFile', member, 'a.png', PNG);
    await refused(
      { pushFile: [{ addr: theirs.json().data, fileName: 'a.png' }] },
      400,
      '附件不存在或不是本人上传的文件',
    );
    const bad = await ctx.call({ url: '/api/admin/notices?state=gone', token: operator });
    expect(bad.statusCode).toBe(400);
    const badState = await ctx.call({ url: '/api/admin/notices/1/recipients?state=lost', token: operator });
    expect(badState.statusCode).toBe(400);
    expect((await ctx.call({ url: '/api/admin/notices/abc', token: operator })).statusCode).toBe(404);
    const noFile = await ctx.call({ url: '/api/admin/notices/attachments', body: {}, token: operator });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('请选择要上传的文件');
  });

  it("follows each recipient's state, filters it, and exports it without formulas", async () => {
    const res = await publish({
      title: '意见征集',
      replyWay: 2,
      audience: { kind: 'users', ids: [ids.member, ids.admin] },
    });
    const id = res.json().data.id as string;
    const file = await upload('/api/front/letter/uploadReplyFile', member, '意见.png', PNG);
    const reply = await ctx.call({
      url: '/api/front/letter/reply',
      body: {
        id,
        replyName: 'member',
        content: '=HYPERLINK("http://x","点我")',
        fileList: [{ addr: file.json().data, fileName: '意见.png' }],
      },
      token: member,
    });
    expect(reply.statusCode, reply.body).toBe(200);

    const page = async (q = '') => {
      const r = await ctx.call({ url: `/api/admin/notices/${id}/recipients${q}`, token: operator });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().data as {
        records: {
          username: string;
          state: string;
          replyContent: string | null;
          replyFile: { fileName: string; url: string }[];
        }[];
        total: number;
      };
    };
    const all = await page();
    expect(all.total).toBe(2);
    const replied = await page('?state=replied');
    expect(replied.records).toEqual([
      expect.objectContaining({ username: 'member', state: 'replied', replyContent: '=HYPERLINK("http://x","点我")' }),
    ]);
    expect(replied.records[0]!.replyFile[0]).toMatchObject({
      fileName: '意见.png',
      url: expect.stringMatching(/\?e=/),
    });
    expect((await page('?state=unread')).records.map((r) => r.username)).toEqual(['admin']);
    expect((await page(`?q=${encodeURIComponent('admin')}`)).records.map((r) => r.username)).toEqual(['admin']);
    expect((await page('?state=confirmed')).total).toBe(0);

    const list = await ctx.call({ url: '/api/admin/notices?q=意见征集', token: operator });
    expect(list.json().data.records[0]).toMatchObject({ recipients: 2, read: 1, replied: 1, confirmed: 0 });

    const before = await audit('notice.recipients.export');
    const csv = await ctx.call({ url: `/api/admin/notices/${id}/recipients/export?language=eng`, token: operator });
    expect(csv.statusCode, csv.body).toBe(200);
    const { fileName, csv: text } = csv.json().data as { fileName: string; csv: string };
    expect(fileName).toBe(`notice-${id}-recipients.csv`);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('\ufeffName,Username,State,Read at,Replied at,Reply,Attachments');
    expect(lines).toHaveLength(3);
    // The reply that would run as a formula is text: an apostrophe first.
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""点我"")"`);
    expect(text).toContain('Replied');
    expect(await audit('notice.recipients.export')).toBe(before + 1);
  });

  it("withdraws: gone from the members' lists and counts at once, told live, audited, shown as withdrawn", async () => {
    const res = await publish({ title: '待撤回的通知', audience: { kind: 'users', ids: [ids.member] } });
    const id = res.json().data.id as string;
    const unread = async () =>
      (await ctx.call({ url: '/api/front/letter/unread', token: member })).json().data.unread as number;
    const before = await unread();

    const live = injectStreaming(
      ctx.app,
      {
        method: 'GET',
        url: '/api/front/letter/events',
        headers: { authorization_front: member, ...signRequest(ctx.secrets.signSecret, '/api/front/letter/events') },
      },
      3000,
      (text) => text.includes('event: withdrawn'),
    );
    await new Promise((r) => setTimeout(r, 300));
    const done = await ctx.call({ url: `/api/admin/notices/${id}/withdraw`, body: {}, token: operator });
    expect(done.statusCode, done.body).toBe(200);
    expect((await live).body).toMatch(
      new RegExp(`event: withdrawn\\ndata: \\{"unread":${before - 1},"noticeId":"${id}"\\}`),
    );
    expect(await unread()).toBe(before - 1);
    expect((await ctx.call({ url: `/api/front/letter/replyInfo/${id}`, token: member })).statusCode).toBe(404);
    const pageOf = await ctx.call({ url: '/api/front/letter/replyPage', body: { title: '待撤回' }, token: member });
    expect(pageOf.json().data.total).toBe(0);
    const reply = await ctx.call({
      url: '/api/front/letter/reply',
      body: { id, replyName: 'm', content: '收到了' },
      token: member,
    });
    expect(reply.statusCode).toBe(404);

    // Operators still see it, as withdrawn, by whom; withdrawing again is refused.
    const list = await ctx.call({ url: '/api/admin/notices?state=withdrawn', token: operator });
    expect(list.json().data.records).toEqual([
      expect.objectContaining({ id, withdrawnBy: '系统管理员', withdrawnAt: expect.stringMatching(/^\d{4}-/) }),
    ]);
    const active = await ctx.call({ url: '/api/admin/notices?state=active&limit=100', token: operator });
    expect(active.json().data.records.map((n: { id: string }) => n.id)).not.toContain(id);
    const again = await ctx.call({ url: `/api/admin/notices/${id}/withdraw?language=eng`, body: {}, token: operator });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This notice has been withdrawn already');
    expect(await audit('notice.withdraw')).toBe(1);
  });

  it("answers 40303 without notice:publish, and another tenant's notice as one that does not exist", async () => {
    const n = String(ids.otherNotice);
    const calls = [
      { url: '/api/admin/notices' },
      { url: '/api/admin/notices/audience?kind=role' },
      { url: `/api/admin/notices/${n}` },
      { url: `/api/admin/notices/${n}/recipients` },
      { url: `/api/admin/notices/${n}/recipients/export` },
      { url: `/api/admin/notices/${n}/withdraw`, body: {} },
    ];
    for (const c of calls) {
      const res = await ctx.call({ ...c, token: entAdmin });
      expect(res.json().status, c.url).toBe(40303);
    }
    expect((await upload('/api/admin/notices/attachments', entAdmin, 'a.png', PNG)).json().status).toBe(40303);
    expect((await upload('/api/admin/notices/attachments', member, 'a.png', PNG)).json().status).toBe(40303);
    for (const c of calls.slice(2)) {
      const res = await ctx.call({ ...c, token: operator });
      expect(res.statusCode, c.url).toBe(404);
      expect(res.json().message).toBe('通知不存在');
    }
    const unknown = await ctx.call({ url: '/api/admin/notices/987654321/withdraw', body: {}, token: operator });
    expect(unknown.json()).toEqual(
      (await ctx.call({ url: `/api/admin/notices/${n}/withdraw`, body: {}, token: operator })).json(),
    );
    // The other tenant's notice is untouched.
    expect(
      await one(sql`SELECT count(*)::int AS v FROM notices WHERE id = ${ids.otherNotice} AND withdrawn_at IS NULL`),
    ).toBe(1);
  });

  it(`refuses more than ${NOTICES_PER_HOUR} notices of a tenant an hour`, async () => {
    const tenant = await one(sql`SELECT id AS v FROM tenants WHERE code = 'demo'`);
    await ctx.db.execute(sql`
      INSERT INTO rate_limits (key, window_start, count) VALUES (${`notice:publish:${tenant}`}, now(), ${NOTICES_PER_HOUR})
      ON CONFLICT (key) DO UPDATE SET count = ${NOTICES_PER_HOUR}, window_start = now()`);
    const res = await publish({});
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(`发布过于频繁：每小时最多发布 ${NOTICES_PER_HOUR} 条通知，请稍后再试`);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    await ctx.db.execute(sql`DELETE FROM rate_limits WHERE key = ${`notice:publish:${tenant}`}`);
  });
});

describe("an enterprise's review", () => {
  it('tells its members by a notice from the system, in their language, in the review’s transaction', async () => {
    const [ent] = (
      await ctx.db.execute<{ id: number; name: string }>(sql`
        SELECT e.id, e.name FROM enterprises e JOIN enterprise_members m ON m.enterprise_id = e.id
        WHERE m.user_id = ${ids.member} ORDER BY e.id LIMIT 1`)
    ).rows;
    const members = await one(sql`SELECT count(*)::int AS v FROM enterprise_members WHERE enterprise_id = ${ent!.id}`);
    const review = (body: Record<string, unknown>) =>
      ctx.call({ url: `/api/admin/enterprises/${ent!.id}/review`, body, token: operator });

    // A refusal without a reason is refused, and tells no one.
    const notices = await one(sql`SELECT count(*)::int AS v FROM notices`);
    expect((await review({ estatus: 2 })).statusCode).toBe(400);
    expect(await one(sql`SELECT count(*)::int AS v FROM notices`)).toBe(notices);

    expect((await review({ estatus: 2, reason: '营业执照<模糊>' })).statusCode).toBe(200);
    const zh = await ctx.call({ url: '/api/front/letter/replyPage', body: { title: '企业审核' }, token: member });
    const told = zh.json().data.rows[0] as { id: string; title: string; remark: string; replyWay: number };
    expect(told).toMatchObject({ title: '企业审核未通过', replyWay: 0 });
    expect(told.remark).toBe(`<p>您的企业「${ent!.name}」未通过园区审核。原因：营业执照&lt;模糊&gt;</p>`);
    const en = await ctx.call({ url: `/api/front/letter/replyInfo/${told.id}?language=eng`, token: member });
    expect(en.json().data.title).toBe('Enterprise review not passed');
    expect(en.json().data.remark).toContain('Reason: 营业执照&lt;模糊&gt;');

    expect((await review({ estatus: 1 })).statusCode).toBe(200);
    const passed = await ctx.call({ url: '/api/front/letter/replyPage', body: { title: '审核已通过' }, token: member });
    expect(passed.json().data.rows[0].title).toBe('企业审核已通过');
    // To every member of the enterprise; from the system (no sender) in the console.
    const list = await ctx.call({ url: '/api/admin/notices?q=企业审核已通过', token: operator });
    expect(list.json().data.records[0]).toMatchObject({
      sender: null,
      recipients: members,
      audience: { kind: 'enterprise' },
    });
  });
});

describe('a tenant from before', () => {
  it("gets the console's 通知公告 and the operators' bell from migration 0020, once", async () => {
    const t = otherTenant;
    // As a tenant provisioned before: no 通知公告 entry, the operator's role without messageIndex.
    await ctx.db.execute(sql`DELETE FROM menus WHERE tenant_id = ${t} AND name = 'system-notices'`);
    await ctx.db.execute(sql`DELETE FROM role_permissions rp USING permissions p, roles r
      WHERE rp.permission_id = p.id AND p.code = 'messageIndex' AND rp.role_id = r.id AND r.code = 'park_operator'
      AND r.tenant_id = ${t}`);
    const text = await readFile(new URL('../../../migrations/0020_notice_withdraw.sql', import.meta.url), 'utf8');
    const data = text.split('--> statement-breakpoint').slice(3);
    for (let i = 0; i < 2; i++) for (const statement of data) await ctx.db.execute(sql.raw(statement));
    const entry = await ctx.db.execute<{ component: string; roles: string }>(sql`
      SELECT m.component, string_agg(r.code, ',') AS roles FROM menus m
      JOIN role_menus rm ON rm.menu_id = m.id JOIN roles r ON r.id = rm.role_id
      WHERE m.tenant_id = ${t} AND m.name = 'system-notices' GROUP BY m.id, m.component`);
    expect(entry.rows).toEqual([{ component: 'admin/notices', roles: 'park_operator' }]);
    const bell = await one(sql`SELECT count(*)::int AS v FROM role_permissions rp
      JOIN permissions p ON p.id = rp.permission_id AND p.code = 'messageIndex'
      JOIN roles r ON r.id = rp.role_id AND r.code = 'park_operator' WHERE r.tenant_id = ${t}`);
    expect(bell).toBe(1);
  });
});
