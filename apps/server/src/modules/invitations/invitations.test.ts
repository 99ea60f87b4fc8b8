/**
 * 邀请成员 over HTTP against the real database: who may invite, what an invitation refuses, the
 * sign-in that takes it up, renewal, revocation and expiry; the registration path is in
 * registration.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const URL = '/api/front/ent/invitations';
let ctx: TestContext;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
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
/** A user whose number is proven theirs (as after registering with an SMS code); the password is member's. */
const newUser = (username: string, mobile: string) =>
  ctx.db.execute(sql`
    INSERT INTO users (tenant_id, username, password_hash, name, mobile, verified_mobile)
    SELECT tenant_id, ${username}, password_hash, ${username}, ${mobile}, ${mobile} FROM users WHERE username = 'member'`);
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

/**
 * The number, not the account, is invited: so only an account whose number was proven to be its
 * holder's (an SMS code to it checked) takes an invitation up. A tenant that registers without SMS
 * lets anyone give any number with a captcha alone.
 */
describe('who takes an invitation up', () => {
  const PASSWORD = 'Zq9#mVt2x';
  let inviter: string;
  let operator: string;

  beforeAll(async () => {
    inviter = await ctx.login('admin');
    operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  });

  /** The tenant's switch `registerWithoutSms`: registration then asks no SMS code, the captcha alone proves a person. */
  const registerWithoutSms = async (on: boolean) => {
    const res = await ctx.call({
      method: 'PUT',
      url: '/api/admin/settings',
      body: on ? { registerWithoutSms: true } : {},
      token: operator,
    });
    expect(res.json().status, res.body).toBe(200);
  };
  /** A member registration proven by the image captcha only. */
  const registerByCaptcha = async (username: string, mobile: string) => {
    const number = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
    return ctx.call({
      url: '/api/front/member/registerMember',
      body: { tenantCode: 'demo', username, password: ctx.encrypt(PASSWORD), mobile, imgCode: '8888', number },
    });
  };
  /** What a session sees of enterprises: its current one, the members of it, and those it joined. */
  const seen = async (token: string) => ({
    current: (await ctx.call({ url: '/api/front/ent/current', token })).json().data,
    members: (await ctx.call({ url: '/api/front/ent/members', token })).json().data.rows as unknown[],
    joined: await enterprisesOf(token),
  });
  const nothing = { current: null, members: [], joined: [] };
  const statusOf = async (mobile: string) =>
    (await list(inviter)).rows.find((r) => r.mobile === `${mobile.slice(0, 3)}****${mobile.slice(7)}`)?.status;

  it('is not taken up by an account whose number only a captcha vouched for, invited before it registered', async () => {
    await registerWithoutSms(true);
    try {
      expect((await invite('13700000077', inviter)).json().status).toBe(200);
      const registered = await registerByCaptcha('squatter77', '13700000077');
      expect(registered.statusCode, registered.body).toBe(200);
      const squatter = await ctx.login('squatter77', PASSWORD);
      expect(await seen(squatter)).toEqual(nothing);
      // Still open for the number's holder; nothing was recorded as taken up.
      expect(await statusOf('13700000077')).toBe('pending');
      const accepted = await ctx.db.execute(sql`
        SELECT 1 FROM audit_log a JOIN users u ON u.id = a.user_id
        WHERE a.action = 'invitation.accepted' AND u.username = 'squatter77'`);
      expect(accepted.rows).toEqual([]);
    } finally {
      await registerWithoutSms(false);
    }
  });

  it('is not taken up by an account whose number only a captcha vouched for, registered before it was invited', async () => {
    await registerWithoutSms(true);
    try {
      const registered = await registerByCaptcha('squatter78', '13700000078');
      expect(registered.statusCode, registered.body).toBe(200);
      expect((await invite('13700000078', inviter)).json().status).toBe(200);
      const squatter = await ctx.login('squatter78', PASSWORD);
      expect(await seen(squatter)).toEqual(nothing);
      expect(await statusOf('13700000078')).toBe('pending');
    } finally {
      await registerWithoutSms(false);
    }
  });

  /** The code the newest text to `phone` carried, once it is there (a reset's is sent after the answer). */
  const codeSentTo = async (phone: string, after = 0) => {
    for (let i = 0; i < 100; i++) {
      const { rows } = await ctx.db.execute<{ id: number; body: string }>(
        sql`SELECT id, body FROM sms_outbox WHERE phone = ${phone} AND id > ${after} ORDER BY id DESC LIMIT 1`,
      );
      if (rows[0]) return /验证码是(\d{6})/.exec(rows[0].body)![1]!;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no code sent to ${phone}`);
  };
  const lastTextId = async () =>
    Number((await ctx.db.execute<{ id: number }>(sql`SELECT coalesce(max(id), 0) AS id FROM sms_outbox`)).rows[0]!.id);
  const inviterEnterprise = async () =>
    (await ctx.call({ url: '/api/front/ent/current', token: inviter })).json().data.entName as string;

  it('is taken up at the next sign-in once the account proved its number by an SMS code (验证手机号)', async () => {
    await registerWithoutSms(true);
    try {
      expect((await registerByCaptcha('prover79', '13700000079')).statusCode).toBe(200);
    } finally {
      await registerWithoutSms(false);
    }
    expect((await invite('13700000079', inviter)).json().status).toBe(200);
    const token = await ctx.login('prover79', PASSWORD);
    expect(await seen(token)).toEqual(nothing);
    // Where the user learns it: the account dialog's number, unproven, with a way to prove it.
    expect((await ctx.call({ url: '/api/front/account/mobile', token })).json().data).toEqual({
      mobile: '137****0079',
      verified: false,
    });
    const before = await lastTextId();
    expect((await ctx.call({ url: '/api/front/account/mobile/code', token, body: {} })).json().status).toBe(200);
    const code = await codeSentTo('13700000079', before);
    const proved = await ctx.call({ url: '/api/front/account/mobile/verify', token, body: { smsCode: code } });
    expect(proved.json()).toMatchObject({
      status: 200,
      message: '手机号已验证，发给该号码的企业邀请将在下次登录时生效',
    });
    const next = await ctx.login('prover79', PASSWORD);
    expect(await enterprisesOf(next)).toEqual([await inviterEnterprise()]);
    expect(await statusOf('13700000079')).toBe('joined');
  });

  it('is taken up after a password reset by SMS is finished, not when its code is only checked', async () => {
    await registerWithoutSms(true);
    try {
      expect((await registerByCaptcha('resetter80', '13700000080')).statusCode).toBe(200);
    } finally {
      await registerWithoutSms(false);
    }
    expect((await invite('13700000080', inviter)).json().status).toBe(200);
    const number = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
    const before = await lastTextId();
    const who = { tenantCode: 'demo', username: 'resetter80', mobile: '13700000080' };
    await ctx.call({ url: '/api/front/account/reset/code', body: { ...who, imageCode: '8888', number } });
    const verify = await ctx.call({
      url: '/api/front/account/reset/verify',
      body: { ...who, smsCode: await codeSentTo('13700000080', before) },
    });
    const { resetToken } = verify.json().data as { resetToken: string };
    // The phone's holder checked a code but has not taken the account over: whoever set its
    // password still holds it, and must not join through the holder's proof.
    expect(await seen(await ctx.login('resetter80', PASSWORD))).toEqual(nothing);
    const NEW = 'Kp7$wq2Zr';
    const finished = await ctx.call({
      url: '/api/front/account/reset/finish',
      body: { resetToken, password: ctx.encrypt(NEW) },
    });
    expect(finished.json().status, finished.body).toBe(200);
    expect(await enterprisesOf(await ctx.login('resetter80', NEW))).toEqual([await inviterEnterprise()]);
  });

  it("takes an operator's word for a number they give another user, not for their own or one written otherwise", async () => {
    const create = (username: string, mobile: string) =>
      ctx.call({
        url: '/api/admin/users',
        body: { username, name: '王芳', mobile, password: ctx.encrypt(PASSWORD), temporary: false },
        token: operator,
      });
    // A user the operator creates with a number joins by it.
    expect((await invite('13700000081', inviter)).json().status).toBe(200);
    const created = await create('vouched81', '13700000081');
    expect(created.json().status, created.body).toBe(200);
    expect(await enterprisesOf(await ctx.login('vouched81', PASSWORD))).toEqual([await inviterEnterprise()]);

    // An edit that keeps a number vouches for nothing: squatter78's stays unproven.
    const squatter78 = (
      await ctx.db.execute<{ id: string }>(sql`SELECT id::text AS id FROM users WHERE username = 'squatter78'`)
    ).rows[0]!.id;
    const edit = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/users/${squatter78}`,
      body: { name: '改名', mobile: '13700000078' },
      token: operator,
    });
    expect(edit.json().status, edit.body).toBe(200);
    expect(await seen(await ctx.login('squatter78', PASSWORD))).toEqual(nothing);

    // The operator's own new number is their word about themself only: unproven.
    const me = (await ctx.call({ url: '/api/front/member/front/infoV2', token: operator })).json().data.userId;
    const own = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/users/${me}`,
      body: { mobile: '13700000082' },
      token: operator,
    });
    expect(own.json().status, own.body).toBe(200);
    expect((await ctx.call({ url: '/api/front/account/mobile', token: operator })).json().data).toEqual({
      mobile: '137****0082',
      verified: false,
    });
    await ctx.call({
      method: 'PATCH',
      url: `/api/admin/users/${me}`,
      body: { mobile: '13800000001' },
      token: operator,
    });

    // Any other writer of the number leaves it unproven without knowing of the rule: a user the
    // operator gave a number, whose number is then written straight into the table.
    expect((await create('rewritten84', '13700000084')).json().status).toBe(200);
    await ctx.db.execute(sql`UPDATE users SET mobile = '13700000083' WHERE username = 'rewritten84'`);
    expect((await invite('13700000083', inviter)).json().status).toBe(200);
    expect(await seen(await ctx.login('rewritten84', PASSWORD))).toEqual(nothing);
    expect(await statusOf('13700000083')).toBe('pending');
  });
});
