/**
 * SMS codes as a second factor (ADR 051): sent by the sms module only to the person's proven
 * mobile, answered on the login's lockout, spent once, within the module's limits; step-up with an
 * SMS code or a passkey (the software authenticator of test/authenticator.ts); the recovery codes of
 * an authenticator enrolled during a sign-in.
 */
import { randomBytes } from 'node:crypto';
import { ResultCode } from '@portal/contracts';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, users } from '../../db/schema.js';
import { createAuthenticator } from '../../test/authenticator.js';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';
import { LOCKOUT } from '../auth/auth.service.js';

const ORIGIN = 'http://portal.test';
const ENV = { LOGIN_RATE_PER_MINUTE: '100000', PUBLIC_URL: ORIGIN };
const SMS_POLICY = {
  factorRequirement: 'everyone',
  allowedFactors: ['totp', 'webauthn', 'sms', 'recovery'],
  enrolGraceDays: 30,
};

let setup: TestContext;
/** An instance that read the policy allowing SMS codes (the policy is cached per instance). */
let ctx: TestContext;
let demoId: number;

const policy = (p: Record<string, unknown>) =>
  setup.db.update(tenants).set({ securityPolicy: p }).where(eq(tenants.id, demoId));

beforeAll(async () => {
  setup = await createTestContext(ENV);
  const [demo] = await setup.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'demo'));
  demoId = demo!.id;
  await policy(SMS_POLICY);
  ctx = await createTestContext(ENV, { databaseUrl: setup.url });
});
afterAll(async () => {
  await ctx?.close();
  await setup?.close();
});

let serial = 0;
/** A new member of the demo tenant; `mobile` proven unless `proven` is false. */
async function newMember(mobile: string | null, proven = true): Promise<string> {
  const username = `s${randomBytes(5).toString('hex')}`;
  const [template] = await ctx.db.select().from(users).where(eq(users.username, 'member'));
  await ctx.db.insert(users).values({
    tenantId: template!.tenantId,
    username,
    passwordHash: template!.passwordHash,
    name: username,
    mobile,
    verifiedMobile: proven ? mobile : null,
  });
  return username;
}
const newMobile = () => `1391234${String(1000 + serial++).slice(-4)}`;

async function passwordStep(c: TestContext, username: string) {
  const captchaKey = randomBytes(8).toString('hex');
  await c.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  return c.call({
    url: '/api/auth/jwt/front/token?tenantCode=demo',
    body: { username, password: c.encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey },
  });
}

async function outbox(phone?: string): Promise<string[]> {
  const res = await ctx.db.execute<{ body: string }>(
    phone
      ? sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id`
      : sql`SELECT body FROM sms_outbox ORDER BY id`,
  );
  return res.rows.map((r) => r.body);
}
const lastCode = async (phone: string) => /验证码是(\d{6})/.exec((await outbox(phone)).at(-1)!)![1]!;
/** Lets the next code be asked for now (as if the resend wait had passed). */
const pastCooldown = (phone: string) =>
  ctx.db.execute(sql`UPDATE sms_codes SET created_at = created_at - interval '10 minutes' WHERE phone = ${phone}`);

const sendFor = (c: TestContext, challenge: string) =>
  c.call({ url: '/api/auth/jwt/front/factor/sms', body: { challenge } });
const answer = (c: TestContext, body: Record<string, unknown>) => c.call({ url: '/api/auth/jwt/front/factor', body });

/** Signs in with the password and an SMS code: the portal token. */
async function signInWithSms(username: string, mobile: string): Promise<string> {
  const challenge = (await passwordStep(ctx, username)).json().data.challenge as string;
  await pastCooldown(mobile);
  expect((await sendFor(ctx, challenge)).json().status).toBe(200);
  const res = await answer(ctx, { challenge, kind: 'sms', code: await lastCode(mobile) });
  expect(res.json().status).toBe(200);
  return res.json().data as string;
}

describe('SMS codes as a factor', () => {
  it('counts a proven mobile as a factor, sends only to it, and signs in with its code once', async () => {
    const mobile = newMobile();
    const username = await newMember(mobile);
    const first = (await passwordStep(ctx, username)).json();
    expect(first.status).toBe(ResultCode.FACTOR_REQUIRED);
    // Required of everyone, and the proven mobile is a factor: no enrolment asked.
    expect(first.data).toMatchObject({ factors: ['sms'], enrol: false, mobile: `139****${mobile.slice(-4)}` });
    const before = (await outbox()).length;
    // The body names no number; one it carried anyway would be refused as an unknown key or ignored.
    const sent = await ctx.call({
      url: '/api/auth/jwt/front/factor/sms',
      body: { challenge: first.data.challenge, phone: '13700000000' },
    });
    expect([200, 400]).toContain(sent.json().status);
    if (sent.json().status === 400) expect((await sendFor(ctx, first.data.challenge)).json().status).toBe(200);
    expect(await outbox('13700000000')).toEqual([]);
    expect((await outbox()).length).toBe(before + 1);
    expect(await outbox(mobile)).toHaveLength(1);
    const code = await lastCode(mobile);
    const ok = await answer(ctx, { challenge: first.data.challenge, kind: 'sms', code });
    expect(ok.json().status).toBe(200);
    // Spent: the same code on a new sign-in is refused.
    const second = (await passwordStep(ctx, username)).json().data.challenge as string;
    const again = await answer(ctx, { challenge: second, kind: 'sms', code });
    expect(again.json()).toMatchObject({ status: ResultCode.LOGIN_FAILED, message: '验证码不正确或已使用' });
  });

  it('does not offer SMS to a person without a proven mobile', async () => {
    for (const username of [await newMember(null), await newMember(newMobile(), false)]) {
      const res = (await passwordStep(ctx, username)).json();
      expect(res.data).toMatchObject({ factors: [], enrol: true });
      expect(res.data).not.toHaveProperty('mobile');
      const send = await sendFor(ctx, res.data.challenge);
      expect(send.json().status).toBe(ResultCode.BAD_REQUEST);
    }
  });

  it('reserves a lockout attempt for every check, and checks none once locked', async () => {
    const mobile = newMobile();
    const username = await newMember(mobile);
    const challenge = (await passwordStep(ctx, username)).json().data.challenge as string;
    expect((await sendFor(ctx, challenge)).json().status).toBe(200);
    const right = await lastCode(mobile);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < LOCKOUT.threshold; i++) {
      const res = await answer(ctx, { challenge, kind: 'sms', code: wrong });
      expect(res.json().status).toBe(ResultCode.LOGIN_FAILED);
    }
    const [u] = await ctx.db.select().from(users).where(eq(users.username, username));
    expect(u!.failedLogins).toBe(LOCKOUT.threshold);
    expect(u!.lockedUntil).not.toBeNull();
    const attempts = async () =>
      Number(
        (
          await ctx.db.execute<{ n: number }>(
            sql`SELECT coalesce(sum(attempts), 0) AS n FROM sms_codes WHERE phone = ${mobile}`,
          )
        ).rows[0]!.n,
      );
    const checked = await attempts();
    // Locked: even the right code is not checked.
    const locked = await answer(ctx, { challenge, kind: 'sms', code: right });
    expect(locked.json().status).toBe(ResultCode.LOGIN_FAILED);
    expect(locked.json().message).not.toBe('验证码不正确或已使用');
    expect(await attempts()).toBe(checked);
  });

  it("answers the sms module's limits with 429 and a message, and a few sends per sign-in", async () => {
    const mobile = newMobile();
    const username = await newMember(mobile);
    const challenge = (await passwordStep(ctx, username)).json().data.challenge as string;
    expect((await sendFor(ctx, challenge)).json().status).toBe(200);
    const soon = (await sendFor(ctx, challenge)).json();
    expect(soon.status).toBe(ResultCode.TOO_MANY_REQUESTS);
    expect(soon.message).toMatch(/秒后再试/);
    await pastCooldown(mobile);
    expect((await sendFor(ctx, challenge)).json().status).toBe(200);
    await pastCooldown(mobile);
    // The cooldown refusal above counted as one of this sign-in's sends.
    const capped = (await sendFor(ctx, challenge)).json();
    expect(capped.status).toBe(ResultCode.TOO_MANY_REQUESTS);
    expect(capped.message).toBe('本次登录发送验证码次数过多，请重新登录');
  });

  it('steps up with an SMS code, and with a passkey', async () => {
    const mobile = newMobile();
    const username = await newMember(mobile);
    const token = await signInWithSms(username, mobile);
    const offered = (await ctx.call({ url: '/api/front/security/step-up', token })).json().data;
    expect(offered).toEqual({ factors: ['sms'], mobile: `139****${mobile.slice(-4)}` });
    await pastCooldown(mobile);
    expect((await ctx.call({ url: '/api/front/security/step-up/sms', token, body: {} })).json().status).toBe(200);
    const wrong = await ctx.call({ url: '/api/front/security/step-up', token, body: { kind: 'sms', code: '12345x' } });
    expect(wrong.json().status).toBe(ResultCode.LOGIN_FAILED);
    const [u] = await ctx.db.select().from(users).where(eq(users.username, username));
    expect(u!.failedLogins).toBe(1);
    const up = await ctx.call({
      url: '/api/front/security/step-up',
      token,
      body: { kind: 'sms', code: await lastCode(mobile) },
    });
    expect(up.json().status).toBe(200);

    // A passkey, enrolled now, answers a step-up through its own options.
    const device = createAuthenticator({ origin: ORIGIN, rpId: 'portal.test' });
    const options = (await ctx.call({ url: '/api/front/security/passkeys/options', body: {}, token })).json().data;
    const added = await ctx.call({
      url: '/api/front/security/passkeys',
      body: { name: 'Laptop', registration: device.create(options) },
      token,
    });
    expect(added.json().status).toBe(200);
    const asked = (await ctx.call({ url: '/api/front/security/step-up/passkey', body: {}, token })).json().data;
    expect(asked.challenge).toMatch(/^[\w-]{40,}$/);
    const assertion = device.get(asked.options);
    // Another session of the same person cannot answer it.
    const other = await signInWithSms(username, mobile);
    const stolen = await ctx.call({
      url: '/api/front/security/step-up',
      token: other,
      body: { kind: 'webauthn', challenge: asked.challenge, assertion },
    });
    expect(stolen.json().status).toBe(ResultCode.LOGIN_FAILED);
    // Nor is it a pending sign-in: the factor step's doors do not know it.
    expect((await answer(ctx, { challenge: asked.challenge, kind: 'webauthn', assertion })).json().status).toBe(
      ResultCode.LOGIN_FAILED,
    );
    expect(
      (await ctx.call({ url: '/api/auth/jwt/front/factor/passkey', body: { challenge: asked.challenge } })).json()
        .status,
    ).toBe(ResultCode.LOGIN_FAILED);
    const viaPasskey = await ctx.call({
      url: '/api/front/security/step-up',
      token,
      body: { kind: 'webauthn', challenge: asked.challenge, assertion },
    });
    expect(viaPasskey.json().status).toBe(200);
    // The challenge is spent.
    const replay = await ctx.call({
      url: '/api/front/security/step-up',
      token,
      body: { kind: 'webauthn', challenge: asked.challenge, assertion },
    });
    expect(replay.json().status).toBe(ResultCode.LOGIN_FAILED);
  });

  it('answers the recovery codes of an authenticator enrolled during the sign-in, then goes on', async () => {
    const username = await newMember(null);
    const challenge = (await passwordStep(ctx, username)).json().data.challenge as string;
    const start = await ctx.call({ url: '/api/auth/jwt/front/factor/enrol', body: { challenge, name: 'Phone' } });
    const { secret } = start.json().data as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6 }).generate();
    const confirmed = await ctx.call({ url: '/api/auth/jwt/front/factor/enrol/confirm', body: { challenge, code } });
    expect(confirmed.json().status).toBe(200);
    expect(confirmed.json().data.recoveryCodes).toHaveLength(10);
    // Once only.
    const twice = await ctx.call({ url: '/api/auth/jwt/front/factor/enrol/confirm', body: { challenge, code } });
    expect(twice.json().status).toBe(ResultCode.NOT_FOUND);
    const done = await answer(ctx, { challenge, kind: 'totp' });
    expect(done.json().status).toBe(200);
    expect(typeof done.json().data).toBe('string');
  });

  it('a sign-in opened before the person enrolled neither adds an authenticator nor goes on without one', async () => {
    const username = await newMember(null);
    const stale = (await passwordStep(ctx, username)).json().data.challenge as string;
    const challenge = (await passwordStep(ctx, username)).json().data.challenge as string;
    const start = await ctx.call({ url: '/api/auth/jwt/front/factor/enrol', body: { challenge, name: 'Phone' } });
    const { secret } = start.json().data as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6 }).generate();
    expect(
      (await ctx.call({ url: '/api/auth/jwt/front/factor/enrol/confirm', body: { challenge, code } })).json().status,
    ).toBe(200);
    // The other pending sign-in (whoever holds the password) is now one to answer with the factor.
    const again = await ctx.call({
      url: '/api/auth/jwt/front/factor/enrol',
      body: { challenge: stale, name: 'Thief' },
    });
    expect(again.json().status).toBe(ResultCode.LOGIN_FAILED);
    const later = await ctx.call({ url: '/api/auth/jwt/front/factor/later', body: { challenge: stale } });
    expect(later.json().status).toBe(ResultCode.LOGIN_FAILED);
    // `totp` without a code goes on only for the sign-in that enrolled.
    expect((await answer(ctx, { challenge: stale, kind: 'totp' })).json().status).toBe(ResultCode.LOGIN_FAILED);
    expect((await answer(ctx, { challenge, kind: 'totp' })).json().status).toBe(200);
    const kinds = await ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM user_factors WHERE user_id = (SELECT id FROM users WHERE username = ${username})`,
    );
    expect(kinds.rows[0]!.n).toBe(1);
  });

  it("answers the sign-on page's step with an SMS code: the SSO session's methods say sms", async () => {
    const mobile = newMobile();
    const username = await newMember(mobile);
    const captchaKey = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    const form = new URLSearchParams({
      username,
      password: ctx.encrypt(DEMO_PASSWORD),
      imgvercode: '8888',
      captchaKey,
      tenantCode: 'demo',
    });
    const step = (
      await ctx.app.inject({
        method: 'POST',
        url: '/cas/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        payload: form.toString(),
      })
    ).json() as { status: number; data: { challenge: string; factors: string[] } };
    expect(step).toMatchObject({ status: ResultCode.FACTOR_REQUIRED, data: { factors: ['sms'] } });
    const post = (url: string, payload: Record<string, unknown>) => ctx.app.inject({ method: 'POST', url, payload });
    expect((await post('/cas/login/factor/sms', { challenge: step.data.challenge })).json().status).toBe(200);
    const done = await post('/cas/login/factor', {
      challenge: step.data.challenge,
      kind: 'sms',
      code: await lastCode(mobile),
    });
    expect(done.json().status).toBe(200);
    expect(String(done.headers['set-cookie'])).toContain('CASTGC=');
    const [sso] = (
      await ctx.db.execute<{ methods: string[] }>(
        sql`SELECT methods FROM sso_sessions WHERE user_id = (SELECT id FROM users WHERE username = ${username})`,
      )
    ).rows;
    expect(sso!.methods).toEqual(['pwd', 'sms', 'mfa']);
  });

  it('refuses SMS codes where the policy does not allow them', async () => {
    const mobile = newMobile();
    const username = await newMember(mobile);
    await policy({ ...SMS_POLICY, allowedFactors: ['totp', 'recovery'] });
    const other = await createTestContext(ENV, { databaseUrl: setup.url });
    try {
      const res = (await passwordStep(other, username)).json();
      expect(res.data).toMatchObject({ factors: [], enrol: true });
      expect((await sendFor(other, res.data.challenge)).json().status).toBe(ResultCode.BAD_REQUEST);
      expect(await outbox(mobile)).toEqual([]);
      const refused = await answer(other, { challenge: res.data.challenge, kind: 'sms', code: '123456' });
      expect(refused.json().status).toBe(ResultCode.LOGIN_FAILED);
    } finally {
      await other.close();
      await policy(SMS_POLICY);
    }
  });
});
