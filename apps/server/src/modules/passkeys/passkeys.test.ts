/**
 * Passkeys against a software authenticator (test/authenticator.ts): the real WebAuthn verification
 * of @simplewebauthn/server sees what a browser would send. Enrolment, passwordless sign-in at the
 * portal and at the sign-on server, and the refusals: a replayed challenge, a counter that went
 * backwards, another tenant's credential, no user verification, a locked or disabled account.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../db/demo/seed.js';
import { hashPassword } from '../../platform/passwords.js';
import { createAuthenticator } from '../../test/authenticator.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

const ORIGIN = 'http://portal.test';
const SERVICE = `${ORIGIN}/center/login?redirect=%2Fent%2Fcolist`;

let ctx: TestContext;
let token: string;
const device = createAuthenticator({ origin: ORIGIN, rpId: 'portal.test' });

type Options = { challenge: string; user: { id: string; name: string }; rp: { id: string } };
const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;

async function enrol(as: string, name = 'Laptop') {
  const options = data<Options>(await ctx.call({ url: '/api/front/security/passkeys/options', body: {}, token: as }));
  const registration = device.create(options);
  return ctx.call({ url: '/api/front/security/passkeys', body: { name, registration }, token: as });
}

const signInOptions = async () =>
  data<{ challenge: string }>(await ctx.call({ url: '/api/auth/jwt/front/passkey/options', body: {} }));
const portalSignIn = (assertion: object, tenantCode = 'demo') =>
  ctx.call({ url: `/api/auth/jwt/front/passkey?tenantCode=${tenantCode}`, body: { assertion } });
const audits = async (action: string) =>
  Number(
    (await ctx.db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM audit_log WHERE action = ${action}`)).rows[0]!.n,
  );

type LoginRow = { username: string; outcome: string; via: string; factor: string | null; user: boolean };
/** The login history's newest row (every passwordless attempt writes one, factor `webauthn`). */
const lastEvent = async () =>
  (
    await ctx.db.execute<LoginRow>(
      sql`SELECT username, outcome, via, factor, user_id IS NOT NULL AS "user" FROM login_events ORDER BY at DESC, id DESC LIMIT 1`,
    )
  ).rows[0];

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: ORIGIN, LOGIN_RATE_PER_MINUTE: '1000' });
  token = await ctx.login('member');
});
afterAll(async () => ctx?.close());

describe('passkeys', () => {
  it('enrols a passkey for the signed-in person, with the RP ID and user handle it should have', async () => {
    const options = data<Options & { attestation: string; excludeCredentials: unknown[] }>(
      await ctx.call({ url: '/api/front/security/passkeys/options', body: {}, token }),
    );
    expect(options.rp.id).toBe('portal.test');
    expect(options.user.name).toBe('member');
    expect(options.attestation).toBe('none');
    const res = await ctx.call({
      url: '/api/front/security/passkeys',
      body: { name: 'MacBook', registration: device.create(options) },
      token,
    });
    expect(res.json()).toMatchObject({ status: 200 });
    const list = data<{ name: string; passwordless: boolean; lastUsedAt: null }[]>(
      await ctx.call({ url: '/api/front/security/passkeys', token }),
    );
    expect(list).toEqual([expect.objectContaining({ name: 'MacBook', passwordless: true, lastUsedAt: null })]);
    // The challenge was spent: the same answer again adds nothing.
    const again = await ctx.call({
      url: '/api/front/security/passkeys',
      body: { name: 'Again', registration: device.create(options) },
      token,
    });
    expect(again.json()).toMatchObject({ status: 400 });
    device.credentials.pop();
    expect(await audits('passkey.enrol')).toBe(1);
  });

  it('refuses a credential made for another origin', async () => {
    const options = data<Options>(await ctx.call({ url: '/api/front/security/passkeys/options', body: {}, token }));
    const res = await ctx.call({
      url: '/api/front/security/passkeys',
      body: { name: 'Phish', registration: device.create(options, { origin: 'http://evil.test' }) },
      token,
    });
    expect(res.json()).toMatchObject({ status: 400 });
    device.credentials.pop();
  });

  it('signs in without a password: a portal token, audited, the factor proven', async () => {
    const options = await signInOptions();
    expect(options).not.toHaveProperty('allowCredentials.0');
    expect(options).toMatchObject({ userVerification: 'required', rpId: 'portal.test' });
    const assertion = device.get(options);
    const res = await portalSignIn(assertion);
    expect(res.json()).toMatchObject({ status: 200 });
    const passkeyToken = data<string>(res);
    const me = await ctx.call({ url: '/api/front/security/passkeys', token: passkeyToken });
    expect(data<{ lastUsedAt: string | null }[]>(me)[0]!.lastUsedAt).not.toBeNull();
    expect(await audits('login.passkey')).toBe(1);
    expect(await lastEvent()).toEqual({
      username: 'member',
      outcome: 'succeeded',
      via: 'portal',
      factor: 'webauthn',
      user: true,
    });
    const [session] = (
      await ctx.db.execute<{ factor: boolean }>(
        sql`SELECT factor_at IS NOT NULL AS factor FROM sessions ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    expect(session!.factor).toBe(true);

    // The same answer again: its challenge is spent (a failed attempt that names no one).
    expect((await portalSignIn(assertion)).json()).toMatchObject({ status: 40002 });
    expect(await lastEvent()).toEqual({
      username: '',
      outcome: 'wrong_factor',
      via: 'portal',
      factor: 'webauthn',
      user: false,
    });
  });

  it('refuses a counter that went backwards (a cloned authenticator), and no user verification', async () => {
    const credential = device.credentials[0]!;
    const ahead = credential.counter;
    expect(
      (await portalSignIn(device.get(await signInOptions(), credential, { counter: ahead - 1 }))).json(),
    ).toMatchObject({
      status: 40002,
    });
    expect(
      (
        await portalSignIn(device.get(await signInOptions(), credential, { counter: ahead + 5, userVerified: false }))
      ).json(),
    ).toMatchObject({ status: 40002 });
    expect(await lastEvent()).toMatchObject({ username: 'member', outcome: 'wrong_factor', user: true });
    // A right one still signs in (and clears the failures counted meanwhile).
    expect(
      (await portalSignIn(device.get(await signInOptions(), credential, { counter: ahead + 6 }))).json(),
    ).toMatchObject({
      status: 200,
    });
  });

  it("refuses a credential in another tenant's sign-in", async () => {
    const hash = await hashPassword(DEMO_PASSWORD);
    await ctx.db.transaction((tx) => insertDemo(tx, hash, { code: 'other', name: '另一园区' }));
    const res = await portalSignIn(device.get(await signInOptions()), 'other');
    expect(res.json()).toMatchObject({ status: 40002 });
  });

  it('reserves a lockout attempt before checking, and checks nothing while locked', async () => {
    await ctx.db.execute(
      sql`UPDATE users SET failed_logins = 4, last_failed_at = now() WHERE username = 'member' AND tenant_id = (SELECT id FROM tenants WHERE code = 'demo')`,
    );
    // A wrong signature (the answer is for another origin) is the fifth failure: locked.
    const wrong = await portalSignIn(device.get(await signInOptions(), undefined, { origin: 'http://evil.test' }));
    expect(wrong.json()).toMatchObject({ status: 40002 });
    const [row] = (
      await ctx.db.execute<{ locked: boolean }>(
        sql`SELECT locked_until > now() AS locked FROM users WHERE username = 'member' AND tenant_id = (SELECT id FROM tenants WHERE code = 'demo')`,
      )
    ).rows;
    expect(row!.locked).toBe(true);
    // Now even a right answer is refused, and the credential's counter is not touched.
    const before = device.credentials[0]!.counter;
    const right = await portalSignIn(device.get(await signInOptions()));
    expect(right.json()).toMatchObject({ status: 40002 });
    expect(await lastEvent()).toMatchObject({
      username: 'member',
      outcome: 'locked',
      via: 'portal',
      factor: 'webauthn',
    });
    device.credentials[0]!.counter = before;
    await ctx.db.execute(sql`UPDATE users SET failed_logins = 0, locked_until = NULL WHERE username = 'member'`);
  });

  it('signs in at the sign-on server: the SSO cookie, a ticket for the service, the methods it proved', async () => {
    const options = data<{ challenge: string }>(
      await ctx.app.inject({ method: 'POST', url: '/cas/login/passkey/options', payload: {} }),
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login/passkey',
      payload: { assertion: device.get(options), service: SERVICE, tenantCode: 'demo' },
      headers: { origin: ORIGIN },
    });
    expect(res.json()).toMatchObject({ status: 200 });
    expect(data<{ redirect: string }>(res).redirect).toMatch(/^http:\/\/portal\.test\/center\/login\?.*ticket=ST-/);
    expect(String(res.headers['set-cookie'])).toMatch(/CASTGC=TGC-/);
    const [s] = (
      await ctx.db.execute<{ methods: string[]; factor: boolean }>(
        sql`SELECT methods, factor_at IS NOT NULL AS factor FROM sso_sessions ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    expect(s).toEqual({ methods: ['hwk', 'mfa'], factor: true });
    expect(await audits('sso.login.passkey')).toBe(1);
    expect(await lastEvent()).toEqual({
      username: 'member',
      outcome: 'succeeded',
      via: 'cas',
      factor: 'webauthn',
      user: true,
    });

    // Sent by the OpenID Provider (the service is its interaction): the history names that door.
    const interaction = `${ORIGIN}/cas/oidc/demo/interaction/abc123`;
    const viaProvider = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login/passkey',
      payload: {
        assertion: device.get(
          data<{ challenge: string }>(
            await ctx.app.inject({ method: 'POST', url: '/cas/login/passkey/options', payload: {} }),
          ),
        ),
        service: interaction,
        tenantCode: 'demo',
      },
      headers: { origin: ORIGIN },
    });
    expect(data<{ redirect: string }>(viaProvider).redirect).toBe(interaction);
    expect(await lastEvent()).toMatchObject({ outcome: 'succeeded', via: 'oidc', factor: 'webauthn' });

    // From another site: refused before anything is checked.
    const foreign = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login/passkey',
      payload: { assertion: device.get(options), tenantCode: 'demo' },
      headers: { origin: 'http://evil.test' },
    });
    expect(foreign.statusCode).toBe(403);
  });

  it('honours a password someone else set, and a disabled account', async () => {
    await ctx.db.execute(sql`UPDATE users SET must_change_password = true WHERE username = 'member'`);
    const portal = await portalSignIn(device.get(await signInOptions()));
    // The portal session opens, but only for the change (ADR 033).
    const limited = data<string>(portal);
    expect((await ctx.call({ url: '/api/front/security/passkeys', token: limited })).json()).toMatchObject({
      status: 40305,
    });
    expect(await lastEvent()).toMatchObject({ outcome: 'password_change_required', via: 'portal', factor: 'webauthn' });
    const options = data<{ challenge: string }>(
      await ctx.app.inject({ method: 'POST', url: '/cas/login/passkey/options', payload: {} }),
    );
    const sso = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login/passkey',
      payload: { assertion: device.get(options), tenantCode: 'demo' },
    });
    expect(sso.json()).toMatchObject({ status: 40305 });
    expect(await lastEvent()).toMatchObject({ outcome: 'password_change_required', via: 'cas', factor: 'webauthn' });
    await ctx.db.execute(
      sql`UPDATE users SET must_change_password = false, disabled_at = now() WHERE username = 'member'`,
    );
    expect((await portalSignIn(device.get(await signInOptions()))).json()).toMatchObject({ status: 40304 });
    expect(await lastEvent()).toMatchObject({
      username: 'member',
      outcome: 'disabled',
      via: 'portal',
      factor: 'webauthn',
    });
    await ctx.db.execute(sql`UPDATE users SET disabled_at = NULL WHERE username = 'member'`);
  });

  it("renames and removes the person's own passkeys only", async () => {
    const adminToken = await ctx.login('admin');
    const mine = data<{ id: number }[]>(await ctx.call({ url: '/api/front/security/passkeys', token }))[0]!;
    const theirs = await ctx.call({
      method: 'PUT',
      url: `/api/front/security/passkeys/${mine.id}`,
      body: { name: 'x' },
      token: adminToken,
    });
    expect(theirs.json()).toMatchObject({ status: 404 });
    expect(
      (await ctx.call({ method: 'DELETE', url: `/api/front/security/passkeys/${mine.id}`, token: adminToken })).json(),
    ).toMatchObject({ status: 404 });
    const renamed = await ctx.call({
      method: 'PUT',
      url: `/api/front/security/passkeys/${mine.id}`,
      body: { name: '工作电脑' },
      token,
    });
    expect(renamed.json()).toMatchObject({ status: 200 });
    expect(data<{ name: string }[]>(await ctx.call({ url: '/api/front/security/passkeys', token }))[0]!.name).toBe(
      '工作电脑',
    );
    const second = await enrol(token, 'Phone');
    expect(second.json()).toMatchObject({ status: 200 });
    const removed = await ctx.call({ method: 'DELETE', url: `/api/front/security/passkeys/${mine.id}`, token });
    expect(removed.json()).toMatchObject({ status: 200 });
    expect(data<{ name: string }[]>(await ctx.call({ url: '/api/front/security/passkeys', token }))).toEqual([
      expect.objectContaining({ name: 'Phone' }),
    ]);
    // A removed passkey signs no one in.
    expect((await portalSignIn(device.get(await signInOptions(), device.credentials[0]))).json()).toMatchObject({
      status: 40002,
    });
  });

  it('serves the factor step (PasskeyFactor): options for the person, a check against the kept challenge', async () => {
    const [me] = (
      await ctx.db.execute<{ id: string; tenant: string }>(
        sql`SELECT u.id, u.tenant_id AS tenant FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE t.code = 'demo' AND u.username = 'member'`,
      )
    ).rows;
    const [userId, tenantId] = [Number(me!.id), Number(me!.tenant)];
    const { options, state } = await ctx.app.passkeyFactor.options(tenantId, userId);
    expect((options as { allowCredentials: unknown[] }).allowCredentials).toHaveLength(1);
    const answer = device.get(options as { challenge: string });
    expect(await ctx.app.passkeyFactor.verify(tenantId, userId, state, answer)).toBe(true);
    // The same answer again: the counter did not move on.
    expect(await ctx.app.passkeyFactor.verify(tenantId, userId, state, answer)).toBe(false);
    // Another person's check, or garbage: false, never a throw.
    expect(await ctx.app.passkeyFactor.verify(tenantId, userId + 1, state, device.get(options as never))).toBe(false);
    expect(await ctx.app.passkeyFactor.verify(tenantId, userId, state, { id: 1 })).toBe(false);
  });

  it("answers a password sign-in's factor step with the person's passkey, at the portal and the sign-on server", async () => {
    await ctx.db.execute(sql`UPDATE users SET locked_until = NULL, failed_logins = 0 WHERE username = 'member'`);
    const passwordStep = async () => {
      const captchaKey = randomBytes(8).toString('hex');
      await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
      const res = await ctx.call({
        url: '/api/auth/jwt/front/token?tenantCode=demo',
        body: { username: 'member', password: ctx.encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey },
      });
      const body = res.json() as { status: number; data: { challenge: string; factors: string[] } };
      expect(body.status).toBe(40308);
      expect(body.data.factors).toContain('webauthn');
      return body.data.challenge;
    };
    // The portal: options for the person's own passkeys, then the answer gives the token.
    const challenge = await passwordStep();
    const options = data<{ challenge: string; allowCredentials: unknown[] }>(
      await ctx.call({ url: '/api/auth/jwt/front/factor/passkey', body: { challenge } }),
    );
    expect(options.allowCredentials.length).toBeGreaterThan(0);
    const answer = await ctx.call({
      url: '/api/auth/jwt/front/factor',
      body: { challenge, kind: 'webauthn', assertion: device.get(options) },
    });
    expect(answer.json()).toMatchObject({ status: 200 });
    expect(await lastEvent()).toEqual({
      username: 'member',
      outcome: 'succeeded',
      via: 'portal',
      factor: 'webauthn',
      user: true,
    });
    // The sign-on page's step: the same, answered with the sign-on cookie.
    const captchaKey = randomBytes(8).toString('hex');
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
    const form = new URLSearchParams({
      username: 'member',
      password: ctx.encrypt(DEMO_PASSWORD),
      imgvercode: '8888',
      captchaKey,
      tenantCode: 'demo',
    });
    const cas = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: form.toString(),
    });
    const step = cas.json() as { status: number; data: { challenge: string } };
    expect(step.status).toBe(40308);
    const casOptions = (
      await ctx.app.inject({
        method: 'POST',
        url: '/cas/login/factor/passkey',
        payload: { challenge: step.data.challenge },
      })
    ).json() as { data: { challenge: string } };
    const done = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login/factor',
      payload: { challenge: step.data.challenge, kind: 'webauthn', assertion: device.get(casOptions.data) },
    });
    expect(done.json()).toMatchObject({ status: 200 });
    expect(String(done.headers['set-cookie'])).toContain('CASTGC=');
    expect(await lastEvent()).toEqual({
      username: 'member',
      outcome: 'succeeded',
      via: 'cas',
      factor: 'webauthn',
      user: true,
    });
  });

  it('adds or removes none past the step-up minutes: a stolen session cannot enrol its own passkey', async () => {
    const held = data<{ id: number }[]>(await ctx.call({ url: '/api/front/security/passkeys', token }));
    const setAge = (minutes: number) =>
      ctx.db.execute(
        sql`UPDATE sessions SET factor_at = now() - make_interval(mins => ${minutes}) WHERE revoked_at IS NULL`,
      );
    await setAge(6);
    try {
      const options = await ctx.call({ url: '/api/front/security/passkeys/options', body: {}, token });
      expect(options.json()).toMatchObject({ status: 40309 });
      const removed = await ctx.call({ method: 'DELETE', url: `/api/front/security/passkeys/${held[0]!.id}`, token });
      expect(removed.json()).toMatchObject({ status: 40309 });
      expect(data<unknown[]>(await ctx.call({ url: '/api/front/security/passkeys', token }))).toHaveLength(held.length);
    } finally {
      await setAge(0);
    }
  });

  it('the last passkey removed takes the recovery codes and remembered browsers with it', async () => {
    const tenant = sql`(SELECT id FROM tenants WHERE code = 'demo')`;
    const me = sql`(SELECT id FROM users WHERE username = 'member' AND tenant_id = ${tenant})`;
    await ctx.db.execute(
      sql`INSERT INTO recovery_codes (tenant_id, user_id, code_hash) VALUES (${tenant}, ${me}, ${randomBytes(16).toString('hex')})`,
    );
    await ctx.db
      .execute(sql`INSERT INTO remembered_browsers (tenant_id, user_id, token_hash, ip, user_agent, expires_at)
      VALUES (${tenant}, ${me}, ${randomBytes(16).toString('hex')}, '127.0.0.1', 'test', now() + interval '1 day')`);
    const left = async () =>
      (
        await ctx.db.execute<{ codes: number; browsers: number }>(sql`SELECT
          (SELECT count(*)::int FROM recovery_codes WHERE user_id = ${me}) AS codes,
          (SELECT count(*)::int FROM remembered_browsers WHERE user_id = ${me} AND revoked_at IS NULL) AS browsers`)
      ).rows[0]!;
    for (const name of ['Key A', 'Key B']) expect((await enrol(token, name)).json()).toMatchObject({ status: 200 });
    const held = data<{ id: number }[]>(await ctx.call({ url: '/api/front/security/passkeys', token }));
    expect(held.length).toBeGreaterThan(1);
    for (const [i, p] of held.entries()) {
      // Not the last one yet: what stood for the factors stays.
      if (i > 0) expect(await left()).toEqual({ codes: 1, browsers: 1 });
      const removed = await ctx.call({ method: 'DELETE', url: `/api/front/security/passkeys/${p.id}`, token });
      expect(removed.json()).toMatchObject({ status: 200 });
    }
    expect(await left()).toEqual({ codes: 0, browsers: 0 });
  });
});
