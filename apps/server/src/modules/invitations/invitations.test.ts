/**
 * 邀请成员 over HTTP against the real database: who may invite, what an invitation refuses, the
 * sign-in that takes it up, renewal, revocation and expiry; the registration path is in
 * registration.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const URL = '/api/front/ent/invitations';
let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login('admin');
});
afterAll(async () => ctx?.close());

type Row = { id: string; mobile: string; status: string; invitedBy: string | null; joinedName: string | null };
const list = async (token = admin, query = '') => {
  const res = await ctx.call({ url: `${URL}${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { rows: Row[]; total: number };
};
const invite = (mobile: string, token = admin) => ctx.call({ url: URL, body: { mobile }, token });
const newUser = (username: string, mobile: string) =>
  ctx.db.execute(sql`
    INSERT INTO users (tenant_id, username, password_hash, name, mobile)
    SELECT tenant_id, ${username}, password_hash, ${username}, ${mobile} FROM users WHERE username = 'member'`);
const enterprisesOf = async (token: string) =>
  ((await ctx.call({ url: '/api/front/ent/joinEntList', token })).json().data.rows as { entName: string }[]).map(
    (r) => r.entName,
  );

describe('inviting a member', () => {
  it('is for those whose role holds ent:invite, and a number joins at its next sign-in', async () => {
    const sent = await invite(' 13912340001 ');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe('邀请已发出，对方下次登录或注册后即加入本企业');
    const { rows, total } = await list();
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({
      mobile: '139****0001',
      status: 'pending',
      invitedBy: '系统管理员',
      joinedName: null,
    });

    await newUser('invitee', '13912340001');
    const token = await ctx.login('invitee');
    expect(await enterprisesOf(token)).toEqual(['星河科技有限公司']);
    // The session opened by that sign-in is in the enterprise it joined.
    const info = (await ctx.call({ url: '/api/front/member/front/infoV2', token })).json().data;
    expect(info.groupName).toBe('星河科技有限公司');
    expect((await list()).rows[0]).toMatchObject({ status: 'joined', joinedName: 'invitee' });
    const audit = await ctx.db.execute(sql`SELECT 1 FROM audit_log WHERE action = 'invitation.accepted'`);
    expect(audit.rows).toHaveLength(1);
    // Taken up once: a second sign-in changes nothing, and the number is a member now.
    await ctx.login('invitee');
    expect((await invite('13912340001')).json()).toMatchObject({
      status: 409,
      message: '该手机号的用户已是本企业成员',
    });
  });

  it('is refused to a role without the permission, and the list too', async () => {
    const member = await ctx.login('member'); // 企业成员: no ent:invite
    const refused = await invite('13912340002', member);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('当前用户无相关操作权限！');
    expect((await ctx.call({ url: URL, token: member })).statusCode).toBe(403);
    expect((await ctx.call({ url: URL })).statusCode).toBe(401);
  });

  it('refuses a number that is not a mobile number, in the request language', async () => {
    const res = await ctx.call({ url: `${URL}?language=eng`, body: { mobile: '12345' }, token: admin });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/mobile/i);
  });

  it('sends an open invitation again as one, with a new week', async () => {
    await invite('13912340003');
    await ctx.db.execute(
      sql`UPDATE enterprise_invitations SET expires_at = now() + interval '1 day' WHERE mobile = '13912340003'`,
    );
    await invite('13912340003');
    const rows = await ctx.db.execute<{ days: number }>(sql`
      SELECT round(extract(epoch FROM expires_at - now()) / 86400)::int AS days
      FROM enterprise_invitations WHERE mobile = '13912340003'`);
    expect(rows.rows).toEqual([{ days: 7 }]);
  });

  it('lets a revoked or expired invitation bring nobody in', async () => {
    await invite('13912340004');
    await invite('13912340005');
    const byMobile = async (m: string) => (await list()).rows.find((r) => r.mobile === `139****${m}`)!;
    const revoke = (id: string) => ctx.call({ url: `${URL}/revoke`, body: { id }, token: admin });
    const open = await byMobile('0004');
    expect((await revoke(open.id)).statusCode).toBe(200);
    expect((await byMobile('0004')).status).toBe('revoked');
    expect((await revoke(open.id)).json()).toMatchObject({ status: 404, message: '该邀请不存在或已结束' });
    await ctx.db.execute(
      sql`UPDATE enterprise_invitations SET expires_at = now() - interval '1 second' WHERE mobile = '13912340005'`,
    );
    expect((await byMobile('0005')).status).toBe('expired');

    await newUser('revoked', '13912340004');
    await newUser('late', '13912340005');
    expect(await enterprisesOf(await ctx.login('revoked'))).toEqual([]);
    expect(await enterprisesOf(await ctx.login('late'))).toEqual([]);
    // Revoking what is no longer open: the taken-up one of the first test.
    const joined = (await list()).rows.find((r) => r.status === 'joined')!;
    expect((await revoke(joined.id)).statusCode).toBe(404);
  });

  it("concerns only the session's own enterprise", async () => {
    // The admin switches to another of their enterprises (the switch ends the old session): its
    // invitation list is its own, and the first one's invitations are out of its reach.
    const first = (await list()).rows[0]!;
    const other = await ctx.db.execute<{ id: number }>(
      sql`SELECT id FROM enterprises WHERE name = '蓝海智能制造有限公司'`,
    );
    const res = await ctx.call({
      method: 'PUT',
      url: '/api/front/member/switchEnterprises',
      body: { entId: other.rows[0]!.id },
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const switched = res.json().data as string;
    expect(await list(switched)).toEqual({ rows: [], total: 0 });
    const revoke = await ctx.call({ url: `${URL}/revoke`, body: { id: first.id }, token: switched });
    expect(revoke.statusCode).toBe(404);
  });
});
