/**
 * Registration over HTTP against the real database: a company and its first member, a member, the
 * docs/product/validation.md#registration rules, what is taken, the SMS code and the captcha as proof, an interrupted registration,
 * the username check and the agreement.
 */
import { randomBytes } from 'node:crypto';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const COMPANY = '/api/front/member/registerMemberByGyszmf';
const MEMBER = '/api/front/member/registerMember';
const PASSWORD = 'Zq9#mVt2x';
let ctx: TestContext;

async function captcha(c = ctx): Promise<string> {
  const number = randomBytes(8).toString('hex');
  expect((await c.call({ url: `/api/front/account/auth/kaptcha?number=${number}` })).statusCode).toBe(200);
  return number;
}

/** Asks for a code for `phone` and reads it from the outbox, as the person would from the phone. */
async function smsCode(phone: string, c = ctx): Promise<string> {
  const res = await c.call({
    url: '/api/front/member/sendPhoneCode',
    body: { phone, type: 2, imageCode: '8888', number: await captcha(c), tenantCode: 'demo' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const out = await c.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id DESC LIMIT 1`,
  );
  return /验证码是(\d{6})/.exec(out.rows[0]!.body)![1]!;
}

function company(mobile: string, over: Record<string, unknown> = {}) {
  return {
    companyName: `测试科技${mobile}有限公司`,
    industryCode: '6513',
    country: '110101',
    contacts: '李雷',
    position: '总经理',
    tenantCode: 'demo',
    password: ctx.encrypt(PASSWORD),
    mobile,
    hostUrl: 'http://localhost/center/user/register',
    ...over,
  };
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const res = await ctx.db.execute<{ n: number }>(query);
  return Number(res.rows[0]!.n);
}

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('company registration', () => {
  it('creates the unreviewed enterprise and its first member, who can then sign in', async () => {
    const mobile = '13712340001';
    const res = await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: await smsCode(mobile) }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, message: '注册成功' });
    const rows = await ctx.db.execute<Record<string, unknown>>(sql`
      SELECT e.estatus, e.industry_code, e.region_code, e.contacts, e.position, u.username, u.name,
             u.verified_mobile, r.code AS role, u.default_enterprise_id = e.id AS default_ent,
             EXISTS (SELECT 1 FROM enterprise_members m WHERE m.user_id = u.id AND m.enterprise_id = e.id) AS member,
             EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_id = r.id) AS holds
      FROM users u JOIN enterprises e ON e.name = ${`测试科技${mobile}有限公司`}
      JOIN roles r ON r.id = u.default_role_id WHERE u.mobile = ${mobile}`);
    expect(rows.rows[0]).toEqual({
      estatus: 0,
      industry_code: '6513',
      region_code: '110101',
      contacts: '李雷',
      position: '总经理',
      username: mobile,
      // The SMS code proved the number: it takes up invitations (ADR 023).
      verified_mobile: mobile,
      name: '李雷',
      role: 'ent_member',
      default_ent: true,
      member: true,
      holds: true,
    });
    await expect(ctx.login(mobile, PASSWORD)).resolves.toMatch(/^ey/);
  });

  it('says what is missing in the product words, in the request language', async () => {
    const mobile = '13712340002';
    const cases: [Record<string, unknown>, string, string][] = [
      [{ companyName: ' null ' }, '请输入公司名称!', 'Please enter the company name!'],
      [{ industryCode: 'undefined' }, '请选择所属行业!', 'Please choose the industry!'],
      [{ industryCode: '65' }, '请选择所属行业!', 'Please choose the industry!'],
      [{ country: '' }, '请选择企业地区!', 'Please choose the region!'],
      [{ country: '999999' }, '请选择企业地区!', 'Please choose the region!'],
      [{ contacts: ' ' }, '请输入联系人!', 'Please enter the contact person!'],
      [{ position: 'null' }, '请输入职位!', 'Please enter the position!'],
      [{ mobile: '12712340002' }, '请输入正确手机号', 'Please enter a valid mobile number'],
    ];
    for (const [over, zh, en] of cases) {
      const res = await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: '123456', ...over }) });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().message).toBe(zh);
      const eng = await ctx.call({ url: `${COMPANY}?language=eng`, body: company(mobile, { smsCode: '1', ...over }) });
      expect(eng.json().message).toBe(en);
    }
    // Each says which rule it breaks (the tenant sets none: the registration rule, ADR 053).
    const weak: [string, string][] = [
      ['Ab1!', '密码长度至少8位'],
      ['abcdefgh1!', '密码须同时包含数字、小写字母、大写字母和特殊符号'],
      ['Qwer5678!x', '密码不能包含键盘或字母顺序的连续字符（如 1234、qwer、abcd）'],
      [`A!${mobile}a`, '密码不能包含用户名'],
    ];
    for (const [password, message] of weak) {
      const res = await ctx.call({
        url: COMPANY,
        body: company(mobile, { smsCode: '1', password: ctx.encrypt(password) }),
      });
      expect(res.json().message, password).toBe(message);
    }
    const missingCode = await ctx.call({ url: COMPANY, body: company(mobile) });
    expect(missingCode.json().message).toBe('请输入验证码');
    expect(await count(sql`SELECT count(*) AS n FROM users WHERE mobile = ${mobile}`)).toBe(0);
  });

  it('refuses a wrong code, then takes the right one', async () => {
    const mobile = '13712340003';
    const code = await smsCode(mobile);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const res = await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: wrong }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('短信验证码错误或已失效，请重新获取');
    expect((await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: code }) })).statusCode).toBe(200);
  });

  it('says what is taken: company and username before the code is spent, the mobile only after it', async () => {
    const mobile = '13712340004';
    const code = await smsCode(mobile);
    const taken = await ctx.call({
      url: COMPANY,
      body: company(mobile, { smsCode: code, companyName: '星河科技有限公司' }),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('该公司已注册，请联系贵司管理员加入');
    const name = await ctx.call({
      url: MEMBER,
      body: { tenantCode: 'demo', username: 'MEMBER', password: ctx.encrypt(PASSWORD), mobile, smsCode: code },
    });
    expect(name.json().message).toBe('该用户名已被注册');
    // A registered number: said only to whoever has the phone's code (a guess gets the code refusal).
    const guess = await ctx.call({
      url: MEMBER,
      body: {
        tenantCode: 'demo',
        username: 'newbie',
        password: ctx.encrypt(PASSWORD),
        mobile: '13800000002',
        smsCode: '123456',
      },
    });
    expect(guess.json().message).toBe('短信验证码错误或已失效，请重新获取');
    const owner = await ctx.call({
      url: `${MEMBER}?language=eng`,
      body: {
        tenantCode: 'demo',
        username: 'newbie',
        password: ctx.encrypt(PASSWORD),
        mobile: '13800000002',
        smsCode: await smsCode('13800000002'),
      },
    });
    expect(owner.statusCode).toBe(409);
    expect(owner.json().message).toBe('This mobile number is already registered');
    // The first code still works: nothing above spent it.
    expect((await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: code }) })).statusCode).toBe(200);
  });

  it("keeps mobile numbers for their owners: a member may not take someone else's as a name", async () => {
    const res = await ctx.call({
      url: MEMBER,
      body: { username: '13712340099', password: ctx.encrypt(PASSWORD), mobile: '13712340098', smsCode: '123456' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('用户名不能是他人的手机号');
    const check = await ctx.app.inject({ url: '/sys/user/checkOnlyUser?username=13800000099' });
    expect(check.json().data).toEqual({ available: false });
  });

  it('leaves nothing behind when the transaction fails midway', async () => {
    const mobile = '13712340005';
    await ctx.db.execute(sql`
      CREATE FUNCTION fail_membership() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'interrupted'; END $$`);
    await ctx.db.execute(sql`
      CREATE TRIGGER fail_membership BEFORE INSERT ON enterprise_members FOR EACH ROW EXECUTE FUNCTION fail_membership()`);
    try {
      const res = await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: await smsCode(mobile) }) });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe('服务器错误');
    } finally {
      await ctx.db.execute(sql`DROP TRIGGER fail_membership ON enterprise_members`);
      await ctx.db.execute(sql`DROP FUNCTION fail_membership()`);
    }
    expect(await count(sql`SELECT count(*) AS n FROM users WHERE mobile = ${mobile}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM enterprises WHERE name = ${`测试科技${mobile}有限公司`}`)).toBe(0);
  });

  it('refuses a tenant that names no default role, and an unknown tenant', async () => {
    await ctx.db.execute(sql`INSERT INTO tenants (code, name) VALUES ('closed', '未开放园区')`);
    const mobile = '13712340006';
    const number = await captcha();
    await ctx.call({
      url: '/api/front/member/sendPhoneCode',
      body: { phone: mobile, type: 2, imageCode: '8888', number, tenantCode: 'closed' },
    });
    const out = await ctx.db.execute<{ body: string }>(sql`SELECT body FROM sms_outbox WHERE phone = ${mobile}`);
    const code = /验证码是(\d{6})/.exec(out.rows[0]!.body)![1]!;
    const res = await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: code, tenantCode: 'closed' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('该园区暂未开放注册，请联系园区管理员');
    const unknown = await ctx.call({ url: COMPANY, body: company(mobile, { smsCode: code, tenantCode: 'nope' }) });
    expect(unknown.json().message).toBe('租户不存在');
  });
});

describe('member registration', () => {
  it('registers with the SMS code and signs in with the username', async () => {
    const mobile = '13712340011';
    const res = await ctx.call({
      url: MEMBER,
      body: {
        tenantCode: 'demo',
        username: 'lihua',
        password: ctx.encrypt(PASSWORD),
        mobile,
        smsCode: await smsCode(mobile),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect(ctx.login('lihua', PASSWORD)).resolves.toMatch(/^ey/);
    expect(
      await count(
        sql`SELECT count(*) AS n FROM enterprise_members m JOIN users u ON u.id = m.user_id WHERE u.username = 'lihua'`,
      ),
    ).toBe(0);
  });

  it('registers an invited number, which is in the enterprise from its first sign-in', async () => {
    const mobile = '13712340014';
    const admin = await ctx.login('admin');
    const sent = await ctx.call({ url: '/api/front/ent/invitations', body: { mobile }, token: admin });
    expect(sent.statusCode, sent.body).toBe(200);
    const res = await ctx.call({
      url: MEMBER,
      body: {
        tenantCode: 'demo',
        username: 'hanmei',
        password: ctx.encrypt(PASSWORD),
        mobile,
        smsCode: await smsCode(mobile),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = await ctx.login('hanmei', PASSWORD);
    const info = (await ctx.call({ url: '/api/front/member/front/infoV2', token })).json().data;
    expect(info.groupName).toBe('星河科技有限公司');
  });

  it('with SMS verification off, takes a passed captcha as imgCode instead (single use)', async () => {
    const off = await createTestContext({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ registerWithoutSms: true }) });
    try {
      const body = (username: string, mobile: string, number: string) => ({
        tenantCode: 'demo',
        username,
        password: off.encrypt(PASSWORD),
        mobile,
        imgCode: '8888',
        number,
      });
      const number = await captcha(off);
      const res = await off.call({ url: MEMBER, body: body('nosms', '13712340012', number) });
      expect(res.statusCode, res.body).toBe(200);
      // The captcha proved a person, not the number: it stays unproven (ADR 023).
      const user = await off.db.execute(sql`SELECT verified_mobile FROM users WHERE username = 'nosms'`);
      expect(user.rows).toEqual([{ verified_mobile: null }]);
      const reused = await off.call({ url: MEMBER, body: body('nosms2', '13712340013', number) });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().message).toBe('验证码错误或已失效，请重新验证');
    } finally {
      await off.close();
    }
  });
});

describe('abuse limit', () => {
  it('counts registrations that reach the database per address: the 21st in an hour is refused', async () => {
    const body = {
      tenantCode: 'demo',
      username: 'member',
      password: ctx.encrypt(PASSWORD),
      mobile: '13712349999',
      smsCode: '1',
    };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: MEMBER,
        payload: body,
        remoteAddress: '10.7.7.7',
        headers: signRequest(ctx.secrets.signSecret, MEMBER, body),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 409)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('checkOnlyUser and the agreement', () => {
  it('tells whether a username is free, unsigned, within a rate limit', async () => {
    const free = await ctx.app.inject({ url: '/sys/user/checkOnlyUser?username=somebody-new&tenantCode=demo' });
    expect(free.json()).toMatchObject({ status: 200, data: { available: true } });
    const taken = await ctx.app.inject({ url: '/sys/user/checkOnlyUser?username=Member' });
    expect(taken.json().data).toEqual({ available: false });
    const bad = await ctx.app.inject({ url: '/sys/user/checkOnlyUser' });
    expect(bad.statusCode).toBe(400);
    let last = 200;
    for (let i = 0; i < 31 && last === 200; i++) {
      last = (await ctx.app.inject({ url: '/sys/user/checkOnlyUser?username=x', remoteAddress: '10.9.9.9' }))
        .statusCode;
    }
    expect(last).toBe(429);
  });

  it("answers the tenant's agreement as stored (sanitised), empty for a tenant without one", async () => {
    const res = await ctx.call({ url: '/api/front/registerContent/getInfoByTenantCode?tenantCode=demo' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.registerAgreement).toContain('<h3>演示园区企业服务平台用户注册协议</h3>');
    const none = await ctx.call({ url: '/api/front/registerContent/getInfoByTenantCode?tenantCode=closed' });
    expect(none.json().data).toEqual({ registerAgreement: '' });
  });
});
