import { randomBytes } from 'node:crypto';
import { ResultCode } from '@portal/contracts';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenants, users } from '../../db/schema.js';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';
import { LOCKOUT } from '../auth/auth.service.js';
import { REMEMBER_COOKIE } from '../../platform/remember-cookie.js';
import { sweep } from '../../platform/housekeeping.js';

// Many sign-ins from one address in a minute: more than the login's rate limit allows.
const ENV = { LOGIN_RATE_PER_MINUTE: '100000' };
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext(ENV);
});
afterAll(async () => ctx?.close());

/** The code an authenticator app shows for `secret`, `steps` steps from now. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), period: 30, digits: 6 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

/** The password step of the portal login, with the browser's cookie header. */
async function passwordStep(c: TestContext, username: string, cookie?: string) {
  const captchaKey = randomBytes(8).toString('hex');
  await c.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  return c.call({
    url: '/api/auth/jwt/front/token?tenantCode=demo',
    body: { username, password: c.encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey },
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

/** A new member of the demo tenant (the demo's own users stay as other tests expect them). */
async function newMember(): Promise<string> {
  const username = `f${randomBytes(5).toString('hex')}`;
  const [template] = await ctx.db.select().from(users).where(eq(users.username, 'member'));
  await ctx.db.insert(users).values({
    tenantId: template!.tenantId,
    username,
    passwordHash: template!.passwordHash,
    name: username,
  });
  return username;
}

/** Signs `username` in and enrols a TOTP authenticator: its secret and the recovery codes. */
async function enrolled(username: string) {
  const token = await ctx.login(username);
  const start = await ctx.call({ url: '/api/front/security/factors/totp', token, body: { name: 'Phone' } });
  expect(start.json().status).toBe(200);
  const { secret, uri, qr } = start.json().data as { secret: string; uri: string; qr: string };
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(qr).toMatch(/^data:image\/svg\+xml;base64,/);
  const confirm = await ctx.call({
    url: '/api/front/security/factors/totp/confirm',
    token,
    body: { code: codeOf(secret) },
  });
  expect(confirm.json().status).toBe(200);
  const codes = confirm.json().data.recoveryCodes as string[];
  expect(codes).toHaveLength(10);
  return { secret, codes, token };
}

async function answer(c: TestContext, body: Record<string, unknown>, cookie?: string) {
  return c.call({ url: '/api/auth/jwt/front/factor', body, ...(cookie ? { headers: { cookie } } : {}) });
}

describe('TOTP enrolment and the factor step of the portal login', () => {
  it('a person without a factor signs in in one step', async () => {
    const res = await passwordStep(ctx, await newMember());
    expect(res.json().status).toBe(200);
  });

  it('an enrolment is pending until its first right code, and the secret is never shown again', async () => {
    const username = await newMember();
    const token = await ctx.login(username);
    await ctx.call({ url: '/api/front/security/factors/totp', token, body: { name: 'Phone' } });
    // Pending: the login still has one step.
    expect((await passwordStep(ctx, username)).json().status).toBe(200);
    const wrong = await ctx.call({ url: '/api/front/security/factors/totp/confirm', token, body: { code: '000000' } });
    expect(wrong.json().status).toBe(ResultCode.LOGIN_FAILED);
    const list = await ctx.call({ url: '/api/front/security/factors', token });
    expect(list.json().data.factors).toEqual([]);
    expect(JSON.stringify(list.json())).not.toMatch(/secret/i);
  });

  it('asks for the factor, accepts the code once, and refuses its replay', async () => {
    const username = await newMember();
    const { secret, token } = await enrolled(username);
    const list = (await ctx.call({ url: '/api/front/security/factors', token })).json().data;
    expect(list.factors).toMatchObject([{ kind: 'totp', name: 'Phone' }]);
    expect(list.recoveryCodesLeft).toBe(10);

    const first = await passwordStep(ctx, username);
    expect(first.statusCode).toBe(403);
    const body = first.json();
    expect(body.status).toBe(ResultCode.FACTOR_REQUIRED);
    expect(body.data).toMatchObject({ factors: ['totp', 'recovery'], enrol: false, graceDaysLeft: null });
    // The enrolment's code (this step) was spent already: the next step's code signs in.
    const code = codeOf(secret, 1);
    const ok = await answer(ctx, { challenge: body.data.challenge, kind: 'totp', code });
    expect(ok.json().status).toBe(200);
    expect(typeof ok.json().data).toBe('string');
    // The challenge is spent.
    const again = await answer(ctx, { challenge: body.data.challenge, kind: 'totp', code });
    expect(again.json().status).toBe(ResultCode.LOGIN_FAILED);
    // The same code on a new sign-in: a replay, refused.
    const second = (await passwordStep(ctx, username)).json().data.challenge as string;
    const replay = await answer(ctx, { challenge: second, kind: 'totp', code });
    expect(replay.json().status).toBe(ResultCode.LOGIN_FAILED);
    expect(replay.json().message).toBe('验证码不正确或已使用');
  });

  it('accepts one step either side of the clock, not two', async () => {
    const username = await newMember();
    const { secret } = await enrolled(username);
    const challenge = async () => (await passwordStep(ctx, username)).json().data.challenge as string;
    expect(
      (await answer(ctx, { challenge: await challenge(), kind: 'totp', code: codeOf(secret, 2) })).json().status,
    ).toBe(ResultCode.LOGIN_FAILED);
    expect(
      (await answer(ctx, { challenge: await challenge(), kind: 'totp', code: codeOf(secret, -2) })).json().status,
    ).toBe(ResultCode.LOGIN_FAILED);
    expect(
      (await answer(ctx, { challenge: await challenge(), kind: 'totp', code: codeOf(secret, 1) })).json().status,
    ).toBe(200);
  });

  it('recovery codes are single-use, and regenerating replaces them', async () => {
    const username = await newMember();
    const { codes, token } = await enrolled(username);
    const challenge = async () => (await passwordStep(ctx, username)).json().data.challenge as string;
    const used = codes[0]!.toUpperCase();
    expect((await answer(ctx, { challenge: await challenge(), kind: 'recovery', code: used })).json().status).toBe(200);
    expect((await answer(ctx, { challenge: await challenge(), kind: 'recovery', code: used })).json().status).toBe(
      ResultCode.LOGIN_FAILED,
    );
    const fresh = await ctx.call({ url: '/api/front/security/recovery-codes', token, method: 'POST', body: {} });
    const next = fresh.json().data.recoveryCodes as string[];
    expect(next).toHaveLength(10);
    expect((await answer(ctx, { challenge: await challenge(), kind: 'recovery', code: codes[1]! })).json().status).toBe(
      ResultCode.LOGIN_FAILED,
    );
    expect((await answer(ctx, { challenge: await challenge(), kind: 'recovery', code: next[1]! })).json().status).toBe(
      200,
    );
  });

  it('removing the last factor makes the login one step again', async () => {
    const username = await newMember();
    const { token } = await enrolled(username);
    const list = (await ctx.call({ url: '/api/front/security/factors', token })).json().data;
    const del = await ctx.call({ url: `/api/front/security/factors/${list.factors[0].id}`, token, method: 'DELETE' });
    expect(del.json().status).toBe(200);
    expect((await passwordStep(ctx, username)).json().status).toBe(200);
    // The recovery codes went with it: a factor added later starts afresh.
    const codes = await ctx.db.execute(
      sql`SELECT count(*)::int AS n FROM recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.username = ${username}`,
    );
    expect(codes.rows[0]).toEqual({ n: 0 });
  });
});

describe('a challenge goes on once, where it began', () => {
  it('two right answers at once open one session; a portal challenge finishes no sign-on; none lives past 5 minutes', async () => {
    const username = await newMember();
    const { secret, codes } = await enrolled(username);
    const one = (await passwordStep(ctx, username)).json().data.challenge as string;
    const both = await Promise.all([
      answer(ctx, { challenge: one, kind: 'recovery', code: codes[1]! }),
      answer(ctx, { challenge: one, kind: 'recovery', code: codes[2]! }),
    ]);
    expect(both.map((r) => r.json().status).sort()).toEqual([200, ResultCode.LOGIN_FAILED]);
    const portal = (await passwordStep(ctx, username)).json().data.challenge as string;
    const atCas = await ctx.call({
      url: '/cas/login/factor',
      body: { challenge: portal, kind: 'totp', code: codeOf(secret, 1) },
      headers: { accept: 'application/json' },
    });
    expect(atCas.json().status).toBe(ResultCode.LOGIN_FAILED);
    expect(String(atCas.headers['set-cookie'] ?? '')).not.toContain('CASTGC=');
    const late = (await passwordStep(ctx, username)).json().data.challenge as string;
    await ctx.db.execute(
      sql`UPDATE login_challenges SET expires_at = now() - interval '1 second' WHERE completed_at IS NULL`,
    );
    const expired = await answer(ctx, { challenge: late, kind: 'recovery', code: codes[3]! });
    expect(expired.json().message).toBe('验证已过期，请重新登录');
    // Housekeeping deletes the pending sign-ins past their minutes, answered or not, and no other.
    const live = (await passwordStep(ctx, username)).json().data.challenge as string;
    const count = async () =>
      Number(
        (await ctx.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM login_challenges WHERE expires_at < now()`))
          .rows[0]!.n,
      );
    expect(await count()).toBeGreaterThan(0);
    await sweep(ctx.db);
    expect(await count()).toBe(0);
    expect((await answer(ctx, { challenge: live, kind: 'recovery', code: codes[3]! })).json().status).toBe(200);
  });
});

describe('the lockout, shared with the password', () => {
  it('50 parallel wrong codes against two instances check at most the threshold', async () => {
    const username = await newMember();
    const { secret } = await enrolled(username);
    const other = await createTestContext(ENV, { databaseUrl: ctx.url });
    try {
      // Ten pending sign-ins, five on each instance.
      const challenges: string[] = [];
      for (let i = 0; i < 10; i++)
        challenges.push((await passwordStep(i % 2 ? other : ctx, username)).json().data.challenge);
      const tries = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          answer(i % 2 ? other : ctx, { challenge: challenges[i % 10]!, kind: 'totp', code: '000000' }),
        ),
      );
      const messages = tries.map((r) => r.json().message as string);
      const checked = messages.filter((m) => m === '验证码不正确或已使用').length;
      const refused = messages.filter((m) => m.startsWith('错误次数过多')).length;
      expect(checked + refused).toBe(50);
      expect(checked).toBeLessThanOrEqual(LOCKOUT.threshold);
      expect(refused).toBeGreaterThanOrEqual(50 - LOCKOUT.threshold);
      // While locked, even the right code is not checked.
      const right = await answer(ctx, { challenge: challenges[0]!, kind: 'totp', code: codeOf(secret, 1) });
      expect(right.json().message).toMatch(/^错误次数过多/);
    } finally {
      await other.close();
    }
  });
});

describe('remember this browser', () => {
  it('skips the factor step, survives a restart, and ends when revoked', async () => {
    const username = await newMember();
    const { secret, codes } = await enrolled(username);
    const challenge = (await passwordStep(ctx, username)).json().data.challenge as string;
    const res = await answer(ctx, { challenge, kind: 'totp', code: codeOf(secret, 1), remember: true });
    expect(res.json().status).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(
      new RegExp(`^${REMEMBER_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`),
    );
    const cookie = setCookie.split(';')[0]!;
    expect((await passwordStep(ctx, username, cookie)).json().status).toBe(200);
    // Another instance (a restart) knows it too: it is in the database.
    const other = await createTestContext(ENV, { databaseUrl: ctx.url });
    try {
      expect((await passwordStep(other, username, cookie)).json().status).toBe(200);
    } finally {
      await other.close();
    }
    // Another person's sign-in in this browser is not skipped.
    const stranger = await newMember();
    await enrolled(stranger);
    expect((await passwordStep(ctx, stranger, cookie)).json().status).toBe(ResultCode.FACTOR_REQUIRED);
    const token = await ctx.login(username, DEMO_PASSWORD).catch(() => null);
    expect(token).toBeNull();
    const session = (
      await answer(ctx, {
        challenge: (await passwordStep(ctx, username)).json().data.challenge,
        kind: 'recovery',
        code: codes[0]!,
      })
    ).json().data as string;
    const revoke = await ctx.call({ url: '/api/front/security/remembered-browsers', token: session, method: 'DELETE' });
    expect(revoke.json().data.count).toBe(1);
    expect((await passwordStep(ctx, username, cookie)).json().status).toBe(ResultCode.FACTOR_REQUIRED);
  });
});

describe('policy', () => {
  it('"everyone" asks a person without a factor to enrol, within the grace days and after', async () => {
    const username = await newMember();
    const [demo] = await ctx.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'demo'));
    const policy = (p: Record<string, unknown>) =>
      ctx.db.update(tenants).set({ securityPolicy: p }).where(eq(tenants.id, demo!.id));
    const operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
    await policy({ factorRequirement: 'everyone', enrolGraceDays: 7 });
    try {
      // The policy is kept a minute per instance: a fresh instance reads it now.
      const other = await createTestContext(ENV, { databaseUrl: ctx.url });
      // What the console's 用户管理 shows of the person: the sign-in's own rule.
      const standing = async (name = username) =>
        (
          (await other.call({ url: `/api/admin/users?q=${name}`, token: operator })).json().data as {
            records: { username: string; secondFactor: unknown }[];
          }
        ).records.find((u) => u.username === name)!.secondFactor;
      try {
        // Not signed in since: the grace starts at the next sign-in.
        expect(await standing()).toEqual({ daysLeft: 7, over: false });
        const first = (await passwordStep(other, username)).json();
        expect(first.status).toBe(ResultCode.FACTOR_REQUIRED);
        expect(first.data).toMatchObject({ enrol: true, graceDaysLeft: 7, factors: [] });
        const later = await other.call({
          url: '/api/auth/jwt/front/factor/later',
          body: { challenge: first.data.challenge },
        });
        expect(later.json().status).toBe(200);
        // Grace over: only enrolling goes on.
        await ctx.db
          .update(users)
          .set({ factorDueSince: sql`now() - interval '8 days'` })
          .where(eq(users.username, username));
        expect(await standing()).toEqual({ daysLeft: 0, over: true });
        const second = (await passwordStep(other, username)).json();
        expect(second.data).toMatchObject({ enrol: true, graceDaysLeft: 0 });
        const refused = await other.call({
          url: '/api/auth/jwt/front/factor/later',
          body: { challenge: second.data.challenge },
        });
        expect(refused.json().status).toBe(ResultCode.LOGIN_FAILED);
        const start = await other.call({
          url: '/api/auth/jwt/front/factor/enrol',
          body: { challenge: second.data.challenge, name: 'Phone' },
        });
        const { secret } = start.json().data as { secret: string };
        // The first code confirms it (its recovery codes are shown), then the sign-in goes on.
        const confirmed = await other.call({
          url: '/api/auth/jwt/front/factor/enrol/confirm',
          body: { challenge: second.data.challenge, code: codeOf(secret) },
        });
        expect(confirmed.json().data.recoveryCodes).toHaveLength(10);
        const done = await answer(other, { challenge: second.data.challenge, kind: 'totp' });
        expect(done.json().status).toBe(200);
        expect(await standing()).toBeNull();
      } finally {
        await other.close();
      }
      // "operators": only those holding the operator permission (admin, not a member).
      await ctx.db
        .update(users)
        .set({ factorDueSince: sql`now() - interval '2 days'` })
        .where(eq(users.username, 'admin'));
      await policy({ factorRequirement: 'operators', enrolGraceDays: 7 });
      const third = await createTestContext(ENV, { databaseUrl: ctx.url });
      try {
        const list = (await third.call({ url: '/api/admin/users?limit=100', token: operator })).json().data as {
          records: { username: string; secondFactor: unknown }[];
        };
        const of = (name: string) => list.records.find((u) => u.username === name)?.secondFactor;
        expect(of('admin')).toEqual({ daysLeft: 5, over: false });
        expect(of('member')).toBeNull();
      } finally {
        await third.close();
      }
      // Where SMS codes are allowed, the admin's proven mobile is a factor, as at the sign-in.
      await policy({ factorRequirement: 'operators', enrolGraceDays: 7, allowedFactors: ['totp', 'sms'] });
      const fourth = await createTestContext(ENV, { databaseUrl: ctx.url });
      try {
        const list = (await fourth.call({ url: '/api/admin/users?q=admin', token: operator })).json().data as {
          records: { username: string; secondFactor: unknown }[];
        };
        expect(list.records.find((u) => u.username === 'admin')?.secondFactor).toBeNull();
      } finally {
        await fourth.close();
      }
    } finally {
      await ctx.db.update(users).set({ factorDueSince: null }).where(eq(users.username, 'admin'));
      await policy({});
    }
  });
});

describe('step-up', () => {
  it('is fresh right after a factor sign-in, and refreshed by proving a factor', async () => {
    const username = await newMember();
    const { secret, token: plain } = await enrolled(username);
    // The enrolment's session signed in with the password only: a wrong code is refused.
    const wrong = await ctx.call({
      url: '/api/front/security/step-up',
      token: plain,
      body: { kind: 'totp', code: '000000' },
    });
    expect(wrong.json().status).toBe(ResultCode.LOGIN_FAILED);
    const ok = await ctx.call({
      url: '/api/front/security/step-up',
      token: plain,
      body: { kind: 'totp', code: codeOf(secret, 1) },
    });
    expect(ok.json().status).toBe(200);
    const [row] = await ctx.db
      .execute<{ fresh: boolean }>(
        sql`SELECT factor_at > now() - interval '1 minute' AS fresh FROM sessions WHERE user_id = (SELECT id FROM users WHERE username = ${username}) AND factor_at IS NOT NULL`,
      )
      .then((r) => r.rows);
    expect(row?.fresh).toBe(true);
  });
});

describe('step-up on the sensitive operator routes', () => {
  it('asks (40309) past the window, not within it, and only operators learn it', async () => {
    // The admin has no factor: the sign-in's password counts for the step-up minutes…
    const token = (await passwordStep(ctx, 'admin')).json().data as string;
    const admin = await ctx.asRole(token, 'park_operator');
    const sensitive = () =>
      ctx.call({
        url: '/api/admin/users/987654321/password',
        token: admin,
        body: { password: ctx.encrypt('Xx@12345678') },
      });
    const age = (minutes: number) =>
      ctx.db.execute(
        sql`UPDATE sessions SET factor_at = now() - make_interval(mins => ${minutes}) WHERE factor_at IS NOT NULL AND revoked_at IS NULL`,
      );
    expect((await sensitive()).json().status).toBe(ResultCode.NOT_FOUND);
    // … and no longer past them (5 by default).
    await age(6);
    expect((await sensitive()).json().status).toBe(ResultCode.STEP_UP_REQUIRED);
    // A member (no operator) is refused as before: the permission comes first.
    const member = (await passwordStep(ctx, await newMember())).json().data as string;
    const asMember = await ctx.call({
      url: '/api/admin/users/987654321/password',
      token: member,
      body: { password: ctx.encrypt('Xx@12345678') },
    });
    expect(asMember.json().status).toBe(ResultCode.NO_PERMISSION);
    // Someone without a factor steps up with the password (a wrong one is refused).
    const wrong = await ctx.call({
      url: '/api/front/security/step-up',
      token: admin,
      body: { password: ctx.encrypt('nope') },
    });
    expect(wrong.json().status).toBe(ResultCode.LOGIN_FAILED);
    const up = await ctx.call({
      url: '/api/front/security/step-up',
      token: admin,
      body: { password: ctx.encrypt(DEMO_PASSWORD) },
    });
    expect(up.json().status).toBe(200);
    expect((await sensitive()).json().status).toBe(ResultCode.NOT_FOUND);
    // Past the tenant's step-up minutes (5 by default): asked again.
    await age(6);
    expect((await sensitive()).json().status).toBe(ResultCode.STEP_UP_REQUIRED);
    // The security policy and a user's factor reset are as sensitive (asked before the id is looked up).
    const policy = (await ctx.call({ url: '/api/admin/security-policy', token: admin })).json().data.policy;
    const put = await ctx.call({ url: '/api/admin/security-policy', token: admin, method: 'PUT', body: policy });
    expect(put.json().status).toBe(ResultCode.STEP_UP_REQUIRED);
    const reset = await ctx.call({ url: '/api/admin/users/987654321/factors/reset', token: admin, body: {} });
    expect(reset.json().status).toBe(ResultCode.STEP_UP_REQUIRED);
    // What comes to the same: a number the password reset goes to, a new user with a known
    // password and any role, a user's roles, a role's permissions, the SMS outbox (its live codes:
    // a password reset's, a second factor's, this very step-up's).
    const same = [
      await ctx.call({ url: '/api/admin/sms-outbox', token: admin }),
      await ctx.call({
        url: '/api/admin/users/987654321',
        token: admin,
        method: 'PATCH',
        body: { mobile: '13900000000' },
      }),
      await ctx.call({
        url: '/api/admin/users',
        token: admin,
        body: { username: 'stepup-new', name: 'New', password: ctx.encrypt('Xx@12345678'), roleIds: [] },
      }),
      await ctx.call({ url: '/api/admin/users/987654321/roles', token: admin, method: 'PUT', body: { roleIds: [] } }),
      await ctx.call({
        url: '/api/admin/roles/987654321/permissions',
        token: admin,
        method: 'PUT',
        body: { permissionIds: [] },
      }),
    ];
    expect(same.map((r) => r.json().status)).toEqual(Array(5).fill(ResultCode.STEP_UP_REQUIRED));
  });
});

describe('what a stolen session cannot do past the step-up minutes', () => {
  const age = (username: string, minutes: number) =>
    ctx.db.execute(
      sql`UPDATE sessions SET factor_at = now() - make_interval(mins => ${minutes})
          WHERE user_id = (SELECT id FROM users WHERE username = ${username}) AND revoked_at IS NULL`,
    );

  it('add an authenticator of its own, remove one, or make new recovery codes (40309 until a factor is proven)', async () => {
    const username = await newMember();
    const { secret, token } = await enrolled(username);
    const factorId = (await ctx.call({ url: '/api/front/security/factors', token })).json().data.factors[0]
      .id as string;
    await age(username, 6);
    const asked = [
      await ctx.call({ url: '/api/front/security/factors/totp', token, body: { name: 'Thief' } }),
      await ctx.call({ url: '/api/front/security/recovery-codes', token, body: {} }),
      await ctx.call({ url: `/api/front/security/factors/${factorId}`, token, method: 'DELETE' }),
    ];
    expect(asked.map((r) => r.json().status)).toEqual(Array(3).fill(ResultCode.STEP_UP_REQUIRED));
    // Nothing changed: the one authenticator, the same recovery codes.
    const list = (await ctx.call({ url: '/api/front/security/factors', token })).json().data;
    expect(list.factors).toHaveLength(1);
    expect(list.recoveryCodesLeft).toBe(10);
    // The person proves their factor: the change goes through.
    const up = await ctx.call({
      url: '/api/front/security/step-up',
      token,
      body: { kind: 'totp', code: codeOf(secret, 1) },
    });
    expect(up.json().status).toBe(200);
    const codes = await ctx.call({ url: '/api/front/security/recovery-codes', token, body: {} });
    expect(codes.json().status).toBe(200);
  });

  it('the password of a person without a factor: parallel wrong ones check at most the threshold', async () => {
    const username = await newMember();
    const token = await ctx.login(username);
    const tries = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.call({ url: '/api/front/security/step-up', token, body: { password: ctx.encrypt('Wrong#Pw1x') } }),
      ),
    );
    const messages = tries.map((r) => r.json().message as string);
    const refused = messages.filter((m) => m.startsWith('错误次数过多')).length;
    expect(20 - refused).toBeLessThanOrEqual(LOCKOUT.threshold);
    // The ones checked are told it was the password, not a code.
    expect(messages.filter((m) => m === '密码错误').length).toBe(20 - refused);
    // Locked: the right password is not checked either.
    const right = await ctx.call({
      url: '/api/front/security/step-up',
      token,
      body: { password: ctx.encrypt(DEMO_PASSWORD) },
    });
    expect(right.json().message).toMatch(/^错误次数过多/);
  });
});

describe('a policy without recovery codes', () => {
  it('neither offers nor accepts them, at the sign-in or the step-up', async () => {
    const username = await newMember();
    const { codes, token } = await enrolled(username);
    const [demo] = await ctx.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, 'demo'));
    await ctx.db
      .update(tenants)
      .set({ securityPolicy: { factorRequirement: 'optional', allowedFactors: ['totp'] } })
      .where(eq(tenants.id, demo!.id));
    // The policy is kept a minute per instance: a fresh instance reads it now.
    const other = await createTestContext(ENV, { databaseUrl: ctx.url });
    try {
      const step = (await passwordStep(other, username)).json();
      expect(step.data.factors).toEqual(['totp']);
      const refused = await answer(other, { challenge: step.data.challenge, kind: 'recovery', code: codes[0] });
      expect(refused.json().status).toBe(ResultCode.LOGIN_FAILED);
      const up = await other.call({
        url: '/api/front/security/step-up',
        token,
        body: { kind: 'recovery', code: codes[1] },
      });
      expect(up.json().status).toBe(ResultCode.LOGIN_FAILED);
      expect((await ctx.call({ url: '/api/front/security/factors', token })).json().data.recoveryCodesLeft).toBe(10);
      // A first authenticator added under it gets none: they would be shown and never taken.
      const newcomer = await other.login(await newMember());
      const start = await other.call({ url: '/api/front/security/factors/totp', token: newcomer, body: { name: 'P' } });
      const confirm = await other.call({
        url: '/api/front/security/factors/totp/confirm',
        token: newcomer,
        body: { code: codeOf(start.json().data.secret as string) },
      });
      expect(confirm.json()).toMatchObject({ status: 200, data: { recoveryCodes: null } });
    } finally {
      await other.close();
      await ctx.db.update(tenants).set({ securityPolicy: {} }).where(eq(tenants.id, demo!.id));
    }
  });
});
